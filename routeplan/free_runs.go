package routeplan

import (
	"math"
	"slices"
)

// A Timed resource whose units are all held over long stretches (dock
// doors on a night that loads more than they can take) makes most
// insertions fail, and finding that out by walking the resource's whole
// timeline over a trip's staging, at every timing of the hold-back,
// costs more than the rest of the insertion. The timeline's free runs,
// the maximal intervals over which one more hold keeps the resource
// within its Count, answer quickly: whether a hold of a given length can
// start inside a trip's windows at all (holdRoomFor, from the longest
// such hold, kept until the timeline changes: a test an insertion makes
// before it simulates anything), and where the latest start of such a
// hold can be (latestFree walks the timeline only inside the runs that
// are long enough). A change of routes frees instants too: the holds it
// gives up. Those are counted as free, so that a run is what a change may
// use at most, and a test on the runs never rules out what the exact
// walk would find.

// run is an interval [from, til) of a timeline.
type run struct{ from, til float64 }

// freeRuns returns the maximal intervals over which tl holds fewer than
// count units, in order: computed once after each change of the
// timeline, whose events it sweeps (every hold open at its end).
func (tl *timeline) freeRuns(count int) []run {
	if tl.freeOf == count+1 {
		return tl.free
	}
	free := tl.free[:0]
	held, i, j := 0, 0, 0
	at := -inf // the start of the free run under way, or inf outside one
	if count <= 0 {
		at = inf
	}
	for i < len(tl.starts) || j < len(tl.ends) {
		t := inf
		if i < len(tl.starts) {
			t = tl.starts[i]
		}
		if j < len(tl.ends) {
			t = min(t, tl.ends[j])
		}
		for ; i < len(tl.starts) && tl.starts[i] == t; i++ {
			held++
		}
		for ; j < len(tl.ends) && tl.ends[j] == t; j++ {
			held--
		}
		switch {
		case held < count && at == inf:
			at = t
		case held >= count && at != inf:
			if t > at {
				free = append(free, run{at, t})
			}
			at = inf
		}
	}
	if at != inf {
		free = append(free, run{at, inf})
	}
	tl.free, tl.freeOf = free, count+1
	return free
}

// changed forgets the free runs, after a change of the timeline.
func (tl *timeline) changed() { tl.freeOf, tl.longestOf = 0, 0 }

// copyFrom makes tl a copy of o, its free runs included.
func (tl *timeline) copyFrom(o *timeline) {
	tl.starts = append(tl.starts[:0], o.starts...)
	tl.ends = append(tl.ends[:0], o.ends...)
	tl.free, tl.freeOf = append(tl.free[:0], o.free...), o.freeOf
	tl.longestOf = 0
}

// roomRuns are the runs of instants in [lo, hi) that may have a unit of
// resource x free for a change whose adjustment of x's timeline is adj:
// the timeline's free runs and the holds adj takes off (the changed
// routes' old ones), merged, clipped to [lo, hi), latest first (next).
// adj's new holds only take instants away, so every instant with a unit
// free under adj lies in one of them.
type roomRuns struct {
	free   []run
	i      int   // the next free run, walking down
	given  []run // the holds adj takes off, by their ends
	g      int   // the next of them, walking down
	lo, hi float64
}

// roomRunsIn starts the walk down the runs of x in [lo, hi) under adj;
// given is scratch space.
func (st *state) roomRunsIn(x int, lo, hi float64, adj []signedHold, given *[]run) roomRuns {
	free := st.timelines[x].freeRuns(st.in.p.Resources[x].Count)
	// The last free run that starts before hi.
	i, _ := slices.BinarySearchFunc(free, hi, func(r run, t float64) int {
		if r.from < t {
			return -1
		}
		return 1
	})
	g := (*given)[:0]
	for _, a := range adj {
		if a.sign < 0 && a.from < a.til && a.til > lo && a.from < hi {
			g = append(g, run{a.from, a.til})
			for m := len(g) - 1; m > 0 && g[m].til < g[m-1].til; m-- {
				g[m], g[m-1] = g[m-1], g[m]
			}
		}
	}
	*given = g
	return roomRuns{free: free, i: i - 1, given: g, g: len(g) - 1, lo: lo, hi: hi}
}

// take returns the piece that ends latest of those not yet walked that
// end after lo, and false when none is left.
func (rr *roomRuns) take(peek bool) (run, bool) {
	var f, g run
	okF := rr.i >= 0 && rr.free[rr.i].til > rr.lo
	okG := rr.g >= 0 && rr.given[rr.g].til > rr.lo
	if okF {
		f = rr.free[rr.i]
	}
	if okG {
		g = rr.given[rr.g]
	}
	switch {
	case okF && (!okG || f.til >= g.til):
		if !peek {
			rr.i--
		}
		return f, true
	case okG:
		if !peek {
			rr.g--
		}
		return g, true
	}
	return run{}, false
}

// next returns the next run, walking down, and false when none is left.
func (rr *roomRuns) next() (run, bool) {
	r, ok := rr.take(false)
	if !ok {
		return r, false
	}
	for {
		p, ok := rr.take(true)
		if !ok || p.til < r.from {
			break
		}
		rr.take(false)
		r.from = min(r.from, p.from)
	}
	return run{max(r.from, rr.lo), min(r.til, rr.hi)}, true
}

// holdRoomFor reports whether a hold of resource x lasting dur may find a
// unit free throughout, starting at an instant in ws (any instant when ws
// is empty): some run of roomRuns holds it. Since the runs count every
// instant a change may free, false means that no timing of the hold
// fits, and the change need not be simulated. The timeline's own runs
// answer at once (longestHold); only the runs that take in a hold adj
// gives up are merged here.
func (st *state) holdRoomFor(x int, dur float64, ws []Window, adj []signedHold) bool {
	if dur <= 0 {
		return true
	}
	// Rounding: the exact checks add durations in another order.
	need := dur - 1e-6*max(1, math.Abs(dur))
	if len(ws) == 0 {
		ws = anyTime[:]
	}
	tl := &st.timelines[x]
	count := st.in.p.Resources[x].Count
	if tl.longestHold(count, ws) >= need {
		return true
	}
	for _, a := range adj {
		if a.sign >= 0 || a.from >= a.til {
			continue
		}
		r := mergedRun(tl.freeRuns(count), adj, run{a.from, a.til})
		for _, w := range ws {
			if from := max(r.from, w.Start); from <= w.End && r.til-from >= need {
				return true
			}
		}
	}
	return false
}

// longestHold is the longest hold that may start at an instant in ws (not
// empty) and find a unit free throughout on the timeline as it is: kept
// for the last ws asked until the timeline changes.
func (tl *timeline) longestHold(count int, ws []Window) float64 {
	if tl.longestOf == count+1 && tl.longestWs == &ws[0] && tl.longestN == len(ws) {
		return tl.longest
	}
	free := tl.freeRuns(count)
	longest := 0.0
	for _, w := range ws {
		k, _ := slices.BinarySearchFunc(free, w.Start, func(r run, t float64) int {
			if r.til <= t {
				return -1
			}
			return 1
		})
		for ; k < len(free) && free[k].from <= w.End; k++ {
			longest = max(longest, free[k].til-max(free[k].from, w.Start))
		}
	}
	tl.longest, tl.longestOf, tl.longestWs, tl.longestN = longest, count+1, &ws[0], len(ws)
	return longest
}

// mergedRun is the run of instants free or given up by adj (its holds of
// sign -1) that contains r, itself such a run: r widened by every free
// run and given-up hold it meets, until none is left.
func mergedRun(free []run, adj []signedHold, r run) run {
	for grown := true; grown; {
		grown = false
		k, _ := slices.BinarySearchFunc(free, r.from, func(f run, t float64) int {
			if f.til < t {
				return -1
			}
			return 1
		})
		for ; k < len(free) && free[k].from <= r.til; k++ {
			if free[k].from < r.from || free[k].til > r.til {
				r, grown = run{min(r.from, free[k].from), max(r.til, free[k].til)}, true
			}
		}
		for _, a := range adj {
			if a.sign < 0 && a.from < a.til && a.til >= r.from && a.from <= r.til && (a.from < r.from || a.til > r.til) {
				r, grown = run{min(r.from, a.from), max(r.til, a.til)}, true
			}
		}
	}
	return r
}

// anyTime is the one window of a type without start windows.
var anyTime = [1]Window{{-inf, inf}}

// insertionRoom remembers, for one search of a site's best insertion,
// which trips of which routes holdRoomFor found room for: trips below 32
// of route k, bit j of known[k] set once checked and of ok[k] when there
// was room.
type insertionRoom struct {
	known, ok []uint32
}

// reset forgets what was found, for a state of n routes.
func (m *insertionRoom) reset(n int) {
	m.known, m.ok = grow(m.known, n), grow(m.ok, n)
	clear(m.known)
	clear(m.ok)
}

// loadingRoomAt reports whether site u at position pos of route k may
// leave the trip it joins room on every Timed resource of the route's
// type held over loadings (a dock door): whether the trip's loading,
// longer by u's, may find a unit free throughout inside the type's start
// windows, the route's own holds counted free (holdRoomFor). False means
// that no timing of that trip fits, so the position need not be
// simulated.
func (st *state) loadingRoomAt(u, k, pos int, sc *scratch) bool {
	in := st.in
	r := st.routes[k]
	if len(in.timedOf[r.typ]) == 0 || len(r.holds) == 0 {
		return true
	}
	j := in.reloadsIn(r.seq[:pos])
	m := &sc.room
	if k < len(m.known) && j < 32 && m.known[k]&(1<<j) != 0 {
		return m.ok[k]&(1<<j) != 0
	}
	ok := st.tripLoadingRoom(u, r, j, sc)
	if k < len(m.known) && j < 32 {
		m.known[k] |= 1 << j
		if ok {
			m.ok[k] |= 1 << j
		}
	}
	return ok
}

// tripLoadingRoom is loadingRoomAt for trip j of route r.
func (st *state) tripLoadingRoom(u int, r *route, j int, sc *scratch) bool {
	in := st.in
	if j >= len(r.holds) || len(r.holds) != in.reloadsIn(r.seq)+1 {
		return true // holds not of this sequence: nothing to go by
	}
	h := r.holds[j]
	l := h.loaded - h.from + in.extraLoading(r.typ, u)
	for _, x := range in.timedOf[r.typ] {
		res := &in.p.Resources[x]
		if res.Holds != HoldLoading {
			continue
		}
		adj := sc.roomAdjust[:0]
		for _, o := range r.holds {
			from, til := in.span(x, o)
			adj = append(adj, signedHold{from, til, -1})
		}
		sc.roomAdjust = adj
		if !st.holdRoomFor(x, l+res.Turnaround, in.loadingStarts(r.typ), adj) {
			return false
		}
	}
	return true
}

// newRouteLoadingRoom is loadingRoomAt for a new route of type t serving
// u alone.
func (st *state) newRouteLoadingRoom(u, t int) bool {
	in := st.in
	for _, x := range in.timedOf[t] {
		res := &in.p.Resources[x]
		if res.Holds != HoldLoading {
			continue
		}
		l := in.extraLoading(t, u)
		if lt := in.types[t].Loading; lt != nil {
			l += lt.Fixed
		} else {
			l += in.types[t].StartService
		}
		if !st.holdRoomFor(x, l+res.Turnaround, in.loadingStarts(t), nil) {
			return false
		}
	}
	return true
}

// extraLoading is how much longer site u's demand makes the loading of a
// trip of type t (its start service without Loading): both grow in
// proportion to the load.
func (in *instance) extraLoading(t, u int) float64 {
	vt := &in.types[t]
	per := vt.StartServicePerUnit
	if vt.Loading != nil {
		per = vt.Loading.PerUnit
	}
	l := 0.0
	for k, q := range in.sites[u].Demand {
		if k < len(per) {
			l += per[k] * q
		}
	}
	return l
}

// loadingStarts are the windows every loading of a trip of type t starts
// in: under Loading the type's start windows (tripHolds), otherwise any
// time, since a later trip's start service begins in its reload's
// windows.
func (in *instance) loadingStarts(t int) []Window {
	if in.types[t].Loading != nil {
		return in.types[t].StartWindows
	}
	return nil
}
