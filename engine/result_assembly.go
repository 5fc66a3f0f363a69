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
	shifts := map[string][]*Route{}
	for i := range plan.Routes {
		r := &plan.Routes[i]
		r.ID = fmt.Sprintf("R%d", i+1)
		// The stops are written to with their breaks: a copy of them, since
		// a progress snapshot's routes share theirs with the running search.
		r.Stops = slices.Clone(r.Stops)
		shifts[r.Shift] = append(shifts[r.Shift], r)
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
	for _, trips := range shifts {
		slices.SortStableFunc(trips, func(a, b *Route) int { return a.Start.Compare(b.Start) })
		m.markShiftBreaks(trips)
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
// driver takes (Stop.Break), from the route's times and its shift's limits,
// as for a shift of that one trip (see markShiftBreaks).
func (m *model) markBreaks(r *Route) { m.markShiftBreaks([]*Route{r}) }

// markShiftBreaks states on the stops of trips, the trips of one shift in
// the order driven, the hours-of-service breaks the driver takes
// (Stop.Break), from their times and the shift's limits.
//
// The break rule counts a stop's time on site, arrival to departure, as a
// break when it lasts BreakDuration, and so the time at the DC between two
// trips, return to departure, which the plan shows without a statement;
// driving since the last break may never pass BreakAfter. Of the stops
// long enough to count, the breaks are those the rule needs, each taken as
// late as it can be: a stop is the break when driving on to the next stop
// or DC time that could be one (or to the shift's end) would pass
// BreakAfter since the last break. A long stop early in the day that the
// rule does not need stays a stop. On a shift the rule allows, the driving
// between two breaks stated so never passes BreakAfter.
func (m *model) markShiftBreaks(trips []*Route) {
	if len(trips) == 0 {
		return
	}
	si, ok := m.shift[trips[0].Shift]
	if !ok {
		return
	}
	h := m.req.ShiftLimits(si)
	// The shift as a list of drives, each ending at a stop (or, stop nil,
	// at the DC): counts says the time there is a break.
	type drive struct {
		d      time.Duration
		stop   *Stop
		counts bool
	}
	var drives []drive
	for n, r := range trips {
		for k := range r.Stops {
			r.Stops[k].Break = nil
		}
		leave := r.Depart
		for k := range r.Stops {
			s := &r.Stops[k]
			drives = append(drives, drive{s.Arrival.Sub(leave), s, s.Departure.Sub(s.Arrival) >= h.BreakDuration})
			leave = s.Departure
		}
		atDC := n+1 < len(trips) && trips[n+1].Depart.Sub(r.Return) >= h.BreakDuration
		drives = append(drives, drive{r.Return.Sub(leave), nil, atDC})
	}
	var since time.Duration
	for k, dr := range drives {
		since += dr.d
		if !dr.counts {
			continue
		}
		if dr.stop == nil {
			since = 0 // the DC time between trips: a break the plan shows
			continue
		}
		var ahead time.Duration // driving to the next place that counts, or to the end
		for _, next := range drives[k+1:] {
			ahead += next.d
			if next.counts {
				break
			}
		}
		if since+ahead <= h.BreakAfter {
			continue
		}
		s := dr.stop
		b := &Break{Start: s.Arrival, Duration: s.Departure.Sub(s.Arrival), Wait: s.Start.Sub(s.Arrival)}
		if sx, ok := m.store[s.Store]; ok {
			b.Unloading = m.req.Stores[sx].Unloading.Time(len(s.Pallets))
		}
		b.Rest = b.Duration - b.Wait - b.Unloading
		s.Break = b
		since = 0
	}
}
