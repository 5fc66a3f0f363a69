package routeplan

import (
	"math"
	"math/bits"
)

// join is a candidate route of type a.typ: nodes 0..i of route a, the
// sites mid, then nodes j..L+1 of route b (a itself or another route whose
// type ends alike). Its bound comes in three stages, each run once and
// only when the one before leaves the candidate in: distances (distance
// reads only, with the waiting the prefix's head and the suffix's tail
// cannot avoid), legs (durations, load, loading, driving, breaks on one
// leg) and the timing under R (see segment.go).
type join struct {
	a, b *route
	i, j int
	mid  []int
	// Filled by distances and legs: the load, the loading time and
	// earliest departure, the distance, driving and work (driving plus
	// service), and per middle site the leg into it and its work; legJ is
	// the leg into j.
	n                        int
	load                     []float64
	l, d0, dist, drive, busy float64
	leg, work                []float64
	legJ, workJ              float64
	charged                  float64 // stop service charged at j
	cheap                    objective
	trips                    int     // under FewestTrips: the candidate's
	ends                     float64 // the duty distances bounds, loading aside
	stage                    int8    // the last stage done, or boundFailed
	// fits is set by a caller that has checked from the routes' totals
	// that the load fits (an insertion, a removal, an exchange of two
	// sites): in the Solomon case legs, which only sums the load, then
	// has nothing left to do, and outside it neither when nothing else
	// reads the load (see instance.loadRead). own says that the
	// candidate is route a's sites in another order, on one trip: its
	// load and loading are a's.
	fits, own bool
}

// loadFirst reports whether an exchange between two routes (swap,
// 2-opt*) is checked for overload before its distances are bounded.
// Outside the Solomon case it is: full trailers rule out most exchanges,
// and the distance stage, which also reads each node's head and tail,
// costs more than a load check. In it the distances alone rule out more,
// and the legs stage checks the load of what they leave. (A relocate
// checks first either way: the route's total against one site's demand
// costs less than any distance.)
func (in *instance) loadFirst() bool { return !in.exact }

// set points jn at a new candidate, keeping its buffers.
func (jn *join) set(a *route, i int, mid []int, b *route, j int) *join {
	jn.a, jn.i, jn.mid, jn.b, jn.j = a, i, mid, b, j
	jn.stage, jn.fits, jn.own = 0, false, false
	return jn
}

// Stages of a join's bound.
const (
	boundDistances = 1 + iota
	boundLegs
	boundTimed
	boundFailed = -1
)

// advance bounds jn up to stage to (boundDistances, boundLegs or
// boundTimed), doing each stage once, and returns false when a stage finds
// jn certainly infeasible; jn.cheap is then the bound of the last stage.
func (in *instance) advance(jn *join, to int8) bool {
	// One test per stage rather than a loop over a switch: each stage's
	// test then has a branch of its own that the processor predicts well.
	if jn.stage == 0 {
		in.distances(jn)
		jn.stage = boundDistances
	}
	if to >= boundLegs && jn.stage == boundDistances {
		jn.stage = boundLegs
		if !in.legs(jn) {
			jn.stage = boundFailed
		}
	}
	if to >= boundTimed && jn.stage == boundLegs {
		var ok bool
		jn.stage = boundTimed
		if jn.cheap, ok = in.timed(jn); !ok {
			jn.stage = boundFailed
		}
	}
	return jn.stage != boundFailed
}

// build writes the candidate's sites into buf.
func (jn *join) build(buf []int) []int {
	buf = append(buf[:0], jn.a.seq[:jn.i]...)
	buf = append(buf, jn.mid...)
	return append(buf, jn.b.seq[jn.j-1:]...)
}

// known reports whether both routes have segments to bound with.
func (jn *join) known() bool { return jn.a.seg.ok && jn.b.seg.ok }

// distances fills the distance of the candidate, reading the distance
// matrix only: jn.cheap is then a lower bound of its objective that counts
// the duty as the start service, the service at the sites and the legs it
// keeps. Nothing is infeasible yet.
func (in *instance) distances(jn *join) {
	ga, gb := &jn.a.seg, &jn.b.seg
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.n = i + len(jn.mid) + Lb + 1 - j
	if jn.n == 0 {
		jn.cheap = objective{}
		return
	}
	prev, prevSite := ga.locs[i], i > 0
	dist := ga.distPre[i] + gb.distPre[Lb+1] - gb.distPre[j]
	busy := 0.0 // the head of the prefix, the service in the middle, the tail of the suffix
	if i > 0 && !in.exact {
		busy = ga.nodes[i].head
	}
	for _, m := range jn.mid {
		site := &in.sites[m]
		// distTo reads the site's row, which stays in cache while the
		// moves of one site are bounded.
		dist += in.distTo(prev, site.Location)
		busy += site.Service
		prev, prevSite = site.Location, true
	}
	lj := gb.locs[j]
	dist += in.legDist(prev, lj)
	if j <= Lb && !in.exact {
		// More stop service than the suffix had only lengthens its tail.
		if in.stop == nil || gb.nodes[j].charge == 0 || (!prevSite || prev != lj) {
			busy += gb.nodes[j].tail
		} else {
			busy += gb.nodes[j].tailFree
		}
	}
	in.distancesDone(jn, dist, busy)
}

// distancesNone and distancesOne are distances for a join with no middle
// site and with the one site m, to the same values, for the moves that
// bound a candidate of a known shape between two routes: without the loop
// over the middle, whose length changes from one call to the next, the
// processor's branch predictor does not miss on every call (node 0's head
// and the end depot's tail are 0, so they are read without a test). They
// do nothing when jn is not known. The moves and insertions, which bound
// a one-site join for nearly every pair and place they look at, pick
// distancesOne's case themselves (oneFree, oneExact), so that each pays
// one call.
func (in *instance) distancesNone(jn *join) {
	if !jn.known() {
		return
	}
	ga, gb := &jn.a.seg, &jn.b.seg
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.stage = boundDistances
	if jn.n = i + Lb + 1 - j; jn.n == 0 {
		jn.cheap = objective{}
		return
	}
	la, lj := ga.locs[i], gb.locs[j]
	dist := ga.distPre[i] + gb.distPre[Lb+1] - gb.distPre[j]
	dist += in.legDist(la, lj)
	if in.exact {
		in.distancesExact(jn, dist) // the Solomon case has no time cost
		return
	}
	busy := ga.nodes[i].head + in.tailAfter(&gb.nodes[j], lj, i > 0, la)
	in.distancesDone(jn, dist, busy)
}

func (in *instance) distancesOne(jn *join, m int) {
	if in.oneExact {
		in.distancesOneExact(jn, m)
		return
	}
	if in.oneFree {
		in.distancesOneFree(jn, m)
		return
	}
	if !jn.known() {
		return
	}
	ga, gb := &jn.a.seg, &jn.b.seg
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.stage = boundDistances
	jn.n = i + 1 + Lb + 1 - j
	lj, site := gb.locs[j], &in.sites[m]
	dist := ga.distPre[i] + gb.distPre[Lb+1] - gb.distPre[j]
	dist += in.distTo(ga.locs[i], site.Location)
	dist += in.legDist(site.Location, lj)
	if in.exact {
		in.distancesExact(jn, dist) // the Solomon case has no time cost
		return
	}
	busy := ga.nodes[i].head + site.Service + in.tailAfter(&gb.nodes[j], lj, true, site.Location)
	in.distancesDone(jn, dist, busy)
}

// distancesOneExact is distancesOne in the Solomon case on the matrices
// of the Problem, where every route has segments: it reads the distances
// straight from the slice and calls nothing, so that none of what it holds
// is spilled around a call (it runs for nearly every pair the search
// tries and every place an insertion looks at).
func (in *instance) distancesOneExact(jn *join, m int) {
	ga, gb := &jn.a.seg, &jn.b.seg
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.stage = boundDistances
	jn.n = i + 1 + Lb + 1 - j
	la, lm, lj := ga.locs[i], in.sites[m].Location, gb.locs[j]
	dist := ga.distPre[i] + gb.distPre[Lb+1] - gb.distPre[j]
	dist += in.dist[la*in.toCol+lm*in.toRow] + in.dist[lm*in.n+lj]
	in.distancesExact(jn, dist)
}

// distancesOneFree is distancesOne outside the Solomon case on the
// matrices of the Problem, when trips are not counted (instance.oneFree);
// it does nothing when jn is not known. On a known join it is distancesDone and boundObjective written out, so that
// it calls only ranked (it runs for nearly every pair the search tries
// and every place an insertion looks at). It computes what they compute,
// in their order (TestDistancesOfOneSiteAgree).
func (in *instance) distancesOneFree(jn *join, m int) {
	if !jn.known() {
		return
	}
	ga, gb := &jn.a.seg, &jn.b.seg
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.stage = boundDistances
	jn.n = i + 1 + Lb + 1 - j
	site := &in.sites[m]
	la, lm, lj := ga.locs[i], site.Location, gb.locs[j]
	dist := ga.distPre[i] + gb.distPre[Lb+1] - gb.distPre[j]
	dist += in.dist[la*in.toCol+lm*in.toRow]
	dist += in.dist[lm*in.n+lj]
	nj := &gb.nodes[j]
	tail := nj.tail
	if in.stop != nil && nj.charge != 0 && lm == lj {
		tail = nj.tailFree // see tailAfter
	}
	busy := ga.nodes[i].head + site.Service + tail
	jn.ends = busy
	jn.dist = dist - 1e-9*(1+math.Abs(dist))
	pr := &in.price[jn.a.typ]
	duty := pr.startService + busy
	cost := pr.fixed + pr.perDist*jn.dist + pr.perTime*duty
	jn.cheap = in.ranked(objective{value: cost - 1e-9*(1+math.Abs(cost)), tie: jn.dist})
}

// tailAfter is the tail distances counts for node nj, at location lj, of
// a suffix reached from a node at location prev (prevSite false: the start
// depot).
func (in *instance) tailAfter(nj *segNode, lj int, prevSite bool, prev int) float64 {
	if in.stop == nil || nj.charge == 0 || !prevSite || prev != lj {
		return nj.tail
	}
	return nj.tailFree
}

// distancesDone records what distances found. In the Solomon case the
// distance is the objective, and it is taken as it is, as the simulation
// takes its own sum; otherwise it is lowered by the rounding a bound may
// carry.
func (in *instance) distancesDone(jn *join, dist, busy float64) {
	if in.exact {
		in.distancesExact(jn, dist)
		return
	}
	t := jn.a.typ
	jn.ends = busy
	jn.dist = dist - 1e-9*(1+math.Abs(dist))
	if in.countTrips {
		jn.trips = in.joinTrips(jn)
	}
	jn.cheap = in.boundObjective(t, jn.trips, jn.dist, in.price[t].startService+busy)
}

// distancesExact is distancesDone in the Solomon case, small enough to
// inline into the distances of the moves that run for nearly every pair.
func (in *instance) distancesExact(jn *join, dist float64) {
	pr := &in.price[jn.a.typ]
	jn.dist = dist
	jn.cheap = in.ranked(objective{value: pr.fixed + pr.perDist*dist, tie: dist})
}

// legs completes the sums of a candidate whose distances passed: the load,
// the loading time and earliest departure, the driving and the work, with
// the durations of its new legs and the stop service of its sites. It
// returns false when the candidate certainly breaks the capacity, the
// group limit, the driving limit or the break rule on a single leg.
// jn.cheap is then a lower bound of its objective that counts the duty as
// loading plus work.
func (in *instance) legs(jn *join) bool {
	if jn.n == 0 {
		return true
	}
	if in.exact {
		return jn.fits || in.loadFits(jn) // the Solomon case has nothing more to sum
	}
	ga, gb := &jn.a.seg, &jn.b.seg
	t := jn.a.typ
	vt := &in.types[t]
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	switch {
	case jn.own:
		jn.l, jn.d0 = ga.loading, ga.dep[0]
	case jn.fits && !in.loadRead[t]:
		jn.l = vt.StartService
		var ok bool
		if jn.d0, ok = in.earliestDeparture(t, jn.l, in.startWindows(t)); !ok {
			return false
		}
	default:
		if !in.loadFits(jn) {
			return false
		}
		jn.l = in.loadingTime(t, jn.load)
		var ok bool
		if jn.d0, ok = in.earliestDeparture(t, jn.l, in.startWindows(t)); !ok {
			return false
		}
	}
	prev, prevSite := ga.locs[i], i > 0
	drive := ga.nodes[i].durPre + gb.nodes[Lb+1].durPre - gb.nodes[j].durPre
	busy := ga.nodes[i].busyPre + gb.nodes[Lb+1].busyPre - gb.nodes[j].busyPre
	jn.leg, jn.work = jn.leg[:0], jn.work[:0]
	for _, m := range jn.mid {
		site := &in.sites[m]
		leg := in.durTo(prev, site.Location)
		if vt.BreakAfter > 0 && leg > vt.BreakAfter {
			return false
		}
		w := site.Service + in.stopCharge(m, prevSite, prev)
		drive += leg
		busy += leg + w
		jn.leg, jn.work = append(jn.leg, leg), append(jn.work, w)
		prev, prevSite = site.Location, true
	}
	leg := in.legDur(prev, gb.locs[j])
	if vt.BreakAfter > 0 && leg > vt.BreakAfter {
		return false
	}
	jn.legJ = leg
	drive += leg
	busy += leg
	jn.charged, jn.workJ = 0, 0
	if j <= Lb {
		s := jn.b.seq[j-1]
		jn.charged = in.stopCharge(s, prevSite, prev)
		jn.workJ = in.sites[s].Service + jn.charged
		busy += jn.workJ
	}
	if vt.MaxDriving > 0 && drive > vt.MaxDriving+1e-9*(1+vt.MaxDriving) {
		return false
	}
	jn.drive, jn.busy = drive, busy
	jn.cheap = in.boundObjective(t, jn.trips, jn.dist, jn.l+max(busy, jn.ends))
	return true
}

// loadFits fills jn.load, the candidate's load, and reports whether it fits
// the capacity and the group limit of its type (what legs checks first).
func (in *instance) loadFits(jn *join) bool {
	ga, gb := &jn.a.seg, &jn.b.seg
	vt := &in.types[jn.a.typ]
	i, j := jn.i, jn.j
	d := in.dims
	jn.load = grow(jn.load, d)
	load := jn.load
	if len(in.reloads) > 0 {
		if !in.tripsFit(jn) {
			return false
		}
	} else {
		end := len(jn.b.seq) * d // the suffix's trip ends with the route
		for x := 0; x < d; x++ {
			l := ga.loadPre[i*d+x] + gb.loadPre[end+x] - gb.loadPre[(j-1)*d+x]
			for _, m := range jn.mid {
				l += in.sites[m].Demand[x]
			}
			if l > in.capLimit[jn.a.typ][x] {
				return false
			}
			load[x] = l
		}
	}
	if vt.MaxGroups > 0 && ga.groups && gb.groups {
		// Trip by trip: the prefix's last trip, the middle sites up to
		// each reload among them, and the suffix's first trip.
		mask := ga.gPre[i]
		ok := true
		for _, m := range jn.mid {
			if in.isReload(m) {
				if bits.OnesCount64(mask) > vt.MaxGroups {
					return false
				}
				mask = 0
				continue
			}
			bit, fits := groupBit(in.sites[m].Group)
			ok = ok && fits
			mask |= bit
		}
		mask |= gb.gSuf[j]
		if ok && bits.OnesCount64(mask) > vt.MaxGroups {
			return false
		}
	}
	return true
}

// tripsFit is loadFits' load check when routes may drive several trips:
// the trip through node i of a ends at the middle's first reload, if any,
// the trip from node j of b begins after its last one, and the trips
// between lie in the middle. It leaves in jn.load the load of the trip
// through node i.
func (in *instance) tripsFit(jn *join) bool {
	ga, gb := &jn.a.seg, &jn.b.seg
	limit := in.capLimit[jn.a.typ]
	i, j, d := jn.i, jn.j, in.dims
	for x := 0; x < d; x++ {
		l, first := ga.loadPre[i*d+x], true
		for _, m := range jn.mid {
			if !in.isReload(m) {
				l += in.sites[m].Demand[x]
				continue
			}
			if l > limit[x] {
				return false
			}
			if first {
				jn.load[x], first = l, false
			}
			l = 0
		}
		l += gb.loadTrip[j*d+x] - gb.loadPre[(j-1)*d+x]
		if l > limit[x] {
			return false
		}
		if first {
			jn.load[x] = l
		}
	}
	return true
}

// joinFits reports whether nodes 0..i of route a followed by nodes j..L+1
// of route b may fit a's type: false only when their load certainly
// exceeds its capacity (what legs rules out first), true as well when a
// route has no segments.
func (in *instance) joinFits(a *route, i int, b *route, j int) bool {
	ga, gb := &a.seg, &b.seg
	if !ga.ok || !gb.ok {
		return true
	}
	limit := in.capLimit[a.typ]
	d := in.dims
	end := len(b.seq) * d // the trip of node j ends with the route…
	suffix := gb.loadPre
	if len(in.reloads) > 0 {
		end, suffix = j*d, gb.loadTrip // …or at the reload after it
	}
	if d == 1 { // the loop below without its own test, for the common case
		return !(ga.loadPre[i]+suffix[end]-gb.loadPre[j-1] > limit[0])
	}
	for x, lim := range limit {
		if ga.loadPre[i*d+x]+suffix[end+x]-gb.loadPre[(j-1)*d+x] > lim {
			return false
		}
	}
	return true
}

// boundObjective is the objective of a route of type t with the given
// trips (counted under FewestTrips only), distance and duty, lowered by
// the rounding a bound may carry.
func (in *instance) boundObjective(t, trips int, dist, duty float64) objective {
	pr := &in.price[t]
	cost := pr.fixed + pr.perDist*dist + pr.perTime*duty
	o := in.ranked(objective{value: cost - 1e-9*(1+math.Abs(cost)), tie: dist})
	if in.countTrips {
		o = in.countedTrips(o, trips)
	}
	return o
}

// timed completes a candidate whose sums passed: it returns a lower bound
// of its objective that counts the duty bounded under R, and false when
// the candidate is certainly infeasible under R (windows, shift end,
// duty limit).
func (in *instance) timed(jn *join) (objective, bool) {
	if jn.n == 0 {
		return objective{}, true
	}
	if in.exact {
		return jn.cheap, in.timedExact(jn)
	}
	gb := &jn.b.seg
	t := jn.a.typ
	vt := &in.types[t]
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	d0 := jn.d0
	tol := timeTol(vt.ShiftEnd) + timeTol(d0)

	// Forward: the prefix, then the middle played through.
	now := in.departPrefix(jn.a, i, d0)
	for k, m := range jn.mid {
		st, _, ok := earliestIn(in.sites[m].Windows, now+jn.leg[k])
		if !ok {
			return objective{}, false
		}
		now = st + jn.work[k]
	}
	// The suffix: the latest arrival at j, and the earliest return.
	arrive := now + jn.legJ
	latest, ret := vt.ShiftEnd, arrive
	if j <= Lb {
		x := gb.times[j].latFrom - jn.workJ
		var ok bool
		if latest, ok = latestIn(in.sites[jn.b.seq[j-1]].Windows, x+timeTol(x)); !ok {
			return objective{}, false
		}
		ret = in.returnFrom(jn.b, j, arrive, jn.workJ)
	}
	if arrive > latest+tol {
		return objective{}, false
	}
	// Backward: the middle, then the prefix.
	y := latest - jn.legJ
	for k := len(jn.mid) - 1; k >= 0; k-- {
		x := y - jn.work[k]
		s, ok := latestIn(in.sites[jn.mid[k]].Windows, x+timeTol(x))
		if !ok {
			return objective{}, false
		}
		y = s - jn.leg[k]
	}
	latDep := in.latestDeparture(jn.a, i, y)
	if latDep < d0-tol {
		return objective{}, false
	}
	duty := jn.l + max(jn.busy, ret-latDep, jn.ends)
	if vt.MaxDuty > 0 && duty > vt.MaxDuty+tol {
		return objective{}, false
	}
	return in.boundObjective(t, jn.trips, jn.dist, duty), true
}

// boundRoute prepares jn for seq as the new sequence of route a: it keeps
// the longest prefix seq shares with a, and the longest suffix it shares
// with a or with b (nil when there is no other route), and plays the rest
// through as the middle. It returns false when a site does not allow a's
// type.
func (in *instance) boundRoute(jn *join, a *route, seq []int, b *route) bool {
	t := a.typ
	cp := 0
	for cp < len(seq) && cp < len(a.seq) && seq[cp] == a.seq[cp] {
		cp++
	}
	rest := len(seq) - cp
	src, cs := a, 0
	for cs < rest && cs < len(a.seq)-cp && seq[len(seq)-1-cs] == a.seq[len(a.seq)-1-cs] {
		cs++
	}
	if b != nil && b != a && in.endsAlike(t, b.typ) {
		csb := 0
		for csb < rest && csb < len(b.seq) && seq[len(seq)-1-csb] == b.seq[len(b.seq)-1-csb] {
			csb++
		}
		if csb > cs {
			src, cs = b, csb
		}
	}
	jn.set(a, cp, seq[cp:len(seq)-cs], src, len(src.seq)-cs+1)
	return in.joinAllowed(jn)
}

// joinAllowed reports whether every site jn adds to route a allows a's
// type.
func (in *instance) joinAllowed(jn *join) bool {
	t := jn.a.typ
	for _, m := range jn.mid {
		if !in.allowed[m][t] {
			return false
		}
	}
	if jn.b.typ != t {
		for _, s := range jn.b.seq[jn.j-1:] {
			if !in.allowed[s][t] {
				return false
			}
		}
	}
	return true
}

// endsAlike reports whether routes of types t and u end at the same place
// by the same time, so that a suffix of one is a suffix of the other.
func (in *instance) endsAlike(t, u int) bool {
	a, b := &in.types[t], &in.types[u]
	return a.EndLocation == b.EndLocation && a.ShiftEnd == b.ShiftEnd
}
