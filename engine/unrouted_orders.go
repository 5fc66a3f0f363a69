package engine

import (
	"context"
	"time"
)

// unroutedIterations is the search iterations of a round that routes the
// orders the time limit left unrouted (routeUnreached, routeUnrouted):
// the construction places every order the fleet can carry, and a few
// iterations join the smallest of its routes. On the 1,000-store night
// of haulbench replan, with the limit ended before routing began (all of
// some 700 late orders unrouted), on a machine busy with other work: the
// construction takes about 0.25 s, 10 iterations more give 487–510
// routes, 50 give 471–492 in 0.3 s, 200 give 467 in 0.55 s.
const unroutedIterations = 50

// lateShare is the share of the time limit that a plan without a
// previous plan may run past it to route the orders the limit left
// unreached (routeUnreached): a safety net on a machine too busy for the
// rounds' own budgets, 3 s of a 60 s limit.
const lateShare = 20

// routeUnreached routes the orders of a plan that the time limit left
// unreached: those a routing round's search had not come to when its
// time ended, and those a route's layout sent back when no routing round
// was left the time to route them again (leaveUnreached). They are
// loadable and the fleet may well have room for them, so a pallet left
// behind for them would be left for want of time alone: they get up to
// routingRounds rounds more, each in one search stream of
// unroutedIterations iterations, with the fleet left. Before route
// elimination (pc: until the deadline) this takes from the time that
// phase would have; at the end of a fresh plan (pc.pastLimit) it runs
// past the limit, by lateShare of it at most. The orders a round at the
// deadline leaves unreached stay so, for the pass past the limit. It
// returns the rounds run in all, counting on from rounds.
func routeUnreached(ctx context.Context, pc *planContext, fleet *fleetState, rounds int) (int, error) {
	return routeAgain(ctx, pc, fleet, rounds, unreached)
}

// routeUnrouted routes, once the planning phases are over, the orders of
// a re-plan that the time limit left unrouted (unrouted): those the
// search had not come to when it ended, those a route's layout sent back
// after the last round, and those short of fleet whose offer of the room
// left on the routes the limit cut short. A re-plan keeps most of the
// previous plan and has little time (the phases before routing take a
// large part of DefaultReplanTimeLimit, and more on a busy machine), and
// a late pallet left behind for want of time is what a dispatcher cannot
// use: so these orders get routing rounds past the limit as in
// routeUnreached, and then the room left on the routes (fillSpareRoom),
// each step bounded by its own budget. over is pc past the limit: the
// limit again from now is a safety net on a machine too busy for those
// budgets. It routes nothing once ctx has ended, and returns the rounds
// run in all, counting on from rounds.
func routeUnrouted(ctx context.Context, over *planContext, fleet *fleetState, rounds int) (int, error) {
	rounds, err := routeAgain(ctx, over, fleet, rounds, unrouted)
	if err != nil {
		return rounds, err
	}
	fillSpareRoomFor(ctx, over, fleet, func(o *order) bool { return routedAgain(o) && !o.offered })
	return rounds, nil
}

// routeAgain routes the orders left out that again reports true for, in
// up to routingRounds rounds of one search stream of unroutedIterations
// iterations (the later rounds for what a layout sends back), until pc's
// deadline. The orders the deadline leaves no round for are unreached
// again (leaveUnreached); those the rounds ran out for are left out.
func routeAgain(ctx context.Context, pc *planContext, fleet *fleetState, rounds int, again func(*order) bool) (int, error) {
	if pc.stopped(ctx) {
		return rounds, nil
	}
	pool := fleet.takeLeftOut(again)
	if len(pool) == 0 {
		return rounds, nil
	}
	budget := roundBudget{until: pc.deadline, iterations: unroutedIterations, streams: 1}
	round := 0
	for ; round < routingRounds && len(pool) > 0 && !pc.stopped(ctx); round++ {
		var err error
		if pool, _, err = routeRound(ctx, pc, fleet, pool, budget, rounds); err != nil {
			return rounds, err
		}
		rounds++
	}
	fleet.leaveAfterRounds(pool, round)
	return rounds, nil
}

// unreached reports whether order o, left out, was left for want of
// time: a routing round's search had not come to it, or no round was
// left the time to route it (leaveUnreached).
func unreached(o *order) bool {
	return o.reason == ReasonNotPlanned
}

// unrouted reports whether order o, left out, was left for want of time:
// unreached, sent back by a route's layout after the last round that
// routed it, or short of fleet with its offer of the room left on the
// routes (fillSpareRoom; not offered) cut short by the time limit. An
// order that every phase tried in full is left for want of room, and is
// not tried again: on a day short of trailers, trying those again would
// only spend the time.
func unrouted(o *order) bool {
	return unreached(o) || sentBackByLayout(o) || (shortOfFleet(o.reason) && !o.offered)
}

// pastLimit is pc for the steps a plan takes after its time limit
// (routeUnreached, routeUnrouted): its deadlines are span from now, a
// safety net, since those steps are bounded by budgets of their own.
func (pc *planContext) pastLimit(span time.Duration) *planContext {
	over := *pc
	over.deadline = pc.now().Add(span)
	over.routingDeadline = over.deadline
	return &over
}
