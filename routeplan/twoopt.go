package routeplan

// twoOpt reverses, inside one route, the stretch after u up to v, so that v
// follows u.
func twoOpt(st *state, p *pair, sc *scratch) bool {
	if p.ku != p.kv || p.pv-p.pu < 2 {
		return false // not one route, or nothing to reverse
	}
	in, r := st.in, p.ru
	if !in.fast && in.symmetric && r.fc.sg.ok {
		// On symmetric matrices only the two legs at the ends of the
		// stretch change; every site of it gets a new predecessor.
		g := &r.fc.sg
		a, b := p.pu+1, p.pv+1 // nodes of u and v
		d := in.legDist
		delta := d(g.nodes[a].loc, g.nodes[b].loc) + d(g.nodes[a+1].loc, g.nodes[b+1].loc) - d(g.nodes[a].loc, g.nodes[a+1].loc) - d(g.nodes[b].loc, g.nodes[b+1].loc)
		sc.nodes = sc.nodes[:0]
		for k := a + 1; k <= b+1; k++ {
			sc.nodes = append(sc.nodes, k)
		}
		if !in.reorderBound(r, delta, []int{a, b}, sc.nodes).sub(r.obj).less(objective{}) {
			return false
		}
	}
	sc.seq = append(sc.seq[:0], p.ru.seq...)
	for a, b := p.pu+1, p.pv; a < b; a, b = a+1, b-1 {
		sc.seq[a], sc.seq[b] = sc.seq[b], sc.seq[a]
	}
	return st.improveOne(p.ku, sc)
}
