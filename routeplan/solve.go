package routeplan

import (
	"context"
	"sort"
	"time"
)

// neighbourCount is the size of the granular neighbourhoods.
const neighbourCount = 30

// Solve plans routes for p. It returns an error only when p is invalid
// (a constraints.Violations error listing every problem), when ctx is
// cancelled before any construction has begun, or when a search stream
// panics (a *PanicError, errors.Is ErrInternal); otherwise it returns the
// best solution found when the search stops (time limit, iteration limit
// or cancellation).
//
// The time limit binds every part of the search, the first construction
// included: when it ends (or ctx is cancelled) during a construction, the
// routes built so far are kept and the sites not yet reached are
// unassigned with NotReached, and when it ends before any construction has
// begun, every servable site is. Past the limit, Solve only finishes the
// insertion or move under way and writes the solution out.
func Solve(ctx context.Context, p *Problem, opts Options) (*Solution, error) {
	return solve(ctx, p, opts, hooks{})
}

// hooks are seams for tests, all unset in Solve: a clock for the time
// limit, and a function called on a stream's goroutine as the stream
// starts (a test makes it panic, or records which streams started).
type hooks struct {
	now         func() time.Time
	streamStart func(stream int)
	// noReach turns the loading reach tests off (loading_reach.go): a
	// test demands the same solution with them and without.
	noReach bool
}

func solve(ctx context.Context, p *Problem, opts Options, hk hooks) (*Solution, error) {
	// Cancelled by a stream's panic, to stop the others.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lim := &solveLimit{ctx: ctx, now: hk.now}
	if lim.now == nil {
		lim.now = time.Now
	}
	lim.began = lim.now()
	if opts.TimeLimit > 0 {
		lim.until = lim.began.Add(opts.TimeLimit)
	}
	if err := Check(p); err != nil {
		return nil, err
	}
	if len(p.Sites) == 0 {
		return &Solution{}, nil
	}
	// The preparation reads the whole matrix and ranks every site's
	// vehicle types, seconds on thousands of stores: each step stops at
	// the limit too.
	if lim.reached() {
		return lim.nothingServed(p)
	}
	in := newInstanceUnless(p, lim.reached)
	if in == nil {
		return lim.nothingServed(p)
	}
	in.noReach = hk.noReach
	servable, dropped, reasons, ok := in.rankNewRoutes(&scratch{}, lim.reached)
	if !ok {
		return lim.nothingServed(p)
	}

	var best *search
	iterations := 0
	if nb := newNeighbours(in, neighbourCount, lim.reached); nb != nil {
		var err error
		best, iterations, err = runStreams(cancel, in, nb, opts, lim, hk, servable, dropped, reasons)
		if err != nil {
			return nil, err
		}
	}
	if best == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The time limit ended before any construction began: the best
		// solution so far serves nothing.
		st := newState(in)
		st.dropped = dropped
		st.unassigned = servable
		return st.solution(reasons, servable, true), nil
	}
	sol := best.best.solution(reasons, best.unreached, true)
	sol.Iterations = iterations
	return sol, nil
}

// nothingServed is what Solve returns when the limit is reached before
// it could tell which sites a vehicle may serve: ctx's error when it was
// cancelled, else a solution that serves nothing, every site NotReached.
func (l *solveLimit) nothingServed(p *Problem) (*Solution, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, err
	}
	sol := &Solution{Unassigned: make([]Unassigned, len(p.Sites))}
	for i := range sol.Unassigned {
		sol.Unassigned[i] = Unassigned{Site: i, Reason: NotReached}
	}
	return sol, nil
}

// run is one stream's whole search: construction, then the phases.
func (sr *search) run(servable, dropped []int) {
	in, nb, rng, sc := sr.in, sr.nb, sr.rng, sr.sc
	// A finished stream keeps its best solution only: its scratch (a few
	// MB on a 5,000-store day) goes while the other streams run.
	defer func() { sr.sc = nil }()
	st := newState(in)
	st.dropped = dropped
	// Construction: far sites first, as seeds of routes (Solomon's I1 idea),
	// each at its cheapest feasible place; when sites differ in value, the
	// most valuable first, so that a short fleet leaves the cheap ones out.
	order := append([]int(nil), servable...)
	depot := 0
	if len(in.types) > 0 {
		depot = in.types[0].StartLocation
	}
	sort.SliceStable(order, func(a, b int) bool {
		va, vb := in.value[order[a]], in.value[order[b]]
		if va != vb {
			return va > vb
		}
		return in.legDist(depot, in.sites[order[a]].Location) > in.legDist(depot, in.sites[order[b]].Location)
	})
	for i, u := range order {
		// The solve's limit, not this stream's share of it: a construction
		// that overruns its share still completes while time is left.
		if sr.lim.reached() {
			// What was built is feasible: it is this stream's best, with
			// the sites not reached left out.
			sr.unreached = order[i:]
			for _, v := range sr.unreached {
				st.unassign(v)
			}
			st.dropEmpty()
			sr.best = st.bareClone()
			return
		}
		st.recreate([]int{u}, nb, 0, rng, sc)
	}
	st.dropEmpty()
	sr.best = st.bareClone()
	sr.report()
	st.localSearch(nb, rng, sc, sr.stop, nil)
	st.refill(nb, rng, sc, sr.stop)
	sr.offer(st)
	if len(servable) <= 1 {
		return // nothing left to improve
	}
	switch {
	case in.tripsSecond:
		// Fewer routes first, then fewer trips: route elimination takes
		// off routes, whose sites may go on new trips of the others, then
		// trips, half the budget in all.
		sr.minimiseRoutes(0.35, false)
		sr.minimiseRoutes(0.5, true)
	case in.hierarchical:
		// Fewer routes (under FewestTrips, trips) first: give the route
		// elimination half the budget.
		sr.minimiseRoutes(0.5, in.tripsRanked)
	}
	sr.anneal()
}

// publicRoute is the public form of route seq of type t scheduled in sch:
// its sites as visits, its reloads apart.
func (in *instance) publicRoute(t int, seq []int, sch *schedule) Route {
	rt := Route{VehicleType: t, Start: sch.begin, Depart: sch.depart, Return: sch.ret, Distance: sch.dist, Duration: sch.duty(), Driving: sch.drive}
	rt.Visits = make([]Visit, 0, len(seq))
	for k, s := range seq {
		if in.isReload(s) {
			rt.Reloads = append(rt.Reloads, Reload{After: len(rt.Visits), Arrival: sch.arr[k], Start: sch.start[k], Departure: sch.dep[k]})
			continue
		}
		rt.Visits = append(rt.Visits, Visit{Site: s, Arrival: sch.arr[k], Start: sch.start[k], Departure: sch.dep[k]})
	}
	if in.types[t].Loading != nil {
		for _, h := range in.tripHolds(nil, t, seq, sch) {
			rt.LoadingStarts = append(rt.LoadingStarts, h.from)
		}
	}
	return rt
}

func (st *state) totalCost() float64 {
	c := 0.0
	for _, r := range st.routes {
		c += r.cost
	}
	return c
}

func (st *state) totalTrips() int {
	n := 0
	for _, r := range st.routes {
		if len(r.seq) > 0 {
			n += st.in.routeTrips(r)
		}
	}
	return n
}

func (st *state) totalDistance() float64 {
	d := 0.0
	for _, r := range st.routes {
		d += r.dist
	}
	return d
}

// solution turns a state into the public form, with every route departing
// as late as it can so that drivers do not wait at the first sites. Its
// unassigned sites are FleetExhausted but those in unreached, which are
// NotReached, and with explain set those a Timed resource alone keeps out
// (busyResource), which are ResourceBusy.
func (st *state) solution(reasons map[int]Reason, unreached []int, explain bool) *Solution {
	in := st.in
	sol := &Solution{}
	var sch schedule
	for _, r := range st.routes {
		if len(r.seq) == 0 {
			continue
		}
		nb, by := r.heldBackTimes()
		if in.evaluateHeldBack(r.typ, r.seq, &sch, nb, by) != feasible {
			// Cannot happen (the property tests check every route the
			// search accepts); never return a route that breaks a rule.
			st.unassigned = append(st.unassigned, r.seq...)
			continue
		}
		rt := in.publicRoute(r.typ, r.seq, &sch)
		if len(r.holds) == len(rt.LoadingStarts) {
			// Loaded ahead where the doors needed it (loadAhead).
			for j, h := range r.holds {
				rt.LoadingStarts[j] = h.from
			}
		}
		sol.Routes = append(sol.Routes, rt)
		sol.Cost += sch.cost
		sol.Distance += sch.dist
	}
	sort.SliceStable(sol.Routes, func(a, b int) bool {
		ra, rb := sol.Routes[a], sol.Routes[b]
		if ra.VehicleType != rb.VehicleType {
			return ra.VehicleType < rb.VehicleType
		}
		return ra.Visits[0].Site < rb.Visits[0].Site
	})
	sol.Vehicles = len(sol.Routes)
	for _, r := range sol.Routes {
		sol.Trips += 1 + len(r.Reloads)
	}
	for _, i := range st.dropped {
		sol.Unassigned = append(sol.Unassigned, Unassigned{Site: i, Reason: reasons[i]})
	}
	notReached := make(map[int]bool, len(unreached))
	for _, i := range unreached {
		notReached[i] = true
	}
	var b holdBack
	for _, i := range st.unassigned {
		u := Unassigned{Site: i, Reason: FleetExhausted}
		if notReached[i] {
			u.Reason = NotReached
		} else if explain {
			if x := st.busyResource(i, &b); x >= 0 {
				u.Reason, u.Resource = ResourceBusy, x
			}
		}
		sol.Unassigned = append(sol.Unassigned, u)
	}
	sort.Slice(sol.Unassigned, func(a, b int) bool { return sol.Unassigned[a].Site < sol.Unassigned[b].Site })
	return sol
}
