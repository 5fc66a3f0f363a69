package binpack

// Tests written by an adversarial review of issue 4 (binpack): they pin the
// validity of the lower bounds where the other tests rarely reach (the LP
// bound, capacities above the exact knapsack's range) and the textbook
// order of the greedy packings.

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// r4Optimum is the least number of bins by exhaustive search (tiny
// one-dimensional problems only), written apart from the solver.
func r4Optimum(c int64, w []int64) int {
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

// TestReviewLPBoundNeverAboveOptimum runs column generation directly (Solve
// only reaches it when the greedy and search phases miss the L2 bound, which
// tiny problems seldom do) and checks its proven bound against the exhaustive
// optimum, also on sizes scaled past scaledCapacity, where the knapsack is
// solved on rounded sizes and its value must stay an upper bound.
func TestReviewLPBoundNeverAboveOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int64(rapid.IntRange(2, 60).Draw(t, "c"))
		n := rapid.IntRange(1, 10).Draw(t, "n")
		lo := rapid.Int64Range(1, c).Draw(t, "lo")
		w := make([]int64, n)
		for i := range w {
			w[i] = rapid.Int64Range(lo, c).Draw(t, "w")
		}
		opt := r4Optimum(c, w)
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
		far := time.Now().Add(10 * time.Second)
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

// TestReviewLPBoundOnLargeCapacity: seven items of 34 % of a bin need four
// bins (no three share one), which only the LP bound proves; with the
// capacity far above scaledCapacity the knapsack works on rounded sizes.
func TestReviewLPBoundOnLargeCapacity(t *testing.T) {
	for _, c := range []int64{100, 100_000, 1 << 40} {
		w := make([]int64, 7)
		for i := range w {
			w[i] = c/100*34 + 1
		}
		p := OneDim(c, w)
		res, err := Solve(context.Background(), p, Options{TimeLimit: 2 * time.Second})
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

// TestReviewGreedyOrder pins FFD and BFD to the textbook rules on an
// instance where they differ (computed by hand): decreasing 77, 69, 53,
// 26, 5 into bins of 100. FFD puts 26 with 69 and 5 with 77; BFD puts 5
// into the fullest bin that takes it, 69 + 26.
func TestReviewGreedyOrder(t *testing.T) {
	p := OneDim(100, []int64{77, 69, 5, 26, 53})
	ffd, err := FirstFitDecreasing(p)
	if err != nil {
		t.Fatal(err)
	}
	bfd, err := BestFitDecreasing(p)
	if err != nil {
		t.Fatal(err)
	}
	eq := func(a, b [][]int) bool {
		return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
	}
	if want := [][]int{{0, 2}, {1, 3}, {4}}; !eq(ffd, want) {
		t.Errorf("FFD %v, want %v", ffd, want)
	}
	if want := [][]int{{0}, {1, 3, 2}, {4}}; !eq(bfd, want) {
		t.Errorf("BFD %v, want %v", bfd, want)
	}
}

// TestReviewVectorBoundsPerDimension: in several dimensions L1 and L2 are
// the best over the dimensions, and a packing is checked in each.
func TestReviewVectorBoundsPerDimension(t *testing.T) {
	p := Problem{Capacity: []int64{10, 100}, Sizes: [][]int64{{1, 60}, {1, 60}, {1, 60}, {9, 1}}}
	if l1, l2 := L1(p), L2(p); l1 != 2 || l2 != 3 {
		t.Fatalf("L1 %d L2 %d, want 2 and 3 (three items above half of dimension 1)", l1, l2)
	}
	if err := Validate(p, [][]int{{0, 3}, {1}, {2}}); err != nil {
		t.Fatal(err)
	}
	if err := Validate(p, [][]int{{0, 1, 3}, {2}}); err == nil {
		t.Fatal("120 in a dimension of 100 accepted")
	}
	res, err := Solve(context.Background(), p, Options{})
	if err != nil || len(res.Bins) != 3 || !res.Optimal {
		t.Fatalf("got %+v, %v", res, err)
	}
}

// TestReviewBFDTiesToFirstBin: Best-Fit Decreasing breaks ties between
// equally full bins towards the bin opened first: 3 goes with the first 6.
func TestReviewBFDTiesToFirstBin(t *testing.T) {
	bfd, err := BestFitDecreasing(OneDim(10, []int64{6, 6, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 2}, {1}}; len(bfd) != 2 || !slices.Equal(bfd[0], want[0]) || !slices.Equal(bfd[1], want[1]) {
		t.Fatalf("BFD %v, want %v", bfd, want)
	}
}

// TestReviewKnapsackNeverUnderestimates: Farley's bound divides by the
// knapsack optimum, so the value the pricing returns must never be below
// the true optimum (exactly it when it says exact). Checked against
// enumeration, on capacities below and far above scaledCapacity.
func TestReviewKnapsackNeverUnderestimates(t *testing.T) {
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

// TestReviewLPIntegerBoundFromValue: on an instance where Solve computes
// the LP bound, the integer bound is the rounded-up proven value, no more,
// and no bound exceeds the packing.
func TestReviewLPIntegerBoundFromValue(t *testing.T) {
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
		t.Skip("the LP bound was not needed on this instance")
	}
	if b.LP != int(math.Ceil(b.LPValue-boundSlack)) || b.LP > len(res.Bins) || res.LowerBound > len(res.Bins) ||
		res.Optimal != (len(res.Bins) == res.LowerBound) {
		t.Fatalf("bounds %+v, lower bound %d, optimal %v with %d bins", b, res.LowerBound, res.Optimal, len(res.Bins))
	}
	if err := Validate(p, res.Bins); err != nil {
		t.Fatal(err)
	}
}
