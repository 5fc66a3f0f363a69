package routeplan

import "math/rand/v2"

// insertion is a candidate place for a site: position pos of route k, or a
// new route of type -k-1 when k < 0.
type insertion struct {
	k, pos int
	delta  objective
	dist   float64
	cost   float64
	ok     bool
	// lazy marks a candidate checked in constant time, whose distance and
	// cost setRoute recomputes.
	lazy bool
	// retype marks an insertion that first changes route rk (k, or
	// another route whose resource the new route needs) to type typ.
	retype bool
	rk     int
	typ    int
	// trip, when not noTrip, says that u goes on a trip of its own, the
	// first or the last of route k, separated by the reload.
	trip   tripEnd
	reload int
	// holdsChecked says that the insertion keeps the Timed resources
	// within their counts (holdsFit), checked when it was found.
	holdsChecked bool
}

// scratch holds buffers reused across move evaluations.
type scratch struct {
	seq    []int
	seq2   []int
	ruin   ruinStep
	sch    schedule
	sch2   schedule
	j1, j2 join
	// removal is relocate's route without the site it moves.
	removal removalJoin
	// simulated holds the last candidate routes simulated.
	simulated simulations
	nodes     []int
	one       [1]int
	two       [2]int
	other     [1]int
	retry     []int
	// tripRoutes lists the routes newTripsNear has tried for a site.
	tripRoutes []int
	// tried holds, per site u and index of a neighbour v of u, the stamps
	// of the routes of u and v when the last moves tried on them found
	// nothing (see localSearch).
	tried [][2]uint64
	// pair is the pair of sites local search is trying, and move the
	// improving move an operator proposes for it (see operator.go).
	pair pair
	move proposal
	// change, holds, adjust, settled, tightCost, schHold and hb are
	// holdsFit's (see timed_resources.go), and heldBack and heldBackCost
	// what holding trips back added to the objective and the cost of the
	// change it last decided (see holdback.go).
	change       [2]routeChange
	holds        [][]tripHold
	adjust       []signedHold
	settled      [][]int
	tightCost    []float64
	schHold      schedule
	hb           holdBack
	heldBack     objective
	heldBackCost float64
	// room and roomAdjust are loadingRoomAt's (see free_runs.go): which
	// trips have room for the site bestInsertion places.
	room       insertionRoom
	roomAdjust []signedHold
	// latest is the latest begins of a route's trips that the loading
	// reach tests bound the loadings with (see loading_reach.go).
	latest   []float64
	tripLoad []float64
	roomRuns []run
	// order is localSearch's list of the sites it starts from, kept
	// between calls: a search calls it at every iteration.
	order []int
}

// withInsert returns r.seq with u inserted at pos, in buf.
func withInsert(buf []int, seq []int, u, pos int) []int {
	buf = append(buf[:0], seq[:pos]...)
	buf = append(buf, u)
	return append(buf, seq[pos:]...)
}

// tryInsert evaluates u at position pos of route k and keeps it in best when
// it beats it (see tryInsertAt).
func (st *state) tryInsert(u, k, pos int, best *insertion, sc *scratch) {
	if st.mayTake(u, k) {
		st.tryInsertAt(u, k, pos, best, sc)
	}
}

// insertAnywhere tries u at every position of route k.
func (st *state) insertAnywhere(u, k int, best *insertion, sc *scratch) {
	if !st.mayTake(u, k) {
		return
	}
	for p := 0; p <= len(st.routes[k].seq); p++ {
		st.tryInsertAt(u, k, p, best, sc)
	}
}

// mayTake rules out cheaply what the simulation would reject at any
// position of route k: a type u does not allow, and an overload.
func (st *state) mayTake(u, k int) bool {
	r := st.routes[k]
	return st.in.allowed[u][r.typ] && st.fits(r, u)
}

// tryInsertAt evaluates u at position pos of route k, which mayTake
// allows, and keeps it in best when it beats it. The position is bounded
// first (see join.go), and simulated only when the bound may beat best;
// in the Solomon case the bound is exact and the insertion is taken
// without a simulation (lazy: setRoute recomputes its distance and cost).
func (st *state) tryInsertAt(u, k, pos int, best *insertion, sc *scratch) {
	in, r := st.in, st.routes[k]
	sc.one[0] = u
	jn := sc.j1.set(r, pos, sc.one[:], r, pos+1)
	jn.fits = true
	switch { // distancesOne's cases, one call each (see there)
	case in.oneFree:
		in.distancesOneFree(jn, u)
	case in.oneExact:
		in.distancesOneExact(jn, u)
	default:
		in.distancesOne(jn, u)
	}
	if jn.known() {
		if best.ok && !jn.cheap.sub(r.obj).less(best.delta) {
			return
		}
		// Outside the Solomon case each stage raises the bound; in it
		// the later stages only rule out.
		if !in.exact && (!in.advance(jn, boundLegs) || (best.ok && !jn.cheap.sub(r.obj).less(best.delta))) {
			return
		}
		if !in.advance(jn, boundTimed) || (best.ok && !in.exact && !jn.cheap.sub(r.obj).less(best.delta)) {
			return
		}
	}
	if in.exact && jn.known() {
		if d := jn.cheap.sub(r.obj); !best.ok || d.less(best.delta) {
			best.k, best.pos, best.delta, best.ok, best.lazy, best.trip, best.holdsChecked = k, pos, d, true, true, noTrip, false
		}
		return
	}
	// A trip whose loading finds no dock door free in any timing is not
	// simulated.
	if in.loadingHeld && !st.loadingRoomAt(u, k, pos, sc) {
		return
	}
	sc.seq = withInsert(sc.seq, r.seq, u, pos)
	if in.loadingHeld && !in.noReach && !st.insertionReachesRoom(u, k, pos, sc.seq, sc) {
		return
	}
	if in.evaluateCandidate(r.typ, sc.seq, &sc.sch, &sc.simulated) != feasible {
		return
	}
	d := in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(r.obj)
	if best.ok && !d.less(best.delta) {
		return
	}
	held := 0.0
	if in.anyTimed {
		if !st.holdsFitOne(k, r.typ, sc.seq, sc) {
			return
		}
		// Held back, the route may cost more.
		if d = d.add(sc.heldBack); best.ok && !d.less(best.delta) {
			return
		}
		held = sc.heldBackCost
	}
	best.k, best.pos, best.delta, best.ok, best.lazy, best.trip = k, pos, d, true, false, noTrip
	best.dist, best.cost = sc.sch.dist, sc.sch.cost+held
	best.holdsChecked = true
}

// bestInsertion finds the cheapest feasible place for u: first next to its
// neighbours (granular), then anywhere in any route when that fails or
// full is set, then on a new route. blink skips candidates at random, which
// diversifies the ruin-and-recreate search.
func (st *state) bestInsertion(u int, neigh []int, full bool, blink float64, rng *rand.Rand, sc *scratch) insertion {
	var best insertion
	skip := func() bool { return blink > 0 && rng.Float64() < blink }
	if st.in.loadingHeld {
		sc.room.reset(len(st.routes))
	}
	if !full {
		for _, v := range neigh {
			k := st.where[v]
			if k < 0 {
				continue
			}
			p := st.pos[v]
			if !skip() {
				st.tryInsert(u, k, p, &best, sc)
			}
			if !skip() {
				st.tryInsert(u, k, p+1, &best, sc)
			}
		}
	}
	if full || !best.ok {
		for k := range st.routes {
			st.insertAnywhere(u, k, &best, sc)
		}
	}
	// A trip of its own counts as one more vehicle when the objective
	// counts trips: under it, like a new route, a last resort. It is
	// tried on the routes of u's neighbours, as an insertion first is.
	if len(st.in.reloads) > 0 && (!best.ok || !st.in.countTrips) {
		st.newTripsNear(u, neigh, &best, sc)
	}
	// Under the fewest-vehicles objective a new route is the last resort;
	// under the cost objective it competes on cost, which lets the search
	// trade a long route for two short ones (on eight Solomon instances at
	// 10,000 iterations the average gap fell from 0.81 % to 0.38 %).
	if best.ok && st.in.hierarchical {
		return best
	}
	// While a route is being eliminated no route may open, but a route
	// may still change type to take u (a bigger trailer, say).
	capped := st.routeCap > 0 && len(st.routes) >= st.routeCap
	if !capped {
		if t, sch, ok := st.cheapestNewRoute(u, sc); ok {
			d := st.in.routeObjective(1, sch.dist, sch.cost)
			if !best.ok || d.less(best.delta) {
				best.k, best.pos, best.delta, best.ok, best.lazy, best.trip = -t-1, 0, d, true, false, noTrip
				best.dist, best.cost, best.holdsChecked = sch.dist, sch.cost, true
			}
		}
	}
	if !best.ok && len(st.in.p.Resources) > 0 {
		st.bestRetypedInsertion(u, neigh, &best, sc)
		if !best.ok && !capped {
			st.bestFreedNewRoute(u, &best, rng, sc)
		}
	}
	return best
}

// apply performs an insertion found by bestInsertion.
func (st *state) apply(u int, ins insertion, sc *scratch) bool {
	if st.in.anyTimed && !ins.holdsChecked && !st.insertionHoldsFit(u, ins, sc) {
		return false
	}
	if ins.retype {
		st.retype(ins.rk, ins.typ)
		if ins.k < 0 {
			// The retyped route's new schedule, evaluated with its seq.
			r := st.routes[ins.rk]
			st.in.evaluateAllowed(r.typ, r.seq, &sc.sch, false)
			st.setRoute(ins.rk, append(sc.seq2[:0], r.seq...), sc.sch.dist, sc.sch.cost)
		}
	}
	k := ins.k
	if k < 0 {
		k = st.open(-k - 1)
	}
	sc.seq2 = ins.withSite(sc.seq2, st.routes[k].seq, u)
	st.setRoute(k, sc.seq2, ins.dist, ins.cost)
	st.where[u] = k
	return true
}

// insertionHoldsFit reports whether the insertion of u keeps the Timed
// resources within their counts (holdsFit): the route that takes u, and
// the route a retyped insertion changes the type of.
func (st *state) insertionHoldsFit(u int, ins insertion, sc *scratch) bool {
	ch := sc.change[:0]
	if ins.retype && ins.rk != ins.k {
		ch = append(ch, routeChange{ins.rk, ins.typ, st.routes[ins.rk].seq})
	}
	if ins.k < 0 {
		sc.one[0] = u
		ch = append(ch, routeChange{-1, -ins.k - 1, sc.one[:]})
		return st.holdsFit(ch, sc)
	}
	r := st.routes[ins.k]
	t := r.typ
	if ins.retype {
		t = ins.typ
	}
	sc.seq2 = ins.withSite(sc.seq2, r.seq, u)
	return st.holdsFit(append(ch, routeChange{ins.k, t, sc.seq2}), sc)
}

// withSite returns seq with u placed as the insertion says, in buf: on a
// trip of its own after or before seq's trips, or at ins.pos.
func (ins *insertion) withSite(buf, seq []int, u int) []int {
	switch ins.trip {
	case lastTrip:
		return append(append(buf[:0], seq...), ins.reload, u)
	case firstTrip:
		return append(append(buf[:0], u, ins.reload), seq...)
	}
	return withInsert(buf, seq, u, ins.pos)
}

// recreate inserts sites one by one at their cheapest feasible place; sites
// with none join the unassigned list.
func (st *state) recreate(sites []int, nb *neighbours, blink float64, rng *rand.Rand, sc *scratch) {
	for _, u := range sites {
		ins := st.bestInsertion(u, nb.of(u), false, blink, rng, sc)
		if !ins.ok || !st.apply(u, ins, sc) {
			st.unassign(u)
		}
	}
}

// refill gives the sites left out another chance whenever a vehicle that
// could serve one of them alone is free. Recreate decides each site
// against the fleet as it is at that moment, and what comes after frees
// vehicles: local search empties routes (under the fewest-vehicles
// objective every merge of two routes is a gain) and a retyped insertion
// gives back its old type's vehicle. Without this, a site left out while
// the fleet was full stays out beside the vehicle that was freed for it,
// although a solution that serves it is better under either objective
// (value left out comes first). The most valuable sites are retried
// first; each pass places at least the first of them (it can open the
// route it was retried for, Timed resources aside), so it ends, and
// polishes the routes it changed, which may free another vehicle. It stops
// when stop says so, between two sites.
func (st *state) refill(nb *neighbours, rng *rand.Rand, sc *scratch, stop func() bool) {
	for len(st.unassigned) > 0 && st.anyVehicleFree() {
		retry, kept := sc.retry[:0], st.unassigned[:0]
		for _, u := range st.unassigned {
			if st.canOpenFor(u) {
				retry = append(retry, u)
				st.obj.lost -= st.in.value[u]
			} else {
				kept = append(kept, u)
			}
		}
		st.unassigned, sc.retry = kept, retry
		if len(retry) == 0 {
			return
		}
		insertionSort(retry, func(u int) float64 { return -st.in.value[u] })
		out := len(st.unassigned)
		for i := range retry {
			// Past the limit the sites not yet retried stay out: a site
			// that finds every dock door taken tries every route first.
			if stop() {
				for _, v := range retry[i:] {
					st.unassign(v)
				}
				return
			}
			st.recreate(retry[i:i+1], nb, 0, rng, sc)
		}
		if len(st.unassigned) == out+len(retry) {
			return // nothing placed (cannot happen: see above)
		}
		st.localSearch(nb, rng, sc, stop, retry)
	}
}

// anyVehicleFree reports whether some type has a vehicle left, resources
// aside: a cheap test that spares refill the scan of every left-out site
// while the fleet is full.
func (st *state) anyVehicleFree() bool {
	if st.routeCap > 0 && len(st.routes) >= st.routeCap {
		return false
	}
	for t := range st.in.types {
		if st.used[t] < st.in.types[t].Count {
			return true
		}
	}
	return false
}

// canOpenFor reports whether a new route may be opened for u: the route
// cap allows one, and a type that serves u alone has a vehicle and its
// resources free (what cheapestNewRoute looks for).
func (st *state) canOpenFor(u int) bool {
	if st.routeCap > 0 && len(st.routes) >= st.routeCap {
		return false
	}
	for _, t := range st.in.newRouteTypes[u] {
		if st.canOpen(int(t)) {
			return true
		}
	}
	return false
}
