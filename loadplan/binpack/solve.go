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
	r := &solveRun{ctx: ctx, in: newInstance(p), seed: opts.Seed, budget: opts.MaxIterations,
		began: began, limit: limit, deadline: began.Add(limit)}
	r.res.Stats.Bounds.L1 = L1(p)
	r.res.Stats.Bounds.L2 = L2(p)
	if r.in.n == 0 {
		r.res.Optimal = true
		r.res.Stats.Elapsed = time.Since(began)
		return r.res, nil
	}
	ffd, bfd := r.greedy()
	r.lb = r.res.Stats.Bounds.LowerBound()

	// The search runs in slices: a short burst first, which settles most
	// easy instances before any LP is solved, then after the LP work the
	// rest of the time. With an iteration budget a slice is a share of
	// the budget instead of the time.
	r.s = newSearcher(r.in, opts.Seed, r.sliceOver)
	if r.in.d == 1 && len(r.best) > r.lb {
		r.search(began.Add(limit/10), limit/10)
	}
	if r.in.d == 1 && len(r.best) > r.lb && !r.stopped() {
		r.withLP(ffd, bfd)
	}
	if len(r.best) > r.lb && !r.outOfMoves() {
		r.search(r.deadline, limit)
	}
	return r.result(), nil
}

// solveRun is one Solve call: its input and limits, the best packing and
// lower bound so far, and the improvement search that runs in slices
// between the other phases.
type solveRun struct {
	ctx      context.Context
	in       *instance
	seed     uint64
	budget   int64 // Options.MaxIterations: 0 for none
	began    time.Time
	limit    time.Duration
	deadline time.Time

	res  Result // the bounds and statistics so far
	best [][]int
	lb   int

	s           *searcher
	searchEnd   time.Time // when the current slice of the search ends
	iterEnd     int64     // with a budget: the iteration the slice ends at
	searchGains int       // bins the search has removed so far
}

// stopped reports whether ctx or the time limit ends the call.
func (r *solveRun) stopped() bool { return r.ctx.Err() != nil || time.Now().After(r.deadline) }

// cancelled reports whether ctx has ended.
func (r *solveRun) cancelled() bool { return r.ctx.Err() != nil }

// sliceOver reports whether ctx or the end of the current search slice
// stops the search.
func (r *solveRun) sliceOver() bool {
	return r.ctx.Err() != nil || time.Now().After(r.searchEnd) || (r.budget > 0 && r.s.iter >= r.iterEnd)
}

// outOfMoves reports whether the search has used the iteration budget.
func (r *solveRun) outOfMoves() bool { return r.budget > 0 && r.s.iter >= r.budget }

// greedy sets the best packing to the best of the greedy ones: first fit
// and best fit decreasing, and the minimum bin slack packing for one
// dimension or the greedy packings by other size measures for several. It
// returns the first fit and best fit packings by size, whose bins seed the
// LP's patterns.
func (r *solveRun) greedy() (ffd, bfd [][]int) {
	in := r.in
	order := in.decreasing(in.w)
	ffd, bfd = in.firstFit(order), in.bestFit(order)
	r.res.Stats.FFD, r.res.Stats.BFD = len(ffd), len(bfd)
	r.best = ffd
	if len(bfd) < len(r.best) {
		r.best = bfd
	}
	if in.d == 1 {
		if m := in.minBinSlack(); len(m) < len(r.best) {
			r.best = m
		}
	}
	if in.d > 1 {
		// Several size measures suit different instance classes; each costs
		// one greedy pass.
		for _, key := range in.vectorKeys() {
			o := in.decreasing(key)
			for _, b := range [][][]int{in.firstFit(o), in.bestFit(o)} {
				if len(b) < len(r.best) {
					r.best = b
				}
			}
		}
	}
	return ffd, bfd
}

// search runs the improvement search until the time until, or for
// share/limit of the iteration budget, while the best packing is above
// the bound.
func (r *solveRun) search(until time.Time, share time.Duration) {
	r.searchEnd = until
	if r.budget > 0 {
		r.searchEnd = r.deadline
		r.iterEnd = min(r.budget, r.s.iter+max(1, int64(float64(r.budget)*float64(share)/float64(r.limit))))
	}
	for len(r.best) > r.lb {
		next := r.s.reduce(r.best)
		if next == nil {
			break
		}
		r.best = next
		r.searchGains++
	}
}

// withLP computes the Gilmore–Gomory LP bound of a one-dimensional
// problem, rounds its solution into packings and, while the best packing
// is above the bound, dives from the LP optimum.
func (r *solveRun) withLP(ffd, bfd [][]int) {
	t := newItemTypes(r.in)
	lp := lpBound(t, t.patterns(ffd, bfd, r.best), len(r.best), r.deadline, r.cancelled)
	if lp.bound > 0 {
		r.res.Stats.Bounds.LPValue = lp.bound
		r.res.Stats.Bounds.LP = int(math.Ceil(lp.bound - boundSlack))
		r.res.Stats.Bounds.LPExact = lp.exact
	}
	r.lb = r.res.Stats.Bounds.LowerBound()
	if len(r.best) > r.lb {
		for _, p := range roundLP(r.in, t, lp) {
			if len(p) < len(r.best) {
				r.best = p
			}
		}
	}
	if len(r.best) > r.lb && len(lp.patterns) > 0 {
		r.dives(t, lp)
	}
}

// dives dives from the LP optimum once deterministically, then lets search
// slices and randomised dives take turns: some instances yield to one,
// some to the other. A dive stops as soon as it cannot beat the best
// packing.
func (r *solveRun) dives(t *itemTypes, lp lpResult) {
	if !lp.exact {
		// The bound computation stops once the integer bound is
		// proven; diving wants the LP optimum, so it resumes.
		lp = lp.cg.run(0, r.deadline, r.cancelled)
		if lp.bound > r.res.Stats.Bounds.LPValue {
			r.res.Stats.Bounds.LPValue = lp.bound
			r.res.Stats.Bounds.LP = int(math.Ceil(lp.bound - boundSlack))
			r.lb = r.res.Stats.Bounds.LowerBound()
		}
		r.res.Stats.Bounds.LPExact = r.res.Stats.Bounds.LPExact || lp.exact
	}
	if p := dive(r.in, t, lp, len(r.best), nil, r.deadline, r.cancelled); p != nil && len(p) < len(r.best) {
		r.best = p
	}
	rng := rand.New(rand.NewPCG(r.seed, 0x5851f42d4c957f2d))
	for round := 0; len(r.best) > r.lb && !r.stopped() && !r.outOfMoves(); round++ {
		if r.budget > 0 && round >= maxBudgetRounds {
			break // a search that cannot move must not leave the dives looping
		}
		// Time goes where it pays: a search that has not removed a
		// single bin so far gets short slices, leaving the dives
		// most of the time.
		share := r.limit / 10
		if r.searchGains == 0 {
			share = r.limit / 40
		}
		slice := time.Now().Add(share)
		if slice.After(r.deadline) {
			slice = r.deadline
		}
		r.search(slice, share)
		if len(r.best) <= r.lb || r.stopped() {
			break
		}
		if p := dive(r.in, t, lp, len(r.best), rng, r.deadline, r.cancelled); p != nil && len(p) < len(r.best) {
			r.best = p
		}
	}
}

// result returns the best packing, the bound and why the call stopped.
func (r *solveRun) result() Result {
	res := r.res
	res.Stats.Iterations = r.s.iter
	res.Bins = r.best
	res.LowerBound = r.lb
	res.Optimal = len(r.best) == r.lb
	switch {
	case res.Optimal:
		res.Stats.Stop = StopOptimal
	case r.ctx.Err() != nil:
		res.Stats.Stop = StopCancelled
	case r.budget > 0 && !time.Now().After(r.deadline):
		res.Stats.Stop = StopIterations
	default:
		res.Stats.Stop = StopTimeLimit
	}
	res.Stats.Elapsed = time.Since(r.began)
	return res
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
		out = append(out, in.completeBins(t, bins, next))
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
