package engine

import (
	"slices"

	"github.com/haulplan/haulplan/routeplan"
)

// A routing route is a driver's shift: one or more trips, each leaving the
// DC with a trailer load and coming back, with a reload between two (the
// driver hooks the next loaded trailer). The plan lists each trip as a
// Route of its own; the trips of one shift share its Shift, and a phase
// that changes one trip times the whole shift again (replaceOrders), since
// its later trips start when it returns.

// splitTrips cuts the routing route rr into its trips, each a routing
// route of one trip: its visits, its start (the hook-up: the route's
// start, or the reload's before it), departure and return (the next
// reload's arrival, or the route's return).
func splitTrips(rr routeplan.Route) []routeplan.Route {
	trips := make([]routeplan.Route, 0, 1+len(rr.Reloads))
	from := 0
	start, depart := rr.Start, rr.Depart
	loadFrom := func(k int) []float64 {
		if k < len(rr.LoadingStarts) {
			return rr.LoadingStarts[k : k+1]
		}
		return nil
	}
	for k, rl := range rr.Reloads {
		trips = append(trips, routeplan.Route{VehicleType: rr.VehicleType, Visits: rr.Visits[from:rl.After], Start: start, Depart: depart, Return: rl.Arrival, LoadingStarts: loadFrom(k)})
		from, start, depart = rl.After, rl.Start, rl.Departure
	}
	return append(trips, routeplan.Route{VehicleType: rr.VehicleType, Visits: rr.Visits[from:], Start: start, Depart: depart, Return: rr.Return, LoadingStarts: loadFrom(len(rr.Reloads))})
}

// routeSites is rr's sites in order with routeplan.ReloadSite between two
// trips, as routeplan.Evaluator takes them.
func routeSites(rr routeplan.Route) []int {
	sites := make([]int, 0, len(rr.Visits)+len(rr.Reloads))
	next := 0
	for k, v := range rr.Visits {
		if next < len(rr.Reloads) && rr.Reloads[next].After == k {
			sites = append(sites, routeplan.ReloadSite)
			next++
		}
		sites = append(sites, v.Site)
	}
	return sites
}

// buildTrips builds each trip of the routing route rr (see buildRoute). It
// fails with the index of the first trip whose floor cannot take its
// pallets.
func (m *model) buildTrips(kind vehicleKind, rr routeplan.Route, pool []*order) ([]*Route, int, error) {
	var out []*Route
	for k, trip := range splitTrips(rr) {
		route, err := m.buildRoute(kind, trip, pool)
		if err != nil {
			return nil, k, err
		}
		out = append(out, route)
	}
	return out, -1, nil
}

// keepShift adds the trips of one routing route, of kind and carrying
// orders (per trip, in visiting order), to the plan, with the first free
// shift of its group. Its trips' trailer units are the caller's to check
// (unitsFit); assignTrailerUnits names them when the day is scheduled.
func (fleet *fleetState) keepShift(m *model, trips []*Route, kind vehicleKind, orders [][]*order) {
	shift := m.req.Shifts[fleet.takeShift(kind.group)].ID
	for k, route := range trips {
		route.Shift = shift
		fleet.routes = append(fleet.routes, *route)
		fleet.placed = append(fleet.placed, placedRoute{kind: kind, orders: orders[k]})
	}
}

// shiftTrips lists the routes that share route ri's shift, ri included,
// in the order they are driven.
func (fleet *fleetState) shiftTrips(ri int) []int {
	var run []int
	for x := range fleet.routes {
		if fleet.routes[x].Shift == fleet.routes[ri].Shift {
			run = append(run, x)
		}
	}
	slices.SortStableFunc(run, func(a, b int) int { return fleet.routes[a].Start.Compare(fleet.routes[b].Start) })
	return run
}

// replaceOrders makes placed route ri carry seq instead of its orders, and
// times its whole shift again as routing would, laying out each of its
// trips. It reports whether the shift stays legal, every trip's floor
// takes its pallets, the trailer units turn in time (unitsFit) and the
// dock doors load every trailer (doorsFit); when not, nothing changes.
func (fleet *fleetState) replaceOrders(m *model, ri int, seq []*order) bool {
	run := fleet.shiftTrips(ri)
	kind := fleet.placed[ri].kind
	trips := make([][]*order, len(run))
	for k, x := range run {
		trips[k] = fleet.placed[x].orders
		if x == ri {
			trips[k] = seq
		}
	}
	rr, ok := m.retime(kind, fleet.groups[kind.group], trips)
	if !ok || len(rr.Reloads)+1 != len(run) {
		return false // a trip left empty: the shift is no longer the same
	}
	built, _, err := m.buildTrips(kind, rr, slices.Concat(trips...))
	if err != nil || !fleet.unitsFit(m, kind.trailer, built, run) || !fleet.doorsFit(m, built, run) {
		return false
	}
	for k, x := range run {
		built[k].Shift = fleet.routes[x].Shift
		built[k].TrailerUnit = fleet.routes[x].TrailerUnit // a unit kept from a previous plan
		fleet.routes[x] = *built[k]
		fleet.placed[x].orders = trips[k]
	}
	return true
}
