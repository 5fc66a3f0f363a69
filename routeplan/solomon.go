package routeplan

// Constant-time move evaluation for fast instances (one window per site, no
// break rule, no duty or driving limit, no time cost). A route is seen as
// nodes 0 (start depot), 1..L (its sites) and L+1 (end depot). For each node
// the route caches the earliest departure dep (serving everything as early
// as possible) and the latest service start lat that still lets the rest of
// the route finish in time. A new arc a→b joining a prefix that leaves a at
// dep[a] to a suffix starting at b is feasible exactly when the arrival at b
// is no later than lat[b]: this is the two-segment case of Vidal's segment
// concatenation, and it covers insertion, removal, replacement (swap) and
// 2-opt* between routes.

// refreshExact fills, in the Solomon case, each node's earliest departure
// times[k].dep (serving everything as early as possible) and latest
// service start times[k].lat (the end depot's: the shift end) that still
// lets the rest of the route finish in time. These are the times under R
// of refreshForward and refreshBackward, which in this case is the model
// itself, without the tolerance a bound adds: the checks below take moves
// without simulating them, so they compare exactly what the simulation
// would.
func (in *instance) refreshExact(r *route) {
	g := &r.seg
	g.nodes, g.times, g.gPre, g.gSuf, g.loading = g.nodes[:0], g.times[:0], g.gPre[:0], g.gSuf[:0], 0
	vt := &in.types[r.typ]
	L := len(r.seq)
	g.dep[0] = vt.ShiftStart
	for k := 1; k <= L; k++ {
		site := &in.sites[r.seq[k-1]]
		t := g.dep[k-1] + in.legDur(g.locs[k-1], g.locs[k])
		if len(site.Windows) > 0 && t < site.Windows[0].Start {
			t = site.Windows[0].Start
		}
		g.dep[k] = t + site.Service
	}
	g.lat[L+1] = vt.ShiftEnd
	for k := L; k >= 1; k-- {
		site := &in.sites[r.seq[k-1]]
		t := g.lat[k+1] - in.legDur(g.locs[k], g.locs[k+1]) - site.Service
		if len(site.Windows) > 0 && site.Windows[0].End < t {
			t = site.Windows[0].End
		}
		g.lat[k] = t
	}
}

func growF(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// arc is the length of the leg from node i to node i+1. Taking it from the
// prefix sums reads the route's own cache instead of the matrix, whose
// cache misses dominate on large instances.
func (g *segments) arc(i int) float64 { return g.distPre[i+1] - g.distPre[i] }

// loc is the location of node k.
func (g *segments) loc(k int) int { return g.locs[k] }

// distTo and durTo read the leg from a to b; on symmetric matrices they
// read row b, which stays in cache while one site's moves are evaluated.
func (in *instance) distTo(a, b int) float64 {
	if in.symmetric {
		return in.legDist(b, a)
	}
	return in.legDist(a, b)
}

func (in *instance) durTo(a, b int) float64 {
	if in.symmetric {
		return in.legDur(b, a)
	}
	return in.legDur(a, b)
}

// baseDist is the distance of r's nodes, start to end depot, which for an
// empty route is the leg between them (the schedule of an unused vehicle
// records 0); moves on fast instances add their changes to it.
func (r *route) baseDist() float64 { return r.seg.distPre[len(r.seq)+1] }

// load returns the total load of r in dimension j.
func (r *route) load(in *instance, j int) float64 {
	return r.seg.loadPre[len(r.seq)*in.dims+j]
}

// serveFrom returns the departure from site u when the vehicle leaves
// location from at time t, and false when u's window has closed.
func (in *instance) serveFrom(from int, t float64, u int) (float64, bool) {
	site := &in.sites[u]
	t += in.durTo(from, site.Location)
	if len(site.Windows) > 0 {
		w := site.Windows[0]
		if t > w.End {
			return 0, false
		}
		if t < w.Start {
			t = w.Start
		}
	}
	return t + site.Service, true
}

func (in *instance) insertDist(r *route, i, u int) float64 {
	g := &r.seg
	lu := in.sites[u].Location
	return in.distTo(g.locs[i], lu) + in.legDist(lu, g.locs[i+1]) - g.arc(i)
}

func (in *instance) canInsert(r *route, i, u int) bool {
	g := &r.seg
	vt := &in.types[r.typ]
	for j, dem := range in.sites[u].Demand {
		if r.load(in, j)+dem > vt.Capacity[j] {
			return false
		}
	}
	t, ok := in.serveFrom(g.locs[i], g.dep[i], u)
	return ok && t+in.legDur(in.sites[u].Location, g.locs[i+1]) <= g.lat[i+1]
}

func (in *instance) removeDist(r *route, i int) float64 {
	g := &r.seg
	return in.legDist(g.locs[i-1], g.locs[i+1]) - g.arc(i-1) - g.arc(i)
}

func (in *instance) canRemove(r *route, i int) bool {
	g := &r.seg
	return g.dep[i-1]+in.legDur(g.locs[i-1], g.locs[i+1]) <= g.lat[i+1]
}

func (in *instance) replaceDist(r *route, i, v int) float64 {
	g := &r.seg
	lv := in.sites[v].Location
	return in.distTo(g.locs[i-1], lv) + in.legDist(lv, g.locs[i+1]) - g.arc(i-1) - g.arc(i)
}

func (in *instance) canReplace(r *route, i, v int) bool {
	g := &r.seg
	vt := &in.types[r.typ]
	old := in.sites[r.seq[i-1]].Demand
	for j, dem := range in.sites[v].Demand {
		if r.load(in, j)-old[j]+dem > vt.Capacity[j] {
			return false
		}
	}
	t, ok := in.serveFrom(g.locs[i-1], g.dep[i-1], v)
	return ok && t+in.legDur(in.sites[v].Location, g.locs[i+1]) <= g.lat[i+1]
}

func (in *instance) joinDist(a *route, i int, b *route, j int) float64 {
	ga, gb := &a.seg, &b.seg
	return ga.distPre[i] + in.legDist(ga.locs[i], gb.locs[j]) + gb.distPre[len(b.seq)+1] - gb.distPre[j]
}

func (in *instance) canJoin(a *route, i int, b *route, j int) bool {
	ga, gb := &a.seg, &b.seg
	vt := &in.types[a.typ]
	Lb := len(b.seq)
	d := in.dims
	for k := 0; k < d; k++ {
		load := ga.loadPre[i*d+k] + gb.loadPre[Lb*d+k] - gb.loadPre[(j-1)*d+k]
		if load > vt.Capacity[k] {
			return false
		}
	}
	return ga.dep[i]+in.legDur(ga.locs[i], gb.locs[j]) <= gb.lat[j]
}

// distObjective is the objective of a route of type t with n sites and the
// given distance, valid on fast instances where distance is all that varies.
func (in *instance) distObjective(t, n int, dist float64) objective {
	if n == 0 {
		return objective{}
	}
	vt := &in.types[t]
	return in.ranked(objective{value: vt.FixedCost + vt.DistanceCost*dist, tie: dist})
}

// feasibleAfterRemoval checks a route that lost sites. Fewer sites usually
// keep a route feasible, but not always: truncated or road distances can
// break the triangle inequality, and a break rule can need a rest elsewhere.
// On fast instances the check is a forward pass without allocation.
func (in *instance) feasibleAfterRemoval(t int, seq []int, s *schedule) bool {
	if !in.exact {
		return in.evaluate(t, seq, s, false) == feasible
	}
	if len(seq) == 0 {
		return true
	}
	vt := &in.types[t]
	at, now := vt.StartLocation, vt.ShiftStart
	for _, u := range seq {
		var ok bool
		now, ok = in.serveFrom(at, now, u)
		if !ok {
			return false
		}
		at = in.sites[u].Location
	}
	return now+in.legDur(at, vt.EndLocation) <= vt.ShiftEnd
}
