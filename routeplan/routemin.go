package routeplan

// minimiseRoutes removes routes one at a time, until the budget fraction
// until is spent or a route cannot be removed. Each attempt empties the
// shortest route, forbids new routes, and runs ruin-and-recreate until every
// site is placed again. Sites that stay out gain "absence" weight, and a
// candidate is kept when it leaves out fewer sites or lighter ones, so the
// search learns which sites are hard to place (the fleet minimisation of
// Christiaens and Vanden Berghe's SISR).
func (sr *search) minimiseRoutes(until float64) {
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
	for len(cur.routes) > 1 && sr.progress() < until && !sr.stop() {
		work.copyFrom(cur)
		k := 0
		for j, r := range work.routes {
			if len(r.seq) < len(work.routes[k].seq) {
				k = j
			}
		}
		r := work.routes[k]
		for _, u := range r.seq {
			work.where[u] = -1
			if !in.isReload(u) {
				work.unassigned = append(work.unassigned, u)
			}
		}
		work.setRoute(k, nil, 0, 0)
		work.dropEmpty()
		work.routeCap = len(work.routes)
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
			if len(work.unassigned) == 0 {
				placed = true
				break
			}
		}
		if !placed {
			return
		}
		work.routeCap = 0
		cur.copyFrom(work)
		sr.offer(cur)
	}
}
