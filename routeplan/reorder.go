package routeplan

import "math"

// Moves inside a route (relocate, swap, 2-opt) keep its sites, so its load
// and loading: they are bounded from the distances of their new legs and
// the route's segments before the route is built.

// reorderBound is a lower bound of the objective of route r after a change
// that keeps its sites (so its load and loading) and replaces some of its
// legs by legs whose distance differs by dDist: its work, busy (the
// route's, plus the durations of the new legs, less those of the legs
// removed: see movedBusy), less at most the stop service of the nodes in
// changed, whose predecessors change; or the head of the nodes before
// them, the service of the nodes among them and the tail of the nodes
// after. lo and hi are the first and last node of changed, which the
// callers know from the move's shape: finding them costs a loop that runs
// for nearly every move inside a route; changed itself is read only under
// stop service. In the Solomon case the distance is all the objective
// counts, and busy is not read (the callers pass 0 there: see
// timesCount).
func (in *instance) reorderBound(r *route, dDist, busy float64, lo, hi int, changed []int) objective {
	g := &r.seg
	L := len(r.seq)
	dist := g.distPre[L+1] + dDist
	dist -= 1e-9 * (1 + math.Abs(dist))
	if in.exact || !g.ok {
		// The Solomon case has no time cost; without segments the duty
		// is bounded by nothing.
		return in.boundObjective(r.typ, in.reorderTrips(r), dist, 0)
	}
	if in.stop != nil { // else every charge is 0
		for _, k := range changed {
			busy -= g.nodes[k].charge
		}
	}
	// The nodes before lo keep their times and the order from hi on is
	// kept: the head and tail bound the duty with the service between.
	ends := 0.0
	if lo > 1 {
		ends = g.nodes[lo-1].head
	}
	ends += g.nodes[hi-1].servPre - g.nodes[lo-1].servPre
	if hi <= L {
		if in.stop == nil {
			ends += g.nodes[hi].tail
		} else {
			ends += g.nodes[hi].tailFree
		}
	}
	return in.boundObjective(r.typ, in.reorderTrips(r), dist, g.loading+max(busy, ends))
}

// timesCount reports whether the bounds of moves inside route r read the
// durations of their new legs: outside the Solomon case, where the time
// the route takes counts, and when r has segments to bound with.
func (in *instance) timesCount(r *route) bool { return !in.exact && r.seg.ok }

// movedBusy is the driving and work of route r (stop service aside) with
// the new legs' durations, added, in, and the legs leaving nodes a, b and
// c out, in that order; c < 0 when two legs are removed. A swap of sites
// apart removes a fourth (see swapBound).
func (r *route) movedBusy(added float64, a, b, c int) float64 {
	nodes := r.seg.nodes
	busy := nodes[len(r.seq)+1].busyPre + added - nodes[a].leg - nodes[b].leg
	if c >= 0 {
		busy -= nodes[c].leg
	}
	return busy
}

// swapNextBound is reorderBound for exchanging nodes x and x+1 of r (two
// sites next to each other).
func (in *instance) swapNextBound(r *route, x int) objective {
	g := &r.seg
	a, b, c, d := g.locs[x-1], g.locs[x], g.locs[x+1], g.locs[x+2]
	delta := in.legDist(a, c) + in.legDist(c, b) + in.legDist(b, d) - in.legDist(a, b) - in.legDist(b, c) - in.legDist(c, d)
	busy := 0.0
	if in.timesCount(r) {
		busy = r.movedBusy(in.legDur(a, c)+in.legDur(c, b)+in.legDur(b, d), x-1, x, x+1)
	}
	return in.reorderBound(r, delta, busy, x, x+2, []int{x, x + 1, x + 2})
}

// relocateDelta is the change in distance of route r when the site at
// node nu moves right after (or before) the site at node nv, two nodes
// apart at least.
func (in *instance) relocateDelta(r *route, nu, nv int, after bool) float64 {
	g := &r.seg
	lu, lv := g.locs[nu], g.locs[nv]
	rem := in.legDist(g.locs[nu-1], g.locs[nu+1]) - in.legDist(g.locs[nu-1], lu) - in.legDist(lu, g.locs[nu+1])
	if after {
		return rem + in.legDist(lv, lu) + in.legDist(lu, g.locs[nv+1]) - in.legDist(lv, g.locs[nv+1])
	}
	return rem + in.legDist(g.locs[nv-1], lu) + in.legDist(lu, lv) - in.legDist(g.locs[nv-1], lv)
}

// relocateBound is reorderBound for moving the site at node nu of r right
// after (or before) the site at node nv, two nodes apart at least.
func (in *instance) relocateBound(r *route, nu, nv int, after bool) objective {
	delta := in.relocateDelta(r, nu, nv, after)
	busy := 0.0
	if in.timesCount(r) {
		g := &r.seg
		lu, lv := g.locs[nu], g.locs[nv]
		added := in.legDur(g.locs[nu-1], g.locs[nu+1])
		if after {
			added += in.legDur(lv, lu) + in.legDur(lu, g.locs[nv+1])
			busy = r.movedBusy(added, nu-1, nu, nv)
		} else {
			added += in.legDur(g.locs[nv-1], lu) + in.legDur(lu, lv)
			busy = r.movedBusy(added, nu-1, nu, nv-1)
		}
	}
	if after {
		return in.reorderBound(r, delta, busy, min(nu, nv+1), max(nu+1, nv+1), []int{nu, nu + 1, nv + 1})
	}
	return in.reorderBound(r, delta, busy, min(nu, nv), max(nu+1, nv), []int{nu, nu + 1, nv})
}

// swapDelta is the change in distance of route r when the sites at nodes
// nu and nv, two nodes apart at least, change places.
func (in *instance) swapDelta(r *route, nu, nv int) float64 {
	g := &r.seg
	lu, lv := g.locs[nu], g.locs[nv]
	return in.legDist(g.locs[nu-1], lv) + in.legDist(lv, g.locs[nu+1]) + in.legDist(g.locs[nv-1], lu) + in.legDist(lu, g.locs[nv+1]) -
		in.legDist(g.locs[nu-1], lu) - in.legDist(lu, g.locs[nu+1]) - in.legDist(g.locs[nv-1], lv) - in.legDist(lv, g.locs[nv+1])
}

// swapBound is reorderBound for exchanging the sites at nodes nu and nv of
// r, two nodes apart at least.
func (in *instance) swapBound(r *route, nu, nv int) objective {
	busy := 0.0
	if in.timesCount(r) {
		g := &r.seg
		lu, lv := g.locs[nu], g.locs[nv]
		added := in.legDur(g.locs[nu-1], lv) + in.legDur(lv, g.locs[nu+1]) + in.legDur(g.locs[nv-1], lu) + in.legDur(lu, g.locs[nv+1])
		busy = r.movedBusy(added, nu-1, nu, nv-1) - g.nodes[nv].leg
	}
	return in.reorderBound(r, in.swapDelta(r, nu, nv), busy, min(nu, nv), max(nu+1, nv+1), []int{nu, nu + 1, nv, nv + 1})
}

// reverseBound is reorderBound for reversing nodes a+1..b of r (a < b),
// on symmetric matrices only: the two legs at the ends of the stretch change,
// and every site of it gets a new predecessor. nodes is scratch space.
func (in *instance) reverseBound(r *route, a, b int, nodes []int) (objective, []int) {
	g := &r.seg
	loc := func(k int) int { return g.locs[k] }
	delta := in.legDist(loc(a), loc(b)) + in.legDist(loc(a+1), loc(b+1)) - in.legDist(loc(a), loc(a+1)) - in.legDist(loc(b), loc(b+1))
	busy := 0.0
	if in.timesCount(r) {
		// The legs inside the stretch keep their durations, reversed on
		// symmetric matrices.
		busy = r.movedBusy(in.legDur(loc(a), loc(b))+in.legDur(loc(a+1), loc(b+1)), a, b, -1)
	}
	nodes = nodes[:0]
	if in.stop != nil { // else reorderBound reads only the first and last
		for k := a + 1; k <= b+1; k++ {
			nodes = append(nodes, k)
		}
	}
	return in.reorderBound(r, delta, busy, a+1, b+1, nodes), nodes
}
