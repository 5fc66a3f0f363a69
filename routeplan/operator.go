package routeplan

// operator is a local search neighbourhood: the moves that make two
// neighbouring sites adjacent in one way (relocate.go, swap.go, twoopt.go,
// twooptstar.go), and the one that joins two trips (mergetrips.go). Each
// operator bounds its candidates through the route caches (segment.go,
// join.go, reorder.go; solomon.go in the Solomon case), simulates the few that pass, and leaves the first feasible
// improving one in the scratch space as a proposal: one or two routes
// rewritten, with their schedules. Applying a proposal is the same for
// every operator (proposal.apply). A new operator is a file with a type
// that implements evaluate, and a line in operators.
type operator interface {
	// evaluate looks for a feasible move on p that improves the objective;
	// when it finds one it leaves it in sc.move (its routes in sc.seq and
	// sc.seq2, simulated in sc.sch and sc.sch2) and returns true.
	evaluate(st *state, p *pair, sc *scratch) bool
}

// operators are tried in this order on every pair; the first improving
// move found is applied. tripOperators are those an instance whose routes
// may drive several trips adds (instance.operators).
var (
	operators     = []operator{&relocate{}, &swap{}, &twoOpt{}, &twoOptStar{}}
	tripOperators = append(append([]operator(nil), operators...), &mergeTrips{})
)

// operators are the local search operators of the instance: the trip
// operators when a route may drive several trips.
func (in *instance) operators() []operator {
	if len(in.reloads) > 0 {
		return tripOperators
	}
	return operators
}

// pair is a candidate pair of neighbouring sites u and v, with their routes
// and positions; every operator tries to make them adjacent.
type pair struct {
	u, v   int
	ku, kv int // route indices
	pu, pv int // positions in the routes
	ru, rv *route
}

// proposal is a move an operator found: route k1 becomes sc.seq (scheduled
// in sc.sch) and, when k2 is not negative, route k2 becomes sc.seq2
// (scheduled in sc.sch2).
type proposal struct {
	k1, k2 int
}

// apply makes the proposed routes the state's.
func (m proposal) apply(st *state, sc *scratch) {
	if st.in.anyTimed && m.k2 >= 0 {
		// Route k1 is timed against the others without k2's old holds,
		// as holdsFit decided it (see holdback.go).
		r2 := st.routes[m.k2]
		st.registerHolds(r2, true)
		r2.holds = r2.holds[:0]
	}
	st.setRoute(m.k1, sc.seq, sc.sch.dist, sc.sch.cost)
	if m.k2 >= 0 {
		st.setRoute(m.k2, sc.seq2, sc.sch2.dist, sc.sch2.cost)
	}
}

// apart reports whether u and v are in one route and not next to each
// other: then a relocate or swap changes a few arcs whose lengths can be
// added up before building the move.
func (p *pair) apart() bool { return p.ku == p.kv && (p.pu-p.pv > 1 || p.pv-p.pu > 1) }

// proposeOne proposes sc.seq, the same sites in another order, as route k
// when that is feasible and better; sc.seq differs from the route at
// indices lo to hi only.
func (st *state) proposeOne(k, lo, hi int, sc *scratch) bool {
	r := st.routes[k]
	// Skip the simulation of the (many) candidates whose lower bound is
	// already no better, or that are certainly infeasible.
	if lb, ok := st.in.boundMove(r, sc.seq, lo, hi, &sc.j1); !ok || !lb.sub(r.obj).negative() {
		return false
	}
	if st.in.evaluateCandidate(r.typ, sc.seq, &sc.sch, &sc.simulated) != feasible {
		return false
	}
	d := st.in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(r.obj)
	if !d.negative() {
		return false
	}
	sc.move = proposal{k1: k, k2: -1}
	return true
}

// proposeTwo proposes sc.seq and sc.seq2 as routes k1 and k2 when both
// are feasible and the pair is better.
func (st *state) proposeTwo(k1, k2 int, sc *scratch) bool {
	r1, r2 := st.routes[k1], st.routes[k2]
	if !st.in.boundRoute(&sc.j1, r1, sc.seq, r2) || !st.in.boundRoute(&sc.j2, r2, sc.seq2, r1) {
		return false
	}
	lb2, ok := st.boundPair(&sc.j1, &sc.j2)
	if !ok {
		return false
	}
	return st.settleTwo(k1, k2, lb2, sc)
}

// proposePair is proposeTwo for candidates given as joins: routes whose
// bound rules them out are never built.
func (st *state) proposePair(k1 int, j1 *join, k2 int, j2 *join, sc *scratch) bool {
	lb2, ok := st.boundPair(j1, j2)
	if !ok {
		return false
	}
	sc.seq = j1.build(sc.seq)
	sc.seq2 = j2.build(sc.seq2)
	return st.settleTwo(k1, k2, lb2, sc)
}

// boundPair reports whether the joins j1 and j2, replacing routes j1.a
// and j2.a, may be feasible and better: distances first, then
// whether their sites allow the types, then the other sums, then the
// timing. It returns the lower bound of j2's objective it reached.
func (st *state) boundPair(j1, j2 *join) (objective, bool) {
	in := st.in
	r1, r2 := j1.a, j2.a
	if !j1.known() || !j2.known() {
		// No bound: the simulation decides.
		return objective{}, in.joinAllowed(j1) && in.joinAllowed(j2)
	}
	if in.exact {
		return in.boundPairExact(j1, j2)
	}
	for to := int8(boundDistances); to <= boundTimed; to++ {
		// A stage done already (most often the distances, by the
		// operator) is not asked for again. In the Solomon case the
		// later stages only rule out: the distances are the bound.
		if j1.stage < to && !in.advance(j1, to) {
			return objective{}, false
		}
		// A stage's bound is no lower than the one before (the loading
		// is at least the start service, the work at least the ends,
		// the timed duty at least both), so when j1's new bound with
		// j2's so far already rules the pair out, j2's stage would too.
		if to > boundDistances && j2.stage < to && !j1.cheap.add(j2.cheap).sub(r1.obj).sub(r2.obj).negative() {
			return objective{}, false
		}
		if j2.stage < to && !in.advance(j2, to) {
			return objective{}, false
		}
		if to == boundDistances || !in.exact {
			if !j1.cheap.add(j2.cheap).sub(r1.obj).sub(r2.obj).negative() {
				return objective{}, false
			}
		}
		if to == boundDistances && (!in.joinAllowed(j1) || !in.joinAllowed(j2)) {
			return objective{}, false
		}
	}
	return j2.cheap, true
}

// boundPairExact is boundPair in the Solomon case, on joins that are
// known: the distances are the bound, the later stages only rule out, so
// that they run one join after the other without comparing between
// them. It answers what boundPair's loop over the stages answers.
func (in *instance) boundPairExact(j1, j2 *join) (objective, bool) {
	if j1.stage == boundFailed || j2.stage == boundFailed {
		return objective{}, false
	}
	if j1.stage == 0 {
		in.advance(j1, boundDistances)
	}
	if j2.stage == 0 {
		in.advance(j2, boundDistances)
	}
	if !j1.cheap.add(j2.cheap).sub(j1.a.obj).sub(j2.a.obj).negative() || !in.joinAllowed(j1) || !in.joinAllowed(j2) {
		return objective{}, false
	}
	return j2.cheap, in.advance(j1, boundTimed) && in.advance(j2, boundTimed)
}

// settleTwo simulates sc.seq and sc.seq2 as routes k1 and k2 and proposes
// them when both are feasible and the pair is better. lb2 is a lower bound
// of the objective of sc.seq2: when the first route's exact objective plus
// lb2 is no better, the second is not simulated.
func (st *state) settleTwo(k1, k2 int, lb2 objective, sc *scratch) bool {
	r1, r2 := st.routes[k1], st.routes[k2]
	if st.in.evaluateCandidate(r1.typ, sc.seq, &sc.sch, &sc.simulated) != feasible {
		return false
	}
	obj1 := st.in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost)
	if !obj1.add(lb2).sub(r1.obj).sub(r2.obj).negative() {
		return false
	}
	if st.in.evaluateCandidate(r2.typ, sc.seq2, &sc.sch2, &sc.simulated) != feasible {
		return false
	}
	d := obj1.add(st.in.seqObjective(sc.seq2, sc.sch2.dist, sc.sch2.cost)).sub(r1.obj).sub(r2.obj)
	if !d.negative() {
		return false
	}
	sc.move = proposal{k1: k1, k2: k2}
	return true
}

// boundMove bounds seq, r's sites in another order that differs from r's
// at indices lo to hi only: a lower bound of its objective, and false when
// it is certainly infeasible. Candidates whose sums already reach r's
// objective are not timed. Without segments it bounds nothing.
func (in *instance) boundMove(r *route, seq []int, lo, hi int, jn *join) (objective, bool) {
	if !r.seg.ok {
		return objective{}, true
	}
	// r's prefix up to lo and suffix after hi, the rest played through;
	// every site is r's own, so it allows r's type. The callers bound the
	// distances first (reorderBound), so the first comparison is after the
	// sums.
	jn.set(r, lo, seq[lo:hi+1], r, hi+2).own = len(in.reloads) == 0
	for to := int8(boundLegs); to <= boundTimed; to++ {
		if !in.advance(jn, to) {
			return objective{}, false
		}
		if !jn.cheap.sub(r.obj).negative() {
			break
		}
	}
	return jn.cheap, true
}
