package binpack

import (
	"slices"
	"sort"
)

// Bounds are the lower bounds on the number of bins that Solve computes.
// Each is valid on its own; Result.LowerBound is their maximum.
type Bounds struct {
	// L1 is the continuous bound, max over dimensions of ceil(sum / capacity).
	L1 int
	// L2 is the Martello–Toth bound, taken in each dimension separately.
	L2 int
	// LP is ceil(z - 1e-6) for the Gilmore–Gomory LP bound z, proven by a
	// dual feasible solution (one dimension only; 0 when not computed).
	LP int
	// LPValue is z, the proven fractional LP bound behind LP.
	LPValue float64
	// LPExact reports that column generation ran to LP optimality, so
	// LPValue is the LP optimum itself rather than a weaker proven bound.
	LPExact bool
}

// LowerBound returns the best of the bounds.
func (b Bounds) LowerBound() int { return max(b.L1, b.L2, b.LP) }

// L1 returns the continuous lower bound: in every dimension the items need
// at least ceil(total size / capacity) bins. It returns 0 for a problem that
// fails Check.
func L1(p Problem) int {
	if p.Check() != nil {
		return 0
	}
	best := 0
	for k, c := range p.Capacity {
		var sum int64
		for _, s := range p.Sizes {
			sum += s[k]
		}
		best = max(best, int(ceilDiv(sum, c)))
	}
	if best == 0 && len(p.Sizes) > 0 {
		best = 1
	}
	return best
}

// L2 returns the Martello–Toth lower bound L2, computed in each dimension
// separately (a bound on any one dimension bounds the vector problem) and
// maximised over them. It returns 0 for a problem that fails Check.
func L2(p Problem) int {
	if p.Check() != nil {
		return 0
	}
	best := 0
	w := make([]int64, len(p.Sizes))
	for k, c := range p.Capacity {
		for i, s := range p.Sizes {
			w[i] = s[k]
		}
		best = max(best, l2(w, c))
	}
	if best == 0 && len(p.Sizes) > 0 {
		best = 1
	}
	return best
}

// l2 computes max over K in [0, c/2] of
//
//	|N1| + |N2| + max(0, ceil((w(N3) - (|N2| c - w(N2))) / c))
//
// with N1 = {w > c-K}, N2 = {c/2 < w <= c-K}, N3 = {K <= w <= c/2}: items of
// N1 and N2 each need a bin of their own, items of N1 leave no room for
// N3, and N3 must fit in the room N2 leaves or open new bins. Only K equal to
// 0 or to an item size can give the maximum. Sorted sizes and prefix sums
// keep it O(n log n).
func l2(weights []int64, c int64) int {
	w := slices.Clone(weights)
	slices.Sort(w)
	n := len(w)
	pre := make([]int64, n+1)
	for i, v := range w {
		pre[i+1] = pre[i] + v
	}
	// firstAbove returns the index of the first size > x.
	firstAbove := func(x int64) int { return sort.Search(n, func(i int) bool { return w[i] > x }) }
	firstAtLeast := func(x int64) int { return sort.Search(n, func(i int) bool { return w[i] >= x }) }
	half := firstAbove(c / 2) // first size with 2w > c
	best := 0
	try := func(K int64) {
		n1start := firstAbove(c - K)
		if n1start < half {
			n1start = half
		}
		n1 := n - n1start
		n2 := n1start - half
		sumN2 := pre[n1start] - pre[half]
		n3start := firstAtLeast(K)
		sumN3 := int64(0)
		if n3start < half {
			sumN3 = pre[half] - pre[n3start]
		}
		l := n1 + n2
		if extra := sumN3 - (int64(n2)*c - sumN2); extra > 0 {
			l += int(ceilDiv(extra, c))
		}
		best = max(best, l)
	}
	try(0)
	for i := 0; i < half; i++ {
		if w[i] > 0 && (i == 0 || w[i] != w[i-1]) {
			try(w[i])
		}
	}
	return best
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}
