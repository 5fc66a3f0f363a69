package routeplan

import "math/rand/v2"

// localSearch applies improving moves between neighbouring sites until none
// is left or stop says so: relocate (before or after a neighbour), swap,
// 2-opt inside a route and 2-opt* between routes. Candidates are screened
// cheaply first (constant-time checks on fast instances, segment bounds on
// the others, see segment.go); every move applied is simulated in full, so
// every rule of the model is honoured exactly.
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

// pair is a candidate pair of neighbouring sites u and v, with their routes
// and positions; every operator tries to make them adjacent.
type pair struct {
	u, v   int
	ku, kv int // route indices
	pu, pv int // positions in the routes
	ru, rv *route
}

// tryMoves applies the first improving move on u and v. Each kind of move
// lives in its own file; they are tried in this order, called directly so
// that the pair stays on the stack (through a slice of functions it
// escaped, one allocation per pair and a garbage collection every few
// milliseconds).
func (st *state) tryMoves(u, v int, sc *scratch) bool {
	p := pair{u: u, v: v, ku: st.where[u], kv: st.where[v], pu: st.pos[u], pv: st.pos[v]}
	p.ru, p.rv = st.routes[p.ku], st.routes[p.kv]
	return relocate(st, &p, sc) || swap(st, &p, sc) || twoOpt(st, &p, sc) || twoOptStar(st, &p, sc)
}

// gain reports whether giving routes k1 and k2 the given sizes and
// distances improves the objective (fast instances only).
func (st *state) gain(k1, n1 int, d1 float64, k2, n2 int, d2 float64) bool {
	r1, r2 := st.routes[k1], st.routes[k2]
	d := st.in.distObjective(r1.typ, n1, d1).add(st.in.distObjective(r2.typ, n2, d2)).sub(r1.obj).sub(r2.obj)
	return d.less(objective{})
}

// apart reports whether u and v are in one route and not next to each
// other: then a relocate or swap changes a few arcs whose lengths can be
// added up before building the move.
func (p *pair) apart() bool { return p.ku == p.kv && (p.pu-p.pv > 1 || p.pv-p.pu > 1) }

// improveOne replaces route k by sc.seq, the same sites in another order,
// when that is feasible and better; sc.seq differs from the route at
// indices lo to hi only.
func (st *state) improveOne(k, lo, hi int, sc *scratch) bool {
	r := st.routes[k]
	// Skip the simulation of the (many) candidates whose lower bound is
	// already no better, or that are certainly infeasible.
	if lb, ok := st.in.boundMove(r, sc.seq, lo, hi, &sc.j1); !ok || !lb.sub(r.obj).less(objective{}) {
		return false
	}
	if st.in.evaluate(r.typ, sc.seq, &sc.sch, false) != feasible {
		return false
	}
	d := st.in.routeObjective(len(sc.seq), sc.sch.dist, sc.sch.cost).sub(r.obj)
	if !d.less(objective{}) {
		return false
	}
	st.setRoute(k, sc.seq, sc.sch.dist, sc.sch.cost)
	return true
}

// improveTwo replaces routes k1 and k2 by sc.seq and sc.seq2 when both are
// feasible and the pair is better.
func (st *state) improveTwo(k1, k2 int, sc *scratch) bool {
	r1, r2 := st.routes[k1], st.routes[k2]
	lb2 := objective{} // no route costs less (costs are not negative)
	if !st.in.fast {
		if !st.in.boundRoute(&sc.j1, r1, sc.seq, r2) || !st.in.boundRoute(&sc.j2, r2, sc.seq2, r1) {
			return false
		}
		var ok bool
		if lb2, ok = st.boundPair(k1, &sc.j1, k2, &sc.j2); !ok {
			return false
		}
	}
	return st.settleTwo(k1, k2, lb2, sc)
}

// improvePair is improveTwo for candidates given as joins: routes whose
// bound rules them out are never built.
func (st *state) improvePair(k1 int, j1 *join, k2 int, j2 *join, sc *scratch) bool {
	in := st.in
	if !in.joinAllowed(j1) || !in.joinAllowed(j2) {
		return false
	}
	lb2, ok := st.boundPair(k1, j1, k2, j2)
	if !ok {
		return false
	}
	sc.seq = j1.build(sc.seq)
	sc.seq2 = j2.build(sc.seq2)
	return st.settleTwo(k1, k2, lb2, sc)
}

// boundPair reports whether the joins j1 and j2, replacing routes k1 and
// k2, may be feasible and better: sums first, then timing. It returns the
// lower bound of j2's objective it reached.
func (st *state) boundPair(k1 int, j1 *join, k2 int, j2 *join) (objective, bool) {
	in := st.in
	r1, r2 := st.routes[k1], st.routes[k2]
	if !j1.known() || !j2.known() {
		lb2 := in.lowerBound(r2.typ, j2.build(nil))
		return lb2, in.lowerBound(r1.typ, j1.build(nil)).add(lb2).sub(r1.obj).sub(r2.obj).less(objective{})
	}
	for to := int8(boundDistances); to <= boundTimed; to++ {
		if !in.advance(j1, to) || !in.advance(j2, to) || !j1.cheap.add(j2.cheap).sub(r1.obj).sub(r2.obj).less(objective{}) {
			return objective{}, false
		}
	}
	return j2.cheap, true
}

// settleTwo simulates sc.seq and sc.seq2 as routes k1 and k2 and takes
// them when both are feasible and the pair is better. lb2 is a lower bound
// of the objective of sc.seq2: when the first route's exact objective plus
// lb2 is no better, the second is not simulated.
func (st *state) settleTwo(k1, k2 int, lb2 objective, sc *scratch) bool {
	r1, r2 := st.routes[k1], st.routes[k2]
	if st.in.evaluate(r1.typ, sc.seq, &sc.sch, false) != feasible {
		return false
	}
	obj1 := st.in.routeObjective(len(sc.seq), sc.sch.dist, sc.sch.cost)
	if !obj1.add(lb2).sub(r1.obj).sub(r2.obj).less(objective{}) {
		return false
	}
	if st.in.evaluate(r2.typ, sc.seq2, &sc.sch2, false) != feasible {
		return false
	}
	d := obj1.add(st.in.routeObjective(len(sc.seq2), sc.sch2.dist, sc.sch2.cost)).sub(r1.obj).sub(r2.obj)
	if !d.less(objective{}) {
		return false
	}
	st.setRoute(k1, sc.seq, sc.sch.dist, sc.sch.cost)
	st.setRoute(k2, sc.seq2, sc.sch2.dist, sc.sch2.cost)
	return true
}

// boundMove bounds seq, r's sites in another order that differs from r's
// at indices lo to hi only: a lower bound of its objective, and false when
// it is certainly infeasible. Candidates whose sums already reach r's
// objective are not timed. On fast instances, or without segments, the
// bound is the distance and work of the sites.
func (in *instance) boundMove(r *route, seq []int, lo, hi int, jn *join) (objective, bool) {
	if in.fast || !r.fc.sg.ok {
		return in.lowerBound(r.typ, seq), true
	}
	// r's prefix up to lo and suffix after hi, the rest played through;
	// every site is r's own, so it allows r's type. The callers bound the
	// distances first (reorderBound), so the first comparison is after the
	// sums.
	jn.set(r, lo, seq[lo:hi+1], r, hi+2)
	for to := int8(boundLegs); to <= boundTimed; to++ {
		if !in.advance(jn, to) {
			return objective{}, false
		}
		if !jn.cheap.sub(r.obj).less(objective{}) {
			break
		}
	}
	return jn.cheap, true
}
