package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/haulplan/haulplan/routeplan"
)

// A routing round leaves an order out for want of a dock door
// (DOCK_CAPACITY) when its trip, at the times routing tried to load it,
// found every door loading another trailer, those of the routes planned
// before and those of the round's own routes. When a layout sends orders
// back, the round after routes them again with the orders the fleet had
// no room for, since the routes that did not pass free room. For an
// order short of doors that room is door time: where the round's
// solution had every door loading and the routes kept leave one free
// (doorTimeFreed). Where no such time lies before the order's trip must
// have loaded (loadsInFreedTime), the order is not routed again: on the
// door-limited 1,000-store day some 2,000 orders, whose routing again
// took a round's search minutes and gave no route. It is a rule of
// thumb (see loadsInFreedTime).

// doorRun is a stretch of routing time [start, end) at which a dock door
// is free after a round; freed says that the round's solution had every
// door loading at some instant of it, firstFreed the first such instant.
type doorRun struct {
	start, end, firstFreed float64
	freed                  bool
}

// tripLoading is the interval, in routing seconds, over which a trip of
// a routing solution loads.
type tripLoading struct{ start, end float64 }

// solutionLoadings are the loadings of the trips of sol, routing's
// solution of r on the orders in pool, as routing timed them: each from
// its LoadingStarts for the Loading of its vehicle type and the pallets
// of its visits.
func (r *routing) solutionLoadings(sol *routeplan.Solution, pool []*order) []tripLoading {
	var out []tripLoading
	for _, rr := range sol.Routes {
		ld := r.p.VehicleTypes[rr.VehicleType].Loading
		if ld == nil {
			continue
		}
		for k, trip := range splitTrips(rr) {
			if k >= len(rr.LoadingStarts) {
				break
			}
			dur := ld.Fixed
			for _, v := range trip.Visits {
				dur += ld.PerUnit[dimPallets] * float64(len(pool[v.Site].pallets))
			}
			out = append(out, tripLoading{rr.LoadingStarts[k], rr.LoadingStarts[k] + dur})
		}
	}
	return out
}

// doorTimeFreed is the door time a round freed, as the runs of routing
// time at which a door is free among the loadings after (the plan's
// routes once the round's are laid out: fleet.busyDoors) and at some
// instant of which the round's solution had all doors of the DC
// loading: before (the loadings routing was given as busy) and planned
// (its own trips', solutionLoadings). Only those runs hold door time
// the round could not use and the next may.
func doorTimeFreed(doors int, before []routeplan.Window, planned []tripLoading, after []routeplan.Window) []doorRun {
	type event struct {
		at           float64
		solved, kept int // changes in the loadings of the solution and of the plan after
	}
	var ev []event
	for _, w := range before {
		if w.End > w.Start {
			ev = append(ev, event{w.Start, 1, 0}, event{w.End, -1, 0})
		}
	}
	for _, l := range planned {
		if l.end > l.start {
			ev = append(ev, event{l.start, 1, 0}, event{l.end, -1, 0})
		}
	}
	for _, w := range after {
		if w.End > w.Start {
			ev = append(ev, event{w.Start, 0, 1}, event{w.End, 0, -1})
		}
	}
	slices.SortFunc(ev, func(a, b event) int { return cmp.Compare(a.at, b.at) })
	// Before the first event nothing loads: a door is free, and the
	// solution had none full.
	runs := []doorRun{{start: math.Inf(-1), end: math.Inf(1)}}
	open := true // the last run is open
	solved, kept := 0, 0
	for k := 0; k < len(ev); {
		at := ev[k].at
		for ; k < len(ev) && ev[k].at == at; k++ {
			solved += ev[k].solved
			kept += ev[k].kept
		}
		// [at, the next event) has these counts.
		free := kept < doors
		switch {
		case free && !open:
			runs = append(runs, doorRun{start: at, end: math.Inf(1)})
			open = true
		case !free && open:
			runs[len(runs)-1].end = at
			open = false
		}
		if last := &runs[len(runs)-1]; free && solved >= doors && !last.freed {
			last.firstFreed, last.freed = at, true
		}
	}
	return slices.DeleteFunc(runs, func(run doorRun) bool { return !run.freed })
}

// loadsInFreedTime reports whether order o's trip could load in door
// time the round freed (runs, doorTimeFreed): in a run, through an
// instant of it the round's solution had every door loading, for at
// least o's own loading, and ending before the trip must have loaded to
// reach o's store before its last receiving window closes (the latest
// window end, less the free-flow drive from the DC, the shortest any
// drive takes, and the hook-up). Routing left o out because its trip,
// tried alone against the same doors (timed tight, or loaded ahead within
// the staging limit), found none free; door time is new to the next round
// only where the routes the layouts kept leave a door free at an instant
// this round's solution had every door loading. This is a rule of thumb,
// not a proof: a loading that search did not try (a trip held back
// later than it looked, or o sharing another order's trip) may exist
// outside such runs, and o then stays out, as other orders the rounds
// gave up on do.
func (m *model) loadsInFreedTime(o *order, runs []doorRun) bool {
	last := math.Inf(-1)
	for _, w := range m.windows(m.storeWin[o.store]) {
		last = max(last, w.End)
	}
	latest := last - float64(m.matrix.Seconds(0, 1+o.store)) - ceilSeconds(m.req.HookTime())
	loading := ceilSeconds(m.req.DC.LoadingFixed) + ceilSeconds(m.req.DC.LoadingPerPallet)*float64(len(o.pallets))
	for _, run := range runs {
		end := min(run.end, latest)
		if run.firstFreed < end && end-run.start >= loading {
			return true
		}
	}
	return false
}
