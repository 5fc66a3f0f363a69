package engine

import (
	"fmt"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// placeLoadings keeps each route's loading inside the dock hours. Routing
// starts a trip's loading inside them, but may have the trailer leave
// later than loading and hook-up take (a store that opens late), and
// tripTimes puts the loading just before the hook-up (unless routing
// loaded it ahead for the doors), which may then start outside the dock
// hours. Such a loading moves to the latest start in the dock hours, no
// later than it was, that keeps the loaded trailer's wait in the yard
// within its type's staging limit: where routing put it. When there is none, the loading starts
// at the latest instant in the dock hours before, the driver comes on
// duty when the staging limit ends, and waits at the DC until the
// departure: routing counted the duty from the start of its loading, no
// later, so the trip keeps its shift and limits. A route whose loading
// cannot start in the dock hours at all is dropped, its pallets
// unassigned as DOCK_HOURS (routing never makes one: its loading starts
// in them). It returns the routes kept and the unassigned pallets.
func placeLoadings(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	if m.alwaysDock {
		return routes, unassigned
	}
	kept := routes[:0]
	for _, r := range routes {
		if !m.placeLoading(&r) {
			msg := fmt.Sprintf("no loading of its trip (%v) can start in the DC's dock hours before the driver hooks up at %s",
				r.LoadingEnd.Sub(r.LoadingStart), r.Start.In(m.req.TimeZone()).Format(time.RFC3339))
			unassigned = append(unassigned, unassignTrip(m, &r, ReasonDockHours, msg)...)
			continue
		}
		kept = append(kept, r)
	}
	return kept, unassigned
}

// placeLoading moves r's loading into the dock hours as placeLoadings
// does, and reports whether it could.
func (m *model) placeLoading(r *Route) bool {
	if m.alwaysDock {
		return true
	}
	loading := r.LoadingEnd.Sub(r.LoadingStart)
	t := m.req.Fleet[m.trailer[r.Trailer]]
	limit := m.req.StagingLimit(t)
	if at, ok := latestDockStart(m.dockWin, r.Start.Add(-loading-limit), r.LoadingStart); ok {
		r.LoadingStart, r.LoadingEnd = at, at.Add(loading)
	} else if at, ok := latestDockStart(m.dockWin, time.Time{}, r.LoadingStart); ok {
		r.LoadingStart, r.LoadingEnd = at, at.Add(loading)
		r.Start = r.LoadingEnd.Add(limit)
		r.Metrics.Duration = r.Return.Sub(r.Start)
		r.Metrics.Cost = t.Costs.Route(r.Metrics.DistanceM, r.Metrics.Duration)
	} else {
		return false
	}
	return true
}

// latestDockStart is the latest instant in [lo, hi] that lies in one of
// the dock windows (ends included), and whether there is one.
func latestDockStart(dock []constraints.Window, lo, hi time.Time) (time.Time, bool) {
	var best time.Time
	found := false
	for _, w := range dock {
		from, to := w.Start, w.End
		if from.Before(lo) {
			from = lo
		}
		if to.After(hi) {
			to = hi
		}
		if !to.Before(from) && (!found || to.After(best)) {
			best, found = to, true
		}
	}
	return best, found
}
