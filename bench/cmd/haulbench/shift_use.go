package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// shiftUse is how a plan uses its driver shifts and trailer units: what
// -shifts prints, to tell a weak bound from a plan that leaves shifts
// half used.
type shiftUse struct {
	// tripsPerShift and tripsPerUnit count the shifts (units) used by the
	// number of trips they drive (run): [k] is those with k trips.
	tripsPerShift, tripsPerUnit []int
	// duty is each used shift's duty, its first trip's Start to its last
	// trip's Return, sorted; driving the sum of its trips' driving.
	duty    []time.Duration
	driving time.Duration
	// tripDuty sums the trips' own duties, Start to Return; packed is
	// the fewest shifts of the longest duty limit that could hold them
	// end to end: what the plan's trips, as cut, need at the least.
	tripDuty time.Duration
	packed   int
	// byType is, for each trailer type in the fleet's order, its trips,
	// their median stops and median duty, on single-trip shifts and on
	// shifts of several trips.
	byType []typeUse
	// chainable is how many single-trip shifts could hand their trip, as
	// it is timed, to another shift that keeps it (see chainTrips): at
	// least that many shifts the plan could do without, with no trip
	// moved in time.
	chainable int
}

// typeUse is how one trailer type's trips ride the shifts.
type typeUse struct {
	trailer     string
	alone, more tripShape // trips on single-trip shifts, on the others
}

// tripShape is the count, median stops and median duty of some trips.
type tripShape struct {
	trips, stops int
	duty         time.Duration
}

func shapeOf(rs []engine.Route) tripShape {
	if len(rs) == 0 {
		return tripShape{}
	}
	stops, duty := make([]int, len(rs)), make([]time.Duration, len(rs))
	for k, r := range rs {
		stops[k], duty[k] = len(r.Stops), r.Return.Sub(r.Start)
	}
	slices.Sort(stops)
	slices.Sort(duty)
	return tripShape{len(rs), stops[len(rs)/2], duty[len(rs)/2]}
}

// measureShiftUse reads plan's shifts and units.
func measureShiftUse(req engine.Request, plan engine.Result) shiftUse {
	var u shiftUse
	byShift, byUnit := map[string][]engine.Route{}, map[string]int{}
	for _, r := range plan.Routes {
		byShift[r.Shift] = append(byShift[r.Shift], r)
		byUnit[r.TrailerUnit]++
	}
	count := func(hist []int, k int) []int {
		for len(hist) <= k {
			hist = append(hist, 0)
		}
		hist[k]++
		return hist
	}
	for _, trips := range byShift {
		slices.SortFunc(trips, func(a, b engine.Route) int { return a.Start.Compare(b.Start) })
		u.tripsPerShift = count(u.tripsPerShift, len(trips))
		u.duty = append(u.duty, trips[len(trips)-1].Return.Sub(trips[0].Start))
		for _, r := range trips {
			u.driving += r.Metrics.Driving
		}
	}
	for _, n := range byUnit {
		u.tripsPerUnit = count(u.tripsPerUnit, n)
	}
	longest := time.Duration(0)
	for i := range req.Shifts {
		longest = max(longest, min(req.ShiftLimits(i).MaxDuty, req.Shifts[i].End.Sub(req.Shifts[i].Start)))
	}
	for _, r := range plan.Routes {
		u.tripDuty += r.Return.Sub(r.Start)
	}
	if longest > 0 {
		u.packed = int((u.tripDuty + longest - 1) / longest)
	}
	for _, t := range req.Fleet {
		var alone, more []engine.Route
		for _, r := range plan.Routes {
			switch {
			case r.Trailer != t.ID:
			case len(byShift[r.Shift]) == 1:
				alone = append(alone, r)
			default:
				more = append(more, r)
			}
		}
		if len(alone)+len(more) > 0 {
			u.byType = append(u.byType, typeUse{t.ID, shapeOf(alone), shapeOf(more)})
		}
	}
	slices.Sort(u.duty)
	u.chainable = chainTrips(req, byShift)
	return u
}

// chainTrips counts the single-trip shifts whose trip another shift could
// drive as well, as the trip is timed: the trip fits between or around
// that shift's trips without overlapping them, inside its start and end,
// and the shift's duty (first Start to last Return), driving and trip
// count stay within its limits. A shift that takes a trip is not given
// away; the count is greedy, so at least that many could go.
func chainTrips(req engine.Request, byShift map[string][]engine.Route) int {
	index := map[string]int{}
	for i, s := range req.Shifts {
		index[s.ID] = i
	}
	var ids []string
	for id := range byShift {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	hosts := map[string][]engine.Route{}
	for id, trips := range byShift {
		hosts[id] = slices.Clone(trips)
	}
	gone, hosting := map[string]bool{}, map[string]bool{}
	chained := 0
	for _, g := range ids {
		if len(byShift[g]) != 1 || hosting[g] {
			continue
		}
		trip := byShift[g][0]
		for _, h := range ids {
			if h == g || gone[h] {
				continue
			}
			if fits(req, index[h], hosts[h], trip) {
				hosts[h] = append(hosts[h], trip)
				slices.SortFunc(hosts[h], func(a, b engine.Route) int { return a.Start.Compare(b.Start) })
				gone[g], hosting[h] = true, true
				chained++
				break
			}
		}
	}
	return chained
}

// fits reports whether shift i, driving trips (in time order), may drive
// trip too as it is timed.
func fits(req engine.Request, i int, trips []engine.Route, trip engine.Route) bool {
	s := req.Shifts[i]
	h := req.ShiftLimits(i)
	if s.MaxTrips > 0 && len(trips) >= s.MaxTrips {
		return false
	}
	if trip.Start.Before(s.Start) || trip.Return.After(s.End) {
		return false
	}
	first, last, driving := trip.Start, trip.Return, trip.Metrics.Driving
	for _, r := range trips {
		if r.Start.Before(trip.Return) && trip.Start.Before(r.Return) {
			return false
		}
		if r.Start.Before(first) {
			first = r.Start
		}
		if r.Return.After(last) {
			last = r.Return
		}
		driving += r.Metrics.Driving
	}
	return last.Sub(first) <= h.MaxDuty && driving <= h.MaxDriving
}

// writeShiftUse prints u on one line after name.
func writeShiftUse(w io.Writer, name string, u shiftUse) {
	hist := func(h []int) string {
		var parts []string
		for k, n := range h {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%d×%d", n, k))
			}
		}
		return strings.Join(parts, " ")
	}
	var sum time.Duration
	for _, d := range u.duty {
		sum += d
	}
	q := func(f float64) float64 {
		if len(u.duty) == 0 {
			return 0
		}
		return u.duty[int(f*float64(len(u.duty)-1))].Hours()
	}
	fmt.Fprintf(w, "%s: shifts by trips %s; trailer units by trips %s; duty a shift %.1f/%.1f/%.1f h (min/median/max), %.0f h in all, driving %.0f h; %d single-trip shifts could hand their trip, as timed, to another shift\n",
		name, hist(u.tripsPerShift), hist(u.tripsPerUnit), q(0), q(0.5), q(1), sum.Hours(), u.driving.Hours(), u.chainable)
	var types []string
	for _, t := range u.byType {
		types = append(types, fmt.Sprintf("%s %s alone, %s with others", t.trailer, t.alone, t.more))
	}
	fmt.Fprintf(w, "%s: the trips' own duty is %.0f h, %d shifts' worth packed end to end; trips (median stops, median duty): %s\n",
		name, u.tripDuty.Hours(), u.packed, strings.Join(types, "; "))
}

// String is "N (S stops, D h)".
func (s tripShape) String() string {
	return fmt.Sprintf("%d (%d stops, %.1f h)", s.trips, s.stops, s.duty.Hours())
}
