package engine

import (
	"github.com/haulplan/haulplan/routeplan"
)

// A shift kept from the previous plan (seedPrevious) may still take
// pallets after routing: the late pallets of a store another route
// delivers, as a stop of its own, where the floor has room (route
// elimination and spare room put them there, see replaceOrders). Such a
// change is timed near the previous trips, so that the stops the driver
// has on paper stay where they were while the route has the slack, and
// it is accepted only when it retimes none of them that was not retimed
// already.

// keptTripsOf are the previous plan's trips of the shift that the placed
// routes in run drive (one shift's trips, in order), when seedPrevious kept
// that shift, parallel to run; kept reports whether it did. A kept run
// whose trips the model no longer knows one for one has prev nil.
func (fleet *fleetState) keptTripsOf(m *model, run []int) (prev []Route, kept bool) {
	if fleet.previous == nil || len(run) == 0 || !fleet.placed[run[0]].kept {
		return nil, false
	}
	prev = m.keptTrips[fleet.routes[run[0]].Shift]
	if len(prev) != len(run) {
		return nil, true
	}
	return prev, true
}

// retimeRun times trips, the orders of the placed routes run (one
// shift's trips, in order), as routing would. A kept shift is first timed
// with each stop at a store its previous trip made starting within the
// change tolerance of its start there (retimeNear), loading in the dock
// hours or while the previous trips loaded; only where that breaks a
// rule is it timed freely, and keepsArrivals then judges what moved.
func (fleet *fleetState) retimeRun(m *model, kind vehicleKind, run []int, trips [][]*order) (routeplan.Route, bool) {
	grp := fleet.groups[kind.group]
	if prev, _ := fleet.keptTripsOf(m, run); prev != nil {
		for _, loading := range [][]routeplan.Window{m.dockWindows(), m.previousLoading(prev)} {
			if rr, ok := m.retimeNear(kind, grp, trips, loading, prev); ok && len(rr.Reloads)+1 == len(trips) {
				return rr, true
			}
		}
	}
	return m.retime(kind, grp, trips)
}

// keepsArrivals reports whether the trips built for the placed routes run
// retime no more stops of a kept shift than its routes retime now: a stop
// at a store the previous trip made, whose arrival is more than the
// change tolerance from that trip's arrival there. A stop the previous
// trip did not make changes nothing on its paper (the store's late
// pallets ride a second route, this one or another). A new run always
// passes.
func (fleet *fleetState) keepsArrivals(m *model, run []int, built []*Route) bool {
	prev, kept := fleet.keptTripsOf(m, run)
	if !kept {
		return true
	}
	if prev == nil {
		return false
	}
	before, after := 0, 0
	for k, x := range run {
		before += fleet.retimedStops(&fleet.routes[x], &prev[k])
		after += fleet.retimedStops(built[k], &prev[k])
	}
	return after <= before
}

// retimedStops counts the stops of r at stores that prev made whose
// arrival is more than the change tolerance from prev's arrival there.
func (fleet *fleetState) retimedStops(r, prev *Route) int {
	at := make(map[string]Stop, len(prev.Stops))
	for _, st := range prev.Stops {
		if _, ok := at[st.Store]; !ok {
			at[st.Store] = st
		}
	}
	n := 0
	for _, st := range r.Stops {
		p, ok := at[st.Store]
		if ok && (st.Arrival.Sub(p.Arrival) > fleet.tolerance || p.Arrival.Sub(st.Arrival) > fleet.tolerance) {
			n++
		}
	}
	return n
}
