package loadplan

import (
	"math/rand/v2"
	"testing"

	"github.com/haulplan/haulplan/loadplan/binpack"
	"pgregory.net/rapid"
)

// TestSpreadProperty: spread's bins hold every item once, each within its
// own capacity.
func TestSpreadProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 4).Draw(t, "d")
		prob := binpack.Problem{Capacity: rapid.SliceOfN(rapid.Int64Range(1, 100), d, d).Draw(t, "capacity")}
		for range rapid.IntRange(0, 30).Draw(t, "n") {
			s := make([]int64, d)
			for k := range s {
				s[k] = rapid.Int64Range(0, prob.Capacity[k]).Draw(t, "size")
			}
			prob.Sizes = append(prob.Sizes, s)
		}
		k := rapid.IntRange(0, 12).Draw(t, "k")
		var store []int
		if rapid.Bool().Draw(t, "stores") {
			store = rapid.SliceOfN(rapid.IntRange(0, 3), len(prob.Sizes), len(prob.Sizes)).Draw(t, "store")
		}
		var rng *rand.Rand
		if rapid.Bool().Draw(t, "random") {
			rng = rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		}
		caps := make([][]int64, k)
		for b := range caps {
			caps[b] = prob.Capacity
			if rapid.Bool().Draw(t, "smaller") {
				caps[b] = make([]int64, d)
				for j := range caps[b] {
					caps[b][j] = rapid.Int64Range(1, prob.Capacity[j]).Draw(t, "cap")
				}
			}
		}
		bins, ok := spread(prob, caps, store, rng, rapid.Bool().Draw(t, "tightest"))
		if !ok {
			return
		}
		// Each bin within its own capacity, every item once.
		seen := make([]int, len(prob.Sizes))
		for b, bin := range bins {
			load := make([]int64, d)
			for _, it := range bin {
				seen[it]++
				for j := range load {
					load[j] += prob.Sizes[it][j]
				}
			}
			for j := range load {
				if load[j] > caps[b][j] {
					t.Fatalf("bin %d holds %v, capacity %v", b, load, caps[b])
				}
			}
		}
		for it, n := range seen {
			if n != 1 {
				t.Fatalf("item %d in %d bins", it, n)
			}
		}
	})
}
