package routeplan

import "sort"

// Opening a route is the one move whose candidates grow with the fleet:
// with a few hundred vehicle types (shift groups × trailer types × set
// points, say), evaluating a new route of every type for every insertion
// would dominate the search. But a route of one site costs the same
// whatever the rest of the solution, so each site's types are ranked once,
// cheapest first, and an insertion takes the first type whose vehicle and
// resources are free.

// prepareOpenings ranks, for every site, the types that can serve it on a
// route of its own, and returns the sites no type can serve with the
// reason why. Types whose routes are evaluated alike (twins) are evaluated
// once per site.
func (in *instance) prepareOpenings(sc *scratch) (servable, dropped []int, reasons map[int]Reason) {
	reasons = make(map[int]Reason)
	in.opening = make([][]int32, len(in.sites))
	type memo struct {
		done bool
		f    failure
		obj  objective
	}
	memos := make([]memo, len(in.types))
	type ranked struct {
		t   int32
		obj objective
	}
	var list []ranked
	for i := range in.sites {
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
			}
			switch m.f {
			case feasible:
				list = append(list, ranked{int32(t), m.obj})
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
			o := make([]int32, len(list))
			for k, r := range list {
				o[k] = r.t
			}
			in.opening[i] = o
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
	return servable, dropped, reasons
}

// cheapestOpening returns the cheapest type with a free vehicle and free
// resources that serves u on a new route, with that route's schedule in
// sc.sch, or -1 and nil when the fleet has none left for u.
func (in *instance) cheapestOpening(st *state, u int, sc *scratch) (int, *schedule) {
	for _, t := range in.opening[u] {
		if !st.canOpen(int(t)) {
			continue
		}
		sc.seq = append(sc.seq[:0], u)
		if in.evaluateAllowed(int(t), sc.seq, &sc.sch, false) != feasible {
			continue // cannot happen: ranked types serve u alone
		}
		return int(t), &sc.sch
	}
	return -1, nil
}
