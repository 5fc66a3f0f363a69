package routeplan

import (
	"cmp"
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
// before it is made (holdsFit). The search never holds a state that
// breaks it, so a check looks only at the instants the changed routes
// hold.

// perTrip reports whether a route takes a unit of the resource for each
// of its trips: PerTrip, or Timed.
func (r *Resource) perTrip() bool { return r.PerTrip || r.Timed }

// checkTimedResource checks the members of a Timed resource.
func checkTimedResource(vs *constraints.Violations, path string, res *Resource) {
	nonNegative(vs, constraints.Field(path, "turnaround"), res.Turnaround)
	for b, w := range res.Busy {
		wp := constraints.Index(constraints.Field(path, "busy"), b)
		okS := finite(vs, constraints.Field(wp, "start"), w.Start)
		okE := finite(vs, constraints.Field(wp, "end"), w.End)
		if okS && okE && w.End < w.Start {
			vs.Add(CodeWindowOrder, wp, "interval ends (%g) before it starts (%g)", w.End, w.Start)
		}
	}
}

// readTimed fills timed, the timed resources each type takes.
func (in *instance) readTimed() {
	in.timedOf = make([][]int, len(in.types))
	for t := range in.types {
		for _, x := range in.types[t].Resources {
			if in.p.Resources[x].Timed {
				in.timedOf[t] = append(in.timedOf[t], x)
				in.anyTimed = true
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

// tripHolds appends to dst the interval each trip of route seq of type t
// holds a unit over, turnaround aside: from its loading start (or start
// service) to its return, timed with s, the route's tight schedule.
func (in *instance) tripHolds(dst []Window, t int, seq []int, s *schedule) []Window {
	vt := &in.types[t]
	loaded := vt.Loading != nil && len(vt.StartWindows) > 0
	var buf [4]float64
	load := buf[:0]
	if in.dims > len(buf) {
		load = make([]float64, 0, in.dims)
	}
	load = load[:in.dims]
	clear(load)
	from := func(begin float64) float64 {
		if !loaded {
			return begin
		}
		at, ok := latestIn(vt.StartWindows, begin-vt.Loading.duration(load))
		if !ok {
			return begin - vt.Loading.duration(load) // cannot happen: the trip's windows allow begin
		}
		return at
	}
	begin := s.begin
	for k, i := range seq {
		if !in.isReload(i) {
			for d, q := range in.sites[i].Demand {
				load[d] += q
			}
			continue
		}
		dst = append(dst, Window{from(begin), s.arr[k]})
		begin = s.start[k]
		clear(load)
	}
	return append(dst, Window{from(begin), s.ret})
}

// setHolds fills r.holds from its sequence, when its type takes a timed
// resource.
func (in *instance) setHolds(r *route) {
	r.holds = r.holds[:0]
	if len(in.timedOf[r.typ]) == 0 || len(r.seq) == 0 {
		return
	}
	var s schedule
	if in.evaluate(r.typ, r.seq, &s, true) != feasible {
		return // cannot happen: r is feasible
	}
	r.holds = in.tripHolds(r.holds, r.typ, r.seq, &s)
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
	return st.holdsFit(ch, sc)
}

// holdEvent is a change of the units held at an instant: +1 when a hold
// starts, -1 when it ends; changed marks the holds of a changed route.
type holdEvent struct {
	at      float64
	delta   int
	changed bool
}

// holdsFit reports whether the routes changed as in ch (each k at most
// once) keep every timed resource within its Count at every instant at
// which a changed route holds it. Routes not in ch keep their holds.
func (st *state) holdsFit(ch []routeChange, sc *scratch) bool {
	in := st.in
	if !in.anyTimed {
		return true
	}
	sc.holds = grow(sc.holds, len(ch))
	any := false
	for c := range ch {
		sc.holds[c] = sc.holds[c][:0]
		t := ch[c].t
		if len(in.timedOf[t]) == 0 || len(ch[c].seq) == 0 {
			continue
		}
		seq := in.settledSeq(t, ch[c].seq, &sc.settled)
		if in.evaluate(t, seq, &sc.schHold, true) != feasible {
			return false
		}
		sc.holds[c] = in.tripHolds(sc.holds[c], t, seq, &sc.schHold)
		any = true
	}
	if !any {
		return true // only holds given up
	}
	for x := range in.p.Resources {
		if !in.p.Resources[x].Timed || !st.holdsResource(ch, x) {
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

// timedFits is holdsFit for resource x, with the changed routes' holds
// in sc.holds: a sweep over the holds that meet the span of the changed
// ones, the Busy intervals included.
func (st *state) timedFits(ch []routeChange, x int, sc *scratch) bool {
	in := st.in
	res := &in.p.Resources[x]
	lo, hi := inf, -inf
	ev := sc.events[:0]
	for c := range ch {
		if !slices.Contains(in.timedOf[ch[c].t], x) {
			continue
		}
		for _, h := range sc.holds[c] {
			end := h.End + res.Turnaround
			lo, hi = min(lo, h.Start), max(hi, end)
			ev = append(ev, holdEvent{h.Start, 1, true}, holdEvent{end, -1, true})
		}
	}
	add := func(from, til float64) {
		if from < hi && til > lo && from < til {
			ev = append(ev, holdEvent{from, 1, false}, holdEvent{til, -1, false})
		}
	}
	for _, w := range res.Busy {
		add(w.Start, w.End)
	}
	for k, r := range st.routes {
		if len(r.holds) == 0 || inChanges(ch, k) || !slices.Contains(in.timedOf[r.typ], x) {
			continue
		}
		for _, h := range r.holds {
			add(h.Start, h.End+res.Turnaround)
		}
	}
	// A hold is open at its end: at one instant, ends come first.
	slices.SortFunc(ev, func(a, b holdEvent) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	sc.events = ev
	held, mine := 0, 0
	for _, e := range ev {
		held += e.delta
		if e.changed {
			mine += e.delta
		}
		if e.delta > 0 && mine > 0 && held > res.Count {
			return false
		}
	}
	return true
}

// inChanges reports whether route k is one of ch's.
func inChanges(ch []routeChange, k int) bool {
	for _, c := range ch {
		if c.k == k {
			return true
		}
	}
	return false
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
