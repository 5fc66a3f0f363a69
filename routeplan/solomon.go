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
// join's stages answer exactly (join.go, timedExact), so that recreate
// takes insertions without simulating them.

// refreshExact fills, in the Solomon case, each node's earliest departure
// (serving everything as early as possible) and latest service start (at
// the end depot: the shift end) that still lets the rest of the route
// finish in time. These are the times under R of refreshForward and
// refreshBackward, which in this case is the model itself, without the
// tolerance a bound adds: insertions are taken without a simulation, so
// they must compare exactly what the simulation would.
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

// baseDist is the distance of r's nodes, start to end depot, which for an
// empty route is the leg between them (the schedule of an unused vehicle
// records 0).
func (r *route) baseDist() float64 { return r.seg.distPre[len(r.seq)+1] }

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

// timedExact is timed in the Solomon case, where it is exact: the prefix
// leaves node i at its earliest departure, the middle is served as early
// as possible, and the suffix must be reached by its latest start, with
// the same sums as the simulation.
func (in *instance) timedExact(jn *join) bool {
	at, now := jn.a.seg.locs[jn.i], jn.a.seg.dep[jn.i]
	for _, m := range jn.mid {
		var ok bool
		if now, ok = in.serveFrom(at, now, m); !ok {
			return false
		}
		at = in.sites[m].Location
	}
	return now+in.legDur(at, jn.b.seg.locs[jn.j]) <= jn.b.seg.lat[jn.j]
}
