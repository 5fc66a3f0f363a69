package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrInternal marks an error that is a bug in haulplan, never a problem
// with the request: a plan the planner produced but Validate rejected
// (Plan returns it instead of an invalid plan), or a panic in a search
// stream's goroutine, recovered so that it does not end the process
// (errors.As finds the *routeplan.PanicError, with the panic's value and
// stack). A service reports it as an internal error and goes on serving.
var ErrInternal = errors.New("engine: internal error")

// Plan plans the request: routes, trailer load plans, and unassigned
// pallets with reasons. It stops searching when Options.TimeLimit runs out
// or ctx ends, and returns the best plan found: see Options.TimeLimit for
// what may run past the limit. Every plan it returns passes Validate; an
// invalid request gives a constraints.Violations, and a bug in haulplan
// ErrInternal.
//
// The steps: pallets are grouped per store and temperature class and cut
// into orders one trailer carries; routing shares the driver shifts and
// trailer units out among routes and chooses each single-temperature
// reefer's set point, trip by trip; every route is laid out on its trailer floor, and a
// route whose floor cannot take its pallets sends its last stops back to
// routing; routes with room left take part of what the fleet had no room
// for; under FewestTrailers and FewestDrivers, routes whose pallets the others can carry are
// taken off, and what was left behind is routed again with the trailers
// and drivers they free. The package documentation lists these phases
// with what each takes and gives back.
func Plan(ctx context.Context, req Request) (Result, error) {
	return planWithClock(ctx, req, time.Now)
}

// planWithClock is Plan with the clock its phases read the time limit on
// (routeplan's search reads its own): tests end the limit where they
// choose. It runs the planning phases in order; each takes the read-only
// planContext and what it works on, and says what it gives back or
// changes of the fleet state.
func planWithClock(ctx context.Context, req Request, now func() time.Time) (Result, error) {
	began := now()
	if err := req.Check(); err != nil {
		return Result{}, err
	}
	m, err := prepare(ctx, &req)
	if err != nil {
		return Result{}, err
	}
	pc := newPlanContext(m, began, now)
	// A re-plan keeps the locked routes of the previous plan as they are
	// and starts from its other routes (previous_plan.go).
	if err := m.fixRoutes(); err != nil {
		return Result{}, err
	}
	fleet := newFleetState(m, nil)
	fleet.continueLockedShifts(m)
	seedPrevious(m, fleet)

	orders, unpacked, err := makeOrders(ctx, pc)
	if err != nil {
		return Result{}, err
	}
	fleet.unassigned = unpacked
	preferTrailers(m, orders, fleet.freeShifts())
	pc.keepForClosing(now().Sub(began))
	pc.report(PhaseOrders, 0, fleet)

	rounds, cut, err := routeOrders(ctx, pc, fleet, orders)
	if err != nil {
		return Result{}, err
	}
	// What the time limit left unreached is routed first, in the time
	// that route elimination, which only saves routes, would have had.
	if rounds, err = routeUnreached(ctx, pc, fleet, rounds); err != nil {
		return Result{}, err
	}
	fillSpareRoom(ctx, pc, fleet)
	// A re-plan keeps the shifts of the previous plan's routes (locked in
	// m.fixed, kept by seedPrevious): handing trips to other shifts would
	// scatter them, and the chaining phases see only the routes planned
	// here, not the locked trips of a shift. Route elimination takes off
	// only routes made in this call (never a kept one), and a kept route
	// takes part of what they carried only where none of its stops is
	// retimed for it (fleetState.keepsArrivals): so the late pallets that
	// routing spread over small new trips may ride together, or on kept
	// routes with room, as far as the time limit allows.
	replanning := req.Previous != nil
	changed := 0 // shifts freed, and trips moved to a less versatile trailer type
	if req.Options.Objective == FewestDrivers && !replanning {
		changed += retimeAcrossKinds(ctx, pc, fleet, pc.retimeUntil())
		changed += retimeChains(ctx, pc, fleet)
		// The trips move to the least versatile trailer type that
		// carries them, so that the reefers a routing shift of one type
		// took for ambient pallets may carry the cold orders left out.
		changed += spareVersatileUnits(ctx, pc, fleet)
	}
	eliminated := req.Options.Objective.fewestRoutes() && eliminateRoutes(ctx, pc, fleet) > 0
	if eliminated || changed > 0 || holdsSentBack(fleet) {
		// The trailers and drivers freed may carry what was left behind,
		// and those left free what a route's layout sent back.
		if rounds, err = routeLeftovers(ctx, pc, fleet, rounds, cut); err != nil {
			return Result{}, err
		}
		fillSpareRoom(ctx, pc, fleet)
	}
	switch {
	case replanning:
		// The late orders the time limit left unrouted are routed
		// past it (routeUnrouted).
		if rounds, err = routeUnrouted(ctx, pc.pastLimit(pc.limit), fleet, rounds); err != nil {
			return Result{}, err
		}
	case rounds > 0:
		// A routing that began is finished past the limit, by
		// lateShare of it at most: what no round reached in time is
		// loadable, and the fleet may carry it.
		if rounds, err = routeUnreached(ctx, pc.pastLimit(pc.limit/lateShare), fleet, rounds); err != nil {
			return Result{}, err
		}
	}
	if req.Options.Objective.fewestRoutes() && !replanning {
		// Trips that one shift can drive, as timed, ride one shift.
		chainShifts(m, fleet)
	}
	fleet.unassignLeftOut(m)

	plan := assemble(m, fleet.routes, fleet.unassigned)
	if err := Validate(req, plan); err != nil {
		return Result{}, fmt.Errorf("%w: the planner produced an invalid plan: %w", ErrInternal, err)
	}
	if err := m.replanChanges(&plan); err != nil {
		return Result{}, fmt.Errorf("%w: comparing the plan with the previous one: %w", ErrInternal, err)
	}
	pc.reportDone(plan, rounds)
	return plan, nil
}

// planContext is what every phase of one planning call reads and none
// changes: the model, the search's seed, the clock and the deadline, and
// where progress goes. Its deadlines are set again once the phases before
// routing have run (keepForClosing).
type planContext struct {
	m          *model
	groupLimit time.Duration // PackFleet's time limit for one store's pallets of one class
	seed       uint64
	progress   *reporter // nil when nobody listens
	// now is the clock the phases read; deadline is when Options.TimeLimit
	// ends, counted from the call, less the time kept for the closing
	// steps; routingDeadline is when routing rounds
	// end: under FewestTrailers and FewestDrivers the last twentieth of the time is for
	// taking routes off (eliminateRoutes).
	now             func() time.Time
	deadline        time.Time
	routingDeadline time.Time
	began           time.Time     // when Plan was called
	limit           time.Duration // the time limit in force
	// firstPhases is how long the phases before routing took (0 until
	// keepForClosing is told): a measure of the machine's speed at the
	// work of reading every pallet once, as laying out every route does.
	firstPhases time.Duration
}

// keepForClosing sets the deadlines: the limit counts from the call, the
// checks and the travel matrix included, and every phase stops at it (see
// Options.TimeLimit) less the time kept for the closing steps
// (closingTime), given that the phases before routing took firstPhases.
func (pc *planContext) keepForClosing(firstPhases time.Duration) {
	pc.firstPhases = firstPhases
	pc.deadline = pc.began.Add(pc.limit - closingTime(len(pc.m.req.Pallets), firstPhases, pc.limit))
	pc.routingDeadline = pc.deadline
	if pc.m.req.Options.Objective.fewestRoutes() {
		pc.routingDeadline = pc.deadline.Add(-pc.limit / eliminationShare)
	}
}

// newPlanContext is the context of a planning call that began at began.
func newPlanContext(m *model, began time.Time, now func() time.Time) *planContext {
	opts := m.req.Options
	limit := opts.TimeLimit
	switch {
	case limit == 0 && m.req.Previous != nil:
		limit = DefaultReplanTimeLimit
	case limit == 0:
		limit = DefaultTimeLimit
	}
	pc := &planContext{m: m, groupLimit: groupPackLimit, seed: uint64(opts.Seed), now: now,
		began: began, limit: limit}
	pc.keepForClosing(0)
	// Cutting a store's pallets into orders (loadplan.PackFleet) runs on a
	// budget of layouts, so that it gives the same answer on any machine;
	// its time limit per store is a safety net, or with an iteration
	// budget the whole time, so that only the budgets (and the deadline)
	// end the packing and the plan is reproducible.
	if opts.Iterations > 0 {
		pc.groupLimit = limit
	}
	if opts.Progress != nil {
		pc.progress = &reporter{to: opts.Progress, began: began, limit: limit}
	}
	return pc
}

// closingPerPallet is the time Plan keeps back from its limit, per pallet
// of the request, for the steps after the last phase, which run whole:
// listing what was left out, assembling the plan with its metrics and
// bounds, checking it with Validate and encoding it for the last progress
// report. On haulbench's 5,000-store day (60,110 pallets) they take 1.7 s
// of CPU, 28 µs a pallet, on one core of the benchmark machine to itself.
const closingPerPallet = 50 * time.Microsecond

// closingTime is the time kept back from the limit for the closing steps
// of a request of pallets pallets whose phases before routing took
// firstPhases: closingPerPallet each, or one and a half times firstPhases
// when that is longer, at most a tenth of the limit. The phases before
// routing read every pallet and store once, as the closing steps do, on
// the same cores at the same load: on the 5,000-store day they took 1.8
// to 3.6 s as other work on the machine grew, and the closing steps 1.3
// to 1.8 times as long.
func closingTime(pallets int, firstPhases, limit time.Duration) time.Duration {
	return min(max(time.Duration(pallets)*closingPerPallet, firstPhases*3/2), limit/10)
}

// stopped reports whether the planning must stop: ctx ended or the time
// limit is over. Every phase asks it before each step of its own.
func (pc *planContext) stopped(ctx context.Context) bool {
	return ctx.Err() != nil || !pc.now().Before(pc.deadline)
}
