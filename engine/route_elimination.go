package engine

import (
	"cmp"
	"context"
	"slices"
)

// Bounds of eliminateRoutes: the share of the time limit it has (Plan
// routes until limit/eliminationShare before the deadline), and the
// insertions it times and lays out in all (about 25,000 try every route of
// a 1,000-store day, in about 1.5 s on one core).
const (
	eliminationShare = 20
	eliminationTries = 50000
)

// replanReach is how many routes, nearest first, are offered an order of
// a route taken off in a re-plan: its time limit is short, and a route
// that passes near is where a part is most often on time, so it tries
// more routes rather than every route for each.
const replanReach = 12

// eliminateRoutes takes routes off the plan while the other routes can
// carry their pallets: the routes with the fewest floor positions first,
// each of the route's orders spread over the room left on the others,
// nearest first (see spreadOrderOver), and where that is not enough, over
// room made by moving another order whole (makeRoomFor); so a store's
// pallets of one class may come on two trailers, unless the request asks
// for whole deliveries (see carry). A route kept from a previous plan
// (placedRoute.kept) is never taken off. A route goes only when every one
// of its pallets finds room, and then its trailer and shift are free again; otherwise the plan stays as it was.
// Routing moves whole orders, so a trailer or two of room scattered a
// position or two a route stays out of its reach; this is where the
// trailers-first objective gets it. The tries are bounded in number, so
// that an iteration budget gives the same plan on any machine, and by the
// time limit, within an attempt too (one may take thousands of tries). It
// reports how many routes it took off.
func eliminateRoutes(ctx context.Context, pc *planContext, fleet *fleetState) int {
	m := pc.m
	tries := 0
	candidates := make([]int, len(fleet.routes))
	for i := range candidates {
		candidates[i] = i
	}
	positions := func(i int) int { return fleet.routes[i].Metrics.Positions }
	slices.SortStableFunc(candidates, func(a, b int) int { return cmp.Compare(positions(a), positions(b)) })
	var gone []int // indices into fleet.routes taken off, in the order tried
	for _, ri := range candidates {
		if tries >= eliminationTries || pc.stopped(ctx) {
			break
		}
		if fleet.placed[ri].kept {
			continue // its stores would move
		}
		need := 0
		for _, o := range fleet.placed[ri].orders {
			need += o.load.Positions
		}
		if fleet.spareFloor(m, ri, gone) < need {
			continue
		}
		routes, placed := slices.Clone(fleet.routes), slices.Clone(fleet.placed)
		ok := true
		// The largest orders first: they are the hardest to place, and a
		// route that cannot go fails soonest.
		orders := slices.Clone(placed[ri].orders)
		slices.SortStableFunc(orders, func(a, b *order) int { return cmp.Compare(len(b.pallets), len(a.pallets)) })
		for _, o := range orders {
			rest := *o
			rest.pallets = slices.Clone(o.pallets)
			rest.prefer = nil // routing's preference: any room will do now
			near := fleet.nearestRoutes(m, o.store, ri, gone)
			if fleet.previous != nil {
				// A re-plan has a short time limit for this: it offers
				// each order to the routes passing nearest that have
				// floor left (most routes kept from the previous plan
				// are full), where it is most often on time, so as to
				// try more routes.
				near = slices.DeleteFunc(near, func(x int) bool { return fleet.roomLeft(m, x).Positions <= 0 })
				near = near[:min(len(near), replanReach)]
			}
			carry(ctx, pc, fleet, &rest, near, &tries)
			if len(rest.pallets) > 0 {
				makeRoomFor(ctx, pc, fleet, &rest, near[:min(len(near), ejectionReach)], append(slices.Clone(gone), ri), &tries)
			}
			if len(rest.pallets) > 0 {
				ok = false
				break
			}
		}
		if !ok {
			fleet.routes, fleet.placed = routes, placed
			continue
		}
		gone = append(gone, ri)
	}
	if len(gone) == 0 {
		return 0
	}
	slices.Sort(gone)
	fleet.dropRoutes(m, gone)
	return len(gone)
}

// ejectionReach is how many routes, nearest first, makeRoomFor empties
// of an order, and how many it offers that order to.
const ejectionReach = 6

// makeRoomFor puts more of o's pallets on the routes near, nearest first,
// by moving one other order of such a route whole to another route that
// passes near that order's store and has room for it; a move that makes
// no room for o is undone. Routes in off take nothing.
func makeRoomFor(ctx context.Context, pc *planContext, fleet *fleetState, o *order, near []int, off []int, tries *int) {
	for _, si := range near {
		if len(o.pallets) == 0 || *tries >= eliminationTries || pc.stopped(ctx) {
			return
		}
		if !pc.m.compatible(o, fleet.placed[si].kind) {
			continue
		}
		for yi := 0; yi < len(fleet.placed[si].orders) && len(o.pallets) > 0; yi++ {
			y := fleet.placed[si].orders[yi]
			if y.store == o.store {
				continue
			}
			routes, placed := slices.Clone(fleet.routes), slices.Clone(fleet.placed)
			left := len(o.pallets)
			if moveOrder(ctx, pc, fleet, si, yi, append(slices.Clone(off), si), tries) {
				carry(ctx, pc, fleet, o, []int{si}, tries)
			}
			if len(o.pallets) == left {
				fleet.routes, fleet.placed = routes, placed
				continue
			}
			yi = -1 // route si changed: look at its orders again
		}
	}
}

// moveOrder moves the order at position yi of route si whole to one of
// the routes nearest its store (but si and those in off), and times and
// lays out route si without it. It reports whether it did; when it did
// not, the routes may have changed and the caller restores them.
func moveOrder(ctx context.Context, pc *planContext, fleet *fleetState, si, yi int, off []int, tries *int) bool {
	m := pc.m
	if fleet.placed[si].kept {
		// A route kept from the previous plan keeps its stores: moving
		// one off would move the store and retime the stops after it.
		return false
	}
	y := fleet.placed[si].orders[yi]
	moved := *y
	moved.pallets = slices.Clone(y.pallets)
	moved.prefer = nil
	targets := fleet.nearestRoutes(m, y.store, -1, off)
	placeWhole(ctx, pc, fleet, &moved, targets[:min(len(targets), ejectionReach)], tries)
	if len(moved.pallets) > 0 {
		return false
	}
	seq := slices.Delete(slices.Clone(fleet.placed[si].orders), yi, yi+1)
	*tries++
	return fleet.replaceOrders(m, si, seq)
}

// carry puts o's pallets on the routes given, nearest first, as the
// request allows: whole on one route under Options.WholeDeliveries, else
// spread over as many as it takes (spreadOrderOver).
func carry(ctx context.Context, pc *planContext, fleet *fleetState, o *order, routes []int, tries *int) {
	if pc.m.req.Options.WholeDeliveries {
		placeWhole(ctx, pc, fleet, o, routes, tries)
		return
	}
	spreadOrderOver(ctx, pc, fleet, o, routes, tries, eliminationTries)
}

// placeWhole puts all of o's pallets on the first of routes whose room
// left takes them and whose times and floor allow, or none.
func placeWhole(ctx context.Context, pc *planContext, fleet *fleetState, o *order, routes []int, tries *int) {
	for _, ri := range routes {
		t := pc.m.req.Fleet[fleet.placed[ri].kind.trailer]
		if !pc.m.palletsLoad(o.pallets, t).Fits(fleet.roomLeft(pc.m, ri)) {
			continue
		}
		// The room left fits them all, so the route takes all or none;
		// should a part ride alone, the route is put back as it was.
		before, pr, route := *o, fleet.placed[ri], fleet.routes[ri]
		spreadOrderOver(ctx, pc, fleet, o, []int{ri}, tries, eliminationTries)
		if len(o.pallets) == 0 {
			return
		}
		*o, fleet.placed[ri], fleet.routes[ri] = before, pr, route
	}
}
