package routeplan

import (
	"math"
	"slices"

	"github.com/haulplan/haulplan/constraints"
)

// A Timed resource (Resource.Timed) bounds the trips that hold a unit at
// one instant: trailer units that turn, loaded again once they are back.
// Each route keeps its trips' holds (route.holds), taken from the route
// as Solution reports it: evaluated with its tight departure. Whether a
// change of routes keeps every timed resource within its Count depends
// on the other routes' times, which no bound of one route sees, so it is
// checked where a change is decided, after the simulation: a local search
// move before it is applied, an insertion before it is taken, a removal
// before it is made (holdsFit). Every change passes the check, so at the
// instants its routes hold a unit a state keeps every count, and a check
// looks only at the instants the changed routes hold. A change whose
// trips find every unit out is not refused at once: its trips may be
// held back until a unit is free (holdback.go).

// perTrip reports whether a route takes a unit of the resource for each
// of its trips: PerTrip, or Timed.
func (r *Resource) perTrip() bool { return r.PerTrip || r.Timed }

// checkTimedResource checks the members of a Timed resource.
func checkTimedResource(vs *constraints.Violations, path string, res *Resource) {
	nonNegative(vs, constraints.Field(path, "turnaround"), res.Turnaround)
	if res.Holds != HoldTrip && res.Holds != HoldLoading {
		vs.Add(CodeUnknown, constraints.Field(path, "holds"), "holds is %d: want HoldTrip (0) or HoldLoading (1)", int(res.Holds))
	}
	for b, w := range res.Busy {
		wp := constraints.Index(constraints.Field(path, "busy"), b)
		okS := finite(vs, constraints.Field(wp, "start"), w.Start)
		okE := finite(vs, constraints.Field(wp, "end"), w.End)
		if okS && okE && w.End < w.Start {
			vs.Add(CodeWindowOrder, wp, "interval ends (%g) before it starts (%g)", w.End, w.Start)
		}
	}
}

// readTimed fills timedOf, the timed resources each type takes, and
// anyTimed.
func (in *instance) readTimed() {
	in.timedOf = make([][]int, len(in.types))
	for t := range in.types {
		for _, x := range in.types[t].Resources {
			if in.p.Resources[x].Timed {
				in.timedOf[t] = append(in.timedOf[t], x)
				in.anyTimed = true
				in.loadingHeld = in.loadingHeld || in.p.Resources[x].Holds == HoldLoading
			}
		}
	}
	if in.anyTimed {
		// The Solomon case's lazy insertions are taken unsimulated.
		in.exact = false
	}
}

// countLimited reports whether resource x bounds the units taken in all
// (state.resUsed against Count), not at each instant.
func (in *instance) countLimited(x int) bool { return !in.p.Resources[x].Timed }

// tripHold is what one trip of a route holds of the Timed resources its
// type takes, turnaround aside: from is when its loading starts (or its
// start service begins), loaded when that loading (or start service)
// ends, back when the trip returns.
type tripHold struct{ from, loaded, back float64 }

// span is the interval [from, til) over which hold h takes a unit of
// resource x, turnaround included (see Resource.Holds).
func (in *instance) span(x int, h tripHold) (from, til float64) {
	res := &in.p.Resources[x]
	if res.Holds == HoldLoading {
		return h.from, h.loaded + res.Turnaround
	}
	return h.from, h.back + res.Turnaround
}

// tripHolds appends to dst what each trip of route seq of type t holds
// (tripHold), timed with s, the route's tight schedule: its loading
// starts at the latest instant in the type's start windows that leaves
// it before the trip's start service begins, and lasts Loading's
// duration for the trip's load; without Loading, the start service is
// the loading.
func (in *instance) tripHolds(dst []tripHold, t int, seq []int, s *schedule) []tripHold {
	vt := &in.types[t]
	loaded := vt.Loading != nil
	var buf [4]float64
	load := buf[:0]
	if in.dims > len(buf) {
		load = make([]float64, 0, in.dims)
	}
	load = load[:in.dims]
	clear(load)
	hold := func(begin, ret float64) tripHold {
		if !loaded {
			return tripHold{begin, begin + in.loadingTime(t, load), ret}
		}
		// Without start windows the loading ends as the start service
		// begins.
		l := vt.Loading.duration(load)
		at, ok := latestIn(vt.StartWindows, begin-l)
		if !ok {
			at = begin - l // cannot happen: the trip's windows allow begin
		}
		return tripHold{at, at + l, ret}
	}
	begin := s.begin
	for k, i := range seq {
		if !in.isReload(i) {
			for d, q := range in.sites[i].Demand {
				load[d] += q
			}
			continue
		}
		dst = append(dst, hold(begin, s.arr[k]))
		begin = s.start[k]
		clear(load)
	}
	return append(dst, hold(begin, s.ret))
}

// setHolds fills r.holds and r.notBefore from its sequence, when its
// type takes a timed resource, holding trips back where the timelines
// (without r's own holds) have every unit out, as holdsFit did when it
// decided the change (see holdback.go). It reports the cost of the route
// when it is held back.
func (st *state) setHolds(r *route) (float64, bool) {
	in := st.in
	r.holds, r.notBefore = r.holds[:0], r.notBefore[:0]
	if len(in.timedOf[r.typ]) == 0 || len(r.seq) == 0 {
		return 0, false
	}
	ch := [1]routeChange{{-1, r.typ, r.seq}}
	b := &st.holdBack
	if !st.fitHolds(ch[:], 0, nil, b, false) {
		// Cannot happen: every change was decided by holdsFit. Keep the
		// tight times.
		if in.evaluate(r.typ, r.seq, &b.sch, true) == feasible {
			r.holds = in.tripHolds(r.holds, r.typ, r.seq, &b.sch)
		}
		return 0, false
	}
	r.holds = append(r.holds, b.holds...)
	if !b.delayed {
		return 0, false
	}
	r.notBefore, r.departBy = append(r.notBefore, b.notBefore...), b.departBy
	return b.sch.cost, true
}

// heldBackTimes are the instants route r's trips are held back to and
// the latest departure that goes with them, for evaluateHeldBack: nil
// when no trip is held back.
func (r *route) heldBackTimes() ([]float64, float64) {
	if len(r.notBefore) == 0 {
		return nil, inf
	}
	return r.notBefore, r.departBy
}

// routeChange is a route as a decision would make it: route k (-1 a new
// one) of type t with sequence seq.
type routeChange struct {
	k, t int
	seq  []int
}

// holdsFitOne is holdsFit for route k (-1 a new one) of type t becoming
// seq.
func (st *state) holdsFitOne(k, t int, seq []int, sc *scratch) bool {
	if !st.in.anyTimed {
		return true
	}
	sc.change[0] = routeChange{k, t, seq}
	return st.holdsFit(sc.change[:1], sc)
}

// proposalHoldsFit is holdsFit for the move an operator proposes.
func (st *state) proposalHoldsFit(sc *scratch) bool {
	if !st.in.anyTimed {
		return true
	}
	m := sc.move
	ch := append(sc.change[:0], routeChange{m.k1, st.routes[m.k1].typ, sc.seq})
	if m.k2 >= 0 {
		ch = append(ch, routeChange{m.k2, st.routes[m.k2].typ, sc.seq2})
	}
	if !st.holdsFit(ch, sc) {
		return false
	}
	if sc.heldBack == (objective{}) {
		return true
	}
	// The operator found the move better with its routes timed tight:
	// it must still be once they are held back.
	in := st.in
	d := in.seqObjective(sc.seq, sc.sch.dist, sc.sch.cost).sub(st.routes[m.k1].obj)
	if m.k2 >= 0 {
		d = d.add(in.seqObjective(sc.seq2, sc.sch2.dist, sc.sch2.cost)).sub(st.routes[m.k2].obj)
	}
	return d.add(sc.heldBack).negative()
}

// holdsFit reports whether the routes changed as in ch (each k at most
// once) keep every timed resource within its Count at every instant at
// which a changed route holds it, once their trips are held back where
// a unit is out (see holdback.go). Routes not in ch keep their holds.
// What holding back adds to the changes' objective is left in
// sc.heldBack, and to their cost in sc.heldBackCost.
func (st *state) holdsFit(ch []routeChange, sc *scratch) bool {
	in := st.in
	sc.heldBack, sc.heldBackCost = objective{}, 0
	if !in.anyTimed {
		return true
	}
	sc.holds = grow(sc.holds, len(ch))
	sc.settled = grow(sc.settled, len(ch))
	sc.tightCost = grow(sc.tightCost, len(ch))
	any := false
	for c := range ch {
		sc.holds[c] = sc.holds[c][:0]
		t := ch[c].t
		if len(in.timedOf[t]) == 0 || len(ch[c].seq) == 0 {
			continue
		}
		seq := in.settledSeq(t, ch[c].seq, &sc.settled[c])
		ch[c].seq = seq
		// One change is timed where fitHolds finds it, if need be.
		sch := &sc.schHold
		if len(ch) == 1 {
			sch = &sc.hb.sch
		}
		if in.evaluate(t, seq, sch, true) != feasible {
			return false
		}
		sc.holds[c] = in.tripHolds(sc.holds[c], t, seq, sch)
		sc.tightCost[c] = sch.cost
		any = true
	}
	if !any {
		return true // only holds given up
	}
	if st.timedAllFit(ch, sc) {
		return true
	}
	// Hold trips back, one change after the other, each against the
	// routes as the changes before it leave them: what setRoute does
	// when the changes are applied in this order.
	for c := range ch {
		t, seq := ch[c].t, ch[c].seq
		if len(in.timedOf[t]) == 0 || len(seq) == 0 {
			continue
		}
		if !st.fitHolds(ch, c, sc.holds, &sc.hb, len(ch) == 1) {
			return false
		}
		sc.holds[c] = append(sc.holds[c][:0], sc.hb.holds...)
		if sc.hb.delayed {
			dist := sc.hb.sch.dist
			sc.heldBack = sc.heldBack.add(in.seqObjective(seq, dist, sc.hb.sch.cost).sub(in.seqObjective(seq, dist, sc.tightCost[c])))
			sc.heldBackCost += sc.hb.sch.cost - sc.tightCost[c]
		}
	}
	return st.timedAllFit(ch, sc)
}

// timedAllFit is holdsFit for the changed routes' holds in sc.holds, as
// they are.
func (st *state) timedAllFit(ch []routeChange, sc *scratch) bool {
	for x := range st.in.p.Resources {
		if !st.in.p.Resources[x].Timed || !st.holdsResource(ch, x) {
			continue
		}
		if !st.timedFits(ch, x, sc) {
			return false
		}
	}
	return true
}

// holdsResource reports whether a changed route's type takes resource x.
func (st *state) holdsResource(ch []routeChange, x int) bool {
	for _, c := range ch {
		if len(c.seq) > 0 && slices.Contains(st.in.timedOf[c.t], x) {
			return true
		}
	}
	return false
}

// timeline is what a state's routes hold of one Timed resource, the
// Busy intervals included: the start and the end (turnaround included)
// of every hold, each list sorted, so that the units held at an instant
// are the starts up to it less the ends up to it (a hold is open at its
// end).
type timeline struct {
	starts, ends []float64
	// free are the runs over which a unit is free, for a Count of
	// freeOf-1 (0: not known since the last change; see freeRuns).
	free   []run
	freeOf int
	// longest is longestHold's answer for the start windows longestWs
	// (their first, of longestN) and a Count of longestOf-1 (0: none).
	longest   float64
	longestWs *Window
	longestN  int
	longestOf int
}

// add records a hold over [from, til).
func (tl *timeline) add(from, til float64) {
	tl.starts = insertSorted(tl.starts, from)
	tl.ends = insertSorted(tl.ends, til)
	tl.changed()
}

// remove forgets a hold over [from, til) that add recorded.
func (tl *timeline) remove(from, til float64) {
	tl.starts = removeSorted(tl.starts, from)
	tl.ends = removeSorted(tl.ends, til)
	tl.changed()
}

func insertSorted(xs []float64, x float64) []float64 {
	i, _ := slices.BinarySearch(xs, x)
	return slices.Insert(xs, i, x)
}

func removeSorted(xs []float64, x float64) []float64 {
	if i, ok := slices.BinarySearch(xs, x); ok {
		return slices.Delete(xs, i, i+1)
	}
	return xs // cannot happen: every hold removed was added
}

// newTimelines are the timelines of a state without routes: the Busy
// intervals of each Timed resource (nil for the others).
func (in *instance) newTimelines() []timeline {
	if !in.anyTimed {
		return nil
	}
	tls := make([]timeline, len(in.p.Resources))
	for x := range in.p.Resources {
		for _, w := range in.p.Resources[x].Busy {
			tls[x].add(w.Start, w.End)
		}
	}
	return tls
}

// rebuildTimelines sets the timelines from the routes' holds and the Busy
// intervals.
func (st *state) rebuildTimelines() {
	in := st.in
	if !in.anyTimed {
		return
	}
	if len(st.timelines) != len(in.p.Resources) {
		st.timelines = make([]timeline, len(in.p.Resources))
	}
	for x := range in.p.Resources {
		tl := &st.timelines[x]
		tl.starts, tl.ends = tl.starts[:0], tl.ends[:0]
		tl.changed()
		for _, w := range in.p.Resources[x].Busy {
			tl.starts, tl.ends = append(tl.starts, w.Start), append(tl.ends, w.End)
		}
	}
	for _, r := range st.routes {
		for _, x := range in.timedOf[r.typ] {
			tl := &st.timelines[x]
			for _, h := range r.holds {
				from, til := in.span(x, h)
				tl.starts, tl.ends = append(tl.starts, from), append(tl.ends, til)
			}
		}
	}
	for x := range st.timelines {
		slices.Sort(st.timelines[x].starts)
		slices.Sort(st.timelines[x].ends)
	}
}

// registerHolds adds r's holds to the timelines of the Timed resources
// its type takes, or with remove takes them off.
func (st *state) registerHolds(r *route, remove bool) {
	for _, x := range st.in.timedOf[r.typ] {
		for _, h := range r.holds {
			if from, til := st.in.span(x, h); remove {
				st.timelines[x].remove(from, til)
			} else {
				st.timelines[x].add(from, til)
			}
		}
	}
}

// timedFits is holdsFit for resource x, with the changed routes' holds
// in sc.holds: over each hold of a changed route, the units the other
// routes hold (the state's timeline less the changed routes' old holds)
// plus the changed routes' new ones, at its start and at every start of
// the timeline before its end.
func (st *state) timedFits(ch []routeChange, x int, sc *scratch) bool {
	in := st.in
	res := &in.p.Resources[x]
	tl := &st.timelines[x]
	// adj is what the changed routes change at an instant: +1 for each
	// new hold that holds it, -1 for each old one (the timeline's).
	adj := sc.adjust[:0]
	for c := range ch {
		if slices.Contains(in.timedOf[ch[c].t], x) {
			for _, h := range sc.holds[c] {
				from, til := in.span(x, h)
				adj = append(adj, signedHold{from, til, 1})
			}
		}
		if k := ch[c].k; k >= 0 && slices.Contains(in.timedOf[st.routes[k].typ], x) {
			for _, h := range st.routes[k].holds {
				from, til := in.span(x, h)
				adj = append(adj, signedHold{from, til, -1})
			}
		}
	}
	sc.adjust = adj
	changedAt := func(t float64) int {
		n := 0
		for _, a := range adj {
			if a.from <= t && t < a.til {
				n += a.sign
			}
		}
		return n
	}
	for _, a := range adj {
		from, til := a.from, a.til
		if a.sign < 0 || from >= til {
			continue // an old hold, or one that holds no instant
		}
		// The units held at from, then at each later start of the
		// timeline before til, walking its starts and ends in order (at
		// one instant the ends first): the count rises only where a hold
		// starts, a new one being checked at its own start.
		next := math.Nextafter(from, inf)
		i, _ := slices.BinarySearch(tl.starts, next)
		j, _ := slices.BinarySearch(tl.ends, next)
		held := i - j
		if held+changedAt(from) > res.Count {
			return false
		}
		for ; i < len(tl.starts) && tl.starts[i] < til; i++ {
			t := tl.starts[i]
			for j < len(tl.ends) && tl.ends[j] <= t {
				held--
				j++
			}
			held++
			if held+changedAt(t) > res.Count {
				return false
			}
		}
	}
	return true
}

// signedHold is a hold over [from, til) that a change adds (sign 1) or
// takes off (-1).
type signedHold struct {
	from, til float64
	sign      int
}

// settledSeq is seq as setRoute keeps it for a route of type t: without
// its empty trips when that is feasible (see withoutEmptyTrips), in buf.
func (in *instance) settledSeq(t int, seq []int, buf *[]int) []int {
	if !in.hasEmptyTrip(seq) {
		return seq
	}
	trimmed, _ := in.trimEmptyTrips(append((*buf)[:0], seq...))
	*buf = trimmed
	var sch schedule
	if in.evaluateAllowed(t, trimmed, &sch, false) != feasible {
		return seq
	}
	return trimmed
}

// busyResource returns the Timed resource that alone keeps site i off the
// routes: every type that may serve i and still open a route (canOpen)
// serves it alone within every rule, timed tight, but the trip finds
// every unit of that one resource held (firstHoldOut: for one held over
// loadings, at every earlier start its staging allows too); -1 when there
// is no such type, one of them fits, or they are kept out by different
// resources. The search, which may also hold the trip back, left the site
// out: the unit the tight time finds out is what stands in the way. b is
// scratch space.
func (st *state) busyResource(i int, b *holdBack) int {
	in := st.in
	if !in.anyTimed {
		return -1
	}
	x := -1
	seq := []int{i}
	for t := range in.types {
		if !in.allowed[i][t] || !st.canOpen(t) || len(in.timedOf[t]) == 0 {
			continue
		}
		if in.evaluate(t, seq, &b.sch, true) != feasible {
			continue
		}
		ch := [1]routeChange{{-1, t, seq}}
		b.holds, b.out = in.tripHolds(b.holds[:0], t, seq, &b.sch), -1
		if j, _, _ := st.firstHoldOut(ch[:], 0, nil, b); j < 0 || (x >= 0 && b.out != x) {
			return -1
		}
		x = b.out
	}
	return x
}
