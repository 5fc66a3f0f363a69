package routeplan

import "sort"

// A new route is the one move whose candidates grow with the fleet:
// with a few hundred vehicle types (shift groups × trailer types × set
// points, say), evaluating a new route of every type for every insertion
// would dominate the search. But a route of one site costs the same
// whatever the rest of the solution, so each site's types are ranked once,
// cheapest first, and an insertion takes the first type whose vehicle and
// resources are free.

// rankNewRoutes ranks, for every site, the types that can serve it on a
// route of its own, and returns the sites no type can serve with the
// reason why. Types whose routes are evaluated alike (twins) are evaluated
// once per site. It asks stop before each site and returns ok false when
// told to stop.
func (in *instance) rankNewRoutes(sc *scratch, stop func() bool) (servable, dropped []int, reasons map[int]Reason, ok bool) {
	reasons = make(map[int]Reason)
	in.newRouteTypes = make([][]int32, len(in.sites))
	in.newRouteCost = make([][]routeCost, len(in.sites))
	type memo struct {
		done       bool
		f          failure
		obj        objective
		dist, cost float64
	}
	memos := make([]memo, len(in.types))
	type ranked struct {
		t          int32
		obj        objective
		dist, cost float64
	}
	var list []ranked
	for i := range in.sites[:in.nSites] {
		if stop() {
			return nil, nil, nil, false
		}
		clear(memos)
		list = list[:0]
		compatible, fits, window := false, false, false
		for t := range in.types {
			if !in.allowed[i][t] || !in.usable[t] {
				continue
			}
			compatible = true
			m := &memos[in.twin[t]]
			if !m.done {
				sc.seq = append(sc.seq[:0], i)
				m.done = true
				m.f = in.evaluateAllowed(in.twin[t], sc.seq, &sc.sch, false)
				m.obj = in.routeObjective(1, sc.sch.dist, sc.sch.cost)
				m.dist, m.cost = sc.sch.dist, sc.sch.cost
			}
			switch m.f {
			case feasible:
				list = append(list, ranked{int32(t), m.obj, m.dist, m.cost})
				continue
			case failCapacity:
				continue
			case failWindow:
				window = true
			}
			fits = true
		}
		if len(list) > 0 {
			sort.SliceStable(list, func(a, b int) bool { return list[a].obj.less(list[b].obj) })
			o, c := make([]int32, len(list)), make([]routeCost, len(list))
			for k, r := range list {
				o[k], c[k] = r.t, routeCost{r.dist, r.cost}
			}
			in.newRouteTypes[i], in.newRouteCost[i] = o, c
			servable = append(servable, i)
			continue
		}
		switch {
		case !compatible:
			reasons[i] = NoCompatibleVehicle
		case !fits:
			reasons[i] = Capacity
		case window:
			reasons[i] = TimeWindow
		default:
			reasons[i] = ShiftLimit
		}
		dropped = append(dropped, i)
	}
	return servable, dropped, reasons, true
}

// routeCost is the distance and cost of a route.
type routeCost struct{ dist, cost float64 }

// cheapestNewRoute returns the cheapest type with a free vehicle and free
// resources that serves u on a new route, with that route's distance and
// cost (ranked once, see rankNewRoutes), and false when the fleet has
// none left for u. With Timed resources the route must also keep them
// within their counts (holdsFit): a type whose units are all out when u's
// route would hold one gives way to the next.
func (st *state) cheapestNewRoute(u int, sc *scratch) (int, routeCost, bool) {
	in := st.in
	for k, t := range in.newRouteTypes[u] {
		if !st.canOpen(int(t)) {
			continue
		}
		rc := in.newRouteCost[u][k]
		if in.anyTimed {
			if in.loadingHeld && (!st.newRouteLoadingRoom(u, int(t)) || (!in.noReach && !st.newRouteReachesRoom(u, int(t), sc))) {
				continue
			}
			sc.other[0] = u
			if !st.holdsFitOne(-1, int(t), sc.other[:], sc) {
				continue
			}
			rc.cost += sc.heldBackCost // a route that waits for a unit may cost more
		}
		return int(t), rc, true
	}
	return -1, routeCost{}, false
}
