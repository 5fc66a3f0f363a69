package routeplan

import (
	"cmp"
	"math"
	"slices"
)

// A site that no dock door can load in time (a night whose doors are
// taken from the first loading to the last) is tried again at every
// recreate and every refill, on a new route of each type that serves it,
// and holdsFit finds that out the slow way: it times the route, walks the
// door's timeline, loads ahead into the staging and holds the trip back
// round after round. The free runs (free_runs.go) answer it at once, once
// they are cut where a loading can no longer reach the site: a trip's
// loading starts no later than its start service may begin (the latest
// the windows of the sites after it allow, latestBegins) less the loading
// itself. A run that ends before the door could have loaded the trip in
// time, or one that opens only after that, is of no use to the trip.
//
// Why a loading that holdsFit accepts starts by that instant: the hold
// of a trip (tripHolds) starts at the latest instant in the start windows
// that leaves the loading done when the trip's start service begins, or,
// loaded ahead (loadAhead), earlier still; holding the trip back only
// moves its start service later inside what its schedule allows, and a
// schedule holdsFit accepts is feasible, so its start service begins by
// latestBegins (the latest instant from which the sites after it still
// make their windows and the shift end, on legs no shorter than their
// free-flow durations, which a feasible schedule drives at least). So the
// accepted hold starts in a start window, by that latest begin less the
// loading, and finds a unit free throughout (unitFree, which every hold
// holdsFit accepts passed): it lies inside one run of instants with a
// unit free, or freed by the change (roomRuns). A test that finds no such
// run rules out only what holdsFit would have refused.

// reachSlack absorbs rounding: the latest start is computed in another
// order than the simulation times the trip.
func reachSlack(t float64) float64 { return 1e-6 * max(1, math.Abs(t)) }

// newRouteReachesRoom reports whether a new route of type t serving u
// alone may find a unit free, on every Timed resource of t held over
// loadings (a dock door), for a loading that starts in a start window by
// the latest instant the route's start service may begin less the
// loading (see above). False means holdsFitOne(-1, t, [u]) is false, so
// cheapestNewRoute need not time the route against the timelines.
func (st *state) newRouteReachesRoom(u, t int, sc *scratch) bool {
	return st.newRouteReaches(u, t, -1, sc)
}

// freedNewRoutesReach reports whether some new route bestFreedNewRoute
// may propose for u passes newRouteReaches with the routes holding its
// blocked resource (freedBlock) given up: the change it proposes gives up
// the holds of one of them (the route that changes type), and holdsFit
// checks the new route against the timelines less those holds. False
// means that every insertion it proposes fails holdsFit in apply.
func (st *state) freedNewRoutesReach(u int, sc *scratch) bool {
	var tried [retypeTypes]int
	checked := 0
	for _, t32 := range st.in.newRouteTypes[u] {
		t := int(t32)
		if checked == retypeTypes {
			break
		}
		blocked := st.freedBlock(t, tried[:checked])
		if blocked < 0 {
			continue
		}
		tried[checked] = blocked
		checked++
		if st.newRouteReaches(u, t, blocked, sc) {
			return true
		}
	}
	return false
}

// newRouteReaches is newRouteReachesRoom with the holds of every route
// whose type takes resource given counted free (none when given < 0).
func (st *state) newRouteReaches(u, t, given int, sc *scratch) bool {
	in := st.in
	vt := &in.types[t]
	limit := inf
	for _, x := range in.timedOf[t] {
		res := &in.p.Resources[x]
		if res.Holds != HoldLoading {
			continue
		}
		if limit == inf {
			limit = st.newRouteLatestLoading(u, t, sc)
		}
		l := in.extraLoading(t, u)
		if vt.Loading != nil {
			l += vt.Loading.Fixed
		} else {
			l += vt.StartService
		}
		adj := sc.roomAdjust[:0]
		if given >= 0 {
			for _, r := range st.routes {
				if !usesResource(in.types[r.typ].Resources, given) || !usesResource(in.timedOf[r.typ], x) {
					continue
				}
				for _, h := range r.holds {
					from, til := in.span(x, h)
					adj = append(adj, signedHold{from, til, -1})
				}
			}
		}
		sc.roomAdjust = adj
		if !st.holdRoomBy(x, l+res.Turnaround, in.loadingStarts(t), limit, adj, &sc.roomRuns) {
			return false
		}
	}
	return true
}

// newRouteLatestLoading is the latest instant at which the loading of a
// new route of type t serving u alone may start (see above), rounding
// allowed for: inf when no bound is known, -inf when no start service
// reaches u in time.
func (st *state) newRouteLatestLoading(u, t int, sc *scratch) float64 {
	in := st.in
	vt := &in.types[t]
	sc.one[0] = u
	seq := sc.one[:]
	load := in.sites[u].Demand
	sc.latest = in.latestBegins(t, seq, nil, in.loadingTime(t, load), sc.latest)
	b := sc.latest[0]
	if math.IsInf(b, 0) || math.IsNaN(b) {
		return b
	}
	if vt.Loading != nil {
		b -= vt.Loading.duration(load)
	}
	return b + reachSlack(b)
}

// holdRoomBy is holdRoomFor for holds that start no later than limit:
// whether a hold of resource x lasting dur may start at an instant in ws
// (any instant when ws is empty) no later than limit and find a unit
// free throughout, the holds adj gives up counted free. Like holdRoomFor
// it only rules out: every instant with a unit free once adj is applied
// lies in a free run of the timeline or in a hold adj gives up (adj's
// new holds only take units), so a hold that fits lies inside one run of
// their union. False means that no such hold fits. buf is scratch space.
func (st *state) holdRoomBy(x int, dur float64, ws []Window, limit float64, adj []signedHold, buf *[]run) bool {
	if dur <= 0 {
		return true
	}
	if math.IsNaN(limit) {
		return true // no bound to go by
	}
	need := dur - 1e-6*max(1, math.Abs(dur))
	if len(ws) == 0 {
		ws = anyTime[:]
	}
	free := st.timelines[x].freeRuns(st.in.p.Resources[x].Count)
	if runsReach(free, ws, limit, need) {
		return true
	}
	// The given-up holds (few: one route's, or its holders'), sorted,
	// merged with the free runs (sorted) into runs of their union: runs
	// that overlap or meet are one.
	given := (*buf)[:0]
	for _, a := range adj {
		if a.sign < 0 && a.from < a.til {
			given = append(given, run{a.from, a.til})
		}
	}
	if len(given) == 0 {
		*buf = given
		return false
	}
	slices.SortFunc(given, func(a, b run) int { return cmp.Compare(a.from, b.from) })
	n := len(given)
	union := given
	add := func(r run) {
		if m := len(union) - 1; m >= n && r.from <= union[m].til {
			union[m].til = max(union[m].til, r.til)
			return
		}
		union = append(union, r)
	}
	for i, j := 0, 0; i < len(free) || j < n; {
		if j == n || (i < len(free) && free[i].from < given[j].from) {
			add(free[i])
			i++
		} else {
			add(given[j])
			j++
		}
	}
	*buf = union
	return runsReach(union[n:], ws, limit, need)
}

// runsReach reports whether a hold of at least need may start inside one
// of the runs (sorted, disjoint), at an instant of ws no later than limit,
// and stay inside that run.
func runsReach(runs []run, ws []Window, limit, need float64) bool {
	for _, w := range ws {
		hi := min(w.End, limit)
		if w.Start > hi {
			continue
		}
		// The first run that ends after the window opens.
		k, _ := slices.BinarySearchFunc(runs, w.Start, func(r run, t float64) int {
			if r.til <= t {
				return -1
			}
			return 1
		})
		for ; k < len(runs) && runs[k].from <= hi; k++ {
			if runs[k].til-max(runs[k].from, w.Start) >= need {
				return true
			}
		}
	}
	return false
}

// insertionReachesRoom reports whether route k, becoming seq with u at
// position pos, may find a unit free for the loading of the trip u joins,
// on every Timed resource of its type held over loadings: a loading
// longer by u's (as loadingRoomAt measures it), starting in a start
// window by the latest instant that trip's start service may begin in
// seq less its loading (see above), inside a run of instants free or
// given up by the route's old holds (every one of them: holdsFit times
// the whole route anew). False means holdsFitOne(k, type, seq) is false,
// so the insertion need not be simulated.
func (st *state) insertionReachesRoom(u, k, pos int, seq []int, sc *scratch) bool {
	in := st.in
	r := st.routes[k]
	t := r.typ
	if len(in.timedOf[t]) == 0 || len(r.holds) == 0 {
		return true
	}
	if in.hasEmptyTrip(seq) {
		// holdsFit may time seq without its empty trips (settledSeq),
		// whose latest begins lie later than seq's: nothing to go by.
		return true
	}
	j := in.reloadsIn(r.seq[:pos])
	if j >= len(r.holds) || len(r.holds) != in.reloadsIn(r.seq)+1 {
		return true // holds not of this sequence: nothing to go by
	}
	limit := inf
	for _, x := range in.timedOf[t] {
		res := &in.p.Resources[x]
		if res.Holds != HoldLoading {
			continue
		}
		if limit == inf {
			limit = in.tripLatestLoading(t, seq, j, sc)
		}
		h := r.holds[j]
		l := h.loaded - h.from + in.extraLoading(t, u)
		adj := sc.roomAdjust[:0]
		for _, o := range r.holds {
			from, til := in.span(x, o)
			adj = append(adj, signedHold{from, til, -1})
		}
		sc.roomAdjust = adj
		if !st.holdRoomBy(x, l+res.Turnaround, in.loadingStarts(t), limit, adj, &sc.roomRuns) {
			return false
		}
	}
	return true
}

// tripLatestLoading is the latest instant at which the loading of trip j
// of route seq of type t may start (see above), rounding allowed for.
func (in *instance) tripLatestLoading(t int, seq []int, j int, sc *scratch) float64 {
	vt := &in.types[t]
	// The loads of the first trip (its start service) and of trip j.
	sc.tripLoad = grow(sc.tripLoad, 2*in.dims)
	first, lj := sc.tripLoad[:in.dims], sc.tripLoad[in.dims:]
	clear(first)
	clear(lj)
	trip := 0
	for _, i := range seq {
		if in.isReload(i) {
			trip++
			continue
		}
		for d, q := range in.sites[i].Demand {
			if trip == 0 {
				first[d] += q
			}
			if trip == j {
				lj[d] += q
			}
		}
	}
	sc.latest = in.latestBegins(t, seq, nil, in.loadingTime(t, first), sc.latest)
	if j >= len(sc.latest) {
		return inf
	}
	b := sc.latest[j]
	if math.IsInf(b, 0) || math.IsNaN(b) {
		return b
	}
	if vt.Loading != nil {
		b -= vt.Loading.duration(lj)
	}
	return b + reachSlack(b)
}
