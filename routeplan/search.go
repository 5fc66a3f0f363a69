package routeplan

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// search is one stream of Solve: what its phases share, the budget, the
// random source and the best solution so far.
type search struct {
	in       *instance
	nb       *neighbours
	rng      *rand.Rand
	sc       *scratch
	lim      *solveLimit
	start    time.Time // when this stream began
	deadline time.Time // when this stream's share of the time ends; zero without a time limit
	maxIter  int
	iter     int
	stopped  bool
	best     *state
	// unreached are the sites the construction had not come to when the
	// solve's time limit ended or its context was cancelled; they are
	// among best's unassigned sites.
	unreached []int
	// onImprove, when set, receives every new best solution.
	onImprove func(Progress, *state)
}

// solveLimit is when a Solve must end, and the clock it is read on: the
// context, and the time limit counted from the call.
type solveLimit struct {
	ctx   context.Context
	now   func() time.Time
	began time.Time // when Solve began, for Progress.Elapsed
	until time.Time // the end of the time limit; zero without one
}

// reached reports whether the solve must end: context cancelled or time
// limit reached.
func (l *solveLimit) reached() bool {
	select {
	case <-l.ctx.Done():
		return true
	default:
		return !l.until.IsZero() && l.now().After(l.until)
	}
}

// stop reports whether the search must end: context cancelled, time limit
// (the stream's share of it) reached or iterations spent. It is called
// often, inside the phases too, so that cancellation is honoured within
// milliseconds.
func (sr *search) stop() bool {
	if sr.stopped {
		return true
	}
	select {
	case <-sr.lim.ctx.Done():
		sr.stopped = true
	default:
		if !sr.deadline.IsZero() && sr.lim.now().After(sr.deadline) {
			sr.stopped = true
		}
		if sr.maxIter > 0 && sr.iter >= sr.maxIter {
			sr.stopped = true
		}
	}
	return sr.stopped
}

// progress is the fraction of the budget used, in [0, 1]: of the
// iterations when there is an iteration budget, so that the search's course
// (its annealing temperature, its phases) and hence its result do not
// depend on the machine's speed; of the time otherwise.
func (sr *search) progress() float64 {
	p := 1.0
	switch {
	case sr.maxIter > 0:
		p = float64(sr.iter) / float64(sr.maxIter)
	case !sr.deadline.IsZero():
		if span := sr.deadline.Sub(sr.start); span > 0 {
			p = float64(sr.lim.now().Sub(sr.start)) / float64(span)
		}
	}
	return math.Min(math.Max(p, 0), 1)
}

// offer makes st the best solution when it is better.
func (sr *search) offer(st *state) {
	if st.obj.less(sr.best.obj) {
		sr.best.copyFrom(st)
		sr.report()
	}
}

func (sr *search) report() {
	if sr.onImprove == nil {
		return
	}
	b := sr.best
	sr.onImprove(Progress{
		Elapsed: sr.lim.now().Sub(sr.lim.began), Iteration: sr.iter,
		Cost: b.totalCost(), Vehicles: len(b.routes), Trips: b.totalTrips(), Distance: b.totalDistance(),
		Unassigned: len(b.unassigned) + len(b.dropped), Feasible: len(b.unassigned) == 0,
	}, b)
}

// anneal runs ruin-and-recreate with simulated annealing from the best
// solution until the budget is spent; the temperature falls over the part of
// the budget left when it starts.
func (sr *search) anneal() {
	st := sr.best.clone()
	cand := newState(sr.in)
	lns := newRuinRecreate(sr.in, sr.nb, st.obj)
	p0 := sr.progress()
	for !sr.stop() {
		sr.iter++
		lns.step(cand, st, sr.rng, sr.sc, sr.stop)
		frac := 1.0
		if p0 < 1 {
			frac = (sr.progress() - p0) / (1 - p0)
		}
		if lns.accept(cand.obj, st.obj, sr.best.obj, math.Min(math.Max(frac, 0), 1), sr.rng) {
			st, cand = cand, st
		}
		sr.offer(st)
	}
}
