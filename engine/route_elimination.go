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

// eliminateRoutes takes routes off the plan while the other routes can
// carry their pallets: the routes with the fewest floor positions first,
// each of the route's orders spread over the room left on the others,
// nearest first (see spreadOrderOver), and where that is not enough, over
// room made by moving another order whole (makeRoomFor); so a store's
// pallets of one class may come on two trailers, unless the request asks
// for whole deliveries (see carry). A
// route goes only when every one of its pallets finds room, and then its
// trailer and shift are free again; otherwise the plan stays as it was.
// Routing moves whole orders, so a trailer or two of room scattered a
// position or two a route stays out of its reach; this is where the
// trailers-first objective gets it. The tries are bounded in number, so
// that an iteration budget gives the same plan on any machine, and by the
// time limit, within an attempt too (one may take thousands of tries). It
// reports how many routes it took off.
func (pl *planner) eliminateRoutes(ctx context.Context) int {
	tries := 0
	candidates := make([]int, len(pl.routes))
	for i := range candidates {
		candidates[i] = i
	}
	positions := func(i int) int { return pl.routes[i].Metrics.Positions }
	slices.SortStableFunc(candidates, func(a, b int) int { return cmp.Compare(positions(a), positions(b)) })
	var gone []int // indices into pl.routes taken off, in the order tried
	for _, ri := range candidates {
		if tries >= eliminationTries || pl.stopped(ctx) {
			break
		}
		need := 0
		for _, o := range pl.placed[ri].orders {
			need += o.load.Positions
		}
		if pl.spareFloor(ri, gone) < need {
			continue
		}
		routes, placed := slices.Clone(pl.routes), slices.Clone(pl.placed)
		ok := true
		// The largest orders first: they are the hardest to place, and a
		// route that cannot go fails soonest.
		orders := slices.Clone(placed[ri].orders)
		slices.SortStableFunc(orders, func(a, b *order) int { return cmp.Compare(len(b.pallets), len(a.pallets)) })
		for _, o := range orders {
			rest := *o
			rest.pallets = slices.Clone(o.pallets)
			rest.prefer = nil // routing's preference: any room will do now
			near := pl.nearestRoutes(o.store, ri, gone)
			pl.carry(ctx, &rest, near, &tries)
			if len(rest.pallets) > 0 {
				pl.makeRoomFor(ctx, &rest, near[:min(len(near), ejectionReach)], append(slices.Clone(gone), ri), &tries)
			}
			if len(rest.pallets) > 0 {
				ok = false
				break
			}
		}
		if !ok {
			pl.routes, pl.placed = routes, placed
			continue
		}
		gone = append(gone, ri)
	}
	if len(gone) == 0 {
		return 0
	}
	slices.Sort(gone)
	for k := len(gone) - 1; k >= 0; k-- {
		ri := gone[k]
		kind := pl.placed[ri].kind
		pl.trailersLeft[kind.trailer]++
		pl.returnShift(kind.group, pl.routes[ri].Shift)
		pl.routes = slices.Delete(pl.routes, ri, ri+1)
		pl.placed = slices.Delete(pl.placed, ri, ri+1)
	}
	return len(gone)
}

// routeLeftovers routes again the orders left behind for want of a
// trailer or a driver, with the units route elimination freed, until the
// time limit (an iteration budget, when set, as for every routing round).
func (pl *planner) routeLeftovers(ctx context.Context) error {
	var pool, kept []*order
	for _, o := range pl.final {
		if len(o.pallets) > 0 && o.reason == ReasonFleetExhausted {
			pool = append(pool, o)
		} else {
			kept = append(kept, o)
		}
	}
	if len(pool) == 0 {
		return nil
	}
	pl.final = kept
	for round := 0; round < routingRounds && len(pool) > 0 && !pl.stopped(ctx) && !pl.routingCut; round++ {
		var err error
		pool, err = pl.route(ctx, pool, pl.deadline, pl.rounds)
		if err != nil {
			return err
		}
		pl.rounds++
	}
	for _, o := range pool {
		if o.reason == "" {
			o.reason = ReasonNotPlanned
		}
		pl.final = append(pl.final, o)
	}
	return nil
}

// ejectionReach is how many routes, nearest first, makeRoomFor empties
// of an order, and how many it offers that order to.
const ejectionReach = 6

// makeRoomFor puts more of o's pallets on the routes near, nearest first,
// by moving one other order of such a route whole to another route that
// passes near that order's store and has room for it; a move that makes
// no room for o is undone. Routes in off take nothing.
func (pl *planner) makeRoomFor(ctx context.Context, o *order, near []int, off []int, tries *int) {
	for _, si := range near {
		if len(o.pallets) == 0 || *tries >= eliminationTries || pl.stopped(ctx) {
			return
		}
		if !pl.compatible(o, pl.placed[si].kind) {
			continue
		}
		for yi := 0; yi < len(pl.placed[si].orders) && len(o.pallets) > 0; yi++ {
			y := pl.placed[si].orders[yi]
			if y.store == o.store {
				continue
			}
			routes, placed := slices.Clone(pl.routes), slices.Clone(pl.placed)
			left := len(o.pallets)
			if pl.moveOrder(ctx, si, yi, append(slices.Clone(off), si), tries) {
				pl.carry(ctx, o, []int{si}, tries)
			}
			if len(o.pallets) == left {
				pl.routes, pl.placed = routes, placed
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
func (pl *planner) moveOrder(ctx context.Context, si, yi int, off []int, tries *int) bool {
	y := pl.placed[si].orders[yi]
	moved := *y
	moved.pallets = slices.Clone(y.pallets)
	moved.prefer = nil
	targets := pl.nearestRoutes(y.store, -1, off)
	pl.placeWhole(ctx, &moved, targets[:min(len(targets), ejectionReach)], tries)
	if len(moved.pallets) > 0 {
		return false
	}
	pr := &pl.placed[si]
	seq := slices.Delete(slices.Clone(pr.orders), yi, yi+1)
	*tries++
	rr, ok := pl.retime(pr.kind, seq)
	if !ok {
		return false
	}
	route, err := pl.buildRoute(pr.kind, rr, seq)
	if err != nil {
		return false
	}
	route.Shift = pl.routes[si].Shift
	pl.routes[si] = *route
	pr.orders = seq
	return true
}

// carry puts o's pallets on the routes given, nearest first, as the
// request allows: whole on one route under Options.WholeDeliveries, else
// spread over as many as it takes (spreadOrderOver).
func (pl *planner) carry(ctx context.Context, o *order, routes []int, tries *int) {
	if pl.m.req.Options.WholeDeliveries {
		pl.placeWhole(ctx, o, routes, tries)
		return
	}
	pl.spreadOrderOver(ctx, o, routes, tries, eliminationTries)
}

// placeWhole puts all of o's pallets on the first of routes whose room
// left takes them and whose times and floor allow, or none.
func (pl *planner) placeWhole(ctx context.Context, o *order, routes []int, tries *int) {
	for _, ri := range routes {
		t := pl.m.req.Fleet[pl.placed[ri].kind.trailer]
		if !pl.palletsLoad(o.pallets, t).Fits(pl.roomLeft(ri)) {
			continue
		}
		// The room left fits them all, so the route takes all or none;
		// should a part ride alone, the route is put back as it was.
		before, pr, route := *o, pl.placed[ri], pl.routes[ri]
		pl.spreadOrderOver(ctx, o, []int{ri}, tries, eliminationTries)
		if len(o.pallets) == 0 {
			return
		}
		*o, pl.placed[ri], pl.routes[ri] = before, pr, route
	}
}

// spareFloor is the floor positions left on the placed routes but skip
// and those in gone, as routing counts them.
func (pl *planner) spareFloor(skip int, gone []int) int {
	spare := 0
	for ri, pr := range pl.placed {
		if ri == skip || slices.Contains(gone, ri) {
			continue
		}
		room := pl.kindCapacity(pr.kind).Positions
		for _, o := range pr.orders {
			room -= o.load.Positions
		}
		spare += max(0, room)
	}
	return spare
}

// returnShift puts the shift with the given ID back among group g's free
// shifts, in request order.
func (pl *planner) returnShift(g int, id string) {
	for si, s := range pl.m.req.Shifts {
		if s.ID == id {
			free := pl.groups[g].free
			at, _ := slices.BinarySearch(free, si)
			pl.groups[g].free = slices.Insert(free, at, si)
			return
		}
	}
}

// nearestRoutes lists the placed routes but skip and those in gone, the
// one whose nearest stop is nearest store s first: a part of an order
// rides best, and is most often on time, on a route that passes by.
func (pl *planner) nearestRoutes(s, skip int, gone []int) []int {
	type near struct {
		route int
		m     float64
	}
	var ns []near
	for ri, pr := range pl.placed {
		if ri == skip || slices.Contains(gone, ri) {
			continue
		}
		best := pl.m.matrix.Distance(0, 1+s)
		for _, o := range pr.orders {
			best = min(best, pl.m.matrix.Distance(1+o.store, 1+s))
		}
		ns = append(ns, near{ri, best})
	}
	slices.SortStableFunc(ns, func(a, b near) int { return cmp.Compare(a.m, b.m) })
	out := make([]int, len(ns))
	for k, n := range ns {
		out[k] = n.route
	}
	return out
}
