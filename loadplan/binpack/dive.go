package binpack

import (
	"math"
	"math/rand/v2"
	"time"
)

// dive builds a packing by LP diving: starting from first, a solution of the
// Gilmore–Gomory LP (ideally optimal), take the LP of the items left, fix
// every pattern the LP uses at least once (or, when none is, one copy of
// the pattern it uses most), and repeat on the rest. For
// instances whose optimum equals the rounded-up LP bound, which is most of
// them, diving tends to find that optimum where greedy packings and local
// search stall. Patterns priced in one round seed the next, so later LPs are
// cheap. It returns nil if the deadline passes first.
//
// With rng nil the pattern rounded up is the one the LP uses most; otherwise
// it is drawn with probability proportional to its LP value, which makes
// repeated dives differ. A dive gives up (nil) as soon as the bins fixed
// plus the LP bound of the rest reach limit.
func dive(in *instance, t *itemTypes, first lpResult, limit int, rng *rand.Rand, deadline time.Time, stop func() bool) [][]int {
	dem := append([]int(nil), t.dem...)
	next := make([]int, len(t.w)) // next unused item of each type
	var bins [][]int
	var pool [][]int
	pool = append(pool, first.patterns...)
	pool = append(pool, first.generated...)
	lp := first
	for {
		if time.Now().After(deadline) || stop() {
			return nil
		}
		fixed := fixPatterns(t, lp, dem, next, rng)
		bins = append(bins, fixed...)
		sub, idx := residual(t, dem)
		if len(idx) == 0 {
			break
		}
		if len(fixed) == 0 {
			// Nothing to fix (an empty LP solution): finish greedily.
			break
		}
		lp = lpBound(sub, residualPatterns(pool, idx, dem), 0, deadline, stop)
		if len(bins)+int(math.Ceil(lp.bound-boundSlack)) >= limit {
			return nil
		}
		for _, g := range lp.generated {
			pool = append(pool, fullPattern(g, idx, len(t.w)))
		}
		// lp.patterns are over sub types; map them back.
		for p, sp := range lp.patterns {
			lp.patterns[p] = fullPattern(sp, idx, len(t.w))
		}
	}
	return in.completeBins(t, bins, next)
}

// fixPatterns takes from the items left the bins of the whole part of
// every LP value, or when that is none, of one copy of the pattern the LP
// uses most (with rng nil) or of one drawn in proportion to its LP value.
func fixPatterns(t *itemTypes, lp lpResult, dem, next []int, rng *rand.Rand) [][]int {
	var bins [][]int
	best, bestX := -1, 0.0
	for p, x := range lp.x {
		if x > bestX {
			best, bestX = p, x
		}
		for range int(math.Floor(x + 1e-6)) {
			if bin := take(t, lp.patterns[p], dem, next); bin != nil {
				bins = append(bins, bin)
			}
		}
	}
	if len(bins) > 0 || best < 0 {
		return bins
	}
	if rng != nil {
		sum := 0.0
		for _, x := range lp.x {
			sum += x
		}
		r := rng.Float64() * sum
		for p, x := range lp.x {
			if r -= x; r <= 0 {
				best = p
				break
			}
		}
	}
	if bin := take(t, lp.patterns[best], dem, next); bin != nil {
		bins = append(bins, bin)
	}
	return bins
}

// residual returns the item types with demand left, and for each of them
// its type in t.
func residual(t *itemTypes, dem []int) (*itemTypes, []int) {
	sub := &itemTypes{c: t.c}
	var idx []int
	for ty, d := range dem {
		if d > 0 {
			sub.w = append(sub.w, t.w[ty])
			sub.dem = append(sub.dem, d)
			idx = append(idx, ty)
		}
	}
	return sub, idx
}

// residualPatterns cuts the patterns of the pool down to the residual
// types idx and their demand left, dropping those left empty: the
// residual LP's starting columns.
func residualPatterns(pool [][]int, idx, dem []int) [][]int {
	var start [][]int
	for _, p := range pool {
		sp := make([]int, len(idx))
		any := false
		for j, ty := range idx {
			sp[j] = min(p[ty], dem[ty])
			any = any || sp[j] > 0
		}
		if any {
			start = append(start, sp)
		}
	}
	return start
}

// fullPattern maps a pattern over the residual types idx back to the n
// types.
func fullPattern(sp, idx []int, n int) []int {
	full := make([]int, n)
	for j, ty := range idx {
		full[ty] = sp[j]
	}
	return full
}

// completeBins packs the items not yet taken (next[ty] is the first of
// type ty) into bins by first fit, the types being in decreasing size
// order, and puts the items of size zero into the first bin.
func (in *instance) completeBins(t *itemTypes, bins [][]int, next []int) [][]int {
	var rest []int
	for ty := range t.w {
		rest = append(rest, t.items[ty][next[ty]:]...)
	}
	bins = in.firstFitFrom(bins, rest)
	if len(t.zero) > 0 {
		if len(bins) == 0 {
			bins = append(bins, nil)
		}
		bins[0] = append(bins[0], t.zero...)
	}
	return bins
}

// take makes a bin of pattern p (counts per type) from the items left and
// returns nil when none is left. A slot whose type is used up takes an item
// of the next smaller type that is left: the LP's dual-cut columns let a
// larger item stand in for a smaller one, so its patterns may ask for more
// large items than there are.
func take(t *itemTypes, p []int, dem, next []int) []int {
	var bin []int
	for ty, a := range p {
		for range a {
			sub := ty
			for sub < len(dem) && dem[sub] == 0 {
				sub++
			}
			if sub == len(dem) {
				break
			}
			bin = append(bin, t.items[sub][next[sub]])
			next[sub]++
			dem[sub]--
		}
	}
	return bin
}
