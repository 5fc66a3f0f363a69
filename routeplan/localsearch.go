package routeplan

import "math/rand/v2"

// localSearch applies improving moves between neighbouring sites until none
// is left or stop says so: relocate (before or after a neighbour), swap,
// 2-opt inside a route and 2-opt* between routes (see operator.go).
// Candidates are bounded first from the routes' segments (segment.go,
// join.go, reorder.go), exactly in the Solomon case; every move applied is
// simulated in full, so every rule of the model is honoured exactly.
//
// With only set, it starts from those sites (the ones a ruin moved).
func (st *state) localSearch(nb *neighbours, rng *rand.Rand, sc *scratch, stop func() bool, only []int) {
	order := sc.order[:0]
	defer func() { sc.order = order[:0] }()
	if only != nil {
		order = append(order, only...)
	} else {
		for u := range st.in.sites {
			if st.where[u] >= 0 {
				order = append(order, u)
			}
		}
	}
	// The moves on u and v depend on their routes only: while neither has
	// changed since they last found nothing, they would find nothing again.
	// About a third of the pairs of a search are such repeats (the last
	// pass of every local search, for one).
	width := 0
	for u := range st.in.sites {
		width = max(width, len(nb.of(u)))
	}
	if n := len(st.in.sites) * width; len(sc.tried) < n {
		sc.tried = make([][2]uint64, n)
	}
	// A pass continues the search only when it lowered the objective: with
	// huge or badly scaled numbers, rounding can make a move look like a
	// gain that the next move gives back, and the passes would never end.
	for improved := true; improved; {
		improved = false
		before := st.obj
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, u := range order {
			if stop() {
				return
			}
			for x, v := range nb.of(u) {
				if st.where[u] < 0 || st.where[v] < 0 {
					continue
				}
				routes := [2]uint64{st.routes[st.where[u]].stamp, st.routes[st.where[v]].stamp}
				tried := &sc.tried[u*width+x]
				if *tried == routes {
					continue
				}
				if st.tryMoves(u, v, sc) {
					improved = true
				} else {
					*tried = routes
				}
			}
		}
		improved = improved && st.obj.less(before)
	}
	st.dropEmpty()
}

// tryMoves applies the first improving move on u and v that an operator
// finds, trying them in the order of operators. The pair lives in the
// scratch space: a pointer to a local passed through an interface method
// would make it escape to the heap, one allocation per pair.
func (st *state) tryMoves(u, v int, sc *scratch) bool {
	p := &sc.pair
	p.u, p.v = u, v
	p.ku, p.kv, p.pu, p.pv = st.where[u], st.where[v], st.pos[u], st.pos[v]
	p.ru, p.rv = st.routes[p.ku], st.routes[p.kv]
	for _, op := range st.in.operators() {
		if op.evaluate(st, p, sc) && st.proposalHoldsFit(sc) {
			sc.move.apply(st, sc)
			return true
		}
	}
	return false
}
