package routeplan

import "sort"

// neighbours lists, for every site, the sites closest to it: moves are only
// tried between neighbours (granular neighbourhoods), which keeps the
// search near-linear in the number of sites.
type neighbours struct {
	list [][]int
}

func (nb *neighbours) of(u int) []int { return nb.list[u] }

// newNeighbours ranks sites by the travel time between them plus, when both
// have windows, the gap between the windows, so that close sites whose
// windows cannot follow one another rank low.
func newNeighbours(in *instance, k int) *neighbours {
	n := len(in.sites)
	if k > n-1 {
		k = n - 1
	}
	nb := &neighbours{list: make([][]int, n)}
	type cand struct {
		v int
		d float64
	}
	cs := make([]cand, 0, n)
	for u := 0; u < n; u++ {
		cs = cs[:0]
		lu := in.sites[u].Location
		for v := 0; v < n; v++ {
			if v == u {
				continue
			}
			lv := in.sites[v].Location
			d := in.legDist(lu, lv) + in.legDist(lv, lu) + in.legDur(lu, lv) + in.legDur(lv, lu)
			d += windowGap(in.sites[u].Windows, in.sites[v].Windows)
			cs = append(cs, cand{v, d})
		}
		sort.Slice(cs, func(a, b int) bool {
			if cs[a].d != cs[b].d {
				return cs[a].d < cs[b].d
			}
			return cs[a].v < cs[b].v
		})
		l := make([]int, k)
		for j := 0; j < k; j++ {
			l[j] = cs[j].v
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
