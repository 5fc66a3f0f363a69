package routeplan

import "slices"

// A route of a type with MaxTrips above 1 may drive several trips: between
// two, the vehicle returns to its start location and reloads. A reload is
// a site of the instance, after the Problem's own: at the start location,
// taking the start service inside the start windows, with no demand and no
// value. Every move and bound then sees it as one more site, so trips cost
// the search no operator of their own: relocating a reload moves the point
// where one trip ends and the next begins, and removing it joins two
// trips. What differs is the load, which a reload empties: the capacity
// bounds each trip (state.fits, join.go's loadFits, evaluateAllowed).
//
// Reloads are interchangeable within a class, the types that share a start
// location, start service and start windows: each class has a pool of
// them, as many as the routes of its types may take (one fewer than their
// trips each), no more than one per site, and no more than the units of a
// resource its types take per trip. Each is a site the search carries, so
// the pool is kept that small. A reload not on a route is
// free; a route never starts or ends with one, nor holds two in a row
// (see withoutEmptyTrips): an empty trip is no trip.

// trips is the number of trips a route of the type may drive, at least 1.
func (vt *VehicleType) trips() int { return max(1, vt.MaxTrips) }

// addReloads appends each class's pool of reloads to the sites, and fills
// reloadClass and reloads.
func (in *instance) addReloads() {
	in.nSites = len(in.p.Sites)
	in.reloadClass = make([]int, len(in.types))
	var sites []Site
	for t := range in.types {
		in.reloadClass[t] = -1
		vt := &in.types[t]
		if vt.trips() <= 1 {
			continue
		}
		c := in.classOf(t)
		if c < 0 {
			c = len(in.reloads)
			in.reloads = append(in.reloads, nil)
			in.reloadTypes = append(in.reloadTypes, nil)
			in.reloadPool = append(in.reloadPool, 0)
		}
		in.reloadClass[t] = c
		in.reloadTypes[c] = append(in.reloadTypes[c], t)
		in.reloadPool[c] = min(in.nSites, in.reloadPool[c]+vt.Count*(vt.trips()-1))
		// Every reload is one more trip, which takes a unit of each
		// resource the type takes per trip (the class's types take the
		// same ones).
		for _, x := range in.perTrip(vt) {
			if !in.p.Resources[x].Timed {
				in.reloadPool[c] = min(in.reloadPool[c], in.p.Resources[x].Count)
			}
		}
	}
	if len(in.reloads) == 0 {
		return
	}
	in.exact = false
	for c := range in.reloads {
		vt := &in.types[in.reloadTypes[c][0]]
		for range in.reloadPool[c] {
			in.reloads[c] = append(in.reloads[c], in.nSites+len(sites))
			sites = append(sites, Site{
				ID:           "reload",
				Location:     vt.StartLocation,
				Windows:      in.startWindows(in.reloadTypes[c][0]),
				Service:      vt.StartService,
				Demand:       make([]float64, in.dims),
				VehicleTypes: in.reloadTypes[c],
			})
		}
	}
	// A copy: the first part may be the caller's slice.
	in.sites = append(in.sites[:in.nSites:in.nSites], sites...)
	for range sites {
		in.value = append(in.value, 0)
	}
	for _, s := range sites {
		a := make([]bool, len(in.types))
		for _, t := range s.VehicleTypes {
			a[t] = true
		}
		in.allowed = append(in.allowed, a)
	}
	if in.stop != nil {
		in.stop = append(in.stop, make([]float64, len(sites))...)
	}
}

// classOf returns the reload class of an earlier type whose reloads are
// type t's (same start location, start service, start windows and
// loading, and the same resources taken per trip), or -1.
func (in *instance) classOf(t int) int {
	vt := &in.types[t]
	for u := 0; u < t; u++ {
		c := in.reloadClass[u]
		if c < 0 {
			continue
		}
		o := &in.types[u]
		if o.StartLocation == vt.StartLocation && o.StartService == vt.StartService && slices.Equal(o.StartWindows, vt.StartWindows) &&
			sameLoading(o.Loading, vt.Loading) && slices.Equal(in.perTrip(o), in.perTrip(vt)) {
			return c
		}
	}
	return -1
}

// perTrip lists the resources vt takes per trip.
func (in *instance) perTrip(vt *VehicleType) []int {
	var out []int
	for _, x := range vt.Resources {
		if in.p.Resources[x].perTrip() {
			out = append(out, x)
		}
	}
	return out
}

// isReload reports whether site i is a reload.
func (in *instance) isReload(i int) bool { return i >= in.nSites }

// reloadsIn counts the reloads of seq.
func (in *instance) reloadsIn(seq []int) int {
	n := 0
	for _, i := range seq {
		if i >= in.nSites {
			n++
		}
	}
	return n
}

// tripLoadsFit reports whether every trip of seq fits capacity, and
// leaves in load the first trip's load (what its loading takes); trip is
// scratch space of in.dims entries.
func (in *instance) tripLoadsFit(seq []int, capacity, load, trip []float64) bool {
	first := true
	clear(load)
	clear(trip)
	for _, i := range seq {
		if i >= in.nSites {
			first = false
			clear(trip)
			continue
		}
		for d, q := range in.sites[i].Demand {
			trip[d] += q
			if trip[d] > capacity[d] {
				return false
			}
			if first {
				load[d] += q
			}
		}
	}
	return true
}

// freeReload returns a reload of t's class that no route holds, and false
// when the pool is used up.
func (st *state) freeReload(t int) (int, bool) {
	c := st.in.reloadClass[t]
	if c < 0 {
		return 0, false
	}
	for _, m := range st.in.reloads[c] {
		if st.where[m] < 0 {
			return m, true
		}
	}
	return 0, false
}

// canAddTrip reports whether route k may take one more trip: its type
// allows it, a unit of each resource it takes per trip is free, and its
// class has a reload free. The reload it would take is returned for
// evaluation: any of the class evaluates alike.
func (st *state) canAddTrip(k int) (int, bool) {
	r := st.routes[k]
	vt := &st.in.types[r.typ]
	if vt.trips() <= 1 || st.in.reloadsIn(r.seq) >= vt.trips()-1 {
		return 0, false
	}
	for _, x := range vt.Resources {
		if st.in.p.Resources[x].perTrip() && st.in.countLimited(x) && st.resUsed[x] >= st.in.p.Resources[x].Count {
			return 0, false
		}
	}
	return st.freeReload(r.typ)
}

// takeTrips counts n more trips (fewer when negative) of a route of type
// t in the resources it takes per trip. A class's reloads move only
// between types that take the same resources per trip (classOf), so that
// a move between two routes leaves the count as it was.
func (st *state) takeTrips(t, n int) {
	if n == 0 {
		return
	}
	for _, x := range st.in.types[t].Resources {
		if st.in.p.Resources[x].perTrip() {
			st.resUsed[x] += n
		}
	}
}

// trimEmptyTrips removes from seq, in place, the reloads that begin or
// end an empty trip: at either end, or right after another reload. It
// reports whether it removed any.
func (in *instance) trimEmptyTrips(seq []int) ([]int, bool) {
	if len(in.reloads) == 0 {
		return seq, false
	}
	out := seq[:0]
	changed := false
	for _, i := range seq {
		if i >= in.nSites && (len(out) == 0 || out[len(out)-1] >= in.nSites) {
			changed = true
			continue
		}
		out = append(out, i)
	}
	for len(out) > 0 && out[len(out)-1] >= in.nSites {
		out = out[:len(out)-1]
		changed = true
	}
	return out, changed
}

// withoutEmptyTrips returns seq, a feasible route of type t with the given
// distance and cost, without its empty trips (see trimEmptyTrips), with its
// distance and cost. The reloads it held are freed but those it keeps.
// Trimming shortens the duty, which very rarely needs a rest elsewhere
// that the reload's time served: seq is then kept as it is.
func (st *state) withoutEmptyTrips(t int, seq []int, dist, cost float64) ([]int, float64, float64) {
	in := st.in
	if !in.hasEmptyTrip(seq) {
		return seq, dist, cost
	}
	trimmed, _ := in.trimEmptyTrips(append([]int(nil), seq...))
	var sch schedule
	if in.evaluateAllowed(t, trimmed, &sch, false) != feasible {
		return seq, dist, cost
	}
	for _, i := range seq {
		if in.isReload(i) {
			st.where[i] = -1
		}
	}
	return trimmed, sch.dist, sch.cost
}

// hasEmptyTrip reports whether seq begins or ends with a reload, or holds
// two in a row.
func (in *instance) hasEmptyTrip(seq []int) bool {
	for k, i := range seq {
		if in.isReload(i) && (k == 0 || k == len(seq)-1 || in.isReload(seq[k-1])) {
			return true
		}
	}
	return false
}

// lightestTrip sets r.total to the least load of r's trips, dimension by
// dimension: a site too heavy for that fits no trip of r.
func (in *instance) lightestTrip(r *route) {
	d := in.dims
	r.total = grow(r.total, d)
	clear(r.total)
	if len(in.reloads) == 0 || in.reloadsIn(r.seq) == 0 {
		for _, s := range r.seq {
			for j, q := range in.sites[s].Demand {
				r.total[j] += q
			}
		}
		return
	}
	for j := range r.total {
		r.total[j] = inf
	}
	var buf [4]float64
	trip := buf[:0]
	if d > len(buf) {
		trip = make([]float64, 0, d)
	}
	trip = trip[:d]
	clear(trip)
	for k, s := range r.seq {
		if !in.isReload(s) {
			for j, q := range in.sites[s].Demand {
				trip[j] += q
			}
		}
		if in.isReload(s) || k == len(r.seq)-1 {
			for j := range trip {
				r.total[j] = min(r.total[j], trip[j])
			}
			clear(trip)
		}
	}
}

// appendSites appends to dst the sites of seq that are not reloads.
func (in *instance) appendSites(dst, seq []int) []int {
	for _, i := range seq {
		if !in.isReload(i) {
			dst = append(dst, i)
		}
	}
	return dst
}

// tripEnd says where insertion.trip puts a site on a trip of its own.
type tripEnd int8

const (
	noTrip    tripEnd = iota
	lastTrip          // after the route's trips: a reload, then u
	firstTrip         // before them: u, then a reload
)

// tryNewTrips evaluates u on a trip of its own after route k's trips and
// before them, when k may take one more, and keeps the better in best
// when it beats it. Bounded first as an insertion is (see tryInsertAt).
func (st *state) tryNewTrips(u, k int, best *insertion, sc *scratch) {
	in, r := st.in, st.routes[k]
	if len(r.seq) == 0 || !in.allowed[u][r.typ] || st.tripCap {
		return // while a trip is being eliminated, no trip may begin
	}
	m, ok := st.canAddTrip(k)
	if !ok {
		return
	}
	for _, end := range [2]tripEnd{lastTrip, firstTrip} {
		pos := len(r.seq)
		sc.two = [2]int{m, u}
		if end == firstTrip {
			pos, sc.two = 0, [2]int{u, m}
		}
		jn := sc.j1.set(r, pos, sc.two[:], r, pos+1)
		if jn.known() {
			beaten := func() bool { return best.ok && !jn.cheap.sub(r.obj).less(best.delta) }
			if !in.advance(jn, boundDistances) || beaten() || !in.advance(jn, boundLegs) || beaten() || !in.advance(jn, boundTimed) || beaten() {
				continue
			}
		}
		sc.seq = jn.build(sc.seq)
		if in.evaluateAllowed(r.typ, sc.seq, &sc.sch, false) != feasible {
			continue
		}
		d := in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(r.obj)
		if (!best.ok || d.less(best.delta)) && st.holdsFitOne(k, r.typ, sc.seq, sc) {
			if d = d.add(sc.heldBack); best.ok && !d.less(best.delta) {
				continue
			}
			*best = insertion{k: k, pos: pos, delta: d, dist: sc.sch.dist, cost: sc.sch.cost + sc.heldBackCost, ok: true, trip: end, reload: m, holdsChecked: true}
		}
	}
}

// routeTrips is the number of trips of route r (1 for an empty one).
func (in *instance) routeTrips(r *route) int {
	if len(r.seg.relPre) != len(r.seq)+1 {
		return 1 + in.reloadsIn(r.seq)
	}
	return 1 + int(r.seg.relPre[len(r.seq)])
}

// joinTrips is the number of trips of the candidate jn: the prefix's
// reloads, the middle's and the suffix's, and one.
func (in *instance) joinTrips(jn *join) int {
	ga, gb := &jn.a.seg, &jn.b.seg
	if len(ga.relPre) != len(jn.a.seq)+1 || len(gb.relPre) != len(jn.b.seq)+1 {
		return 1 + in.reloadsIn(jn.a.seq[:jn.i]) + in.reloadsIn(jn.mid) + in.reloadsIn(jn.b.seq[jn.j-1:])
	}
	return 1 + int(ga.relPre[jn.i]) + int(gb.relPre[len(jn.b.seq)]-gb.relPre[jn.j-1]) + in.reloadsIn(jn.mid)
}

// newTripsNear tries u on a trip of its own on each route that holds one
// of u's neighbours, each route once (see tryNewTrips).
func (st *state) newTripsNear(u int, neigh []int, best *insertion, sc *scratch) {
	tried := sc.tripRoutes[:0]
	for _, v := range neigh {
		k := st.where[v]
		if k < 0 || slices.Contains(tried, k) {
			continue
		}
		tried = append(tried, k)
		st.tryNewTrips(u, k, best, sc)
	}
	sc.tripRoutes = tried[:0]
}

// reorderTrips is the trips of route r as a bound of its sites in another
// order counts them: only when the objective counts trips.
func (in *instance) reorderTrips(r *route) int {
	if !in.countTrips {
		return 1
	}
	return in.routeTrips(r)
}
