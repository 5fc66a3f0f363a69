package routeplan

// twoOpt reverses, inside one route, the stretch after u up to v, so that v
// follows u.
type twoOpt struct{}

func (*twoOpt) evaluate(st *state, p *pair, sc *scratch) bool {
	if p.ku != p.kv || p.pv-p.pu < 2 {
		return false // not one route, or nothing to reverse
	}
	in, r := st.in, p.ru
	if in.symmetric {
		var lb objective
		if lb, sc.nodes = in.reverseBound(r, p.pu+1, p.pv+1, sc.nodes); !lb.sub(r.obj).negative() {
			return false
		}
	}
	sc.seq = append(sc.seq[:0], p.ru.seq...)
	for a, b := p.pu+1, p.pv; a < b; a, b = a+1, b-1 {
		sc.seq[a], sc.seq[b] = sc.seq[b], sc.seq[a]
	}
	return st.proposeOne(p.ku, p.pu+1, p.pv, sc)
}
