package routeplan

// objective orders solutions: less value of servable sites left unassigned
// first, then (for the hierarchical objective) fewer routes, then (with
// routes of several trips) fewer trips, then the value
// (weighted cost or distance), then distance as a tie-break so that free
// fleets still get short routes.
type objective struct {
	lost float64
	// vehicles counts routes, or trips (see instance.countedTrips).
	vehicles int
	value    float64
	tie      float64
}

func (a objective) add(b objective) objective {
	return objective{a.lost + b.lost, a.vehicles + b.vehicles, a.value + b.value, a.tie + b.tie}
}

func (a objective) sub(b objective) objective {
	return objective{a.lost - b.lost, a.vehicles - b.vehicles, a.value - b.value, a.tie - b.tie}
}

// eps absorbs the rounding of sums of deltas, so that moves that change
// nothing in exact arithmetic are not taken for improvements.
const eps = 1e-7

// tolerance is the rounding allowed on sums of magnitude |b|. It is
// written out rather than with math.Max and math.Abs, which do not inline,
// because less runs for nearly every candidate move.
func tolerance(b float64) float64 {
	if b < 0 {
		b = -b
	}
	if b < 1 {
		return eps
	}
	return eps * b
}

// lessBy reports whether a is below b by more than the rounding of sums.
func lessBy(a, b float64) bool { return a < b-tolerance(b) }

// less reports whether a is better than b.
func (a objective) less(b objective) bool {
	if a.lost != b.lost {
		tol := tolerance(b.lost)
		if a.lost < b.lost-tol {
			return true
		}
		if a.lost > b.lost+tol {
			return false
		}
	}
	if a.vehicles != b.vehicles {
		return a.vehicles < b.vehicles
	}
	tol := tolerance(b.value)
	if a.value < b.value-tol {
		return true
	}
	if a.value > b.value+tol {
		return false
	}
	return lessBy(a.tie, b.tie)
}

// negative reports whether d, a change of objective, is an improvement:
// d.less(objective{}), written out for a zero b (whose tolerances are all
// eps) so that it inlines, since it runs for nearly every candidate move.
func (d objective) negative() bool {
	if d.lost < -eps || d.lost > eps {
		return d.lost < 0
	}
	if d.vehicles != 0 {
		return d.vehicles < 0
	}
	if d.value < -eps || d.value > eps {
		return d.value < 0
	}
	return d.tie < -eps
}

// route is one vehicle's sequence of sites with its evaluated schedule.
type route struct {
	typ int
	seq []int
	// dist and cost are the route's distance and weighted cost; an empty
	// route (an unused vehicle) has 0 for both.
	dist, cost float64
	obj        objective
	// total is the route's load per capacity dimension (of a route of
	// several trips: the least of its trips', dimension by dimension), so
	// that an insertion that overloads it is ruled out before any
	// simulation.
	total []float64
	// holds are what its trips hold of the Timed resources, turnaround
	// aside (tripHold, see timed_resources.go); empty when its type takes
	// none.
	holds []tripHold
	// notBefore, when set, holds its trips back until a unit is free:
	// trip j's start service begins no earlier than notBefore[j] (-inf:
	// not held back; see holdback.go), and it departs no later than
	// departBy.
	notBefore []float64
	departBy  float64
	seg       segments
	// stamp names the route's content (type and sites): it changes with
	// every change of either, is copied with them, and is never reused, so
	// that equal stamps mean equal routes (see localSearch).
	stamp uint64
}

// seqObjective is routeObjective for the feasible route seq: under
// FewestTrips a route counts its trips.
func (in *instance) seqObjective(seq []int, dist, cost float64) objective {
	o := in.routeObjective(len(seq), dist, cost)
	if in.countTrips && len(seq) > 0 {
		o = in.countedTrips(o, 1+in.reloadsIn(seq))
	}
	return o
}

// routeObjective is the contribution of a feasible route of n sites and
// one trip with the given distance and cost.
func (in *instance) routeObjective(n int, dist, cost float64) objective {
	if n == 0 {
		return objective{}
	}
	return in.ranked(objective{value: cost, tie: dist})
}

// state is a complete assignment: routes plus the sites left out.
type state struct {
	in         *instance
	routes     []*route
	used       []int // routes per vehicle type, empty ones included
	resUsed    []int // routes per resource, empty ones included
	unassigned []int // servable sites not in any route
	dropped    []int // sites no route can serve, with reasons in reasons
	where      []int // where[site] = route index, -1 when not routed
	pos        []int // pos[site] = index in its route's seq, when routed
	obj        objective
	// routeCap, when positive, forbids opening routes beyond that number
	// (used while eliminating a route).
	routeCap int
	// tripCap forbids new trips (while eliminating a trip).
	tripCap bool
	// timelines are what the routes hold of each Timed resource (nil
	// for the others, and without any: see timed_resources.go).
	timelines []timeline
	// holdBack is setRoute's scratch space for holding trips back (see
	// holdback.go); it is never copied.
	holdBack holdBack
	// bare states keep no move caches (route.seg): a search's best
	// solution is copied to and from but never searched from, and on a
	// 5,000-store day the caches of one state's routes take about 10 MB.
	// A state copied from a bare one rebuilds its routes' caches.
	bare bool
}

func newState(in *instance) *state {
	st := &state{in: in, used: make([]int, len(in.types)), resUsed: make([]int, len(in.p.Resources)), where: make([]int, len(in.sites)), pos: make([]int, len(in.sites)),
		timelines: in.newTimelines()}
	for i := range st.where {
		st.where[i] = -1
	}
	return st
}

func (st *state) clone() *state {
	c := &state{in: st.in}
	c.copyFrom(st)
	return c
}

// bareClone is clone without the move caches (see state.bare).
func (st *state) bareClone() *state {
	c := &state{in: st.in, bare: true}
	c.copyFrom(st)
	return c
}

// copyFrom makes st a copy of o, reusing st's buffers: the search copies
// states at every iteration and must not allocate each time.
func (st *state) copyFrom(o *state) {
	st.obj = o.obj
	st.routeCap, st.tripCap = o.routeCap, o.tripCap
	for len(st.routes) < len(o.routes) {
		st.routes = append(st.routes, &route{})
	}
	for k := len(o.routes); k < len(st.routes); k++ {
		st.routes[k] = nil
	}
	st.routes = st.routes[:len(o.routes)]
	for k, r := range o.routes {
		if st.routes[k] == nil {
			st.routes[k] = &route{}
		}
		nr := st.routes[k]
		if nr.stamp == r.stamp && r.stamp != 0 {
			continue // the same route already: most are, from one iteration to the next
		}
		nr.typ, nr.dist, nr.cost, nr.obj, nr.stamp = r.typ, r.dist, r.cost, r.obj, r.stamp
		nr.seq = append(nr.seq[:0], r.seq...)
		nr.total = append(nr.total[:0], r.total...)
		nr.holds = append(nr.holds[:0], r.holds...)
		nr.notBefore, nr.departBy = append(nr.notBefore[:0], r.notBefore...), r.departBy
		switch {
		case st.bare:
		case o.bare:
			st.in.refresh(nr)
		default:
			nr.seg.copyFrom(&r.seg)
		}
	}
	st.used = append(st.used[:0], o.used...)
	st.resUsed = append(st.resUsed[:0], o.resUsed...)
	st.unassigned = append(st.unassigned[:0], o.unassigned...)
	st.dropped = o.dropped
	st.where = append(st.where[:0], o.where...)
	st.pos = append(st.pos[:0], o.pos...)
	if len(st.timelines) != len(o.timelines) {
		st.timelines = make([]timeline, len(o.timelines))
	}
	for x := range o.timelines {
		st.timelines[x].copyFrom(&o.timelines[x])
	}
}

// recount recomputes the objective, the site index and the vehicles and
// resources in use from the routes and the unassigned sites.
func (st *state) recount() {
	st.obj = objective{}
	for _, u := range st.unassigned {
		st.obj.lost += st.in.value[u]
	}
	for i := range st.where {
		st.where[i] = -1
	}
	clear(st.used)
	clear(st.resUsed)
	st.rebuildTimelines()
	for k, r := range st.routes {
		st.obj = st.obj.add(r.obj)
		st.used[r.typ]++
		trips := st.in.routeTrips(r)
		for _, x := range st.in.types[r.typ].Resources {
			st.resUsed[x]++
			if st.in.p.Resources[x].perTrip() {
				st.resUsed[x] += trips - 1
			}
		}
		for j, s := range r.seq {
			st.where[s] = k
			st.pos[s] = j
		}
	}
}

// fits reports whether r has room for u's demand.
func (st *state) fits(r *route, u int) bool {
	vt := &st.in.types[r.typ]
	for j, d := range st.in.sites[u].Demand {
		if r.total[j]+d > vt.Capacity[j] {
			return false
		}
	}
	return true
}

// fitsInstead reports whether r has room for u in place of its site out.
func (st *state) fitsInstead(r *route, out, u int) bool {
	vt := &st.in.types[r.typ]
	old := st.in.sites[out].Demand
	for j, d := range st.in.sites[u].Demand {
		if r.total[j]-old[j]+d > vt.Capacity[j] {
			return false
		}
	}
	return true
}

// canOpen reports whether a new route of type t fits the fleet: a vehicle
// of the type and a unit of each of its resources are free.
func (st *state) canOpen(t int) bool {
	if st.used[t] >= st.in.types[t].Count {
		return false
	}
	for _, x := range st.in.types[t].Resources {
		if st.in.countLimited(x) && st.resUsed[x] >= st.in.p.Resources[x].Count {
			return false
		}
	}
	return true
}

// open appends an empty route of type t, taking its vehicle and resources,
// and returns its index.
func (st *state) open(t int) int {
	st.routes = append(st.routes, &route{typ: t, stamp: st.in.stamps.Add(1)})
	st.used[t]++
	for _, x := range st.in.types[t].Resources {
		st.resUsed[x]++
	}
	return len(st.routes) - 1
}

// unassign adds u to the unassigned sites.
func (st *state) unassign(u int) {
	st.unassigned = append(st.unassigned, u)
	st.obj.lost += st.in.value[u]
}

// setRoute replaces route k's sequence with seq, a feasible route of the
// given distance and cost. In the Solomon case both are recomputed from
// the segments, so that rounding does not drift over many moves.
func (st *state) setRoute(k int, seq []int, dist, cost float64) {
	r := st.routes[k]
	if len(st.in.reloads) > 0 {
		seq, dist, cost = st.withoutEmptyTrips(r.typ, seq, dist, cost)
		st.takeTrips(r.typ, st.in.reloadsIn(seq)-st.in.reloadsIn(r.seq))
		// A reload the route drops goes free, unless a move has already
		// put it on another route.
		for _, i := range r.seq {
			if st.in.isReload(i) && st.where[i] == k {
				st.where[i] = -1
			}
		}
	}
	st.obj = st.obj.sub(r.obj)
	r.stamp = st.in.stamps.Add(1)
	r.seq = append(r.seq[:0], seq...)
	st.in.lightestTrip(r)
	if st.in.anyTimed {
		st.registerHolds(r, true)
		if heldCost, held := st.setHolds(r); held {
			cost = heldCost // it waits for a unit: a time cost counts the wait
		}
		st.registerHolds(r, false)
	}
	st.in.refresh(r)
	if st.in.exact {
		dist = r.baseDist()
		vt := &st.in.types[r.typ]
		cost = vt.FixedCost + vt.TripCost + vt.DistanceCost*dist // the Solomon case has one trip
	}
	if len(r.seq) == 0 {
		dist, cost = 0, 0
	}
	r.dist, r.cost = dist, cost
	r.obj = st.in.seqObjective(r.seq, dist, cost)
	st.obj = st.obj.add(r.obj)
	for j, s := range r.seq {
		st.where[s] = k
		st.pos[s] = j
	}
}

// dropEmpty removes routes that serve no site, freeing their vehicles and
// resources.
func (st *state) dropEmpty() {
	out := st.routes[:0]
	for _, r := range st.routes {
		if len(r.seq) == 0 {
			continue
		}
		out = append(out, r)
	}
	for k := len(out); k < len(st.routes); k++ {
		st.routes[k] = nil
	}
	st.routes = out
	st.recount()
}
