package routeplan

// The Solomon case: every site has at most one window, and no type has a
// break rule, a duty or driving limit, a time cost, a start service or a
// group limit (instance.exact). Then the segments of a route need only
// its locations, distances and loads and, per node, the earliest departure
// dep (serving everything as early as possible) and the latest service
// start lat that still lets the rest of the route finish in time. A
// candidate that leaves a prefix at dep[i], serves a few sites as early as
// possible and reaches a suffix at node j is feasible exactly when it
// arrives by lat[j] (Vidal's concatenation of time-window segments): the
// join's stages answer exactly (join.go), and the insertions of recreate,
// which are many and need no simulation, are checked here directly.

// refreshExact fills, in the Solomon case, each node's earliest departure
// (serving everything as early as possible) and latest service start (at
// the end depot: the shift end) that still lets the rest of the route
// finish in time. These are the times under R of refreshForward and
// refreshBackward, which in this case is the model itself, without the
// tolerance a bound adds: insertions are taken without a simulation, so
// they compare exactly what the simulation would.
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

// arc is the length of the leg from node i to node i+1. Taking it from the
// prefix sums reads the route's own cache instead of the matrix, whose
// cache misses dominate on large instances.
func (g *segments) arc(i int) float64 { return g.distPre[i+1] - g.distPre[i] }

// baseDist is the distance of r's nodes, start to end depot, which for an
// empty route is the leg between them (the schedule of an unused vehicle
// records 0).
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

// insertDist is the distance inserting site u between nodes i and i+1 of
// r adds; canInsert reports whether that insertion is feasible. Recreate
// calls the two apart, so that the distance, which rules out most
// places, comes first.
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

// distObjective is the objective of a route of type t with n sites and the
// given distance, in the Solomon case, where distance is all that varies.
func (in *instance) distObjective(t, n int, dist float64) objective {
	if n == 0 {
		return objective{}
	}
	vt := &in.types[t]
	return in.ranked(objective{value: vt.FixedCost + vt.DistanceCost*dist, tie: dist})
}
