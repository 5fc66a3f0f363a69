package routeplan

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestNeighboursAsRankedOneByOne: the neighbour lists, ranked once a place,
// are those of ranking every other site for each site on its own (the
// first k by rank, then index), on problems where many sites share a
// location and a window hull (with different windows inside it, or none).
func TestNeighboursAsRankedOneByOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		locs := rapid.IntRange(1, 6).Draw(t, "locations")
		p := &Problem{N: locs, Distance: make([]float64, locs*locs), Duration: make([]float64, locs*locs)}
		for i := range p.Distance {
			p.Distance[i] = float64(rapid.IntRange(0, 5).Draw(t, "distance"))
			p.Duration[i] = float64(rapid.IntRange(0, 5).Draw(t, "duration"))
		}
		windows := [][]Window{nil, {{0, 10}}, {{0, 4}, {6, 10}}, {{20, 30}}, {{5, 8}}}
		for range rapid.IntRange(1, 40).Draw(t, "sites") {
			p.Sites = append(p.Sites, Site{Location: rapid.IntRange(0, locs-1).Draw(t, "location"),
				Windows: rapid.SampledFrom(windows).Draw(t, "windows")})
		}
		k := rapid.IntRange(1, 12).Draw(t, "k")
		in := newInstance(p)
		got := newNeighbours(in, k, func() bool { return false })
		n := len(p.Sites)
		for u := range n {
			rank := func(v int) float64 {
				lu, lv := p.Sites[u].Location, p.Sites[v].Location
				d := in.legDist(lu, lv) + in.legDist(lv, lu) + in.legDur(lu, lv) + in.legDur(lv, lu)
				return d + windowGap(p.Sites[u].Windows, p.Sites[v].Windows)
			}
			var want []int
			for v := range n {
				if v != u {
					want = append(want, v)
				}
			}
			slices.SortStableFunc(want, func(a, b int) int {
				switch ra, rb := rank(a), rank(b); {
				case ra < rb:
					return -1
				case ra > rb:
					return 1
				}
				return 0
			})
			want = want[:min(k, len(want))]
			if g := got.of(u); !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
				t.Fatalf("site %d: neighbours %v; want %v", u, g, want)
			}
		}
	})
}
