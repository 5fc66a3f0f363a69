package routeplan

import (
	"math/rand/v2"
	"slices"
)

// Retyping: when shared resources run out, a site may fit nowhere although
// a route near it would take it if only it were of another type: a route
// of one store's ambient pallets on a dry van, say, while the store's
// chilled pallets need the multi-temperature trailer that could carry
// both, and no driver is free to open a route for them. Inserting the site
// while changing that route's type, when the resources allow the swap, is
// the move that escapes the trap; it is tried only when every ordinary
// insertion failed, and only on a few routes and types, so that it costs
// nothing while the fleet has room.

// Bounds of the retyping search: routes holding the nearest neighbours,
// and the cheapest distinct types that serve the site.
const (
	retypeRoutes = 5
	retypeTypes  = 4
)

// canRetype reports whether route r may become a route of type t: a
// vehicle of t and a unit of each of t's resources that r's own type does
// not already hold are free, and every site of r allows t.
func (st *state) canRetype(r *route, t int) bool {
	if st.used[t] >= st.in.types[t].Count {
		return false
	}
	own := st.in.types[r.typ].Resources
	for _, x := range st.in.types[t].Resources {
		held := false
		for _, y := range own {
			held = held || x == y
		}
		if !held && st.in.countLimited(x) && st.resUsed[x] >= st.in.p.Resources[x].Count {
			return false
		}
	}
	for _, s := range r.seq {
		if !st.in.allowed[s][t] {
			return false
		}
	}
	return true
}

// retype changes route k to type t, moving its vehicle and resources.
func (st *state) retype(k, t int) {
	r := st.routes[k]
	if st.in.anyTimed {
		// Its holds go with the old type: setRoute, after, gives the
		// route its new ones.
		st.registerHolds(r, true)
		r.holds, r.notBefore = r.holds[:0], r.notBefore[:0]
	}
	st.used[r.typ]--
	for _, x := range st.in.types[r.typ].Resources {
		st.resUsed[x]--
	}
	r.typ = t
	r.stamp = st.in.stamps.Add(1)
	st.used[t]++
	for _, x := range st.in.types[t].Resources {
		st.resUsed[x]++
	}
}

// bestRetypedInsertion looks for the cheapest place for u in a route near
// it whose type changes to one of the types that serve u alone.
func (st *state) bestRetypedInsertion(u int, neigh []int, best *insertion, sc *scratch) {
	in := st.in
	var tried [retypeRoutes]int
	nRoutes := 0
	for _, v := range neigh {
		k := st.where[v]
		if k < 0 || nRoutes == retypeRoutes {
			continue
		}
		seen := false
		for _, j := range tried[:nRoutes] {
			seen = seen || j == k
		}
		if seen {
			continue
		}
		tried[nRoutes] = k
		nRoutes++
		r := st.routes[k]
		if in.routeTrips(r) > 1 {
			// A route of several trips changes trailers with every trip
			// at once: too big a move to escape the trap retyping is for.
			continue
		}
		twins := make([]int, 0, retypeTypes)
		for _, t32 := range in.newRouteTypes[u] {
			t := int(t32)
			if len(twins) == retypeTypes {
				break
			}
			if t == r.typ || in.twin[t] == in.twin[r.typ] || !st.canRetype(r, t) {
				continue
			}
			dup := false
			for _, w := range twins {
				dup = dup || in.twin[w] == in.twin[t]
			}
			if dup {
				continue
			}
			twins = append(twins, t)
			for pos := 0; pos <= len(r.seq); pos++ {
				sc.seq = withInsert(sc.seq, r.seq, u, pos)
				if in.evaluateAllowed(t, sc.seq, &sc.sch, false) != feasible {
					continue
				}
				d := in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(r.obj)
				if !best.ok || d.less(best.delta) {
					*best = insertion{k: k, pos: pos, delta: d, dist: sc.sch.dist, cost: sc.sch.cost, ok: true, retype: true, rk: k, typ: t}
				}
			}
		}
	}
}

// bestFreedNewRoute looks for a new route for u whose type is blocked by
// one resource only (the one trailer short enough for u's store, or the
// reefers when ambient freight rides on some, say) that a route elsewhere
// holds but could do without: that route changes to a type that does not
// take the resource, and u's route takes it. The holders are visited from
// a random one on, and at most retypeRoutes that can change are priced,
// so that over the iterations every holder gets its turn at a bounded
// cost.
func (st *state) bestFreedNewRoute(u int, best *insertion, rng *rand.Rand, sc *scratch) {
	in := st.in
	// When no loading of u's route can reach a door with every holder's
	// loadings given up, every candidate fails holdsFit when it is
	// applied: the holders are not priced, but the draws stay the same.
	doomed := in.loadingHeld && !in.noReach && !st.freedNewRoutesReach(u, sc)
	var triedRes [retypeTypes]int
	checked := 0
	for _, t32 := range in.newRouteTypes[u] {
		t := int(t32)
		if checked == retypeTypes {
			break
		}
		blocked := st.freedBlock(t, triedRes[:checked])
		if blocked < 0 {
			continue
		}
		triedRes[checked] = blocked
		checked++
		sc.seq = append(sc.seq[:0], u)
		if in.evaluateAllowed(t, sc.seq, &sc.sch, false) != feasible {
			continue
		}
		open := in.routeObjective(1, sc.sch.dist, sc.sch.cost)
		openDist, openCost := sc.sch.dist, sc.sch.cost
		priced, looked := 0, 0
		n := len(st.routes)
		first := 0
		if n > 0 {
			first = rng.IntN(n)
		}
		if doomed {
			continue
		}
		for j := 0; j < n && priced < retypeRoutes && looked < 8*retypeRoutes; j++ {
			k := (first + j) % n
			r := st.routes[k]
			if !usesResource(in.types[r.typ].Resources, blocked) {
				continue
			}
			looked++
			for t2 := range in.types {
				if t2 == r.typ || usesResource(in.types[t2].Resources, blocked) || in.twin[t2] == in.twin[r.typ] || !st.canRetype(r, t2) {
					continue
				}
				// The freed unit must not be taken back by t2 through
				// another resource t needs too.
				if shares(in.types[t2].Resources, in.types[t].Resources, in.types[r.typ].Resources, st, in) {
					continue
				}
				if in.evaluateAllowed(t2, r.seq, &sc.sch, false) != feasible {
					continue
				}
				priced++
				d := in.seqObjective(r.seq, sc.sch.dist, sc.sch.cost).sub(r.obj).add(open)
				if !best.ok || d.less(best.delta) {
					*best = insertion{k: -t - 1, delta: d, dist: openDist, cost: openCost, ok: true, retype: true, rk: k, typ: t2}
				}
				break // one alternative type a holder can take is enough
			}
		}
	}
}

// freedBlock is the one count-limited resource that keeps type t from
// opening a route for bestFreedNewRoute, when t has a vehicle free and
// no type before it (tried) was kept out by the same resource; -1 when
// there is none, or more than one.
func (st *state) freedBlock(t int, tried []int) int {
	in := st.in
	if st.used[t] >= in.types[t].Count {
		return -1
	}
	blocked := -1
	for _, x := range in.types[t].Resources {
		if !in.countLimited(x) || st.resUsed[x] < in.p.Resources[x].Count {
			continue
		}
		if blocked >= 0 {
			return -1 // two resources short: not this move
		}
		blocked = x
	}
	// Types short of the same resource (one trailer type with each
	// shift group, say) free it from the same holders: try the cheapest
	// of them only, and so reach other resources too.
	if blocked >= 0 && slices.Contains(tried, blocked) {
		return -1
	}
	return blocked
}

func usesResource(rs []int, x int) bool {
	for _, y := range rs {
		if y == x {
			return true
		}
	}
	return false
}

// shares reports whether retyping a route from type old to type alt takes
// the last unit of a resource that the new route's type needs as well.
func shares(alt, need, old []int, st *state, in *instance) bool {
	for _, x := range alt {
		if usesResource(old, x) || !usesResource(need, x) {
			continue
		}
		if in.countLimited(x) && st.resUsed[x]+2 > in.p.Resources[x].Count {
			return true
		}
	}
	return false
}
