package binpack

import (
	"context"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// genProblem draws a small problem with 1 to 3 dimensions; sizes lean to
// the large end so that packings are tight and bounds matter.
func genProblem(t *rapid.T, maxItems int) Problem {
	d := rapid.IntRange(1, 3).Draw(t, "d")
	p := Problem{Capacity: make([]int64, d)}
	for k := range p.Capacity {
		p.Capacity[k] = int64(rapid.IntRange(1, 60).Draw(t, "cap"))
	}
	n := rapid.IntRange(0, maxItems).Draw(t, "n")
	for range n {
		s := make([]int64, d)
		for k := range s {
			s[k] = int64(rapid.IntRange(0, int(p.Capacity[k])).Draw(t, "size"))
		}
		p.Sizes = append(p.Sizes, s)
	}
	return p
}

// optimum finds the least number of bins by exhaustive search (tiny
// problems only): items in order, each into an open bin or a new one.
func optimum(p Problem) int {
	n, d := len(p.Sizes), len(p.Capacity)
	best := n
	var loads [][]int64
	var rec func(i int)
	rec = func(i int) {
		if len(loads) >= best {
			return
		}
		if i == n {
			best = len(loads)
			return
		}
		for b := range loads {
			ok := true
			for k := range d {
				if loads[b][k]+p.Sizes[i][k] > p.Capacity[k] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			for k := range d {
				loads[b][k] += p.Sizes[i][k]
			}
			rec(i + 1)
			for k := range d {
				loads[b][k] -= p.Sizes[i][k]
			}
		}
		loads = append(loads, append([]int64(nil), p.Sizes[i]...))
		rec(i + 1)
		loads = loads[:len(loads)-1]
	}
	rec(0)
	return best
}

func TestSolveProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t, 9)
		res, err := Solve(context.Background(), p, Options{TimeLimit: 50 * time.Millisecond, Seed: rapid.Uint64().Draw(t, "seed")})
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(p, res.Bins); err != nil {
			t.Fatalf("invalid packing %v: %v", res.Bins, err)
		}
		b := res.Stats.Bounds
		if b.L2 < b.L1 {
			t.Fatalf("L2 %d < L1 %d", b.L2, b.L1)
		}
		if b.LP != 0 && b.LP < b.L1 {
			t.Fatalf("LP %d < L1 %d", b.LP, b.L1)
		}
		if b.LPExact && b.LP < b.L2 {
			t.Fatalf("exact LP bound %d < L2 %d", b.LP, b.L2)
		}
		if res.LowerBound != b.LowerBound() {
			t.Fatalf("LowerBound %d, bounds %+v", res.LowerBound, b)
		}
		opt := optimum(p)
		if res.LowerBound > opt {
			t.Fatalf("lower bound %d above the optimum %d (bounds %+v)", res.LowerBound, opt, b)
		}
		if len(res.Bins) < opt {
			t.Fatalf("%d bins beat the optimum %d: the checker is wrong", len(res.Bins), opt)
		}
		if res.Optimal != (len(res.Bins) == res.LowerBound) {
			t.Fatalf("Optimal %v with %d bins and bound %d", res.Optimal, len(res.Bins), res.LowerBound)
		}
		for _, pack := range []func(Problem) ([][]int, error){FirstFitDecreasing, BestFitDecreasing} {
			bins, err := pack(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(p, bins); err != nil {
				t.Fatalf("greedy packing %v: %v", bins, err)
			}
			if len(bins) < opt {
				t.Fatalf("greedy %d bins beat the optimum %d", len(bins), opt)
			}
		}
	})
}

// TestSolveLargerProperties runs bigger one-dimensional problems, where the
// LP bound and the search do real work, against the same checks minus the
// exhaustive optimum.
func TestSolveLargerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int64(rapid.IntRange(10, 1000).Draw(t, "c"))
		n := rapid.IntRange(1, 80).Draw(t, "n")
		lo := rapid.Int64Range(1, c).Draw(t, "lo")
		w := make([]int64, n)
		for i := range w {
			w[i] = rapid.Int64Range(lo, c).Draw(t, "w")
		}
		p := OneDim(c, w)
		res, err := Solve(context.Background(), p, Options{TimeLimit: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(p, res.Bins); err != nil {
			t.Fatal(err)
		}
		b := res.Stats.Bounds
		if res.LowerBound > len(res.Bins) || b.L2 < b.L1 || (b.LP != 0 && b.LP < b.L1) || (b.LPExact && b.LP < b.L2) {
			t.Fatalf("bins %d, bounds %+v", len(res.Bins), b)
		}
		if res.Optimal != (len(res.Bins) == res.LowerBound) {
			t.Fatalf("Optimal %v with %d bins and bound %d", res.Optimal, len(res.Bins), res.LowerBound)
		}
	})
}
