package routeplan

// swap exchanges u and v, in one route or between two.
func swap(st *state, p *pair, sc *scratch) bool {
	in := st.in
	u, v, ru, rv := p.u, p.v, p.ru, p.rv
	if p.ku == p.kv {
		if in.fast && p.apart() {
			loc := ru.fc.loc
			nu, nv := p.pu+1, p.pv+1
			lu, lv := loc[nu], loc[nv]
			d := in.legDist
			delta := d(loc[nu-1], lv) + d(lv, loc[nu+1]) + d(loc[nv-1], lu) + d(lu, loc[nv+1]) -
				d(loc[nu-1], lu) - d(lu, loc[nu+1]) - d(loc[nv-1], lv) - d(lv, loc[nv+1])
			if delta > -1e-9 {
				return false
			}
		}
		if !in.fast && !p.apart() && ru.fc.sg.ok && !in.swapNextBound(ru, min(p.pu, p.pv)+1).sub(ru.obj).less(objective{}) {
			return false
		}
		// Under the other rules the same distances bound the route.
		if !in.fast && p.apart() && ru.fc.sg.ok && !in.swapBound(ru, p.pu+1, p.pv+1).sub(ru.obj).less(objective{}) {
			return false
		}
		sc.seq = append(sc.seq[:0], ru.seq...)
		sc.seq[p.pu], sc.seq[p.pv] = v, u
		return st.improveOne(p.ku, sc)
	}
	if in.fast {
		d1, d2 := in.replaceDist(rv, p.pv+1, u), in.replaceDist(ru, p.pu+1, v)
		if !st.gain(p.kv, len(rv.seq), rv.baseDist()+d1, p.ku, len(ru.seq), ru.baseDist()+d2) ||
			!in.allowed[u][rv.typ] || !in.allowed[v][ru.typ] ||
			!in.canReplace(rv, p.pv+1, u) || !in.canReplace(ru, p.pu+1, v) {
			return false
		}
	}
	if !in.fast {
		if !in.allowed[u][rv.typ] || !in.allowed[v][ru.typ] || !st.fitsInstead(rv, v, u) || !st.fitsInstead(ru, u, v) {
			return false
		}
		sc.one[0], sc.other[0] = u, v
		return st.improvePair(p.kv, sc.j1.set(rv, p.pv, sc.one[:], rv, p.pv+2), p.ku, sc.j2.set(ru, p.pu, sc.other[:], ru, p.pu+2), sc)
	}
	sc.seq = append(sc.seq[:0], rv.seq...)
	sc.seq[p.pv] = u
	sc.seq2 = append(sc.seq2[:0], ru.seq...)
	sc.seq2[p.pu] = v
	return st.improveTwo(p.kv, p.ku, sc)
}
