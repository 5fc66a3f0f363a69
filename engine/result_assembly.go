package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// assemble makes a plan of routes and unassigned pallets (both taken over):
// the routes fitted into the DC's day (scheduleDC: loading, dock doors,
// trailer units, trips), ordered by loading start, named and with their
// breaks stated; unassigned pallets in request order; and the totals.
func assemble(m *model, routes []Route, unassigned []Unassigned) Result {
	routes, unassigned = scheduleDC(m, routes, unassigned)
	slices.SortStableFunc(routes, byLoadingStart)
	plan := Result{Routes: routes, Unassigned: unassigned}
	if plan.Routes == nil {
		plan.Routes = []Route{}
	}
	if plan.Unassigned == nil {
		plan.Unassigned = []Unassigned{}
	}
	order := make(map[string]int, len(m.req.Pallets))
	for i, p := range m.req.Pallets {
		order[p.ID] = i
	}
	slices.SortStableFunc(plan.Unassigned, func(a, b Unassigned) int { return cmp.Compare(order[a.Pallet], order[b.Pallet]) })
	var util float64
	for i := range plan.Routes {
		r := &plan.Routes[i]
		r.ID = fmt.Sprintf("R%d", i+1)
		// The stops are written to with their breaks: a copy of them, since
		// a progress snapshot's routes share theirs with the running search.
		r.Stops = slices.Clone(r.Stops)
		m.markBreaks(r)
		t := &plan.Metrics
		t.Routes++
		t.Stops += r.Metrics.Stops
		t.Pallets += r.Metrics.Pallets
		t.DistanceM += r.Metrics.DistanceM
		t.Duration += r.Metrics.Duration
		t.Driving += r.Metrics.Driving
		t.Wait += r.Metrics.Wait
		t.Cost += r.Metrics.Cost
		util += r.Metrics.PosUtil
	}
	plan.Metrics.Unassigned = len(plan.Unassigned)
	countResources(m, &plan)
	var routed []int
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				routed = append(routed, m.pallet[id])
			}
		}
	}
	plan.Metrics.TrailersLowerBound = trailersLowerBound(m.req, routed)
	fb := fleetLowerBounds(m.req, routed, plan.Metrics.TrailersLowerBound, m.matrix, func(place int) int { return place })
	plan.Metrics.ShiftsLowerBound, plan.Metrics.TrailerUnitsLowerBound = fb.shifts, fb.trailerUnits
	if plan.Metrics.Routes > 0 {
		plan.Metrics.PosUtil = util / float64(plan.Metrics.Routes)
	}
	return plan
}

// countResources sets the plan's count of shifts and trailer units used
// and of the most dock doors loading at once, and adds the cost of each
// shift used to the plan's cost.
func countResources(m *model, plan *Result) {
	shifts, units := map[string]bool{}, map[string]bool{}
	for _, r := range plan.Routes {
		if !shifts[r.Shift] {
			shifts[r.Shift] = true
			plan.Metrics.Cost += m.req.Shifts[m.shift[r.Shift]].Cost
		}
		units[r.TrailerUnit] = true
	}
	plan.Metrics.ShiftsUsed, plan.Metrics.TrailerUnitsUsed = len(shifts), len(units)
	plan.Metrics.PeakDockDoors = mostLoadingsAtOnce(plan.Routes)
}

// mostLoadingsAtOnce is the most routes loading at one instant: the most
// whose loading has started, not ended, when one of them starts (a
// loading that takes no time holds no door).
func mostLoadingsAtOnce(routes []Route) int {
	most := 0
	for _, a := range routes {
		if !a.LoadingEnd.After(a.LoadingStart) {
			continue
		}
		at := 0
		for _, b := range routes {
			if b.LoadingEnd.After(b.LoadingStart) && !b.LoadingStart.After(a.LoadingStart) && b.LoadingEnd.After(a.LoadingStart) {
				at++
			}
		}
		most = max(most, at)
	}
	return most
}

// markBreaks states on a route's stops the hours-of-service breaks its
// driver takes (Stop.Break), from the route's times and its shift's limits.
//
// The break rule counts a stop's time on site, arrival to departure, as a
// break when it lasts BreakDuration; driving since the last break may never
// pass BreakAfter. Of the stops long enough to count, the breaks are those
// the rule needs, each taken as late as it can be: a stop is the break when
// driving on to the next stop that could be one (or back to the DC) would
// pass BreakAfter since the last break. A long stop early in the day that
// the rule does not need stays a stop. On a route the rule allows, the
// driving between two breaks stated so never passes BreakAfter.
func (m *model) markBreaks(r *Route) {
	si, ok := m.shift[r.Shift]
	n := len(r.Stops)
	if !ok || n == 0 {
		return
	}
	h := m.req.ShiftLimits(si)
	// drive[k] is the drive into stop k, drive[n] the drive back.
	drive := make([]time.Duration, n+1)
	leave := r.Depart
	for k, s := range r.Stops {
		drive[k] = s.Arrival.Sub(leave)
		leave = s.Departure
	}
	drive[n] = r.Return.Sub(leave)
	counts := func(k int) bool { return r.Stops[k].Departure.Sub(r.Stops[k].Arrival) >= h.BreakDuration }
	var since time.Duration
	for k := range n {
		since += drive[k]
		r.Stops[k].Break = nil
		if !counts(k) {
			continue
		}
		var ahead time.Duration // driving to the next stop that counts, or back
		for j := k + 1; j <= n; j++ {
			ahead += drive[j]
			if j < n && counts(j) {
				break
			}
		}
		if since+ahead <= h.BreakAfter {
			continue
		}
		s := &r.Stops[k]
		b := &Break{Start: s.Arrival, Duration: s.Departure.Sub(s.Arrival), Wait: s.Start.Sub(s.Arrival)}
		if sx, ok := m.store[s.Store]; ok {
			b.Unloading = m.req.Stores[sx].Unloading.Time(len(s.Pallets))
		}
		b.Rest = b.Duration - b.Wait - b.Unloading
		s.Break = b
		since = 0
	}
}
