package routeplan

import "math/rand/v2"

// localSearch applies improving moves between neighbouring sites until none
// is left or stop says so: relocate (before or after a neighbour), swap,
// 2-opt inside a route and 2-opt* between routes. Every candidate route is
// re-simulated, so every rule of the model is honoured exactly.
//
// With only set, it starts from those sites (the ones a ruin moved).
func (st *state) localSearch(nb *neighbours, rng *rand.Rand, sc *scratch, stop func() bool, only []int) {
	order := make([]int, 0, len(st.in.sites))
	if only != nil {
		order = append(order, only...)
	} else {
		for u := range st.in.sites {
			if st.where[u] >= 0 {
				order = append(order, u)
			}
		}
	}
	for improved := true; improved; {
		improved = false
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		for _, u := range order {
			if stop() {
				return
			}
			for _, v := range nb.of(u) {
				if st.where[u] < 0 || st.where[v] < 0 {
					continue
				}
				if st.tryMoves(u, v, sc) {
					improved = true
				}
			}
		}
	}
	st.dropEmpty()
}

// tryMoves tries every move that makes u and v adjacent and applies the first
// that improves the objective.
func (st *state) tryMoves(u, v int, sc *scratch) bool {
	ku, kv := st.where[u], st.where[v]
	ru, rv := st.routes[ku], st.routes[kv]
	pu, pv := st.pos[u], st.pos[v]
	if ku == kv {
		seq := ru.seq
		// On fast instances, when u and v are not adjacent, the distance
		// change of a relocate or swap is a few arcs: rule out the moves
		// that do not shorten the route before building them.
		var relocDelta [2]float64
		swapDelta := -1.0
		cheap := st.in.fast && (pu-pv > 1 || pv-pu > 1)
		if cheap {
			loc := ru.fc.loc
			nu, nv := pu+1, pv+1
			lu, lv := loc[nu], loc[nv]
			d := st.in.legDist
			rem := d(loc[nu-1], loc[nu+1]) - d(loc[nu-1], lu) - d(lu, loc[nu+1])
			relocDelta[0] = rem + d(lv, lu) + d(lu, loc[nv+1]) - d(lv, loc[nv+1])
			relocDelta[1] = rem + d(loc[nv-1], lu) + d(lu, lv) - d(loc[nv-1], lv)
			swapDelta = d(loc[nu-1], lv) + d(lv, loc[nu+1]) + d(loc[nv-1], lu) + d(lu, loc[nv+1]) -
				d(loc[nu-1], lu) - d(lu, loc[nu+1]) - d(loc[nv-1], lv) - d(lv, loc[nv+1])
		}
		// Relocate u right after v, then right before v.
		for m, after := range []bool{true, false} {
			if cheap && relocDelta[m] > -1e-9 {
				continue
			}
			sc.seq = sc.seq[:0]
			for _, s := range seq {
				if s == u {
					continue
				}
				if s == v && !after {
					sc.seq = append(sc.seq, u)
				}
				sc.seq = append(sc.seq, s)
				if s == v && after {
					sc.seq = append(sc.seq, u)
				}
			}
			if st.improveOne(ku, sc) {
				return true
			}
		}
		// Swap u and v.
		if !cheap || swapDelta < -1e-9 {
			sc.seq = append(sc.seq[:0], seq...)
			sc.seq[pu], sc.seq[pv] = v, u
			if st.improveOne(ku, sc) {
				return true
			}
		}
		// 2-opt: reverse the stretch so that v follows u.
		if pu < pv {
			sc.seq = append(sc.seq[:0], seq...)
			for a, b := pu+1, pv; a < b; a, b = a+1, b-1 {
				sc.seq[a], sc.seq[b] = sc.seq[b], sc.seq[a]
			}
			if st.improveOne(ku, sc) {
				return true
			}
		}
		return false
	}
	fast := st.in.fast
	gain := func(k1 int, n1 int, d1 float64, k2 int, n2 int, d2 float64) bool {
		r1, r2 := st.routes[k1], st.routes[k2]
		d := st.in.distObjective(r1.typ, n1, d1).add(st.in.distObjective(r2.typ, n2, d2)).sub(r1.obj).sub(r2.obj)
		return d.less(objective{})
	}
	// Relocate u into v's route, after then before v.
	for _, p := range []int{pv + 1, pv} {
		if fast {
			if !st.in.allowed[u][rv.typ] {
				continue
			}
			dr, di := st.in.removeDist(ru, pu+1), st.in.insertDist(rv, p, u)
			if !gain(kv, len(rv.seq)+1, rv.baseDist()+di, ku, len(ru.seq)-1, ru.baseDist()+dr) ||
				!st.in.canRemove(ru, pu+1) || !st.in.canInsert(rv, p, u) {
				continue
			}
		}
		sc.seq = withInsert(sc.seq, rv.seq, u, p)
		sc.seq2 = append(sc.seq2[:0], ru.seq[:pu]...)
		sc.seq2 = append(sc.seq2, ru.seq[pu+1:]...)
		if st.improveTwo(kv, ku, sc) {
			return true
		}
	}
	// Swap u and v.
	swapOK := true
	if fast {
		d1, d2 := st.in.replaceDist(rv, pv+1, u), st.in.replaceDist(ru, pu+1, v)
		swapOK = gain(kv, len(rv.seq), rv.baseDist()+d1, ku, len(ru.seq), ru.baseDist()+d2) &&
			st.in.allowed[u][rv.typ] && st.in.allowed[v][ru.typ] &&
			st.in.canReplace(rv, pv+1, u) && st.in.canReplace(ru, pu+1, v)
	}
	if swapOK {
		sc.seq = append(sc.seq[:0], rv.seq...)
		sc.seq[pv] = u
		sc.seq2 = append(sc.seq2[:0], ru.seq...)
		sc.seq2[pu] = v
		if st.improveTwo(kv, ku, sc) {
			return true
		}
	}
	// 2-opt*: u's route continues with v and the rest of v's route; v's
	// route takes the rest of u's.
	if fast && ru.typ == rv.typ {
		d1, d2 := st.in.joinDist(ru, pu+1, rv, pv+1), st.in.joinDist(rv, pv, ru, pu+2)
		if !gain(ku, pu+1+len(rv.seq)-pv, d1, kv, pv+len(ru.seq)-pu-1, d2) ||
			!st.in.canJoin(ru, pu+1, rv, pv+1) || !st.in.canJoin(rv, pv, ru, pu+2) {
			return false
		}
	}
	sc.seq = append(sc.seq[:0], ru.seq[:pu+1]...)
	sc.seq = append(sc.seq, rv.seq[pv:]...)
	sc.seq2 = append(sc.seq2[:0], rv.seq[:pv]...)
	sc.seq2 = append(sc.seq2, ru.seq[pu+1:]...)
	return st.improveTwo(ku, kv, sc)
}

// improveOne replaces route k by sc.seq when that is feasible and better.
func (st *state) improveOne(k int, sc *scratch) bool {
	r := st.routes[k]
	// Skip the simulation of the (many) candidates whose lower bound is
	// already no better.
	if !st.in.lowerBound(r.typ, sc.seq).sub(r.obj).less(objective{}) {
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
	if !st.in.fast && !st.in.lowerBound(r1.typ, sc.seq).add(st.in.lowerBound(r2.typ, sc.seq2)).sub(r1.obj).sub(r2.obj).less(objective{}) {
		return false
	}
	if st.in.evaluate(r1.typ, sc.seq, &sc.sch, false) != feasible {
		return false
	}
	if st.in.evaluate(r2.typ, sc.seq2, &sc.sch2, false) != feasible {
		return false
	}
	d := st.in.routeObjective(len(sc.seq), sc.sch.dist, sc.sch.cost).add(st.in.routeObjective(len(sc.seq2), sc.sch2.dist, sc.sch2.cost)).sub(r1.obj).sub(r2.obj)
	if !d.less(objective{}) {
		return false
	}
	st.setRoute(k1, sc.seq, sc.sch.dist, sc.sch.cost)
	st.setRoute(k2, sc.seq2, sc.sch2.dist, sc.sch2.cost)
	return true
}
