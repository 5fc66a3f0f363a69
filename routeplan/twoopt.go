package routeplan

// twoOpt reverses, inside one route, the stretch after u up to v, so that v
// follows u.
func twoOpt(st *state, p *pair, sc *scratch) bool {
	if p.ku != p.kv || p.pu >= p.pv {
		return false
	}
	sc.seq = append(sc.seq[:0], p.ru.seq...)
	for a, b := p.pu+1, p.pv; a < b; a, b = a+1, b-1 {
		sc.seq[a], sc.seq[b] = sc.seq[b], sc.seq[a]
	}
	return st.improveOne(p.ku, sc)
}
