package engine

import "context"

// unroutedIterations is the search iterations of the round that routes a
// re-plan's unrouted orders after the time limit (routeUnrouted): the
// construction places every order the fleet can carry, and a few
// iterations join the smallest of its routes. On the 1,000-store night
// of haulbench replan, with the limit ended before routing began (all of
// some 700 late orders unrouted), on a machine busy with other work: the
// construction takes about 0.25 s, 10 iterations more give 487–510
// routes, 50 give 471–492 in 0.3 s, 200 give 467 in 0.55 s.
const unroutedIterations = 50

// routeUnrouted routes, once the planning phases are over, the orders of
// a re-plan that the time limit left unrouted (unrouted): those the
// search had not come to when it ended, those a route's layout sent back
// after the last round, and those short of fleet whose offer of the room
// left on the routes the limit cut short. A re-plan keeps most of the
// previous plan and has little time (the phases before routing take a
// large part of DefaultReplanTimeLimit, and more on a busy machine), and
// a late pallet left behind for want of time is what a dispatcher cannot
// use: so these orders get a routing round more past the limit, with the
// fleet left, in one search stream of unroutedIterations iterations (and
// up to routingRounds in all, for what a layout sends back), and then
// the room left on the routes (fillSpareRoom), each step bounded by its
// own budget. The limit again from now is a safety net on a machine too
// busy for those budgets. It routes nothing once ctx has ended, and
// returns the rounds run in all, counting on from rounds.
func routeUnrouted(ctx context.Context, pc *planContext, fleet *fleetState, rounds int) (int, error) {
	pool := fleet.takeLeftOut(unrouted)
	if len(pool) == 0 {
		return rounds, nil
	}
	over := pc.pastLimit()
	budget := roundBudget{until: over.deadline, iterations: unroutedIterations, streams: 1}
	for round := 0; round < routingRounds && len(pool) > 0 && !over.stopped(ctx); round++ {
		var err error
		if pool, _, err = routeRound(ctx, over, fleet, pool, budget, rounds); err != nil {
			return rounds, err
		}
		rounds++
	}
	fleet.leaveOut(pool)
	fillSpareRoomFor(ctx, over, fleet, func(o *order) bool { return routedAgain(o) && !o.offered })
	return rounds, nil
}

// unrouted reports whether order o, left out, was left for want of time:
// the search had not come to it (NOT_PLANNED), a route's layout sent it
// back after the last round that routed it, or routing found no trailer,
// driver or door for it and the time limit cut short the offer of the
// room left on the routes (fillSpareRoom; not offered). An order that
// every phase tried in full is left for want of room, and is not tried
// again: on a day short of trailers, trying those again would only spend
// the time.
func unrouted(o *order) bool {
	return o.reason == ReasonNotPlanned || sentBackByLayout(o) || (shortOfFleet(o.reason) && !o.offered)
}

// pastLimit is pc for the steps a re-plan takes after its time limit
// (routeUnrouted): its deadlines are the limit again from now, a safety
// net, since those steps are bounded by budgets of their own.
func (pc *planContext) pastLimit() *planContext {
	over := *pc
	over.deadline = pc.now().Add(pc.limit)
	over.routingDeadline = over.deadline
	return &over
}
