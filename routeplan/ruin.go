package routeplan

import (
	"math/rand/v2"
	"slices"
)

// ruinMethod removes sites from a state during one ruin step: it appends
// what it removes to rs.removed and the routes it cuts to rs.cut, and
// leaves the routes feasible. Every method of ruinRecreate.ruins runs at
// every step, in order; a new way to ruin is a file with a type that
// implements ruin, and a line in that list.
type ruinMethod interface {
	ruin(st *state, rs *ruinStep, rr *ruinRecreate, rng *rand.Rand, sc *scratch)
}

// ruinStep is what the ruin methods of one step share: the seed site they
// remove around, how many sites to remove, the routes already cut and the
// sites removed so far.
type ruinStep struct {
	seed, target int
	cut          []int
	removed      []int
}

// ruin removes sites around a random seed, by every ruin method of rr in
// turn, and returns them.
func (st *state) ruin(rr *ruinRecreate, rng *rand.Rand, sc *scratch) []int {
	seed, routed := st.drawSeed(rng)
	if routed == 0 {
		return nil
	}
	rs := &sc.ruin
	rs.seed, rs.target = seed, min(1+rng.IntN(2*rr.avgMoved), routed)
	rs.cut, rs.removed = rs.cut[:0], rs.removed[:0]
	for _, m := range rr.ruins {
		m.ruin(st, rs, rr, rng, sc)
	}
	st.dropEmpty()
	return rs.removed
}

// drawSeed draws a routed site at random, and counts the routed sites;
// nearly all are routed, so a few tries almost always do without listing
// them. The seed is -1 when no site is routed.
func (st *state) drawSeed(rng *rand.Rand) (seed, routed int) {
	seed = -1
	where := st.where[:st.in.nSites]
	for try := 0; try < 8 && seed < 0; try++ {
		if u := rng.IntN(len(where)); where[u] >= 0 {
			seed = u
		}
	}
	for _, k := range where {
		if k >= 0 {
			routed++
		}
	}
	if routed == 0 || seed >= 0 {
		return seed, routed
	}
	j := rng.IntN(routed)
	for u, k := range where {
		if k >= 0 {
			if j == 0 {
				return u, routed
			}
			j--
		}
	}
	return seed, routed
}

// removeRun removes n sites of route k from index from on. Without the
// triangle inequality, or under a break rule, a shorter route can be
// infeasible: then the whole route is emptied instead.
func (st *state) removeRun(k, from, n int, rs *ruinStep, sc *scratch) {
	r := st.routes[k]
	rs.removed = st.in.appendSites(rs.removed, r.seq[from:from+n])
	sc.seq = append(sc.seq[:0], r.seq[:from]...)
	sc.seq = append(sc.seq, r.seq[from+n:]...)
	for _, s := range r.seq[from : from+n] {
		st.where[s] = -1
	}
	if !st.in.feasibleWithout(r, from, n, sc) || !st.holdsFitOne(k, r.typ, sc.seq, sc) {
		rs.removed = st.in.appendSites(rs.removed, sc.seq)
		for _, s := range sc.seq {
			st.where[s] = -1
		}
		sc.seq = sc.seq[:0]
		sc.sch = schedule{}
	}
	st.setRoute(k, sc.seq, sc.sch.dist, sc.sch.cost)
}

// feasibleWithout reports whether route r stays feasible without its n
// sites from index from, sc.seq. Fewer sites usually keep a route
// feasible, but not always: truncated or road distances can break the
// triangle inequality, and a break rule can need a rest elsewhere. In the
// Solomon case the join of what is left answers exactly; otherwise sc.seq
// is simulated, into sc.sch.
func (in *instance) feasibleWithout(r *route, from, n int, sc *scratch) bool {
	if in.exact {
		return in.advance(sc.j1.set(r, from, nil, r, from+n+1), boundTimed)
	}
	return in.evaluate(r.typ, sc.seq, &sc.sch, false) == feasible
}

// emptyShortRoute, under the fewest-vehicles objective, sometimes empties
// a short route so that its sites must find room elsewhere.
type emptyShortRoute struct{}

func (emptyShortRoute) ruin(st *state, rs *ruinStep, rr *ruinRecreate, rng *rand.Rand, sc *scratch) {
	if !st.in.hierarchical || len(st.routes) <= 1 || rng.IntN(10) != 0 {
		return
	}
	k := rng.IntN(len(st.routes))
	for j := 0; j < 2; j++ {
		if o := rng.IntN(len(st.routes)); len(st.routes[o].seq) < len(st.routes[k].seq) {
			k = o
		}
	}
	rs.cut = append(rs.cut, k)
	st.removeRun(k, 0, len(st.routes[k].seq), rs, sc)
}

// removeStrings removes one string of consecutive sites from each route
// near the seed, until the target is reached (Christiaens and Vanden
// Berghe's SISR): the routes of the seed and of its neighbours, nearest
// first, each cut once.
type removeStrings struct{}

func (removeStrings) ruin(st *state, rs *ruinStep, rr *ruinRecreate, rng *rand.Rand, sc *scratch) {
	near := rr.nb.of(rs.seed)
	for j := -1; j < len(near); j++ {
		v := rs.seed
		if j >= 0 {
			v = near[j]
		}
		if len(rs.removed) >= rs.target {
			break
		}
		k := st.where[v]
		if k < 0 || slices.Contains(rs.cut, k) {
			continue
		}
		rs.cut = append(rs.cut, k)
		seq := st.routes[k].seq
		n := 1 + rng.IntN(min(rr.maxLen, len(seq)))
		from := st.pos[v] - rng.IntN(n)
		from = max(0, min(from, len(seq)-n))
		st.removeRun(k, from, n, rs, sc)
	}
}
