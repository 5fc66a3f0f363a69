package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/routeplan"
)

// routingRounds bounds how often orders that could not be laid out on their
// trailer go back to routing with the trailers and shifts still free.
const routingRounds = 3

// routeOrders routes the orders in rounds until pc.routingDeadline: each
// round routes what the one before sent back with what is left of fleet,
// and lays its routes out (routeRound). It adds the routes to fleet, and the
// orders no round carried to fleet.leftOut, with no trailer preference left
// (spare room anywhere will do); those the time left no round for are
// unreached (leaveUnreached), for routeUnreached to route. It returns the
// rounds run, and cut when a round's time ended before its search had
// tried every order: a round after it, with less time, would only spend
// it setting up.
func routeOrders(ctx context.Context, pc *planContext, fleet *fleetState, orders []*order) (rounds int, cut bool, err error) {
	pool := orders
	round := 0
	for ; round < routingRounds && len(pool) > 0 && !pc.stopped(ctx) && !cut && (round == 0 || pc.now().Before(pc.routingDeadline)); round++ {
		until := pc.routingDeadline
		if round == 0 && routingRounds > 1 {
			until = until.Add(-pc.laterRounds())
		}
		var roundCut bool
		pool, roundCut, err = routeRound(ctx, pc, fleet, pool, pc.budget(until), round)
		if err != nil {
			return rounds, cut, err
		}
		cut = cut || roundCut
		rounds = round + 1
		pc.report(PhaseLayouts, rounds, fleet)
	}
	fleet.leaveAfterRounds(pool, round)
	for _, o := range fleet.leftOut {
		o.prefer = nil
	}
	return rounds, cut, nil
}

// laterRounds is the time the first routing round leaves before the
// routing deadline: the first round gets nearly all the time, and later
// rounds only route the few orders a layout sent back, with the fleet
// left; but the first round's layouts must end in time for them. A
// twentieth of the time left, or twice what the phases before routing
// took when that is longer, at most a quarter of the time left: on
// haulbench's 5,000-store day the phases before routing took 1.5 s on a
// quiet machine and 3.7 to 4.2 s on a busy one, the first round's
// layouts 1.6 s and 1.8 to 4.2 s, and a round of the 260 to 370 orders
// they sent back 1 to 1.9 s.
func (pc *planContext) laterRounds() time.Duration {
	left := pc.routingDeadline.Sub(pc.now())
	return min(max(left/20, 2*pc.firstPhases), left/4)
}

// routeLeftovers routes again the orders left behind for want of a
// trailer, a driver or a dock door, and those a route's layout sent back
// after the last routing round (routedAgain), with what route elimination
// freed in fleet and what it left free,
// until the time limit (an iteration budget, when set, as for every
// routing round). Its rounds count on from rounds, the rounds run so far,
// and it runs none after a round that was cut (see routeOrders); the
// orders it had no round for are unreached (leaveUnreached). It returns
// the rounds run in all.
func routeLeftovers(ctx context.Context, pc *planContext, fleet *fleetState, rounds int, cut bool) (int, error) {
	pool := fleet.takeLeftOut(routedAgain)
	if len(pool) == 0 {
		return rounds, nil
	}
	round := 0
	for ; round < routingRounds && len(pool) > 0 && !pc.stopped(ctx) && !cut; round++ {
		var err error
		var roundCut bool
		pool, roundCut, err = routeRound(ctx, pc, fleet, pool, pc.budget(pc.deadline), rounds)
		if err != nil {
			return rounds, err
		}
		cut = cut || roundCut
		rounds++
	}
	fleet.leaveAfterRounds(pool, round)
	return rounds, nil
}

// roundBudget is what one routing round's search may spend: it ends at
// the instant until, or after iterations iterations of each of its streams
// search streams (0: at until alone).
type roundBudget struct {
	until               time.Time
	iterations, streams int
}

// budget is the budget of a routing round that ends at until, with the
// request's iteration budget and search streams.
func (pc *planContext) budget(until time.Time) roundBudget {
	opts := pc.m.req.Options
	streams := opts.Streams
	if streams == 0 {
		streams = DefaultStreams
	}
	return roundBudget{until: until, iterations: opts.Iterations, streams: streams}
}

// routeRound runs one round of routing on the orders in pool with the
// shifts and trailers still free in fleet, and the shifts that drive
// routes already for the time after their last trip
// (continueDrivingShifts), searching within budget,
// lays every route out and keeps in fleet the routes that pass. It returns the
// orders to try again: those a layout sent back, and when there are any,
// those the fleet had no room for, since what the rejected routes leave
// free may carry them, but of those the dock doors kept out only the
// ones whose trip could load in door time the round freed
// (loadsInFreedTime); the others it adds to fleet.leftOut. When the
// budget's time has passed before the search can begin, or the context
// ends before the search has a solution, it routes nothing: the pool is
// left out as unreached (leaveUnreached), not as orders the rounds ran
// out for, since this round never tried them. Either way, cut reports
// that time was too short for the search to try every order.
func routeRound(ctx context.Context, pc *planContext, fleet *fleetState, pool []*order, budget roundBudget, round int) (again []*order, cut bool, err error) {
	req := pc.m.req
	for _, o := range pool {
		o.offered = false // what is left of it is offered anew
	}
	// The shifts earlier rounds gave trips may drive more after them.
	cont := fleet.continueDrivingShifts(pc.m, pool)
	defer fleet.endContinuations(cont)
	if fleet.freeShifts() == 0 {
		for _, o := range pool {
			setReason(o, ReasonFleetExhausted)
		}
		fleet.leftOut = append(fleet.leftOut, pool...)
		return nil, false, nil
	}
	r := routingProblem(pc.m, fleet, pool)
	// Counted from here: building the problem took part of the time.
	limit := budget.until.Sub(pc.now())
	if limit <= 0 || ctx.Err() != nil {
		fleet.leaveUnreached(pool)
		return nil, true, nil
	}
	sol, err := routeplan.Solve(ctx, r.p, routeplan.Options{
		TimeLimit: limit, MaxIterations: budget.iterations,
		Seed: req.Options.Seed + int64(round), Streams: budget.streams, Workers: req.Options.Workers,
		Progress: pc.routingProgress(fleet, r, pool, round), ProgressInterval: routingProgressInterval,
	})
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Cancelled before routing had a solution: these orders stay
		// unplanned, and the plan so far is still returned.
		fleet.leaveUnreached(pool)
		return nil, false, nil
	}
	if err != nil {
		// Invalid routing input, or a panic in a search stream
		// (*routeplan.PanicError): a bug either way.
		return nil, false, fmt.Errorf("%w: routing: %w", ErrInternal, err)
	}
	var back, short, doorShort []*order
	widened := false
	for _, u := range sol.Unassigned {
		o := pool[u.Site]
		cut = cut || u.Reason == routeplan.NotReached
		// An order an earlier round found no trailer, driver or door for,
		// which this shorter round did not come to, keeps that reason:
		// the search did try it.
		if u.Reason != routeplan.NotReached || !shortOfFleet(o.reason) {
			setReason(o, r.reasonOf(u))
		}
		// An order kept off the versatile trailers that found no room
		// goes back with every type it is compatible with.
		if o.prefer != nil {
			o.prefer, widened = nil, true
			short = append(short, o)
			continue
		}
		switch {
		case u.Reason == routeplan.ResourceBusy && u.Resource == r.doors:
			doorShort = append(doorShort, o)
		case shortOfFleet(o.reason):
			short = append(short, o)
		default:
			fleet.leftOut = append(fleet.leftOut, o)
		}
	}
	var planned []tripLoading
	if len(doorShort) > 0 {
		planned = r.solutionLoadings(sol, pool)
	}
	for _, rr := range sol.Routes {
		back = append(back, acceptRoute(pc.m, fleet, r, rr, pool)...)
	}
	if len(back) == 0 && !widened {
		fleet.leftOut = append(fleet.leftOut, short...)
		fleet.leftOut = append(fleet.leftOut, doorShort...)
		return nil, cut, nil
	}
	again = append(back, short...)
	if len(doorShort) > 0 {
		// Only door time the round freed can load what the doors kept out.
		runs := doorTimeFreed(req.DC.DockDoors, r.p.Resources[r.doors].Busy, planned, fleet.busyDoors(pc.m))
		for _, o := range doorShort {
			if pc.m.loadsInFreedTime(o, runs) {
				again = append(again, o)
			} else {
				fleet.leftOut = append(fleet.leftOut, o)
			}
		}
	}
	return again, cut, nil
}

// sentBackByLayout reports whether order o was last sent back by the
// layout of a route routing gave it (acceptRoute): o is loadable alone,
// since makeOrders laid every order out, and routing counts it whole now.
func sentBackByLayout(o *order) bool {
	return o.reason == ReasonLoadLayout && o.laidOutWhole
}

// holdsSentBack reports whether fleet has left out orders that a route's
// layout sent back after the last routing round: routeLeftovers routes
// them again, counted whole, with the fleet left.
func holdsSentBack(fleet *fleetState) bool {
	return slices.ContainsFunc(fleet.leftOut, sentBackByLayout)
}

// routedAgain reports whether the phases after routing may still carry
// order o, left out: routing found no trailer, driver or door for it, or
// a route's layout sent it back after the last routing round.
func routedAgain(o *order) bool {
	return shortOfFleet(o.reason) || sentBackByLayout(o)
}

// shortOfFleet reports whether reason says that routing left an order out
// for want of a trailer unit, a driver or a dock door: what a later round,
// with what rejected routes free, may still find.
func shortOfFleet(reason string) bool {
	return reason == ReasonFleetExhausted || reason == ReasonDockCapacity
}

// setReason records why routing left o out. A store no compatible vehicle
// type could serve had compatible trailers whose units or shifts are all
// taken when its order has any compatible trailer type at all.
func setReason(o *order, reason string) {
	if reason == ReasonNoCompatibleTrailer && firstTrue(o.trailers) >= 0 {
		reason = ReasonFleetExhausted
	}
	o.reason, o.message = reason, ""
}

// reasonOf is the reason routing left a site out for, u: a site kept
// out by the dock doors alone (every door loading other trailers) is
// DOCK_CAPACITY, by the trailer units alone FLEET_EXHAUSTED.
func (r *routing) reasonOf(u routeplan.Unassigned) string {
	switch u.Reason {
	case routeplan.ResourceBusy:
		if u.Resource == r.doors {
			return ReasonDockCapacity
		}
		return ReasonFleetExhausted
	case routeplan.NoCompatibleVehicle:
		return ReasonNoCompatibleTrailer
	case routeplan.Capacity:
		return ReasonCapacity
	case routeplan.TimeWindow:
		return ReasonTimeWindow
	case routeplan.ShiftLimit:
		return ReasonShiftLimit
	case routeplan.FleetExhausted:
		return ReasonFleetExhausted
	}
	return ReasonNotPlanned // routeplan.NotReached: the time limit ended first
}
