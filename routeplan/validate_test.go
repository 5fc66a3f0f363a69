package routeplan

import (
	"fmt"
	"math"
	"slices"
)

// validateSolution is the independent feasibility checker of the tests: it
// recomputes every time, load and total of sol from p alone, following the
// schedule model in the package documentation, and shares no code with the
// solver.
func validateSolution(p *Problem, sol *Solution) error {
	const tol = 1e-6
	near := func(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
	seen := make([]int, len(p.Sites))
	used := make([]int, len(p.VehicleTypes))
	taken := make([]int, len(p.Resources))
	var cost, dist float64
	for ri, r := range sol.Routes {
		if r.VehicleType < 0 || r.VehicleType >= len(p.VehicleTypes) {
			return fmt.Errorf("route %d: vehicle type %d", ri, r.VehicleType)
		}
		vt := p.VehicleTypes[r.VehicleType]
		used[r.VehicleType]++
		for _, x := range vt.Resources {
			taken[x]++
			if p.Resources[x].PerTrip || p.Resources[x].Timed {
				taken[x] += len(r.Reloads)
			}
		}
		if len(r.Visits) == 0 {
			return fmt.Errorf("route %d: no visits", ri)
		}
		load := make([]float64, len(vt.Capacity))
		at := vt.StartLocation
		t := r.Depart
		var d, drive, since float64
		if r.Start < vt.ShiftStart-tol {
			return fmt.Errorf("route %d: starts %g before shift start %g", ri, r.Start, vt.ShiftStart)
		}
		// tripStartOK: a trip whose start service begins at h, carrying
		// the sites of visits from..to, starts inside a start window, or
		// under Loading its loading can begin inside one and end by h, no
		// more than the staging before it.
		tripStartOK := func(h float64, from, to int) bool {
			if len(vt.StartWindows) == 0 {
				return true
			}
			lo, hi := 0.0, 0.0
			if tl := vt.Loading; tl != nil {
				lo = tl.Fixed
				for _, v := range r.Visits[from:to] {
					for k, u := range tl.PerUnit {
						lo += u * p.Sites[v.Site].Demand[k]
					}
				}
				hi = lo + tl.Staging
			}
			for _, w := range vt.StartWindows {
				if h >= w.Start+lo-tol && h <= w.End+hi+tol {
					return true
				}
			}
			return false
		}
		tripEnd := func(j int) int { // the visits of trip j end here
			if j < len(r.Reloads) {
				return r.Reloads[j].After
			}
			return len(r.Visits)
		}
		if !tripStartOK(r.Start, 0, tripEnd(0)) {
			return fmt.Errorf("route %d: start %g outside the start windows %v", ri, r.Start, vt.StartWindows)
		}
		groups := map[int]bool{}
		leg := func(to int) error {
			dur := p.Duration[at*p.N+to]
			if p.Rush.Len() > 0 {
				// Under rush hours the leg takes what geo integrates for
				// it, leaving at t.
				dur = p.Rush.Arrive(t, dur) - t
			}
			d += p.Distance[at*p.N+to]
			drive += dur
			if vt.BreakAfter > 0 && since+dur > vt.BreakAfter+tol {
				return fmt.Errorf("route %d: %g driving without a break before location %d", ri, since+dur, to)
			}
			since += dur
			t += dur
			at = to
			return nil
		}
		if n := len(r.Reloads); n > 0 && n > vt.MaxTrips-1 {
			return fmt.Errorf("route %d: %d trips, type allows %d", ri, n+1, max(1, vt.MaxTrips))
		}
		checkLoad := func() error {
			for j := range load {
				if load[j] > vt.Capacity[j]+tol {
					return fmt.Errorf("route %d: a trip's load %g over capacity %g in dimension %d", ri, load[j], vt.Capacity[j], j)
				}
			}
			clear(load)
			return nil
		}
		next := 0 // the next reload
		for k, v := range r.Visits {
			if next < len(r.Reloads) && r.Reloads[next].After <= k {
				rl := r.Reloads[next]
				next++
				if rl.After != k || k == 0 || (next < len(r.Reloads) && r.Reloads[next].After == k) {
					return fmt.Errorf("route %d reload %d: after %d visits, an empty trip or out of order", ri, next-1, rl.After)
				}
				if err := checkLoad(); err != nil {
					return err
				}
				if vt.MaxGroups > 0 && len(groups) > vt.MaxGroups {
					return fmt.Errorf("route %d: a trip of %d groups, type allows %d", ri, len(groups), vt.MaxGroups)
				}
				clear(groups)
				if err := leg(vt.StartLocation); err != nil {
					return err
				}
				if !near(rl.Arrival, t) {
					return fmt.Errorf("route %d reload %d: arrival %g, recomputed %g", ri, next-1, rl.Arrival, t)
				}
				if rl.Start < rl.Arrival-tol || !tripStartOK(rl.Start, k, tripEnd(next)) {
					return fmt.Errorf("route %d reload %d: starts %g, arrival %g, start windows %v", ri, next-1, rl.Start, rl.Arrival, vt.StartWindows)
				}
				if rl.Departure < rl.Start+vt.StartService-tol {
					return fmt.Errorf("route %d reload %d: departs %g before its start service ends %g", ri, next-1, rl.Departure, rl.Start+vt.StartService)
				}
				if vt.BreakAfter > 0 && rl.Departure-rl.Arrival >= vt.BreakDuration-tol {
					since = 0
				}
				t = rl.Departure
			}
			if v.Site < 0 || v.Site >= len(p.Sites) {
				return fmt.Errorf("route %d visit %d: site %d", ri, k, v.Site)
			}
			s := p.Sites[v.Site]
			seen[v.Site]++
			groups[s.Group] = true
			if s.VehicleTypes != nil {
				ok := false
				for _, a := range s.VehicleTypes {
					ok = ok || a == r.VehicleType
				}
				if !ok {
					return fmt.Errorf("route %d: site %d does not allow type %d", ri, v.Site, r.VehicleType)
				}
			}
			for j := range load {
				load[j] += s.Demand[j]
			}
			if err := leg(s.Location); err != nil {
				return err
			}
			if !near(v.Arrival, t) {
				return fmt.Errorf("route %d visit %d: arrival %g, recomputed %g", ri, k, v.Arrival, t)
			}
			if v.Start < v.Arrival-tol {
				return fmt.Errorf("route %d visit %d: starts %g before arrival %g", ri, k, v.Start, v.Arrival)
			}
			inWin := len(s.Windows) == 0
			for _, w := range s.Windows {
				inWin = inWin || (v.Start >= w.Start-tol && v.Start <= w.End+tol)
			}
			if !inWin {
				return fmt.Errorf("route %d visit %d: start %g outside the windows of site %d %v", ri, k, v.Start, v.Site, s.Windows)
			}
			work := s.ServiceTime()
			prevLoc := -1
			if k > 0 {
				prevLoc = p.Sites[r.Visits[k-1].Site].Location
			}
			if next > 0 && r.Reloads[next-1].After == k {
				prevLoc = vt.StartLocation // a reload is a stop at the start location
			}
			if prevLoc != s.Location {
				work += s.StopService // the site opens a stop
			}
			if v.Departure < v.Start+work-tol {
				return fmt.Errorf("route %d visit %d: departs %g before service ends %g", ri, k, v.Departure, v.Start+work)
			}
			if vt.BreakAfter > 0 && v.Departure-v.Arrival >= vt.BreakDuration-tol {
				since = 0
			}
			t = v.Departure
		}
		if next < len(r.Reloads) {
			return fmt.Errorf("route %d reload %d: after %d visits, past the last", ri, next, r.Reloads[next].After)
		}
		if err := leg(vt.EndLocation); err != nil {
			return err
		}
		loading := vt.StartService
		for j, u := range vt.StartServicePerUnit {
			loading += u * load[j]
		}
		if r.Depart < r.Start+loading-tol {
			return fmt.Errorf("route %d: departs %g before its loading from %g for %g ends", ri, r.Depart, r.Start, loading)
		}
		if vt.MaxGroups > 0 && len(groups) > vt.MaxGroups {
			return fmt.Errorf("route %d: a trip of %d groups, type allows %d", ri, len(groups), vt.MaxGroups)
		}
		if !near(r.Return, t) {
			return fmt.Errorf("route %d: return %g, recomputed %g", ri, r.Return, t)
		}
		if r.Return > vt.ShiftEnd+tol {
			return fmt.Errorf("route %d: returns %g after shift end %g", ri, r.Return, vt.ShiftEnd)
		}
		if vt.MaxDuty > 0 && r.Return-r.Start > vt.MaxDuty+tol {
			return fmt.Errorf("route %d: duty %g over %g", ri, r.Return-r.Start, vt.MaxDuty)
		}
		if vt.MaxDriving > 0 && drive > vt.MaxDriving+tol {
			return fmt.Errorf("route %d: driving %g over %g", ri, drive, vt.MaxDriving)
		}
		for j := range load {
			if load[j] > vt.Capacity[j]+tol {
				return fmt.Errorf("route %d: load %g over capacity %g in dimension %d", ri, load[j], vt.Capacity[j], j)
			}
		}
		if !near(r.Distance, d) || !near(r.Driving, drive) || !near(r.Duration, r.Return-r.Start) {
			return fmt.Errorf("route %d: totals %g/%g/%g, recomputed %g/%g/%g", ri, r.Distance, r.Driving, r.Duration, d, drive, r.Return-r.Start)
		}
		dist += d
		cost += vt.FixedCost + vt.TripCost*float64(1+len(r.Reloads)) + vt.DistanceCost*d + vt.TimeCost*(r.Return-r.Start)
	}
	for t, n := range used {
		if n > p.VehicleTypes[t].Count {
			return fmt.Errorf("type %d: %d routes, count %d", t, n, p.VehicleTypes[t].Count)
		}
	}
	if err := validateTimedResources(p, sol); err != nil {
		return err
	}
	for x, n := range taken {
		if n > p.Resources[x].Count && !p.Resources[x].Timed {
			return fmt.Errorf("resource %d: taken by %d routes, count %d", x, n, p.Resources[x].Count)
		}
	}
	for _, u := range sol.Unassigned {
		if u.Site < 0 || u.Site >= len(p.Sites) {
			return fmt.Errorf("unassigned site %d", u.Site)
		}
		seen[u.Site]++
		if u.Reason.String() == "UNKNOWN" {
			return fmt.Errorf("unassigned site %d: no reason", u.Site)
		}
	}
	for i, n := range seen {
		if n != 1 {
			return fmt.Errorf("site %d appears %d times", i, n)
		}
	}
	trips := 0
	for _, r := range sol.Routes {
		trips += 1 + len(r.Reloads)
	}
	if sol.Trips != trips {
		return fmt.Errorf("%d trips, recomputed %d", sol.Trips, trips)
	}
	if !near(sol.Cost, cost) || !near(sol.Distance, dist) || sol.Vehicles != len(sol.Routes) {
		return fmt.Errorf("totals %g/%g/%d, recomputed %g/%g/%d", sol.Cost, sol.Distance, sol.Vehicles, cost, dist, len(sol.Routes))
	}
	return nil
}

// servedValue is the total Value (0 counting as 1) of the sites sol serves.
func servedValue(p *Problem, sol *Solution) float64 {
	v := 0.0
	for _, r := range sol.Routes {
		for _, x := range r.Visits {
			if val := p.Sites[x.Site].Value; val != 0 {
				v += val
			} else {
				v++
			}
		}
	}
	return v
}

// validateTimedResources checks that no Timed resource has more than its
// Count of units held at one instant: each trip of a route whose type
// takes it holds one from its loading start (the latest instant in the
// type's start windows that leaves the trip's loading before its start
// service begins; the start service's begin without Loading) to its
// return plus the turnaround (under HoldLoading, to the end of its
// loading, or without Loading of its start service, plus the
// turnaround), and each Busy interval holds one, at every
// instant at which a trip holds one.
func validateTimedResources(p *Problem, sol *Solution) error {
	type hold struct{ from, til float64 }
	for x, res := range p.Resources {
		if !res.Timed {
			continue
		}
		var holds []hold
		for _, w := range res.Busy {
			holds = append(holds, hold{w.Start, w.End})
		}
		for _, r := range sol.Routes {
			vt := p.VehicleTypes[r.VehicleType]
			if !slices.Contains(vt.Resources, x) {
				continue
			}
			trips := len(r.Reloads) + 1
			for j := 0; j < trips; j++ {
				from, to := 0, len(r.Visits)
				begin, ret := r.Start, r.Return
				if j > 0 {
					from, begin = r.Reloads[j-1].After, r.Reloads[j-1].Start
				}
				if j < len(r.Reloads) {
					to, ret = r.Reloads[j].After, r.Reloads[j].Arrival
				}
				at, l := begin, vt.StartService
				for _, v := range r.Visits[from:to] {
					for k, u := range vt.StartServicePerUnit {
						l += u * p.Sites[v.Site].Demand[k]
					}
				}
				if vt.Loading != nil {
					l = vt.Loading.Fixed
					for _, v := range r.Visits[from:to] {
						for k, u := range vt.Loading.PerUnit {
							l += u * p.Sites[v.Site].Demand[k]
						}
					}
					at = begin - l
					if len(vt.StartWindows) > 0 {
						at = math.Inf(-1)
					}
					for _, w := range vt.StartWindows {
						if w.Start <= begin-l {
							at = math.Min(begin-l, w.End)
						}
					}
					// Loaded ahead: no later, inside a start window,
					// ending at most the staging before the trip.
					if len(r.LoadingStarts) != trips {
						return fmt.Errorf("route of type %d: %d loading starts for %d trips", r.VehicleType, len(r.LoadingStarts), trips)
					}
					ahead := r.LoadingStarts[j]
					inWindow := len(vt.StartWindows) == 0
					for _, w := range vt.StartWindows {
						inWindow = inWindow || (w.Start <= ahead && ahead <= w.End)
					}
					if ahead > at || ahead+l < begin-vt.Loading.Staging || !inWindow {
						return fmt.Errorf("route of type %d, trip %d: loading starts at %g, not in a start window between %g and %g", r.VehicleType, j+1, ahead, begin-l-vt.Loading.Staging, at)
					}
					at = ahead
				}
				if res.Holds == HoldLoading {
					// A door: over the loading only.
					ret = at + l
				}
				holds = append(holds, hold{at, ret + res.Turnaround})
			}
		}
		// Busy intervals beyond the count are the problem's: an instant
		// counts when a trip holds a unit then.
		busy := len(res.Busy)
		for _, h := range holds {
			n, trips := 0, 0
			for k, o := range holds {
				if o.from <= h.from && h.from < o.til {
					n++
					if k >= busy {
						trips++
					}
				}
			}
			if trips > 0 && n > res.Count {
				return fmt.Errorf("resource %d: %d units held at %g, count %d", x, n, h.from, res.Count)
			}
		}
	}
	return nil
}
