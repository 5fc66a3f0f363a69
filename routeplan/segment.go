package routeplan

import (
	"math"
	"math/bits"
)

// Segments bound a move in constant time when the checks of fast.go do
// not apply: several windows per site, a start service with start windows,
// stop service, a duty or driving limit, a break rule, a time cost. A
// candidate route is seen as three parts, as in the time-window segments
// of Vidal et al. (2013) and PyVRP: a prefix of one route (nodes 0..i), a
// few sites in the middle, and a suffix of a route (nodes j..L+1, its end
// depot included). Each route caches, per node, what its prefixes and
// suffixes need to be joined to anything; the middle sites are played
// through, so an insertion, a swap between routes or a 2-opt* costs a
// handful of matrix reads whatever the length of the routes.
//
// What is summed (distance, driving, work, load, site groups) is exact.
// The timing is bounded through a relaxation R of the schedule model: the
// model without the break rule. Rests only delay a schedule and a later
// arrival never gives an earlier service start, so R's times are no later
// than the model's at every node; R keeps the rest exactly: several
// windows per site, stop service by neighbour, loading time by load, start
// windows. Each route caches its schedule under R from its earliest
// departure and, backward from its shift end, the latest arrival at each
// node that still serves every later site inside a window. An arrival
// joins a suffix feasibly under R exactly when it is no later than that.
//
// The duty the best departure gives (delayDeparture) is at least the
// loading plus max(work, earliest return − latest departure), both under
// R. Both ends come from the cache in constant time as long as no window
// is skipped: an arrival later by δ at a suffix that waited W delays the
// return by δ − W, an earlier one advances it by δ up to how far its
// service starts can move inside their windows; the same holds backward
// for the latest departure and forward for a departure that moves with
// the loading. Each route caches how far δ may go before another window
// could serve a site (windows several hours apart, as for stores open
// morning and evening, make that far); beyond, the bound plays the
// suffix or prefix through node by node until the cache applies again.
// Under R the bound is then exact; only the break rule is left to the
// simulation.
//
// A bound only ever rules a move out: a move whose bound is feasible and
// improving is simulated exactly (evaluate) before the search takes it, so
// every route the search keeps is what the simulation says, and the search
// takes exactly the moves it took without bounds (the same solutions, in
// less time).

// segNode is what every bound reads of a node, kept together so that a
// bound touches one cache line per node it reads.
type segNode struct {
	// What the first stage of a bound reads, in the first 64 bytes.
	loc     int
	distPre float64 // distance from node 0 to this node
	busyPre float64 // driving and work from node 0 up to this node's departure
	service float64 // the site's service, stop service aside
	charge  float64 // the stop service charged here
	// head is the least time from the departure to leaving this node,
	// whatever follows it; tail the least time from arriving here to the
	// return, whatever comes before, and tailFree the same without this
	// node's stop service. Waiting neither the departure nor the arrival
	// can absorb counts (see refreshEnds).
	head, tail, tailFree float64

	durPre  float64 // driving from node 0 to this node
	work    float64 // service plus the stop service charged here
	leg     float64 // duration of the leg to the next node
	servPre float64 // service of nodes 1 up to this node, stop service aside
}

// segments is a route's cache for bounding moves. Nodes are 0 (start
// depot), 1..L (sites) and L+1 (end depot); arrays are indexed by node.
type segments struct {
	ok      bool // the cache describes the route (false: bound nothing)
	groups  bool // every site group fits a bit of gPre and gSuf
	nodes   []segNode
	loadPre []float64 // load of nodes 1..k, dims entries per k = 0..L
	gPre    []uint64  // groups of nodes 1..k
	gSuf    []uint64  // groups of nodes k..L

	// times holds each node's schedule under R (see segTime).
	times []segTime
	// loading is the route's start service.
	loading float64
}

// segTime is a node's schedule under R and how it may shift, which only
// the timing stage of a bound reads.
type segTime struct {
	// Forward under R from the earliest departure d0 (the start depot's
	// dep): the arrival at and departure from the node, and the waiting
	// from it on (waitSuf) and before it (waitPre).
	arr, dep, waitSuf, waitPre float64
	// An arrival here later by δ delays the return by δ − waitSuf when
	// positive, as long as δ < riseSuf (beyond, a window may close and a
	// site be served in a later one); earlier by δ, it advances the
	// return by min(δ, shiftSuf) as long as δ < jumpSuf (beyond, an
	// earlier window may be reached). risePre, shiftPre and jumpPre are
	// the same for a departure from the depot later or earlier by δ, seen
	// at the departure from this node.
	riseSuf, shiftSuf, jumpSuf, risePre, shiftPre, jumpPre float64
	// Backward under R from the shift end: the latest arrival here (sites
	// and end depot) and the latest departure from here (depot and sites).
	lat, latFrom float64
	// A latest departure from here sooner by δ makes the depot's sooner
	// by δ − cutPre when positive (cutPre: how much window ends cut the
	// latest starts of the sites up to here), as long as δ < dropPre
	// (beyond, a window may be missed and an earlier one taken); later by
	// δ, it makes the depot's later by min(δ, liftPre) as long as
	// δ < jumpLiftPre (beyond, a later window may open).
	cutPre, dropPre, liftPre, jumpLiftPre float64
}

func (g *segments) copyFrom(o *segments) {
	g.ok, g.groups, g.loading = o.ok, o.groups, o.loading
	g.nodes = append(g.nodes[:0], o.nodes...)
	g.times = append(g.times[:0], o.times...)
	g.loadPre = append(g.loadPre[:0], o.loadPre...)
	g.gPre = append(g.gPre[:0], o.gPre...)
	g.gSuf = append(g.gSuf[:0], o.gSuf...)
}

// timeTol absorbs the rounding between adding times forward and
// subtracting them backward: bounds are relaxed by it, never tightened.
func timeTol(x float64) float64 { return 1e-9 * (1 + math.Abs(x)) }

// groupBit is the bit of site group g, and false when g has none.
func groupBit(g int) (uint64, bool) {
	if g < 0 || g >= 64 {
		return 0, false
	}
	return 1 << uint(g), true
}

// stopCharge is the stop service site s is charged after a node at
// location prev (prevSite false: the start depot).
func (in *instance) stopCharge(s int, prevSite bool, prev int) float64 {
	if in.stop == nil || (prevSite && prev == in.sites[s].Location) {
		return 0
	}
	return in.stop[s]
}

// refreshSegments rebuilds route r's segments; r must be feasible.
func (in *instance) refreshSegments(r *route) {
	g := &r.fc.sg
	g.ok = false
	vt := &in.types[r.typ]
	L := len(r.seq)
	n := L + 2
	if cap(g.nodes) < n {
		g.nodes = make([]segNode, n)
	}
	g.nodes = g.nodes[:n]
	if cap(g.times) < n {
		g.times = make([]segTime, n)
	}
	g.times = g.times[:n]
	g.loadPre = growF(g.loadPre, (L+1)*in.dims)
	g.gPre, g.gSuf = growU(g.gPre, n), growU(g.gSuf, n)

	g.nodes[0], g.nodes[L+1] = segNode{loc: vt.StartLocation}, segNode{loc: vt.EndLocation}
	g.groups = true
	d := in.dims
	clear(g.loadPre[:d])
	g.gPre[0] = 0
	for k := 1; k <= L; k++ {
		s := r.seq[k-1]
		g.nodes[k].loc = in.sites[s].Location
		g.nodes[k].charge = in.stopCharge(s, k > 1, g.nodes[k-1].loc)
		g.nodes[k].service = in.sites[s].Service
		g.nodes[k].servPre = g.nodes[k-1].servPre + in.sites[s].Service
		g.nodes[k].work = in.sites[s].Service + g.nodes[k].charge
		for x := 0; x < d; x++ {
			g.loadPre[k*d+x] = g.loadPre[(k-1)*d+x] + in.sites[s].Demand[x]
		}
		bit, ok := groupBit(in.sites[s].Group)
		g.groups = g.groups && ok
		g.gPre[k] = g.gPre[k-1] | bit
	}
	g.gSuf[L+1] = 0
	for k := L; k >= 1; k-- {
		bit, _ := groupBit(in.sites[r.seq[k-1]].Group)
		g.gSuf[k] = g.gSuf[k+1] | bit
	}
	g.nodes[0].distPre, g.nodes[0].durPre, g.nodes[0].busyPre = 0, 0, 0
	for k := 0; k <= L; k++ {
		g.nodes[k].leg = in.legDur(g.nodes[k].loc, g.nodes[k+1].loc)
		g.nodes[k+1].distPre = g.nodes[k].distPre + in.legDist(g.nodes[k].loc, g.nodes[k+1].loc)
		g.nodes[k+1].durPre = g.nodes[k].durPre + g.nodes[k].leg
		g.nodes[k+1].busyPre = g.nodes[k].busyPre + g.nodes[k].leg + g.nodes[k+1].work
	}
	g.nodes[L+1].leg = 0

	// Forward under R from the earliest departure. Per site: its wait,
	// how far its start may move earlier in its window (shift), and how
	// much later or earlier an arrival may come before another window
	// serves it (rise, jump).
	l := in.loadingTime(r.typ, g.loadPre[L*d:(L+1)*d])
	g.loading = l
	d0, ok := in.earliestDeparture(r.typ, l)
	if !ok {
		return
	}
	g.times[0].dep, g.times[0].arr = d0, d0
	g.times[0].waitPre, g.times[0].risePre, g.times[0].shiftPre, g.times[0].jumpPre = 0, inf, inf, inf
	for k := 1; k <= L; k++ {
		ws := in.sites[r.seq[k-1]].Windows
		a := g.times[k-1].dep + g.nodes[k-1].leg
		w, ok := earliestWindow(ws, a)
		if !ok {
			return
		}
		st, shift, rise, jump := a, inf, inf, inf
		if w >= 0 {
			st = max(a, ws[w].Start)
			shift, rise = st-ws[w].Start, ws[w].End-a
			if w > 0 {
				jump = a - ws[w-1].End
			}
		}
		g.times[k].arr, g.times[k].dep = a, st+g.nodes[k].work
		wait := st - a
		// A later departure reaches node k later by δ − waitPre[k-1];
		// an earlier one earlier by min(δ, shiftPre[k-1]).
		g.times[k].risePre = min(g.times[k-1].risePre, g.times[k-1].waitPre+rise)
		g.times[k].jumpPre = g.times[k-1].jumpPre
		if g.times[k-1].shiftPre >= jump {
			g.times[k].jumpPre = min(g.times[k].jumpPre, jump)
		}
		g.times[k].shiftPre = min(g.times[k-1].shiftPre, shift)
		g.times[k].waitPre = g.times[k-1].waitPre + wait
		g.times[k].waitSuf, g.times[k].riseSuf, g.times[k].shiftSuf, g.times[k].jumpSuf = wait, rise, shift, jump // combined below
	}
	g.times[L+1].arr = g.times[L].dep + g.nodes[L].leg
	g.times[L+1].dep = g.times[L+1].arr
	g.times[L+1].waitPre = g.times[L].waitPre
	g.times[L+1].waitSuf, g.times[L+1].riseSuf, g.times[L+1].shiftSuf, g.times[L+1].jumpSuf = 0, inf, inf, inf
	for k := L; k >= 1; k-- {
		// Node k passes on δ − its wait, or min(δ, its shift).
		g.times[k].riseSuf = min(g.times[k].riseSuf, g.times[k].waitSuf+g.times[k+1].riseSuf)
		if g.times[k].shiftSuf >= g.times[k+1].jumpSuf {
			g.times[k].jumpSuf = min(g.times[k].jumpSuf, g.times[k+1].jumpSuf)
		}
		g.times[k].shiftSuf = min(g.times[k].shiftSuf, g.times[k+1].shiftSuf)
		g.times[k].waitSuf += g.times[k+1].waitSuf
	}

	// Backward under R from the shift end. Per site: how much its window
	// end cut its latest start (cut), how far that start may move later
	// in its window (lift), and how much sooner or later the deadline may
	// come before another window serves it (drop, jump).
	g.times[L+1].lat, g.times[L+1].latFrom = vt.ShiftEnd, vt.ShiftEnd
	for k := L; k >= 1; k-- {
		ws := in.sites[r.seq[k-1]].Windows
		g.times[k].latFrom = g.times[k+1].lat - g.nodes[k].leg
		x := g.times[k].latFrom - g.nodes[k].work
		x += timeTol(x)
		w, ok := latestWindow(ws, x)
		if !ok {
			return
		}
		s, lift, drop, jump := x, inf, inf, inf
		if w >= 0 {
			s = min(x, ws[w].End)
			lift, drop = ws[w].End-s, x-ws[w].Start
			if w+1 < len(ws) {
				jump = ws[w+1].Start - x
			}
		}
		g.times[k].lat = s
		g.times[k].cutPre, g.times[k].dropPre, g.times[k].liftPre, g.times[k].jumpLiftPre = x-s, drop, lift, jump // combined below
	}
	g.times[0].latFrom = g.times[1].lat - g.nodes[0].leg
	g.times[0].cutPre, g.times[0].dropPre, g.times[0].liftPre, g.times[0].jumpLiftPre = 0, inf, inf, inf
	for k := 1; k <= L; k++ {
		// Node k passes on δ − its cut, or min(δ, its lift).
		g.times[k].dropPre = min(g.times[k].dropPre, g.times[k].cutPre+g.times[k-1].dropPre)
		if g.times[k].liftPre >= g.times[k-1].jumpLiftPre {
			g.times[k].jumpLiftPre = min(g.times[k].jumpLiftPre, g.times[k-1].jumpLiftPre)
		}
		g.times[k].liftPre = min(g.times[k].liftPre, g.times[k-1].liftPre)
		g.times[k].cutPre += g.times[k-1].cutPre
	}
	in.refreshEnds(r)
	g.ok = true
}

// refreshEnds fills the head and tail of every site of r, from the caches
// refreshSegments built. Leaving node k at dep_k(d) after departing at d,
// d is at most the latest departure B_k that the sites up to k allow, and
// dep_k(d) ≥ dep_k(d0), so the head is at least dep_k(d0) − B_k (when d0
// is the same for every load, that is without per-unit loading).
// Arriving at k at t, t is at most lat_k and the return is at least the
// one arriving as early as the first window allows (EF_k), so the tail is
// at least EF_k − lat_k.
func (in *instance) refreshEnds(r *route) {
	g := &r.fc.sg
	vt := &in.types[r.typ]
	L := len(r.seq)
	fixed := true // the earliest departure does not depend on the load
	for _, u := range vt.StartServicePerUnit {
		fixed = fixed && u == 0
	}
	end := g.nodes[L+1].busyPre
	for k := 1; k <= L; k++ {
		nd := &g.nodes[k]
		nd.head = nd.busyPre
		if b := in.latestDeparture(r, k, inf); fixed && b > -inf {
			nd.head = max(nd.head, g.times[k].dep-b)
		}
		rest := end - nd.busyPre
		nd.tail, nd.tailFree = rest+nd.work, rest+nd.service
		ws := in.sites[r.seq[k-1]].Windows
		if len(ws) == 0 {
			continue
		}
		nd.tail = max(nd.tail, in.returnLeaving(r, k, ws[0].Start+nd.work)-g.times[k].lat)
		x := g.times[k].latFrom - nd.service
		if lat, ok := latestIn(ws, x+timeTol(x)); ok {
			nd.tailFree = max(nd.tailFree, in.returnLeaving(r, k, ws[0].Start+nd.service)-lat)
		}
	}
}

// returnLeaving is the return under R of route r leaving its node k (a
// site) at t.
func (in *instance) returnLeaving(r *route, k int, t float64) float64 {
	g := &r.fc.sg
	if k == len(r.seq) {
		return t + g.nodes[k].leg
	}
	return in.returnFrom(r, k+1, t+g.nodes[k].leg, g.nodes[k+1].work)
}

func growU(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// join is a candidate route of type a.typ: nodes 0..i of route a, the
// sites mid, then nodes j..L+1 of route b (a itself or another route whose
// type ends alike). Its bound comes in two stages: sums, which rule out
// most candidates for the price of a few matrix reads, then the timing.
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
	ends                     float64 // the duty distances bounds, loading aside
	stage                    int8    // the last stage done, or boundFailed
}

// set points jn at a new candidate, keeping its buffers.
func (jn *join) set(a *route, i int, mid []int, b *route, j int) *join {
	jn.a, jn.i, jn.mid, jn.b, jn.j = a, i, mid, b, j
	jn.stage = 0
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
	for jn.stage < to {
		if jn.stage == boundFailed {
			return false
		}
		var ok bool
		switch jn.stage {
		case 0:
			ok = in.distances(jn)
		case boundDistances:
			ok = in.legs(jn)
		default:
			jn.cheap, ok = in.timed(jn)
		}
		if !ok {
			jn.stage = boundFailed
			return false
		}
		jn.stage++
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
func (jn *join) known() bool { return jn.a.fc.sg.ok && jn.b.fc.sg.ok }

// distances fills the distance of the candidate, reading the distance
// matrix only: jn.cheap is then a lower bound of its objective that counts
// the duty as the start service, the service at the sites and the legs it
// keeps. Nothing is infeasible yet.
func (in *instance) distances(jn *join) bool {
	ga, gb := &jn.a.fc.sg, &jn.b.fc.sg
	t := jn.a.typ
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	jn.n = i + len(jn.mid) + Lb + 1 - j
	if jn.n == 0 {
		jn.cheap = objective{}
		return true
	}
	prev, prevSite := ga.nodes[i].loc, i > 0
	dist := ga.nodes[i].distPre + gb.nodes[Lb+1].distPre - gb.nodes[j].distPre
	busy := 0.0 // the head of the prefix, the service in the middle, the tail of the suffix
	if i > 0 {
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
	lj := gb.nodes[j].loc
	dist += in.legDist(prev, lj)
	if j <= Lb {
		// More stop service than the suffix had only lengthens its tail.
		if in.stop == nil || gb.nodes[j].charge == 0 || (!prevSite || prev != lj) {
			busy += gb.nodes[j].tail
		} else {
			busy += gb.nodes[j].tailFree
		}
	}
	jn.dist = dist - 1e-9*(1+math.Abs(dist))
	jn.ends = busy
	jn.cheap = in.boundObjective(t, jn.dist, in.types[t].StartService+busy)
	return true
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
	ga, gb := &jn.a.fc.sg, &jn.b.fc.sg
	t := jn.a.typ
	vt := &in.types[t]
	Lb, i, j := len(jn.b.seq), jn.i, jn.j
	d := in.dims
	if cap(jn.load) < d {
		jn.load = make([]float64, d)
	}
	load := jn.load[:d]
	for x := 0; x < d; x++ {
		l := ga.loadPre[i*d+x] + gb.loadPre[Lb*d+x] - gb.loadPre[(j-1)*d+x]
		for _, m := range jn.mid {
			l += in.sites[m].Demand[x]
		}
		if l > vt.Capacity[x]+1e-9*(1+math.Abs(vt.Capacity[x])) {
			return false
		}
		load[x] = l
	}
	if vt.MaxGroups > 0 && ga.groups && gb.groups {
		mask := ga.gPre[i] | gb.gSuf[j]
		ok := true
		for _, m := range jn.mid {
			bit, fits := groupBit(in.sites[m].Group)
			ok = ok && fits
			mask |= bit
		}
		if ok && bits.OnesCount64(mask) > vt.MaxGroups {
			return false
		}
	}
	jn.l = in.loadingTime(t, load)
	var ok bool
	if jn.d0, ok = in.earliestDeparture(t, jn.l); !ok {
		return false
	}
	prev, prevSite := ga.nodes[i].loc, i > 0
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
	leg := in.legDur(prev, gb.nodes[j].loc)
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
	jn.cheap = in.boundObjective(t, jn.dist, jn.l+max(busy, jn.ends))
	return true
}

// boundObjective is the objective of a route of type t with the given
// distance and duty, lowered by the rounding a bound may carry.
func (in *instance) boundObjective(t int, dist, duty float64) objective {
	if in.p.Objective == Hierarchical {
		return objective{vehicles: 1, value: dist}
	}
	vt := &in.types[t]
	cost := vt.FixedCost + vt.DistanceCost*dist + vt.TimeCost*duty
	return objective{value: cost - 1e-9*(1+math.Abs(cost)), tie: dist}
}

// timed completes a candidate whose sums passed: it returns a lower bound
// of its objective that counts the duty bounded under R, and false when
// the candidate is certainly infeasible under R (windows, shift end,
// duty limit).
func (in *instance) timed(jn *join) (objective, bool) {
	if jn.n == 0 {
		return objective{}, true
	}
	gb := &jn.b.fc.sg
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
	return in.boundObjective(t, jn.dist, duty), true
}

// departPrefix bounds from below the departure under R from node i of
// route a when it leaves its start depot at d0 instead of at its own
// earliest departure: by the waits a later start uses up, by the shifts
// an earlier start makes while no window is skipped, and otherwise by
// playing the prefix through.
func (in *instance) departPrefix(a *route, i int, d0 float64) float64 {
	g := &a.fc.sg
	if i == 0 {
		return d0
	}
	switch early := g.times[0].dep - d0; {
	case early <= 0 && -early < g.times[i].risePre:
		return g.times[i].dep + max(0, -early-g.times[i].waitPre)
	case early > 0 && early < g.times[i].jumpPre:
		return g.times[i].dep - min(early, g.times[i].shiftPre)
	}
	t := d0
	for k := 1; k <= i; k++ {
		st, _, ok := earliestIn(in.sites[a.seq[k-1]].Windows, t+g.nodes[k-1].leg)
		if !ok {
			return inf
		}
		t = st + g.nodes[k].work
	}
	return t
}

// returnFrom bounds from below the return under R of the suffix of route
// b from node j (a site) when it arrives there at t and works w there:
// node by node until its schedule is one the cache describes (a later
// arrival delays the return by what the waits do not absorb, an earlier
// one advances it by the shifts while no window is skipped). It returns
// inf when a window closes on the way.
func (in *instance) returnFrom(b *route, j int, t, w float64) float64 {
	g := &b.fc.sg
	L := len(b.seq)
	for k := j; k <= L; k++ {
		if k > j || w == g.nodes[k].work {
			switch early := g.times[k].arr - t; {
			case early <= 0 && -early < g.times[k].riseSuf:
				return g.times[L+1].arr + max(0, -early-g.times[k].waitSuf)
			case early > 0 && early < g.times[k].jumpSuf:
				return g.times[L+1].arr - min(early, g.times[k].shiftSuf)
			}
		}
		st, _, ok := earliestIn(in.sites[b.seq[k-1]].Windows, t)
		if !ok {
			return inf
		}
		if k > j {
			w = g.nodes[k].work
		}
		t = st + w + g.nodes[k].leg
	}
	return t
}

// latestDeparture bounds from above the latest departure under R of route
// a's prefix up to node i when it must leave node i by y: by the cuts a
// sooner deadline uses up, by the lifts a later one makes while no window
// is skipped, and otherwise node by node until one of those holds. It
// returns -inf when no departure can make it.
func (in *instance) latestDeparture(a *route, i int, y float64) float64 {
	g := &a.fc.sg
	for k := i; k >= 1; k-- {
		switch later := y - g.times[k].latFrom; {
		case later <= 0 && -later < g.times[k].dropPre:
			return g.times[0].latFrom - max(0, -later-g.times[k].cutPre)
		case later > 0 && later < g.times[k].jumpLiftPre:
			return g.times[0].latFrom + min(later, g.times[k].liftPre)
		}
		x := y - g.nodes[k].work
		s, ok := latestIn(in.sites[a.seq[k-1]].Windows, x+timeTol(x))
		if !ok {
			return -inf
		}
		y = s - g.nodes[k-1].leg
	}
	return y
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

// earliestWindow is earliestIn by index: the first window of ws (sorted)
// that has not closed at t, -1 when ws is empty, and false when every
// window has closed.
func earliestWindow(ws []Window, t float64) (int, bool) {
	for k, w := range ws {
		if t <= w.End {
			return k, true
		}
	}
	return -1, len(ws) == 0
}

// latestWindow is latestIn by index: the last window of ws (sorted) that
// has opened by t, -1 when ws is empty, and false when none has.
func latestWindow(ws []Window, t float64) (int, bool) {
	for k := len(ws) - 1; k >= 0; k-- {
		if ws[k].Start <= t {
			return k, true
		}
	}
	return -1, len(ws) == 0
}

// reorderBound is a lower bound of the objective of route r after a change
// that keeps its sites (so its load and loading) and replaces the legs
// leaving the given nodes by legs whose distance differs by dDist: its
// work loses the durations of the legs removed, the new ones counting as
// nothing, and at most the stop service of the nodes in changed, whose
// predecessors change; or the head of the nodes before them, the service
// of the nodes among them and the tail of the nodes after. It costs the
// distance reads of the new legs only, as the checks of fast instances
// do.
func (in *instance) reorderBound(r *route, dDist float64, removed, changed []int) objective {
	g := &r.fc.sg
	L := len(r.seq)
	busy := g.nodes[L+1].busyPre
	for _, k := range removed {
		busy -= g.nodes[k].leg
	}
	lo, hi := L+1, 0
	for _, k := range changed {
		busy -= g.nodes[k].charge
		lo, hi = min(lo, k), max(hi, k)
	}
	// The nodes before lo keep their times and the order from hi on is
	// kept: the head and tail bound the duty with the service between.
	ends := 0.0
	if lo > 1 {
		ends = g.nodes[lo-1].head
	}
	ends += g.nodes[hi-1].servPre - g.nodes[lo-1].servPre
	if hi <= L {
		if in.stop == nil {
			ends += g.nodes[hi].tail
		} else {
			ends += g.nodes[hi].tailFree
		}
	}
	dist := g.nodes[L+1].distPre + dDist
	return in.boundObjective(r.typ, dist-1e-9*(1+math.Abs(dist)), g.loading+max(busy, ends))
}

// swapNextBound is reorderBound for exchanging nodes x and x+1 of r (two
// sites next to each other).
func (in *instance) swapNextBound(r *route, x int) objective {
	g := &r.fc.sg
	a, b, c, d := g.nodes[x-1].loc, g.nodes[x].loc, g.nodes[x+1].loc, g.nodes[x+2].loc
	dd := in.legDist
	delta := dd(a, c) + dd(c, b) + dd(b, d) - dd(a, b) - dd(b, c) - dd(c, d)
	return in.reorderBound(r, delta, []int{x - 1, x, x + 1}, []int{x, x + 1, x + 2})
}

// relocateBound is reorderBound for moving the site at node nu of r right
// after (or before) the site at node nv, two nodes apart at least.
func (in *instance) relocateBound(r *route, nu, nv int, after bool) objective {
	g := &r.fc.sg
	loc := func(k int) int { return g.nodes[k].loc }
	d := in.legDist
	lu, lv := loc(nu), loc(nv)
	delta := d(loc(nu-1), loc(nu+1)) - d(loc(nu-1), lu) - d(lu, loc(nu+1))
	if after {
		delta += d(lv, lu) + d(lu, loc(nv+1)) - d(lv, loc(nv+1))
		return in.reorderBound(r, delta, []int{nu - 1, nu, nv}, []int{nu, nu + 1, nv + 1})
	}
	delta += d(loc(nv-1), lu) + d(lu, lv) - d(loc(nv-1), lv)
	return in.reorderBound(r, delta, []int{nu - 1, nu, nv - 1}, []int{nu, nu + 1, nv})
}

// swapBound is reorderBound for exchanging the sites at nodes nu and nv of
// r, two nodes apart at least.
func (in *instance) swapBound(r *route, nu, nv int) objective {
	g := &r.fc.sg
	loc := func(k int) int { return g.nodes[k].loc }
	d := in.legDist
	lu, lv := loc(nu), loc(nv)
	delta := d(loc(nu-1), lv) + d(lv, loc(nu+1)) + d(loc(nv-1), lu) + d(lu, loc(nv+1)) -
		d(loc(nu-1), lu) - d(lu, loc(nu+1)) - d(loc(nv-1), lv) - d(lv, loc(nv+1))
	return in.reorderBound(r, delta, []int{nu - 1, nu, nv - 1, nv}, []int{nu, nu + 1, nv, nv + 1})
}

// reverseBound is reorderBound for reversing nodes a+1..b of r, on
// symmetric matrices only: the two legs at the ends of the stretch change,
// and every site of it gets a new predecessor. nodes is scratch space.
func (in *instance) reverseBound(r *route, a, b int, nodes []int) (objective, []int) {
	g := &r.fc.sg
	loc := func(k int) int { return g.nodes[k].loc }
	d := in.legDist
	delta := d(loc(a), loc(b)) + d(loc(a+1), loc(b+1)) - d(loc(a), loc(a+1)) - d(loc(b), loc(b+1))
	nodes = nodes[:0]
	for k := a + 1; k <= b+1; k++ {
		nodes = append(nodes, k)
	}
	return in.reorderBound(r, delta, []int{a, b}, nodes), nodes
}
