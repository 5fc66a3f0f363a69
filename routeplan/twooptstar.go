package routeplan

// twoOptStar exchanges route tails between two routes: u's route continues
// with v and the rest of v's route, and v's route takes the rest of u's.
// When the routes end alike, both new routes are joins of a prefix and a
// suffix, bounded in constant time.
type twoOptStar struct{}

func (*twoOptStar) evaluate(st *state, p *pair, sc *scratch) bool {
	if p.ku == p.kv {
		return false
	}
	in := st.in
	ru, rv, pu, pv := p.ru, p.rv, p.pu, p.pv
	if in.endsAlike(ru.typ, rv.typ) {
		// The loads first (see loadFirst): then the joins fit.
		checked := in.loadFirst()
		if checked {
			if in.oneLoad && ru.seg.ok && rv.seg.ok {
				if !tailsFitOne(ru, pu, rv, pv, in.capLimit) {
					return false
				}
			} else if !in.joinFits(ru, pu+1, rv, pv+1) || !in.joinFits(rv, pv, ru, pu+2) {
				return false
			}
		}
		sc.j1.set(ru, pu+1, nil, rv, pv+1).fits = checked
		sc.j2.set(rv, pv, nil, ru, pu+2).fits = checked
		in.distancesNone(&sc.j1)
		in.distancesNone(&sc.j2)
		return st.proposePair(p.ku, &sc.j1, p.kv, &sc.j2, sc)
	}
	sc.seq = append(sc.seq[:0], ru.seq[:pu+1]...)
	sc.seq = append(sc.seq, rv.seq[pv:]...)
	sc.seq2 = append(sc.seq2[:0], rv.seq[:pv]...)
	sc.seq2 = append(sc.seq2, ru.seq[pu+1:]...)
	return st.proposeTwo(p.ku, p.kv, sc)
}

// tailsFitOne is joinFits of both routes 2-opt* makes of ru and rv, with
// one load dimension, routes of one trip (instance.oneLoad) and segments:
// three prefix loads each, small enough to inline, since it runs for
// nearly every pair of routes 2-opt* looks at.
func tailsFitOne(ru *route, pu int, rv *route, pv int, limit [][]float64) bool {
	gu, gv := &ru.seg, &rv.seg
	return !(gu.loadPre[pu+1]+gv.loadPre[len(rv.seq)]-gv.loadPre[pv] > limit[ru.typ][0]) &&
		!(gv.loadPre[pv]+gu.loadPre[len(ru.seq)]-gu.loadPre[pu+1] > limit[rv.typ][0])
}
