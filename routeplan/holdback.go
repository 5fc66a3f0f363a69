package routeplan

import (
	"math"
	"slices"
)

// A dispatcher holds a trip back at the start location until a unit of a
// Timed resource is free: a reefer back at 10:30 takes a second trip that
// could have left at 09:45, when its stores' windows still allow the later
// start. Routing does the same. A route is timed tight (evaluate with
// tight set); when a trip's hold then finds every unit out for part of it,
// the trip is held back to the earliest instant from which a unit is free
// for the whole hold, the route is timed again with its trips' start
// services no earlier than those instants (route.notBefore, read by the
// simulation through the trips' start windows: holdTripsBack), and so on
// until every hold fits or the route breaks a rule. A route whose later
// trip is held back departs no later than it did (route.departBy): the
// driver waits at the start location between trips. Left free, the tight
// departure would close the wait by leaving later, bringing the first
// trip's unit back later, which may push the held-back trip later again
// (with one unit, by the turnaround at every round). A hold back only
// makes a route later, so every bound of one route stays a relaxation;
// the change that needs it is decided with the held-back times
// (holdsFit), and setRoute times the route again in the same way against
// the same timeline, so the state keeps what was decided. Solution reports
// the held-back times.

// maxHoldBackRounds bounds the timings of one route while its trips are
// held back: each round holds one trip back further, and a route whose
// holds still do not fit after that many is given up.
const maxHoldBackRounds = 8

// holdBack is the scratch space of fitHolds, and its result: the route's
// held-back schedule, holds and start instants (notBefore, when delayed).
type holdBack struct {
	sch         schedule
	holds       []tripHold
	notBefore   []float64
	departBy    float64
	delayed     bool
	out         int          // the Timed resource a hold last found every unit of held, -1 none
	adjustX     []signedHold // loadAhead's scratch
	adjustAhead []signedHold // loadAhead's scratch
	back        []countStep  // latestFree's scratch
	runs        []run        // latestFree's scratch
	adjust      []signedHold
	latest      []float64 // the latest start of each trip (latestBegins)
	load        []float64
	steps       []countStep
}

// evaluateHeldBack is evaluate with the tight departure, the trips of
// seq starting no earlier than notBefore (nil: not held back) and the
// route departing no later than departBy.
func (in *instance) evaluateHeldBack(t int, seq []int, s *schedule, notBefore []float64, departBy float64) failure {
	s.notBefore, s.departBy = notBefore, departBy
	f := in.evaluate(t, seq, s, true)
	s.notBefore = nil
	return f
}

// holdTripsBack clips the windows of the trip starts of route seq of type
// t at s.notBefore (see tripstart.go), and reports false when a trip's
// windows all close before it.
func (in *instance) holdTripsBack(t int, seq []int, s *schedule) bool {
	vt := &in.types[t]
	if s.tw == nil {
		// The type's StartWindows for the first trip, the reloads' own
		// windows for the next ones, as siteWindows reads them.
		tw := &s.twBuf
		tw.start = append(tw.start[:0], vt.StartWindows...)
		j := 0
		for _, i := range seq {
			if !in.isReload(i) {
				continue
			}
			if j < cap(tw.reload) {
				tw.reload = tw.reload[:j+1]
			} else {
				tw.reload = append(tw.reload, nil)
			}
			tw.reload[j] = append(tw.reload[j][:0], in.sites[i].Windows...)
			j++
		}
		tw.reload = tw.reload[:j]
		s.tw = tw
	}
	tw := s.tw
	for j, nb := range s.notBefore {
		if nb == -inf {
			continue
		}
		ok := false
		if j == 0 {
			tw.start, ok = clipWindows(tw.start, nb)
		} else if j-1 < len(tw.reload) {
			tw.reload[j-1], ok = clipWindows(tw.reload[j-1], nb)
		}
		if !ok {
			return false
		}
	}
	return true
}

// clipWindows returns ws (sorted; empty means any time) without the
// instants before nb, in place, and false when none is left.
func clipWindows(ws []Window, nb float64) ([]Window, bool) {
	if len(ws) == 0 {
		return append(ws, Window{nb, inf}), true
	}
	out := ws[:0]
	for _, w := range ws {
		if w.End < nb {
			continue
		}
		w.Start = max(w.Start, nb)
		out = append(out, w)
	}
	return out, len(out) > 0
}

// fitHolds times change c of ch (its sequence settled) so that each of
// its trips' holds finds a unit free: against the state's timelines, less
// the old holds of every route in ch, plus the new holds of the changes
// before c (newHolds[c'], c' < c), holding trips back where a unit is
// out. It leaves the schedule, the holds and the trips' start instants in
// b, and reports false when the route breaks a rule once held back, or a
// hold finds no unit free while its trip may still start. With timed
// set, b.sch already holds the route's tight schedule.
func (st *state) fitHolds(ch []routeChange, c int, newHolds [][]tripHold, b *holdBack, timed bool) bool {
	in := st.in
	t, seq := ch[c].t, ch[c].seq
	b.delayed, b.departBy, b.out = false, inf, -1
	for round := 0; ; round++ {
		var nb []float64
		if b.delayed {
			nb = b.notBefore
		}
		if (round > 0 || !timed) && in.evaluateHeldBack(t, seq, &b.sch, nb, b.departBy) != feasible {
			return false
		}
		b.holds = in.tripHolds(b.holds[:0], t, seq, &b.sch)
		j, at, ok := st.firstHoldOut(ch, c, newHolds, b)
		if !ok {
			return false
		}
		if j < 0 {
			return true
		}
		if round == maxHoldBackRounds {
			return false
		}
		if !b.delayed {
			b.notBefore = grow(b.notBefore, len(b.holds))
			for k := range b.notBefore {
				b.notBefore[k] = -inf
			}
			b.delayed = true
		}
		// Under Loading the hold starts with the loading, before the
		// start service; both move together while the loading stays
		// inside its window, else the next round holds it back again.
		b.notBefore[j] = max(b.notBefore[j], in.tripBegin(seq, j, &b.sch)+at-b.holds[j].from)
		if j == 0 {
			b.departBy = inf
		} else if b.departBy == inf {
			b.departBy = b.sch.depart
		}
	}
}

// tripBegin is when the start service of trip j of route seq, timed in s,
// begins.
func (in *instance) tripBegin(seq []int, j int, s *schedule) float64 {
	if j == 0 {
		return s.begin
	}
	for k, i := range seq {
		if in.isReload(i) {
			if j--; j == 0 {
				return s.start[k]
			}
		}
	}
	return s.begin // cannot happen: seq has j reloads
}

// firstHoldOut returns the first trip of change c whose hold (in b.holds)
// finds every unit of a Timed resource out for part of it, with the
// earliest instant from which a unit is free for a hold as long, or -1
// when every hold fits. It reports false when a trip finds no unit free
// before its type's shift ends.
func (st *state) firstHoldOut(ch []routeChange, c int, newHolds [][]tripHold, b *holdBack) (int, float64, bool) {
	in := st.in
	t := ch[c].t
trips:
	for j, h := range b.holds {
		for _, x := range in.timedOf[t] {
			adj := st.adjustFor(x, ch, c, newHolds, b.holds[:j], b.adjust[:0])
			b.adjust = adj
			from, til := in.span(x, h)
			conflict, free := st.unitFree(x, from, til, adj)
			if free {
				continue
			}
			b.out = x
			if st.loadAhead(ch, c, newHolds, b, j, x) {
				continue trips
			}
			at, ok := st.earliestFree(x, conflict, til-from, st.latestHold(ch[c], j, b), adj, &b.steps)
			return j, at, ok
		}
	}
	return -1, 0, true
}

// maxAheadTries bounds the earlier loading starts loadAhead tries for one
// hold: each a start from which resource x has a unit free, which another
// resource of the trip may not.
const maxAheadTries = 4

// loadAhead moves the loading of trip j of change c (its hold in
// b.holds, timed in b.sch) earlier when resource x, held over loadings (a
// dock door), has every unit held during it (b.adjust is x's adjustment
// for it): to the latest start (latestFree, trying up to maxAheadTries)
// from which every Timed resource of its type keeps a unit free for the
// trip's holds, its earlier trips' as they are, the loading still
// beginning inside a start window and ending no more than the type's
// staging before the trip's start service. A DC loads a trailer ahead and
// stages it in the yard rather than have its driver wait for a door. The
// trip's times stay; only its holds start earlier (a unit's too). It
// reports whether it found such a start, and then sets b.holds[j].
func (st *state) loadAhead(ch []routeChange, c int, newHolds [][]tripHold, b *holdBack, j, x int) bool {
	in := st.in
	t := ch[c].t
	vt := &in.types[t]
	h := b.holds[j]
	if vt.Loading == nil || in.p.Resources[x].Holds != HoldLoading {
		return false
	}
	l := h.loaded - h.from
	lo := in.tripBegin(ch[c].seq, j, &b.sch) - l - vt.Loading.Staging
	if lo >= h.from {
		return false
	}
	adj := append(b.adjustX[:0], b.adjust...) // x's timeline as the trip's hold sees it
	b.adjustX = adj
	cur := h.from
	for range maxAheadTries {
		s, ok := st.latestFree(x, cur, l, lo, adj, &b.back, &b.runs)
		if !ok {
			return false
		}
		at, ok := latestIn(vt.StartWindows, s)
		if !ok || at < lo {
			return false
		}
		moved := tripHold{at, at + l, h.back}
		if st.movedHoldFits(ch, c, newHolds, b, j, x, moved) {
			b.holds[j] = moved
			return true
		}
		cur = math.Nextafter(at, -inf)
	}
	return false
}

// latestFree returns the latest start s, no later than cur and no earlier
// than lo, from which one more hold of length dur keeps resource x within
// its Count, the timeline changed by adj; false when there is none. Such
// a hold lies inside one run of instants that may have a unit free
// (roomRuns): it looks inside those long enough, the latest first, where
// latestFreeIn walks the instants. ev and runs are scratch space.
func (st *state) latestFree(x int, cur, dur, lo float64, adj []signedHold, ev *[]countStep, runs *[]run) (float64, bool) {
	rr := st.roomRunsIn(x, lo, cur+dur, adj, runs)
	for r, ok := rr.next(); ok; r, ok = rr.next() {
		c := min(cur, r.til-dur)
		if c < r.from {
			continue // too short
		}
		if s, ok := st.latestFreeIn(x, c, dur, r.from, adj, ev); ok {
			return s, true
		}
	}
	return 0, false
}

// latestFreeIn is latestFree walking every instant at which the count
// changes from cur + dur down to lo.
func (st *state) latestFreeIn(x int, cur, dur, lo float64, adj []signedHold, ev *[]countStep) (float64, bool) {
	count := st.in.p.Resources[x].Count
	tl := &st.timelines[x]
	hi := cur + dur
	// What adj changes, as steps of the count, latest first (few).
	steps := (*ev)[:0]
	for _, a := range adj {
		if a.from < a.til {
			if a.from >= lo && a.from < hi {
				steps = append(steps, countStep{a.from, a.sign})
			}
			if a.til >= lo && a.til < hi {
				steps = append(steps, countStep{a.til, -a.sign})
			}
		}
	}
	for n := 1; n < len(steps); n++ {
		for m := n; m > 0 && steps[m].at > steps[m-1].at; m-- {
			steps[m], steps[m-1] = steps[m-1], steps[m]
		}
	}
	*ev = steps
	// The timeline's starts and ends in [lo, hi), walked down from i and
	// j.
	i0, _ := slices.BinarySearch(tl.starts, lo)
	i, _ := slices.BinarySearch(tl.starts, hi)
	j0, _ := slices.BinarySearch(tl.ends, lo)
	j, _ := slices.BinarySearch(tl.ends, hi)
	i, j = i-1, j-1
	k := 0
	nextAt := func() float64 {
		a := lo
		if i >= i0 {
			a = max(a, tl.starts[i])
		}
		if j >= j0 {
			a = max(a, tl.ends[j])
		}
		if k < len(steps) {
			a = max(a, steps[k].at)
		}
		return a
	}
	a := nextAt()
	// held is the count over [a, next), a walking the instants down.
	held := tl.heldAt(a) + adjustAt(adj, a)
	runEnd, next := inf, hi // the end of the run of free instants (inf outside one)
	for {
		if held+1 <= count {
			if runEnd == inf {
				runEnd = next
			}
			if s := min(runEnd-dur, cur); s >= a {
				return s, s >= lo
			}
		} else {
			runEnd = inf
		}
		if a <= lo {
			return 0, false
		}
		// Below a: the holds that start at a no longer count, those that
		// end at a do.
		for ; i >= i0 && tl.starts[i] == a; i-- {
			held--
		}
		for ; j >= j0 && tl.ends[j] == a; j-- {
			held++
		}
		for ; k < len(steps) && steps[k].at == a; k++ {
			held -= steps[k].delta
		}
		next, a = a, nextAt()
	}
}

// movedHoldFits reports whether trip j of change c, its hold moved to
// start earlier (moved), keeps every Timed resource of its type within
// its count: x, whose units were all held over the hold, first; then
// each other resource, where a resource checked before x (which held the
// trip's hold as it was) only needs a unit free over what the move adds,
// from the new start to the old.
func (st *state) movedHoldFits(ch []routeChange, c int, newHolds [][]tripHold, b *holdBack, j, x int, moved tripHold) bool {
	in := st.in
	h := b.holds[j]
	fit := func(y int, from, til float64) bool {
		adj := st.adjustFor(y, ch, c, newHolds, b.holds[:j], b.adjustAhead[:0])
		b.adjustAhead = adj
		_, free := st.unitFree(y, from, til, adj)
		return free
	}
	if from, til := in.span(x, moved); !fit(x, from, til) {
		return false
	}
	before := true // y comes before x in the type's resources
	for _, y := range in.timedOf[ch[c].t] {
		if y == x {
			before = false
			continue
		}
		from, til := in.span(y, moved)
		if before && in.p.Resources[y].Holds == HoldTrip {
			til = h.from // the hold from h.from on fitted
		}
		if !fit(y, from, til) {
			return false
		}
	}
	return true
}

// adjustFor appends to adj what the changes in ch make of resource x's
// timeline for change c's trip: the old holds of every changed route off,
// the new holds of the changes before c and of c's earlier trips (own)
// on.
func (st *state) adjustFor(x int, ch []routeChange, c int, newHolds [][]tripHold, own []tripHold, adj []signedHold) []signedHold {
	in := st.in
	for d := range ch {
		if k := ch[d].k; k >= 0 && slices.Contains(in.timedOf[st.routes[k].typ], x) {
			for _, h := range st.routes[k].holds {
				from, til := in.span(x, h)
				adj = append(adj, signedHold{from, til, -1})
			}
		}
		if d < c && slices.Contains(in.timedOf[ch[d].t], x) {
			for _, h := range newHolds[d] {
				from, til := in.span(x, h)
				adj = append(adj, signedHold{from, til, 1})
			}
		}
	}
	for _, h := range own {
		from, til := in.span(x, h)
		adj = append(adj, signedHold{from, til, 1})
	}
	return adj
}

// heldAt is the number of units of resource x the timeline holds at t.
func (tl *timeline) heldAt(t float64) int {
	next := math.Nextafter(t, inf)
	i, _ := slices.BinarySearch(tl.starts, next)
	j, _ := slices.BinarySearch(tl.ends, next)
	return i - j
}

// adjustAt is what adj adds at t.
func adjustAt(adj []signedHold, t float64) int {
	n := 0
	for _, a := range adj {
		if a.from <= t && t < a.til {
			n += a.sign
		}
	}
	return n
}

// unitFree reports whether one more hold over [from, til) keeps resource
// x within its Count, the timeline changed by adj; when it does not, it
// returns the first instant it would not.
func (st *state) unitFree(x int, from, til float64, adj []signedHold) (float64, bool) {
	if from >= til {
		return 0, true
	}
	count := st.in.p.Resources[x].Count
	tl := &st.timelines[x]
	next := math.Nextafter(from, inf)
	i, _ := slices.BinarySearch(tl.starts, next)
	j, _ := slices.BinarySearch(tl.ends, next)
	held := i - j
	if held+adjustAt(adj, from)+1 > count {
		return from, false
	}
	// The count rises only where a hold starts: the timeline's and the
	// changes' own, in order.
	conflict := inf
	for ; i < len(tl.starts) && tl.starts[i] < til; i++ {
		t := tl.starts[i]
		for j < len(tl.ends) && tl.ends[j] <= t {
			held--
			j++
		}
		held++
		if held+adjustAt(adj, t)+1 > count {
			conflict = t
			break
		}
	}
	for _, a := range adj {
		if a.sign > 0 && a.from > from && a.from < min(til, conflict) && tl.heldAt(a.from)+adjustAt(adj, a.from)+1 > count {
			conflict = a.from
		}
	}
	return conflict, conflict == inf
}

// earliestFree returns the earliest instant after conflict, no later
// than limit, from which one more hold of length dur keeps resource x
// within its Count, the timeline changed by adj: it walks the instants
// at which the count changes from conflict on (every start at or before
// conflict covers it), and returns the start of the first run of
// instants with a unit free that lasts dur. ev is scratch space.
func (st *state) earliestFree(x int, conflict, dur, limit float64, adj []signedHold, ev *[]countStep) (float64, bool) {
	count := st.in.p.Resources[x].Count
	tl := &st.timelines[x]
	next := math.Nextafter(conflict, inf)
	i, _ := slices.BinarySearch(tl.starts, next)
	j, _ := slices.BinarySearch(tl.ends, next)
	held := i - j
	// What adj changes, as steps of the count in time order; held counts
	// those up to conflict.
	steps := (*ev)[:0]
	for _, a := range adj {
		if a.from < a.til {
			steps = append(steps, countStep{a.from, a.sign}, countStep{a.til, -a.sign})
		}
	}
	for n := 1; n < len(steps); n++ {
		for m := n; m > 0 && steps[m].at < steps[m-1].at; m-- {
			steps[m], steps[m-1] = steps[m-1], steps[m]
		}
	}
	*ev = steps
	k := 0
	for ; k < len(steps) && steps[k].at <= conflict; k++ {
		held += steps[k].delta
	}
	run := inf // the start of the run of free instants, inf outside one
	for t := conflict; ; {
		// The next instant the count changes.
		e := inf
		if i < len(tl.starts) {
			e = tl.starts[i]
		}
		if j < len(tl.ends) {
			e = min(e, tl.ends[j])
		}
		if k < len(steps) {
			e = min(e, steps[k].at)
		}
		if held+1 <= count {
			if run == inf {
				run = t
			}
			if run > limit {
				return 0, false
			}
			if e-run >= dur {
				return run, true
			}
		} else {
			run = inf
			if t > limit {
				return 0, false
			}
		}
		if e == inf {
			return 0, false // cannot happen: every hold ends
		}
		for ; i < len(tl.starts) && tl.starts[i] <= e; i++ {
			held++
		}
		for ; j < len(tl.ends) && tl.ends[j] <= e; j++ {
			held--
		}
		for ; k < len(steps) && steps[k].at <= e; k++ {
			held += steps[k].delta
		}
		t = e
	}
}

// countStep is a change of delta in the units held, at an instant.
type countStep struct {
	at    float64
	delta int
}

// latestHold bounds the start of the hold of trip j of change c, timed
// in b.sch, however far the trip is held back: its start service begins
// by the latest instant the windows of the sites after it allow
// (latestBegins), and the hold starts no later than that less the trip's
// loading (its start service itself without Loading).
func (st *state) latestHold(c routeChange, j int, b *holdBack) float64 {
	in := st.in
	b.latest = in.latestBegins(c.t, c.seq, b.sch.tw, in.loadingTime(c.t, b.sch.load), b.latest)
	limit := b.latest[j]
	if tl := in.types[c.t].Loading; tl != nil {
		b.load = grow(b.load, in.dims)
		clear(b.load)
		trip := 0
		for _, i := range c.seq {
			if in.isReload(i) {
				trip++
			} else if trip == j {
				for d, q := range in.sites[i].Demand {
					b.load[d] += q
				}
			}
		}
		limit -= tl.duration(b.load)
		// The loading starts inside a start window (tripHolds), however
		// late the trip: held back past the last window, its loading
		// stays at that window's end, where a unit was out.
		if at, ok := latestIn(in.types[c.t].StartWindows, limit); ok {
			limit = at
		} else {
			limit = -inf
		}
	}
	return limit
}

// latestBegins fills dst with the latest instant the start service of
// each trip of route seq of type t, timed with tw (see latestStart), may
// begin: the sites after it fit their windows and the shift end, breaks
// aside. l is the start service of the route's first trip.
func (in *instance) latestBegins(t int, seq []int, tw *tripWindows, l float64, dst []float64) []float64 {
	vt := &in.types[t]
	r := in.reloadsIn(seq)
	dst = grow(dst, r+1)
	lat, next := vt.ShiftEnd, vt.EndLocation
	for k := len(seq) - 1; k >= 0; k-- {
		i := seq[k]
		site := &in.sites[i]
		x := lat - in.legDur(site.Location, next) - in.workAt(seq, k)
		ws := site.Windows
		if in.isReload(i) {
			r--
			if tw != nil {
				ws = tw.reload[r]
			}
		}
		s, ok := latestIn(ws, x)
		if !ok {
			for j := range r + 1 {
				dst[j] = -inf
			}
			return dst
		}
		if in.isReload(i) {
			dst[r+1] = s
		}
		lat, next = s, site.Location
	}
	dst[0] = lat - in.legDur(vt.StartLocation, next) - l
	return dst
}
