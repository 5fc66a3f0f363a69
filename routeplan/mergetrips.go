package routeplan

// mergeTrips joins the two trips around u, a reload, into one: the route
// without u, when its load fits one trailer and its times allow. It is the
// move that takes a trip off (the other operators only move reloads). It
// looks at u alone, whatever v: bounded from the route's segments, the
// repeats with u's other neighbours cost a few reads each, and a reload
// is one trip in many.
type mergeTrips struct{}

func (*mergeTrips) evaluate(st *state, p *pair, sc *scratch) bool {
	in := st.in
	if !in.isReload(p.u) {
		return false
	}
	r := p.ru
	jn := sc.j1.set(r, p.pu, nil, r, p.pu+2)
	if jn.known() && (!in.advance(jn, boundTimed) || !jn.cheap.sub(r.obj).negative()) {
		return false
	}
	sc.seq = append(append(sc.seq[:0], r.seq[:p.pu]...), r.seq[p.pu+1:]...)
	if in.evaluateAllowed(r.typ, sc.seq, &sc.sch, false) != feasible {
		return false
	}
	if !in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(r.obj).negative() {
		return false
	}
	sc.move = proposal{k1: p.ku, k2: -1}
	return true
}
