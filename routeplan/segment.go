package routeplan

import "math"

// Segments bound a move in constant time under every rule: several windows
// per site, a start service with start windows, stop service, a duty or
// driving limit, a break rule, a time cost; in the Solomon case, where
// none of those applies, exactly (solomon.go). A candidate route is seen
// as three parts, as in the time-window segments
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
// simulation. Before any of that, each node also caches the least time
// from the departure to leaving it (its head) and from arriving at it to
// the return (its tail), waiting included, so that the first stage of a
// bound, which reads distances only, already counts the waiting a prefix
// or a suffix cannot avoid.
//
// A bound only ever rules a move out: a move whose bound is feasible and
// improving is simulated exactly (evaluate) before the search takes it, so
// every route the search keeps is what the simulation says, and the search
// takes exactly the moves it took without bounds (the same solutions, in
// less time).

// segNode is what every bound reads of a node, kept together so that a
// bound touches one cache line per node it reads.
type segNode struct {
	// What the first stage of a bound reads, with the location and the
	// distance (segments.locs, distPre), in the first 64 bytes.
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

// segments is a route's cache for evaluating moves. Nodes are 0 (start
// depot), 1..L (sites) and L+1 (end depot); arrays are indexed by node.
// What every move reads (locations, distances, earliest departures and
// latest starts) is in arrays of its own, which the moves of one site scan
// position by position.
type segments struct {
	ok      bool // the cache describes the route (false: bound nothing)
	groups  bool // every site group fits a bit of gPre and gSuf
	locs    []int
	distPre []float64 // distance from node 0 to each node
	// dep is the departure from each node under R (in the Solomon case:
	// exactly) from the earliest departure; lat the latest service start
	// at each site, and at the end depot the shift end, that lets the
	// rest of the route finish in time, backward under R.
	dep, lat []float64
	nodes    []segNode
	// loadPre is the load of the nodes from the trip's first up to node
	// k (0 at a reload), dims entries per k = 0..L; loadTrip the load of
	// node k's whole trip (at a reload: of the trip it ends), per k =
	// 0..L+1. A suffix from node j then carries loadTrip[j] −
	// loadPre[j−1] into the trip it joins.
	loadPre  []float64
	loadTrip []float64
	// relPre counts the reloads of nodes 1..k, per k = 0..L (filled
	// when some type drives several trips).
	relPre []int32
	gPre   []uint64 // groups of node k's trip up to k (none at a reload)
	gSuf   []uint64 // groups of node k's trip from k on (none at a reload)

	// times holds each node's schedule under R (see segTime), outside
	// the Solomon case.
	times []segTime
	// loading is the route's start service.
	loading float64
}

// segTime is a node's schedule under R and how it may shift, which only
// the timing stage of a bound reads.
type segTime struct {
	// Forward under R from the earliest departure d0 (the start depot's
	// dep): the arrival at the node (the departure is segments.dep), and
	// the waiting from it on (waitSuf) and before it (waitPre).
	arr, waitSuf, waitPre float64
	// An arrival here later by δ delays the return by δ − waitSuf when
	// positive, as long as δ < riseSuf (beyond, a window may close and a
	// site be served in a later one); earlier by δ, it advances the
	// return by min(δ, shiftSuf) as long as δ < jumpSuf (beyond, an
	// earlier window may be reached). risePre, shiftPre and jumpPre are
	// the same for a departure from the depot later or earlier by δ, seen
	// at the departure from this node.
	riseSuf, shiftSuf, jumpSuf, risePre, shiftPre, jumpPre float64
	// Backward under R from the shift end: the latest departure from here
	// (depot and sites); the latest start is segments.lat.
	latFrom float64
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
	g.locs = append(g.locs[:0], o.locs...)
	g.distPre = append(g.distPre[:0], o.distPre...)
	g.dep = append(g.dep[:0], o.dep...)
	g.lat = append(g.lat[:0], o.lat...)
	g.nodes = append(g.nodes[:0], o.nodes...)
	g.times = append(g.times[:0], o.times...)
	g.loadPre = append(g.loadPre[:0], o.loadPre...)
	g.relPre = append(g.relPre[:0], o.relPre...)
	g.loadTrip = append(g.loadTrip[:0], o.loadTrip...)
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

// refresh rebuilds route r's segments; call after every change of r.seq,
// which must be feasible. In the Solomon case the moves read the
// locations, distances, loads, earliest departures and latest starts
// only, exact (see solomon.go); otherwise every sum, and the timing under
// R.
func (in *instance) refresh(r *route) {
	g := &r.seg
	g.ok = false
	in.refreshPath(r)
	if in.exact {
		in.refreshExact(r)
		g.ok = true
		return
	}
	in.refreshSums(r)
	if in.refreshForward(r) && in.refreshBackward(r) {
		in.refreshEnds(r)
		g.ok = true
	}
}

// refreshPath fills what every move reads of route r: its locations,
// distances and loads.
func (in *instance) refreshPath(r *route) {
	g := &r.seg
	vt := &in.types[r.typ]
	L := len(r.seq)
	n := L + 2
	d := in.dims
	g.locs = grow(g.locs, n)
	g.distPre, g.dep, g.lat = grow(g.distPre, n), grow(g.dep, n), grow(g.lat, n)
	g.loadPre = grow(g.loadPre, (L+1)*d)
	locs, distPre, loadPre := g.locs[:n], g.distPre[:n], g.loadPre[:(L+1)*d]
	locs[0], locs[L+1] = vt.StartLocation, vt.EndLocation
	clear(loadPre[:d])
	for k, s := range r.seq {
		site := &in.sites[s]
		locs[k+1] = site.Location
		to := loadPre[(k+1)*d : (k+2)*d]
		if in.isReload(s) {
			clear(to)
			continue
		}
		from := loadPre[k*d : (k+1)*d]
		for x, dm := range site.Demand[:d] {
			to[x] = from[x] + dm
		}
	}
	dist := 0.0
	distPre[0] = 0
	for k := 0; k <= L; k++ {
		dist += in.legDist(locs[k], locs[k+1])
		distPre[k+1] = dist
	}
	if len(in.reloads) > 0 {
		in.refreshTrips(r)
	}
}

// refreshTrips fills what a route of several trips adds to its path: the
// reloads up to each node and each node's trip total (at a reload the
// previous trip's, so that a suffix from it carries nothing into the trip
// before).
func (in *instance) refreshTrips(r *route) {
	g := &r.seg
	L, d := len(r.seq), in.dims
	g.relPre = grow(g.relPre, L+1)
	g.relPre[0] = 0
	for k := 1; k <= L; k++ {
		g.relPre[k] = g.relPre[k-1]
		if in.isReload(r.seq[k-1]) {
			g.relPre[k]++
		}
	}
	g.loadTrip = grow(g.loadTrip, (L+2)*d)
	tot := L * d
	copy(g.loadTrip[(L+1)*d:], g.loadPre[tot:tot+d])
	for k := L; k >= 1; k-- {
		if in.isReload(r.seq[k-1]) {
			tot = (k - 1) * d
		}
		copy(g.loadTrip[k*d:(k+1)*d], g.loadPre[tot:tot+d])
	}
}

// refreshSums fills what is summed along route r besides its path:
// driving, service and work, site groups and the loading.
func (in *instance) refreshSums(r *route) {
	g := &r.seg
	L := len(r.seq)
	n := L + 2
	g.nodes = grow(g.nodes, n)
	g.gPre, g.gSuf = grow(g.gPre, n), grow(g.gSuf, n)
	nodes, locs, gPre, gSuf := g.nodes[:n], g.locs[:n], g.gPre[:n], g.gSuf[:n]
	nodes[0], nodes[L+1] = segNode{}, segNode{}
	groups := true
	servPre, mask := 0.0, uint64(0)
	gPre[0] = 0
	for k := 1; k <= L; k++ {
		s := r.seq[k-1]
		site, nd := &in.sites[s], &nodes[k]
		nd.charge = in.stopCharge(s, k > 1, locs[k-1])
		nd.service = site.Service
		servPre += site.Service
		nd.servPre = servPre
		nd.work = site.Service + nd.charge
		if in.isReload(s) {
			mask = 0
			gPre[k] = 0
			continue
		}
		bit, ok := groupBit(site.Group)
		groups = groups && ok
		mask |= bit
		gPre[k] = mask
	}
	g.groups = groups
	gSuf[L+1] = 0
	for k := L; k >= 1; k-- {
		if s := r.seq[k-1]; in.isReload(s) {
			gSuf[k] = 0
		} else {
			bit, _ := groupBit(in.sites[s].Group)
			gSuf[k] = gSuf[k+1] | bit
		}
	}
	durPre, busyPre := 0.0, 0.0
	for k := 0; k <= L; k++ {
		leg := in.legDur(locs[k], locs[k+1])
		nodes[k].leg = leg
		durPre += leg
		busyPre = busyPre + leg + nodes[k+1].work
		nodes[k+1].durPre, nodes[k+1].busyPre = durPre, busyPre
	}
	nodes[L+1].leg = 0
	g.loading = in.loadingTime(r.typ, g.loadPre[L*in.dims:(L+1)*in.dims])
}

// refreshForward fills route r's schedule under R from its earliest
// departure: per site its wait, how far its start may move earlier in its
// window (shift), and how much later or earlier an arrival may come before
// another window serves it (rise, jump). It returns false when the route
// is infeasible under R.
func (in *instance) refreshForward(r *route) bool {
	g := &r.seg
	L := len(r.seq)
	g.times = grow(g.times, L+2)
	d0, ok := in.earliestDeparture(r.typ, g.loading, in.startWindows(r.typ))
	if !ok {
		return false
	}
	times, dep, nodes := g.times[:L+2], g.dep[:L+2], g.nodes[:L+2]
	dep[0], times[0].arr = d0, d0
	times[0].waitPre, times[0].risePre, times[0].shiftPre, times[0].jumpPre = 0, inf, inf, inf
	// What node k−1 passes on, carried in registers: a later departure
	// reaches node k later by δ − waitPre; an earlier one earlier by
	// min(δ, shiftPre).
	d, waitPre, risePre, shiftPre, jumpPre := d0, 0.0, inf, inf, inf
	for k := 1; k <= L; k++ {
		ws := in.sites[r.seq[k-1]].Windows
		a := d + nodes[k-1].leg
		w, ok := earliestWindow(ws, a)
		if !ok {
			return false
		}
		st, shift, rise, jump := a, inf, inf, inf
		if w >= 0 {
			st = max(a, ws[w].Start)
			shift, rise = st-ws[w].Start, ws[w].End-a
			if w > 0 {
				jump = a - ws[w-1].End
			}
		}
		d = st + nodes[k].work
		wait := st - a
		risePre = min(risePre, waitPre+rise)
		if shiftPre >= jump {
			jumpPre = min(jumpPre, jump)
		}
		shiftPre = min(shiftPre, shift)
		waitPre += wait
		dep[k] = d
		tk := &times[k]
		tk.arr, tk.risePre, tk.jumpPre, tk.shiftPre, tk.waitPre = a, risePre, jumpPre, shiftPre, waitPre
		tk.waitSuf, tk.riseSuf, tk.shiftSuf, tk.jumpSuf = wait, rise, shift, jump // combined below
	}
	times[L+1].arr = d + nodes[L].leg
	dep[L+1] = times[L+1].arr
	times[L+1].waitPre = waitPre
	times[L+1].waitSuf, times[L+1].riseSuf, times[L+1].shiftSuf, times[L+1].jumpSuf = 0, inf, inf, inf
	// Node k passes on δ − its wait, or min(δ, its shift).
	waitSuf, riseSuf, shiftSuf, jumpSuf := 0.0, inf, inf, inf
	for k := L; k >= 1; k-- {
		tk := &times[k]
		riseSuf = min(tk.riseSuf, tk.waitSuf+riseSuf)
		if tk.shiftSuf >= jumpSuf {
			jumpSuf = min(tk.jumpSuf, jumpSuf)
		} else {
			jumpSuf = tk.jumpSuf
		}
		shiftSuf = min(tk.shiftSuf, shiftSuf)
		waitSuf += tk.waitSuf
		tk.riseSuf, tk.jumpSuf, tk.shiftSuf, tk.waitSuf = riseSuf, jumpSuf, shiftSuf, waitSuf
	}
	return true
}

// refreshBackward fills route r's latest times under R, backward from the
// shift end: per site how much its window end cut its latest start (cut),
// how far that start may move later in its window (lift), and how much
// sooner or later the deadline may come before another window serves it
// (drop, jump). It returns false when the route is infeasible under R.
func (in *instance) refreshBackward(r *route) bool {
	g := &r.seg
	L := len(r.seq)
	times, lat, nodes := g.times[:L+2], g.lat[:L+2], g.nodes[:L+2]
	end := in.types[r.typ].ShiftEnd
	lat[L+1], times[L+1].latFrom = end, end
	next := end // the latest start at node k+1
	for k := L; k >= 1; k-- {
		ws := in.sites[r.seq[k-1]].Windows
		tk := &times[k]
		tk.latFrom = next - nodes[k].leg
		x := tk.latFrom - nodes[k].work
		x += timeTol(x)
		w, ok := latestWindow(ws, x)
		if !ok {
			return false
		}
		s, lift, drop, jump := x, inf, inf, inf
		if w >= 0 {
			s = min(x, ws[w].End)
			lift, drop = ws[w].End-s, x-ws[w].Start
			if w+1 < len(ws) {
				jump = ws[w+1].Start - x
			}
		}
		lat[k], next = s, s
		tk.cutPre, tk.dropPre, tk.liftPre, tk.jumpLiftPre = x-s, drop, lift, jump // combined below
	}
	times[0].latFrom = next - nodes[0].leg
	times[0].cutPre, times[0].dropPre, times[0].liftPre, times[0].jumpLiftPre = 0, inf, inf, inf
	// Node k passes on δ − its cut, or min(δ, its lift).
	cutPre, dropPre, liftPre, jumpLiftPre := 0.0, inf, inf, inf
	for k := 1; k <= L; k++ {
		tk := &times[k]
		dropPre = min(tk.dropPre, tk.cutPre+dropPre)
		if tk.liftPre >= jumpLiftPre {
			jumpLiftPre = min(tk.jumpLiftPre, jumpLiftPre)
		} else {
			jumpLiftPre = tk.jumpLiftPre
		}
		liftPre = min(tk.liftPre, liftPre)
		cutPre = tk.cutPre + cutPre
		tk.dropPre, tk.jumpLiftPre, tk.liftPre, tk.cutPre = dropPre, jumpLiftPre, liftPre, cutPre
	}
	return true
}

// refreshEnds fills the head and tail of every site of r, from the caches
// refresh built. Leaving node k at dep_k(d) after departing at d,
// d is at most the latest departure B_k that the sites up to k allow, and
// dep_k(d) ≥ dep_k(d0), so the head is at least dep_k(d0) − B_k (when d0
// is the same for every load, that is without per-unit loading).
// Arriving at k at t, t is at most lat_k and the return is at least the
// one arriving as early as the first window allows (EF_k), so the tail is
// at least EF_k − lat_k.
func (in *instance) refreshEnds(r *route) {
	g := &r.seg
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
		ws := in.sites[r.seq[k-1]].Windows
		if fixed {
			// B_k is latestDeparture(r, k, inf), its first step taken
			// here: no deadline at k, no cache that holds for one, and
			// the service starts at the latest as the last window
			// closes.
			y := inf
			if len(ws) > 0 {
				y = ws[len(ws)-1].End - g.nodes[k-1].leg
			}
			if b := in.latestDeparture(r, k-1, y); b > -inf {
				nd.head = max(nd.head, g.dep[k]-b)
			}
		}
		rest := end - nd.busyPre
		nd.tail, nd.tailFree = rest+nd.work, rest+nd.service
		if len(ws) == 0 {
			continue
		}
		nd.tail = max(nd.tail, in.returnLeaving(r, k, ws[0].Start+nd.work)-g.lat[k])
		if nd.charge == 0 {
			nd.tailFree = nd.tail // the same sums without stop service
			continue
		}
		x := g.times[k].latFrom - nd.service
		if lat, ok := latestIn(ws, x+timeTol(x)); ok {
			nd.tailFree = max(nd.tailFree, in.returnLeaving(r, k, ws[0].Start+nd.service)-lat)
		}
	}
}

// returnLeaving is the return under R of route r leaving its node k (a
// site) at t.
func (in *instance) returnLeaving(r *route, k int, t float64) float64 {
	g := &r.seg
	if k == len(r.seq) {
		return t + g.nodes[k].leg
	}
	return in.returnFrom(r, k+1, t+g.nodes[k].leg, g.nodes[k+1].work)
}

// grow returns b resliced to length n, its contents unspecified, and a
// new slice when b has not the room: twice the room it had, so that a
// route that grows one site at a time does not allocate at every site.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, max(n, 2*cap(b)))
	}
	return b[:n]
}
