package routeplan

// minimiseRoutes removes routes (with byTrips, trips) one at a time,
// until the budget fraction until is spent or one cannot be removed. Each
// attempt empties the shortest, forbids new ones, and runs
// ruin-and-recreate until every site is placed again (or, with a short
// fleet, until no more value is left out than before). Sites that stay out gain "absence" weight, and a
// candidate is kept when it leaves out fewer sites or lighter ones, so the
// search learns which sites are hard to place (the fleet minimisation of
// Christiaens and Vanden Berghe's SISR).
func (sr *search) minimiseRoutes(until float64, byTrips bool) {
	in := sr.in
	absence := make([]int, len(in.sites))
	weight := func(st *state) int {
		w := 0
		for _, u := range st.unassigned {
			w += absence[u]
		}
		return w
	}
	cur := sr.best.clone()
	work, cand := newState(in), newState(in)
	lns := newRuinRecreate(in, sr.nb, cur.obj)
	for cur.vehicles(byTrips) > 1 && sr.progress() < until && !sr.stop() {
		work.copyFrom(cur)
		work.removeSmallest(sr.sc, byTrips)
		work.routeCap, work.tripCap = len(work.routes), byTrips
		placed := false
		for sr.progress() < until && !sr.stop() {
			sr.iter++
			lns.step(cand, work, sr.rng, sr.sc, sr.stop)
			for _, u := range work.unassigned {
				absence[u]++
			}
			if len(cand.unassigned) < len(work.unassigned) || weight(cand) < weight(work) {
				work, cand = cand, work
			}
			// Placed when no more value is left out than before the
			// removal: with a short fleet some sites stay out whatever
			// the routes.
			if work.obj.lost <= cur.obj.lost+tolerance(cur.obj.lost) {
				placed = true
				break
			}
		}
		if !placed {
			return
		}
		// With a short fleet the removal may have freed a vehicle that
		// serves a site left out on a route of its own: serving it leaves
		// out less value, which comes before fewer routes.
		work.routeCap, work.tripCap = 0, false
		work.refill(sr.nb, sr.rng, sr.sc, sr.stop)
		cur.copyFrom(work)
		sr.offer(cur)
	}
}

// vehicles is what route elimination counts: routes, or with byTrips
// trips (taking off a trip of one is taking off a route).
func (st *state) vehicles(byTrips bool) int {
	if byTrips {
		return st.totalTrips()
	}
	return len(st.routes)
}

// removeSmallest leaves out the sites of the route with the fewest, or
// with byTrips of the trip with the fewest (its reload goes with it: see
// setRoute), and drops the routes left empty.
func (st *state) removeSmallest(sc *scratch, byTrips bool) {
	k, from, n := -1, 0, 0
	for j, r := range st.routes {
		start := 0
		for x := 0; x <= len(r.seq); x++ {
			if x < len(r.seq) && (!byTrips || !st.in.isReload(r.seq[x])) {
				continue
			}
			if k < 0 || x-start < n {
				k, from, n = j, start, x-start
			}
			start = x + 1
		}
	}
	rs := &sc.ruin
	rs.removed = rs.removed[:0]
	st.removeRun(k, from, n, rs, sc)
	st.unassigned = append(st.unassigned, rs.removed...)
	st.dropEmpty()
}
