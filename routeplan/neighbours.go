package routeplan

// neighbours lists, for every site, the sites closest to it: moves are only
// tried between neighbours (granular neighbourhoods), which keeps the
// search near-linear in the number of sites.
type neighbours struct {
	list [][]int
}

func (nb *neighbours) of(u int) []int { return nb.list[u] }

// newNeighbours ranks sites by the travel time between them plus, when both
// have windows, the gap between the windows, so that close sites whose
// windows cannot follow one another rank low. It takes time quadratic in
// the sites (seconds for tens of thousands), so it asks stop before each
// site and returns nil when told to stop.
func newNeighbours(in *instance, k int, stop func() bool) *neighbours {
	n := len(in.sites)
	if k > n-1 {
		k = n - 1
	}
	nb := &neighbours{list: make([][]int, n)}
	if k <= 0 {
		return nb
	}
	// Keep the k best in a sorted array: O(n² + n·k·inserts), far cheaper
	// than sorting n lists of n when n is in the thousands.
	type cand struct {
		v int
		d float64
	}
	top := make([]cand, 0, k+1)
	for u := 0; u < n; u++ {
		if stop() {
			return nil
		}
		top = top[:0]
		lu := in.sites[u].Location
		for v := 0; v < n; v++ {
			if v == u {
				continue
			}
			lv := in.sites[v].Location
			d := in.legDist(lu, lv) + in.legDist(lv, lu) + in.legDur(lu, lv) + in.legDur(lv, lu)
			d += windowGap(in.sites[u].Windows, in.sites[v].Windows)
			if len(top) == k && d >= top[k-1].d {
				continue // ties keep the lower index, which came first
			}
			j := len(top)
			if j < k {
				top = append(top, cand{})
			} else {
				j = k - 1
			}
			for j > 0 && top[j-1].d > d {
				top[j] = top[j-1]
				j--
			}
			top[j] = cand{v, d}
		}
		l := make([]int, len(top))
		for j, c := range top {
			l[j] = c.v
		}
		nb.list[u] = l
	}
	return nb
}

// windowGap is the time between the hulls of two window lists, 0 when they
// overlap or either is unrestricted.
func windowGap(a, b []Window) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	as, ae := a[0].Start, a[len(a)-1].End
	bs, be := b[0].Start, b[len(b)-1].End
	switch {
	case ae < bs:
		return bs - ae
	case be < as:
		return as - be
	}
	return 0
}
