package binpack

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
	"pgregory.net/rapid"
)

// masterOptimum solves the full Gilmore–Gomory master of ty, with every
// feasible pattern as a column, by gonum's simplex: an oracle written apart
// from the column generation. In standard form a surplus column per type
// turns sum_p a_tp x_p >= d_t into an equality.
func masterOptimum(t *rapid.T, ty *itemTypes) float64 {
	m := len(ty.w)
	var pats [][]int
	a := make([]int, m)
	var rec func(k int, room int64)
	rec = func(k int, room int64) {
		if k == m {
			for _, n := range a {
				if n > 0 {
					pats = append(pats, append([]int(nil), a...))
					return
				}
			}
			return
		}
		for n := 0; n <= ty.dem[k] && int64(n)*ty.w[k] <= room; n++ {
			a[k] = n
			rec(k+1, room-int64(n)*ty.w[k])
		}
	}
	rec(0, ty.c)
	cols := len(pats) + m
	A := mat.NewDense(m, cols, nil)
	c := make([]float64, cols)
	for j, p := range pats {
		c[j] = 1
		for i, n := range p {
			A.Set(i, j, float64(n))
		}
	}
	for i := range m {
		A.Set(i, len(pats)+i, -1)
	}
	b := make([]float64, m)
	for i, d := range ty.dem {
		b[i] = float64(d)
	}
	opt, _, err := lp.Simplex(c, A, b, 1e-10, nil)
	if err != nil {
		t.Fatalf("gonum simplex on %d patterns: %v", len(pats), err)
	}
	return opt
}

// TestLPMatchesSimplexOracle: on random small cutting-stock masters, column
// generation run to LP optimality (exact pricing, capacities below
// scaledCapacity) reaches the objective value gonum's simplex finds on the
// full master, and its proven (Farley) bound equals it. The basis is then
// refactorised by LU: the fresh inverse must agree with the one updated
// pivot by pivot, and resuming from it must keep the optimum.
func TestLPMatchesSimplexOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.Int64Range(10, 120).Draw(t, "c")
		m := rapid.IntRange(1, 5).Draw(t, "types")
		ty := &itemTypes{c: c}
		for k := range m {
			// Distinct sizes in decreasing order, as newItemTypes makes them.
			hi := c
			if k > 0 {
				hi = ty.w[k-1] - 1
			}
			if hi < 1 {
				break
			}
			ty.w = append(ty.w, rapid.Int64Range(max(1, hi/4), hi).Draw(t, "w"))
			ty.dem = append(ty.dem, rapid.IntRange(1, 6).Draw(t, "d"))
		}
		want := masterOptimum(t, ty)

		far := time.Now().Add(10 * time.Second)
		never := func() bool { return false }
		res := lpBound(ty, nil, 0, far, never)
		if !res.exact {
			t.Fatalf("column generation did not reach LP optimality (bound %v, oracle %v)", res.bound, want)
		}
		primal := 0.0
		for _, x := range res.x {
			primal += x
		}
		if math.Abs(primal-want) > 1e-6 || math.Abs(res.bound-want) > 1e-6 {
			t.Fatalf("column generation: primal %v, bound %v; gonum simplex %v", primal, res.bound, want)
		}

		cg := res.cg
		updated := append([]float64(nil), cg.binv...)
		cg.refactor()
		for i, v := range cg.binv {
			if math.Abs(v-updated[i]) > 1e-7 {
				t.Fatalf("LU inverse %v differs from the updated inverse %v", cg.binv, updated)
			}
		}
		// B^-1 B = I for the basis columns.
		for i := range cg.m {
			for j, col := range cg.cols {
				s := 0.0
				for k, v := range col {
					s += cg.binv[i*cg.m+k] * v
				}
				if want := float64(b2i(i == j)); math.Abs(s-want) > 1e-9 {
					t.Fatalf("(B^-1 B)[%d][%d] = %v", i, j, s)
				}
			}
		}
		again := cg.run(0, far, never)
		primal = 0
		for _, x := range again.x {
			primal += x
		}
		if !again.exact || math.Abs(primal-want) > 1e-6 {
			t.Fatalf("after refactorisation: exact %v, primal %v; gonum simplex %v", again.exact, primal, want)
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
