package binpack

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// DefaultTimeLimit is the time limit Solve uses when Options.TimeLimit is 0.
const DefaultTimeLimit = time.Second

// Options tunes Solve. The zero value means the documented defaults.
type Options struct {
	// TimeLimit bounds the whole call; 0 means DefaultTimeLimit. Solve
	// returns earlier when it proves its packing optimal.
	TimeLimit time.Duration
	// Seed drives the random choices of the improvement search. The same
	// problem, options and seed give the same packing unless the time limit
	// or the context cuts the search at a different point.
	Seed uint64
	// MaxIterations, when positive, bounds the moves of the improvement
	// search, and its time slices are counted in moves instead of time:
	// the packing then depends on the problem, the seed and this budget
	// alone, on any machine, as long as the time limit does not end the
	// call first.
	MaxIterations int64
}

// Stop says why Solve returned.
type Stop int

const (
	// StopOptimal means the packing meets the lower bound.
	StopOptimal Stop = iota
	// StopTimeLimit means the time limit ran out first.
	StopTimeLimit
	// StopCancelled means the context was cancelled or passed its deadline.
	StopCancelled
	// StopIterations means the iteration budget (Options.MaxIterations)
	// ran out first.
	StopIterations
)

// maxBudgetRounds bounds the rounds of search slices and dives under an
// iteration budget: 40 slices of a fortieth use the budget up.
const maxBudgetRounds = 64

// String returns "optimal", "time limit", "cancelled" or "iteration budget".
func (s Stop) String() string {
	switch s {
	case StopOptimal:
		return "optimal"
	case StopTimeLimit:
		return "time limit"
	case StopCancelled:
		return "cancelled"
	case StopIterations:
		return "iteration budget"
	}
	return "unknown"
}

// Result is a packing with its proof of quality.
type Result struct {
	// Bins lists, per bin, the indices of its items in Problem.Sizes.
	Bins [][]int
	// LowerBound is the best proven lower bound on the number of bins.
	LowerBound int
	// Optimal reports len(Bins) == LowerBound: no packing uses fewer bins.
	Optimal bool
	// Stats tells how the result was reached.
	Stats Stats
}

// Stats are the figures of one Solve call.
type Stats struct {
	// Bounds holds every lower bound computed.
	Bounds Bounds
	// FFD and BFD are the bin counts of the two greedy start packings.
	FFD, BFD int
	// Iterations counts the moves of the improvement search.
	Iterations int64
	// Elapsed is the wall time of the call.
	Elapsed time.Duration
	// Stop says why the call returned.
	Stop Stop
}

// Solve packs the items of p into as few bins as it can within the time limit
// and reports a lower bound; Result.Optimal is true only when the packing
// meets it. An invalid problem gives a constraints.Violations error listing
// every fault. When ctx is cancelled Solve returns the best packing found so
// far with Stats.Stop == StopCancelled and a nil error: the packing is valid
// even if it is not the best possible.
func Solve(ctx context.Context, p Problem, opts Options) (Result, error) {
	if err := p.Check(); err != nil {
		return Result{}, err
	}
	began := time.Now()
	limit := opts.TimeLimit
	if limit <= 0 {
		limit = DefaultTimeLimit
	}
	deadline := began.Add(limit)
	stopped := func() bool { return ctx.Err() != nil || time.Now().After(deadline) }

	in := newInstance(p)
	var res Result
	res.Stats.Bounds.L1 = L1(p)
	res.Stats.Bounds.L2 = L2(p)
	if in.n == 0 {
		res.Optimal = true
		res.Stats.Elapsed = time.Since(began)
		return res, nil
	}

	order := in.decreasing(in.w)
	ffd, bfd := in.firstFit(order), in.bestFit(order)
	res.Stats.FFD, res.Stats.BFD = len(ffd), len(bfd)
	best := ffd
	if len(bfd) < len(best) {
		best = bfd
	}
	if in.d == 1 {
		if m := in.minBinSlack(); len(m) < len(best) {
			best = m
		}
	}
	if in.d > 1 {
		// Several size measures suit different instance classes; each costs
		// one greedy pass.
		for _, key := range in.vectorKeys() {
			o := in.decreasing(key)
			for _, b := range [][][]int{in.firstFit(o), in.bestFit(o)} {
				if len(b) < len(best) {
					best = b
				}
			}
		}
	}
	lb := res.Stats.Bounds.LowerBound()

	// The search runs in slices: a short burst first, which settles most
	// easy instances before any LP is solved, then after the LP work the
	// rest of the time. With an iteration budget a slice is a share of
	// the budget instead of the time.
	searchEnd := deadline
	var iterEnd int64 // with MaxIterations: the iteration the slice ends at
	budget := opts.MaxIterations
	var s *searcher
	s = newSearcher(in, opts.Seed, func() bool {
		return ctx.Err() != nil || time.Now().After(searchEnd) || (budget > 0 && s.iter >= iterEnd)
	})
	outOfMoves := func() bool { return budget > 0 && s.iter >= budget }
	searchGains := 0
	// search runs the search until the time until, or for share/limit of
	// the iteration budget.
	search := func(until time.Time, share time.Duration) {
		searchEnd = until
		if budget > 0 {
			searchEnd = deadline
			iterEnd = min(budget, s.iter+max(1, int64(float64(budget)*float64(share)/float64(limit))))
		}
		for len(best) > lb {
			next := s.reduce(best)
			if next == nil {
				break
			}
			best = next
			searchGains++
		}
	}
	if in.d == 1 && len(best) > lb {
		search(began.Add(limit/10), limit/10)
	}

	if in.d == 1 && len(best) > lb && !stopped() {
		t := newItemTypes(in)
		lp := lpBound(t, t.patterns(ffd, bfd, best), len(best), deadline, func() bool { return ctx.Err() != nil })
		if lp.bound > 0 {
			res.Stats.Bounds.LPValue = lp.bound
			res.Stats.Bounds.LP = int(math.Ceil(lp.bound - boundSlack))
			res.Stats.Bounds.LPExact = lp.exact
		}
		lb = res.Stats.Bounds.LowerBound()
		if len(best) > lb {
			for _, r := range roundLP(in, t, lp) {
				if len(r) < len(best) {
					best = r
				}
			}
		}
		if len(best) > lb && len(lp.patterns) > 0 {
			// The LP optimum, then one deterministic dive.
			cancelled := func() bool { return ctx.Err() != nil }
			if !lp.exact {
				// The bound computation stops once the integer bound is
				// proven; diving wants the LP optimum, so it resumes.
				lp = lp.cg.run(0, deadline, cancelled)
				if lp.bound > res.Stats.Bounds.LPValue {
					res.Stats.Bounds.LPValue = lp.bound
					res.Stats.Bounds.LP = int(math.Ceil(lp.bound - boundSlack))
					lb = res.Stats.Bounds.LowerBound()
				}
				res.Stats.Bounds.LPExact = res.Stats.Bounds.LPExact || lp.exact
			}
			if r := dive(in, t, lp, len(best), nil, deadline, cancelled); r != nil && len(r) < len(best) {
				best = r
			}
			// Then search slices and randomised dives take turns: some
			// instances yield to one, some to the other. A dive stops as
			// soon as it cannot beat the best packing.
			rng := rand.New(rand.NewPCG(opts.Seed, 0x5851f42d4c957f2d))
			for round := 0; len(best) > lb && !stopped() && !outOfMoves(); round++ {
				if budget > 0 && round >= maxBudgetRounds {
					break // a search that cannot move must not leave the dives looping
				}
				// Time goes where it pays: a search that has not removed a
				// single bin so far gets short slices, leaving the dives
				// most of the time.
				share := limit / 10
				if searchGains == 0 {
					share = limit / 40
				}
				slice := time.Now().Add(share)
				if slice.After(deadline) {
					slice = deadline
				}
				search(slice, share)
				if len(best) <= lb || stopped() {
					break
				}
				if r := dive(in, t, lp, len(best), rng, deadline, cancelled); r != nil && len(r) < len(best) {
					best = r
				}
			}
		}
	}

	if len(best) > lb && !outOfMoves() {
		search(deadline, limit)
	}
	res.Stats.Iterations = s.iter

	res.Bins = best
	res.LowerBound = lb
	res.Optimal = len(best) == lb
	switch {
	case res.Optimal:
		res.Stats.Stop = StopOptimal
	case ctx.Err() != nil:
		res.Stats.Stop = StopCancelled
	case budget > 0 && !time.Now().After(deadline):
		res.Stats.Stop = StopIterations
	default:
		res.Stats.Stop = StopTimeLimit
	}
	res.Stats.Elapsed = time.Since(began)
	return res, nil
}

// vectorKeys returns alternative sort keys for the greedy packings of a
// vector problem: the largest relative size and the product-like sum of
// squared relative sizes, besides the plain sum in instance.w.
func (in *instance) vectorKeys() [][]float64 {
	maxKey := make([]float64, in.n)
	sqKey := make([]float64, in.n)
	for i := range in.n {
		for k, v := range in.item(i) {
			r := float64(v) / float64(in.cap[k])
			maxKey[i] = max(maxKey[i], r)
			sqKey[i] += r * r
		}
	}
	return [][]float64{maxKey, sqKey}
}

// roundLP turns the basic LP solution into packings: whole copies of the
// basic patterns (rounded down, or rounded up largest fraction first while
// items remain), the leftover items packed by first fit decreasing.
func roundLP(in *instance, t *itemTypes, lp lpResult) [][][]int {
	if len(lp.patterns) == 0 {
		return nil
	}
	var out [][][]int
	for _, up := range []bool{false, true} {
		left := slices.Clone(t.dem)
		next := make([]int, len(t.w)) // next unused item of each type
		var bins [][]int
		addPattern := func(p []int) {
			if bin := take(t, p, left, next); len(bin) > 0 {
				bins = append(bins, bin)
			}
		}
		idx := make([]int, len(lp.patterns))
		for i := range idx {
			idx[i] = i
		}
		frac := func(i int) float64 { return lp.x[i] - math.Floor(lp.x[i]+1e-9) }
		slices.SortStableFunc(idx, func(a, b int) int {
			fa, fb := frac(a), frac(b)
			if fa > fb {
				return -1
			}
			if fa < fb {
				return 1
			}
			return 0
		})
		for _, i := range idx {
			copies := int(math.Floor(lp.x[i] + 1e-9))
			if up && frac(i) > 1e-9 {
				copies++
			}
			for range copies {
				addPattern(lp.patterns[i])
			}
		}
		var rest []int
		for ty := range t.w {
			rest = append(rest, t.items[ty][next[ty]:]...)
		}
		// rest is already in decreasing size order, as the types are.
		bins = in.firstFitFrom(bins, rest)
		if len(t.zero) > 0 {
			if len(bins) == 0 {
				bins = append(bins, nil)
			}
			bins[0] = append(bins[0], t.zero...)
		}
		out = append(out, bins)
	}
	return out
}

// patterns turns packings into patterns: counts of items per type.
func (t *itemTypes) patterns(packings ...[][]int) [][]int {
	typeOf := map[int]int{}
	for ty, items := range t.items {
		for _, i := range items {
			typeOf[i] = ty
		}
	}
	var out [][]int
	for _, bins := range packings {
		for _, bin := range bins {
			p := make([]int, len(t.w))
			for _, i := range bin {
				if ty, ok := typeOf[i]; ok {
					p[ty]++
				}
			}
			out = append(out, p)
		}
	}
	return out
}
