package routeplan

// relocate moves u next to v: right after v, then right before it, in v's
// route (which may be u's own).
type relocate struct{}

func (*relocate) evaluate(st *state, p *pair, sc *scratch) bool {
	in := st.in
	u, ru, rv := p.u, p.ru, p.rv
	if p.ku == p.kv {
		for _, after := range []bool{true, false} {
			if (after && p.pu == p.pv+1) || (!after && p.pu == p.pv-1) {
				continue // u is there already
			}
			if !st.reorderMayImprove(p, after) {
				continue
			}
			// u ends at index q; the sites between its two places shift
			// by one towards where it was.
			q := p.pv
			if after && p.pu > p.pv {
				q++
			} else if !after && p.pu < p.pv {
				q--
			}
			sc.seq = append(sc.seq[:0], ru.seq...)
			if q > p.pu {
				copy(sc.seq[p.pu:q], sc.seq[p.pu+1:q+1])
			} else {
				copy(sc.seq[q+1:p.pu+1], sc.seq[q:p.pu])
			}
			sc.seq[q] = u
			if st.proposeOne(p.ku, min(p.pu, q), max(p.pu, q), sc) {
				return true
			}
		}
		return false
	}
	// An overload or a type u does not allow rules both places out before
	// any route is built.
	if !in.allowed[u][rv.typ] || !st.fits(rv, u) {
		return false
	}
	// u's route without u is the same for both places and every v: it
	// is bounded once while that route stays as it is.
	removal := sc.removal.of(in, ru, p.pu, u)
	for _, at := range []int{p.pv + 1, p.pv} {
		sc.one[0] = u
		sc.j1.set(rv, at, sc.one[:], rv, at+1).fits = true
		switch { // distancesOne's cases, one call each (see there)
		case in.oneFree:
			in.distancesOneFree(&sc.j1, u)
		case in.oneExact:
			in.distancesOneExact(&sc.j1, u)
		default:
			in.distancesOne(&sc.j1, u)
		}
		if st.proposePair(p.kv, &sc.j1, p.ku, removal, sc) {
			return true
		}
	}
	return false
}

// removalJoin is a route without one of its sites, as a join whose bound
// stages are kept while the route keeps its content (its stamp): a
// relocate tries every neighbour v of u with u's route without u.
type removalJoin struct {
	jn    join
	route *route
	stamp uint64
	u     int
}

// of returns the join of route r without u, its site at index pos, with
// the stages it has bounded so far when r has not changed since.
func (rj *removalJoin) of(in *instance, r *route, pos, u int) *join {
	if rj.route == r && rj.stamp == r.stamp && rj.u == u && r.stamp != 0 {
		return &rj.jn
	}
	rj.route, rj.stamp, rj.u = r, r.stamp, u
	// Neither route can be overloaded now.
	rj.jn.set(r, pos, nil, r, pos+2).fits = true
	in.distancesNone(&rj.jn)
	return &rj.jn
}

// reorderMayImprove reports whether moving u right after (or before) v in
// their route may improve it, bounded from the distances of the new legs.
func (st *state) reorderMayImprove(p *pair, after bool) bool {
	in, r := st.in, p.ru
	if !p.apart() {
		// u and v change places.
		return in.swapNextBound(r, min(p.pu, p.pv)+1).sub(r.obj).negative()
	}
	return in.relocateBound(r, p.pu+1, p.pv+1, after).sub(r.obj).negative()
}
