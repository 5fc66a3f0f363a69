package routeplan

// swap exchanges u and v, in one route or between two.
type swap struct{}

func (*swap) evaluate(st *state, p *pair, sc *scratch) bool {
	in := st.in
	u, v, ru, rv := p.u, p.v, p.ru, p.rv
	if p.ku == p.kv {
		if !st.exchangeMayImprove(p) {
			return false
		}
		sc.seq = append(sc.seq[:0], ru.seq...)
		sc.seq[p.pu], sc.seq[p.pv] = v, u
		return st.proposeOne(p.ku, min(p.pu, p.pv), max(p.pu, p.pv), sc)
	}
	checked := in.loadFirst()
	if !in.allowed[u][rv.typ] || !in.allowed[v][ru.typ] || (checked && (!st.fitsInstead(rv, v, u) || !st.fitsInstead(ru, u, v))) {
		return false
	}
	sc.one[0], sc.other[0] = u, v
	sc.j1.set(rv, p.pv, sc.one[:], rv, p.pv+2).fits = checked
	sc.j2.set(ru, p.pu, sc.other[:], ru, p.pu+2).fits = checked
	switch { // distancesOne's cases, one call each (see there)
	case in.oneFree:
		in.distancesOneFree(&sc.j1, u)
		in.distancesOneFree(&sc.j2, v)
	case in.oneExact:
		in.distancesOneExact(&sc.j1, u)
		in.distancesOneExact(&sc.j2, v)
	default:
		in.distancesOne(&sc.j1, u)
		in.distancesOne(&sc.j2, v)
	}
	return st.proposePair(p.kv, &sc.j1, p.ku, &sc.j2, sc)
}

// exchangeMayImprove reports whether exchanging u and v in their route may
// improve it, bounded from the distances of the new legs.
func (st *state) exchangeMayImprove(p *pair) bool {
	in, r := st.in, p.ru
	if !p.apart() {
		return in.swapNextBound(r, min(p.pu, p.pv)+1).sub(r.obj).negative()
	}
	return in.swapBound(r, p.pu+1, p.pv+1).sub(r.obj).negative()
}
