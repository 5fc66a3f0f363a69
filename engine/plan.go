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

// routingRounds bounds how often orders that could not be laid out on their
// trailer go back to routing with the trailers and shifts still free.
const routingRounds = 3

// Plan plans the request: routes, trailer load plans, and unassigned
// pallets with reasons. It stops searching when Options.TimeLimit runs out
// or ctx ends, and returns the best plan found: see Options.TimeLimit for
// what may run past the limit. Every plan it returns passes Validate; an
// invalid request gives a constraints.Violations, and a bug in haulplan
// ErrInternal.
//
// The steps: pallets are grouped per store and temperature class and cut
// into orders one trailer carries (orders.go); routing shares the driver
// shifts and trailer units out among routes and chooses each
// single-temperature reefer's set point (fleet.go, routing.go); every route
// is laid out on its trailer floor, and a route whose floor cannot take its
// pallets sends its last stops back to routing (routes.go); routes with
// room left take part of what the fleet had no room for (spare_room.go);
// under FewestTrailers, routes whose pallets the others can carry are
// taken off, and what was left behind is routed again with the trailers
// and drivers they free (route_elimination.go).
func Plan(ctx context.Context, req Request) (Result, error) {
	return planWithClock(ctx, req, time.Now)
}

// planWithClock is Plan with the clock its phases read the time limit on
// (routeplan's search reads its own): tests end the limit where they
// choose.
func planWithClock(ctx context.Context, req Request, now func() time.Time) (Result, error) {
	began := now()
	if err := req.Check(); err != nil {
		return Result{}, err
	}
	m, err := prepare(ctx, &req)
	if err != nil {
		return Result{}, err
	}
	limit := req.Options.TimeLimit
	if limit == 0 {
		limit = DefaultTimeLimit
	}
	// The limit counts from the call, the checks and the travel matrix
	// included; every phase after stops at it (see Options.TimeLimit).
	deadline := began.Add(limit)

	// Cutting a store's pallets into orders (loadplan.PackFleet) runs on a
	// budget of layouts, so that it gives the same answer on any machine;
	// its time limit per store is a safety net, or with an iteration
	// budget the whole time, so that only the budgets (and the deadline)
	// end the packing and the plan is reproducible.
	pl := planner{m: m, groupLimit: groupPackLimit, seed: uint64(req.Options.Seed), now: now, deadline: deadline}
	if req.Options.Iterations > 0 {
		pl.groupLimit = limit
	}
	if req.Options.Progress != nil {
		pl.progress = &reporter{to: req.Options.Progress, began: began, limit: limit}
	}
	if err := pl.makeOrders(ctx); err != nil {
		return Result{}, err
	}
	pl.makeShiftGroups()
	pl.preferTrailers(pl.orders)
	pl.report(PhaseOrders, 0)
	pool := pl.orders
	// Under FewestTrailers the last twentieth of the time is for taking
	// routes off (eliminateRoutes).
	routingDeadline := deadline
	if req.Options.Objective == FewestTrailers {
		routingDeadline = deadline.Add(-limit / eliminationShare)
	}
	for round := 0; round < routingRounds && len(pool) > 0 && !pl.stopped(ctx) && !pl.routingCut && (round == 0 || now().Before(routingDeadline)); round++ {
		// The first round gets nearly all the time: later rounds only
		// route the few orders a layout sent back, with the fleet left.
		until := routingDeadline
		if round == 0 && routingRounds > 1 {
			until = now().Add(routingDeadline.Sub(now()) * 19 / 20)
		}
		pool, err = pl.route(ctx, pool, until, round)
		if err != nil {
			return Result{}, err
		}
		pl.rounds = round + 1
		pl.report(PhaseLayouts, round+1)
	}
	for _, o := range pool {
		if o.reason == "" {
			o.reason = ReasonNotPlanned
		}
		pl.final = append(pl.final, o)
	}
	for _, o := range pl.final {
		o.prefer = nil // spare room anywhere will do
	}
	pl.fillSpareRoom(ctx)
	if req.Options.Objective == FewestTrailers && pl.eliminateRoutes(ctx) > 0 {
		// The trailers and drivers freed may carry what was left behind.
		if err := pl.routeLeftovers(ctx); err != nil {
			return Result{}, err
		}
		pl.fillSpareRoom(ctx)
	}
	for _, o := range pl.final {
		if len(o.pallets) > 0 {
			pl.unassign(o)
		}
	}
	plan := pl.finish()
	if err := Validate(req, plan); err != nil {
		return Result{}, fmt.Errorf("%w: the planner produced an invalid plan: %w", ErrInternal, err)
	}
	if pl.progress != nil {
		p := Progress{Phase: PhaseDone, Round: pl.rounds, Routes: plan.Metrics.Routes, Delivered: plan.Metrics.Pallets,
			Unassigned: plan.Metrics.Unassigned, Cost: plan.Metrics.Cost}
		// Best hands out copies: the caller owns the plan Plan returns.
		final, err := copyPlan(plan)
		p.best = func() (Result, error) { return copyPlan(final) }
		if err == nil {
			pl.progress.send(p)
		}
	}
	return plan, nil
}

type planner struct {
	m            *model
	groupLimit   time.Duration // PackFleet's time limit for one store's pallets of one class
	seed         uint64
	orders       []*order
	groups       []shiftGroup
	trailersLeft []int // trailer units of each type not yet on a route
	routes       []Route
	placed       []placedRoute // how each of routes was made
	final        []*order      // orders left out for good, with their reasons
	unassigned   []Unassigned
	progress     *reporter // nil when nobody listens
	rounds       int       // routing rounds run
	// now is the clock the phases read; deadline is when Options.TimeLimit
	// ends, counted from the call.
	now      func() time.Time
	deadline time.Time
	// routingCut is set when a routing round's time ended before its
	// search had tried every order: a round after it, with less time, would
	// only spend it setting up.
	routingCut bool
}

// stopped reports whether the planning must stop: ctx ended or the time
// limit is over. Every phase asks it before each step of its own.
func (pl *planner) stopped(ctx context.Context) bool {
	return ctx.Err() != nil || !pl.now().Before(pl.deadline)
}

// unassign lists o's pallets as unassigned, with a message that says what
// stands in the way.
func (pl *planner) unassign(o *order) {
	msg := o.message
	if msg == "" || o.reason != ReasonLoadLayout {
		msg = pl.explainOrder(o)
	}
	for _, pi := range o.pallets {
		p := pl.m.req.Pallets[pi]
		pl.unassigned = append(pl.unassigned, Unassigned{Pallet: p.ID, Store: p.Store, Reason: o.reason, Message: msg})
	}
}
