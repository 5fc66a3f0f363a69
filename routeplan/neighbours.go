package routeplan

// neighbours lists, for every site, the sites closest to it: moves are only
// tried between neighbours (granular neighbourhoods), which keeps the
// search near-linear in the number of sites.
type neighbours struct {
	list [][]int
}

func (nb *neighbours) of(u int) []int { return nb.list[u] }

// placeKey is what a site's nearness to others depends on: its location
// and the hull of its windows (see windowGap). A store's orders of several
// temperature classes share one.
type placeKey struct {
	loc        int
	windowed   bool
	start, end float64
}

func keyOf(s *Site) placeKey {
	k := placeKey{loc: s.Location}
	if w := s.Windows; len(w) > 0 {
		k.windowed, k.start, k.end = true, w[0].Start, w[len(w)-1].End
	}
	return k
}

// newNeighbours ranks, for each site u, the other sites v by the travel
// time between them plus, when both have windows, the gap between the
// windows, so that close sites whose windows cannot follow one another
// rank low; equal ranks keep the lower index first. Sites of one place
// (placeKey) rank every other site alike, so the ranks are computed once
// a place: quadratic in the places, not the sites (a DC day has three
// sites a store). It still takes seconds on tens of thousands of places,
// so it asks stop before each place and returns nil when told to stop.
func newNeighbours(in *instance, k int, stop func() bool) *neighbours {
	n := len(in.sites)
	if k > n-1 {
		k = n - 1
	}
	nb := &neighbours{list: make([][]int, n)}
	if k <= 0 {
		return nb
	}
	// The places in order of their first site, and each site's place.
	var places []int // a site of each place
	place := make([]int, n)
	index := make(map[placeKey]int)
	for u := range in.sites {
		key := keyOf(&in.sites[u])
		g, ok := index[key]
		if !ok {
			g = len(places)
			index[key] = g
			places = append(places, u)
		}
		place[u] = g
	}
	// members lists each place's sites, in index order.
	members := make([][]int, len(places))
	for u, g := range place {
		members[g] = append(members[g], u)
	}

	// For each place, the k+1 first sites by (rank, index), the place's own
	// sites included: a site's list is that without itself, cut to k.
	// (Reloads aside: see below.)
	type cand struct {
		v int
		d float64
	}
	rank := make([]float64, len(places))
	top := make([]cand, 0, k+2)
	for g, u := range places {
		if stop() {
			return nil
		}
		lu := in.sites[u].Location
		for h, v := range places {
			lv := in.sites[v].Location
			d := in.legDist(lu, lv) + in.legDist(lv, lu) + in.legDur(lu, lv) + in.legDur(lv, lu)
			rank[h] = d + windowGap(in.sites[u].Windows, in.sites[v].Windows)
		}
		top = top[:0]
		// Reloads neighbour no site: a class's many share one place,
		// and would crowd out the sites near the depot. Their own lists
		// hold the sites nearest the depot, so a reload still moves.
		for v := 0; v < in.nSites; v++ {
			d := rank[place[v]]
			if len(top) == k+1 && d >= top[k].d {
				continue // ties keep the lower index, which came first
			}
			j := len(top)
			if j < k+1 {
				top = append(top, cand{})
			} else {
				j = k
			}
			for j > 0 && top[j-1].d > d {
				top[j] = top[j-1]
				j--
			}
			top[j] = cand{v, d}
		}
		for _, u := range members[g] {
			l := make([]int, 0, k)
			for _, c := range top {
				if c.v != u && len(l) < k {
					l = append(l, c.v)
				}
			}
			nb.list[u] = l
		}
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
