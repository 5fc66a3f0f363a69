package engine

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/haulplan/haulplan/constraints"
)

// TestPlanLeavesNoShiftAnotherCouldDrive: under the trailers and drivers
// objectives, no shift of a plan drives a single trip that another shift
// of the plan could drive as well, as the trip is timed: inside that
// shift's start and end, not overlapping its trips, within its maxTrips,
// and under its hours-of-service limits as one duty with them.
func TestPlanLeavesNoShiftAnotherCouldDrive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		req.Options.Objective = rapid.SampledFrom([]Objective{FewestTrailers, FewestDrivers}).Draw(t, "objective")
		plan := planOK(t, req)
		byShift := map[string][]Route{}
		for _, r := range plan.Routes {
			byShift[r.Shift] = append(byShift[r.Shift], r)
		}
		for si, sh := range req.Shifts {
			for oi, other := range req.Shifts {
				trips := byShift[other.ID]
				if oi == si || len(byShift[sh.ID]) != 1 || len(trips) == 0 {
					continue
				}
				if trip := byShift[sh.ID][0]; couldDrive(&req, oi, trips, trip) {
					t.Fatalf("shift %s drives only route %s, which shift %s could drive as well beside its %d", sh.ID, trip.ID, other.ID, len(trips))
				}
			}
		}
	})
}

// couldDrive reports whether shift si, driving trips, could drive trip as
// well as the trips are timed.
func couldDrive(req *Request, si int, trips []Route, trip Route) bool {
	sh := req.Shifts[si]
	if (sh.MaxTrips > 0 && len(trips) >= sh.MaxTrips) || trip.Start.Before(sh.Start) || trip.Return.After(sh.End) {
		return false
	}
	all := append(slices.Clone(trips), trip)
	slices.SortFunc(all, func(a, b Route) int { return a.Start.Compare(b.Start) })
	var legs []constraints.Leg
	for k, r := range all {
		if k > 0 && r.Start.Before(all[k-1].Return) {
			return false
		}
		at := r.Depart
		for _, st := range r.Stops {
			legs = append(legs, constraints.Leg{Depart: at, Arrive: st.Arrival})
			at = st.Departure
		}
		legs = append(legs, constraints.Leg{Depart: at, Arrive: r.Return})
	}
	duty := constraints.Duty{Start: all[0].Start, End: all[len(all)-1].Return, Legs: legs}
	return len(req.ShiftLimits(si).Validate(duty, "", func(int) string { return "" })) == 0
}
