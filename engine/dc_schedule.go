package engine

import (
	"cmp"
	"slices"
)

// scheduleDC fits the routes (taken over) into the DC's day: each trip's
// loading inside the dock hours (placeLoadings), each trip on a trailer
// unit (assignTrailerUnits), its loading on a dock door (assignDockDoors),
// and the trips of each shift numbered (numberShiftTrips), with the
// locked routes of a re-plan (m.fixed) among them as they are. Routing kept
// the units and the doors within their counts; a trip that cannot be
// loaded in the dock hours, or still finds every unit or door taken, is
// dropped: its pallets join unassigned, with the reason. It returns the
// routes kept and the unassigned pallets.
func scheduleDC(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	routes, unassigned = placeLoadings(m, routes, unassigned)
	slices.SortStableFunc(routes, byLoadingStart)
	routes, unassigned = assignTrailerUnits(m, routes, unassigned)
	routes, unassigned = assignDockDoors(m, routes, unassigned)
	// The locked routes of a re-plan join as they are: the first trips
	// of their shifts, so numbering keeps their trips.
	routes = append(routes, m.fixed...)
	numberShiftTrips(routes)
	return routes, unassigned
}

// byLoadingStart orders routes by the start of their loading, then by
// their start and shift, so that equal instants keep one order.
func byLoadingStart(a, b Route) int {
	if c := a.LoadingStart.Compare(b.LoadingStart); c != 0 {
		return c
	}
	if c := a.Start.Compare(b.Start); c != 0 {
		return c
	}
	return cmp.Compare(a.Shift, b.Shift)
}

// unassignTrip lists the pallets of route r as unassigned for reason,
// with message.
func unassignTrip(m *model, r *Route, reason, message string) []Unassigned {
	var out []Unassigned
	for _, st := range r.Stops {
		for _, id := range st.Pallets {
			out = append(out, Unassigned{Pallet: id, Store: m.req.Pallets[m.pallet[id]].Store, Reason: reason, Message: message})
		}
	}
	return out
}

// numberShiftTrips numbers the trips of each shift 1, 2, … in the order
// of their starts.
func numberShiftTrips(routes []Route) {
	byShift := map[string][]int{}
	for i := range routes {
		byShift[routes[i].Shift] = append(byShift[routes[i].Shift], i)
	}
	for _, idx := range byShift {
		slices.SortStableFunc(idx, func(a, b int) int { return routes[a].Start.Compare(routes[b].Start) })
		for k, i := range idx {
			routes[i].Trip = k + 1
		}
	}
}
