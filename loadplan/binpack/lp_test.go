package binpack

import (
	"context"
	"math"
	"math/rand/v2"
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
	// gonum's simplex may cycle on a degenerate basis, and with integral
	// demands many bases are degenerate. Demands raised by distinct
	// amounts below 1e-7 make every basis of this master nondegenerate,
	// while the optimum moves by at most their sum times the largest dual
	// (1, since each item alone is a pattern): below 5e-7, inside the
	// comparison's 1e-6.
	b := make([]float64, m)
	for i, d := range ty.dem {
		b[i] = float64(d) + 1e-7*(1-1/math.Sqrt(float64(i+2)))
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

		far := time.Now().Add(24 * time.Hour) // no deadline: the answer must not depend on the machine
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

// exhaustiveOptimum is the least number of bins by exhaustive search (tiny
// one-dimensional problems only), written apart from the solver.
func exhaustiveOptimum(c int64, w []int64) int {
	best := len(w)
	var loads []int64
	var rec func(i int)
	rec = func(i int) {
		if len(loads) >= best {
			return
		}
		if i == len(w) {
			best = len(loads)
			return
		}
		for b := range loads {
			if loads[b]+w[i] <= c {
				loads[b] += w[i]
				rec(i + 1)
				loads[b] -= w[i]
			}
		}
		loads = append(loads, w[i])
		rec(i + 1)
		loads = loads[:len(loads)-1]
	}
	rec(0)
	return best
}

// TestLPBoundNeverAboveOptimum runs column generation directly (Solve
// only reaches it when the greedy and search phases miss the L2 bound, which
// tiny problems seldom do) and checks its proven bound against the exhaustive
// optimum, also on sizes scaled past scaledCapacity, where the knapsack is
// solved on rounded sizes and its value must stay an upper bound.
func TestLPBoundNeverAboveOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int64(rapid.IntRange(2, 60).Draw(t, "c"))
		n := rapid.IntRange(1, 10).Draw(t, "n")
		lo := rapid.Int64Range(1, c).Draw(t, "lo")
		w := make([]int64, n)
		for i := range w {
			w[i] = rapid.Int64Range(lo, c).Draw(t, "w")
		}
		opt := exhaustiveOptimum(c, w)
		scale := rapid.SampledFrom([]int64{1, 97, 1009, 100003}).Draw(t, "scale")
		// Scaling keeps the optimum. So does taking less than scale/n off
		// each item: a bin's items then lose less than one scaled unit in
		// total. The jitter makes the rounded knapsack inexact.
		sc := make([]int64, n)
		for i := range w {
			sc[i] = w[i]*scale - rapid.Int64Range(0, (scale-1)/int64(n)).Draw(t, "jitter")
		}
		p := OneDim(c*scale, sc)
		in := newInstance(p)
		ty := newItemTypes(in)
		far := time.Now().Add(24 * time.Hour) // no deadline: the answer must not depend on the machine
		never := func() bool { return false }
		for _, target := range []int{0, opt + 1} {
			lp := lpBound(ty, nil, target, far, never)
			if got := int(math.Ceil(lp.bound - boundSlack)); got > opt {
				t.Fatalf("LP bound %v (integer %d) above the optimum %d (scale %d, target %d, exact %v)", lp.bound, got, opt, scale, target, lp.exact)
			}
			if target == 0 && lp.exact {
				var sum int64
				for _, v := range sc {
					sum += v
				}
				if lp.bound < float64(sum)/float64(c*scale)-1e-6 {
					t.Fatalf("exact LP %v below the continuous bound %v", lp.bound, float64(sum)/float64(c*scale))
				}
			}
			// The LP's roundings and a dive are packings: valid and no
			// better than the optimum.
			for _, bins := range roundLP(in, ty, lp) {
				if err := Validate(p, bins); err != nil || len(bins) < opt {
					t.Fatalf("rounded LP packing %v: %v (optimum %d)", bins, err, opt)
				}
			}
			if target == 0 {
				if bins := dive(in, ty, lp, n+1, nil, far, never); bins != nil {
					if err := Validate(p, bins); err != nil || len(bins) < opt {
						t.Fatalf("dive packing %v: %v (optimum %d)", bins, err, opt)
					}
				}
			}
		}
		res, err := Solve(context.Background(), p, Options{TimeLimit: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(p, res.Bins); err != nil {
			t.Fatal(err)
		}
		if res.LowerBound > opt || len(res.Bins) < opt || res.Optimal != (len(res.Bins) == res.LowerBound) {
			t.Fatalf("bins %d, bound %d (%+v), optimal %v; optimum %d", len(res.Bins), res.LowerBound, res.Stats.Bounds, res.Optimal, opt)
		}
	})
}

// TestLPBoundOnLargeCapacity: seven items of 34 % of a bin need four
// bins (no three share one), which only the LP bound proves; with the
// capacity far above scaledCapacity the knapsack works on rounded sizes.
func TestLPBoundOnLargeCapacity(t *testing.T) {
	for _, c := range []int64{100, 100_000, 1 << 40} {
		w := make([]int64, 7)
		for i := range w {
			w[i] = c/100*34 + 1
		}
		p := OneDim(c, w)
		// An iteration budget, not the time, ends the search before the
		// LP bound: a loaded machine does not skip the LP.
		res, err := Solve(context.Background(), p, Options{TimeLimit: time.Hour, MaxIterations: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(p, res.Bins); err != nil {
			t.Fatal(err)
		}
		if len(res.Bins) != 4 || res.LowerBound != 4 || !res.Optimal || res.Stats.Bounds.LP != 4 {
			t.Errorf("capacity %d: %d bins, bound %d (%+v), optimal %v; want 4 proven by the LP", c, len(res.Bins), res.LowerBound, res.Stats.Bounds, res.Optimal)
		}
	}
}

// TestKnapsackNeverUnderestimates: Farley's bound divides by the
// knapsack optimum, so the value the pricing returns must never be below
// the true optimum (exactly it when it says exact). Checked against
// enumeration, on capacities below and far above scaledCapacity.
func TestKnapsackNeverUnderestimates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom([]int64{97, 4999, 5001, 123457, 1 << 40}).Draw(t, "c")
		m := rapid.IntRange(1, 5).Draw(t, "types")
		ty := &itemTypes{c: c}
		for k := range m {
			// Distinct sizes in decreasing order, as newItemTypes makes them.
			lo := int64(1)
			hi := c
			if k > 0 {
				hi = ty.w[k-1] - 1
			}
			if hi < lo {
				break
			}
			ty.w = append(ty.w, rapid.Int64Range(max(lo, hi/3), hi).Draw(t, "w"))
			ty.dem = append(ty.dem, rapid.IntRange(1, 3).Draw(t, "d"))
		}
		v := make([]float64, len(ty.w))
		for i := range v {
			v[i] = rapid.Float64Range(0, 1).Draw(t, "v")
		}
		// Enumerate every pattern a_t <= min(d_t, c/w_t).
		best := 0.0
		a := make([]int, len(ty.w))
		var rec func(k int, room int64, val float64)
		rec = func(k int, room int64, val float64) {
			if k == len(ty.w) {
				best = max(best, val)
				return
			}
			for n := 0; n <= ty.dem[k] && int64(n)*ty.w[k] <= room; n++ {
				a[k] = n
				rec(k+1, room-int64(n)*ty.w[k], val+float64(n)*v[k])
			}
		}
		rec(0, c, 0)
		ks := newKnapsack(ty)
		z, pat, exact := ks.solve(v)
		if z < best-1e-9 {
			t.Fatalf("knapsack value %v below the optimum %v (capacity %d, exact %v)", z, best, c, exact)
		}
		if exact && math.Abs(z-best) > 1e-9 {
			t.Fatalf("exact knapsack value %v, optimum %v", z, best)
		}
		// The pattern it returns fits the bin and the demands.
		var load int64
		for k, n := range pat {
			if n < 0 || n > ty.dem[k] {
				t.Fatalf("pattern %v exceeds the demands %v", pat, ty.dem)
			}
			load += int64(n) * ty.w[k]
		}
		if load > c {
			t.Fatalf("pattern %v loads %d > %d", pat, load, c)
		}
	})
}

// TestLPIntegerBoundFromValue: on an instance where Solve computes
// the LP bound, the integer bound is the rounded-up proven value, no more,
// and no bound exceeds the packing.
func TestLPIntegerBoundFromValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	var w []int64
	for range 60 {
		w = append(w, int64(25000+rng.IntN(20000)))
	}
	p := OneDim(100000, w)
	res, err := Solve(context.Background(), p, Options{TimeLimit: time.Minute, MaxIterations: 300, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Stats.Bounds
	if b.LPValue == 0 {
		t.Fatal("Solve did not compute the LP bound on this instance, so the test checks nothing: choose one that needs it")
	}
	if b.LP != int(math.Ceil(b.LPValue-boundSlack)) || b.LP > len(res.Bins) || res.LowerBound > len(res.Bins) ||
		res.Optimal != (len(res.Bins) == res.LowerBound) {
		t.Fatalf("bounds %+v, lower bound %d, optimal %v with %d bins", b, res.LowerBound, res.Optimal, len(res.Bins))
	}
	if err := Validate(p, res.Bins); err != nil {
		t.Fatal(err)
	}
}
