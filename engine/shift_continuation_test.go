package engine

import (
	"testing"
)

// TestLaterRoundDrivesOnWithTheShiftOut: loneHalvesRequest with one
// driver. The first routing round gives the shift one trip of the three
// stores, whose layout sends the last stop (S2, open from 10:00) back;
// the one shift then drives, and no shift is free for the second round.
// The shift's trip is back long before its end, so the second round
// gives it a second trip for S2: every pallet rides on the one shift,
// two trips, under every objective, and Validate accepts the plan (hours
// of service across the trips, trip order, the two units). Before, a
// later round could only open a shift, and S2's pallets that the first
// trip's spare floor could not take stayed FLEET_EXHAUSTED.
func TestLaterRoundDrivesOnWithTheShiftOut(t *testing.T) {
	for _, objective := range []Objective{FewestTrailers, FewestDrivers, LowestCost} {
		req := loneHalvesRequest()
		req.Shifts = req.Shifts[:1]
		req.Options.Objective = objective
		sentBack := false
		req.Options.Progress = func(p Progress) {
			if p.Phase == PhaseLayouts && p.Round == 1 {
				sentBack = p.Routes == 1 && p.Unassigned > 0
			}
		}
		plan := planOK(t, req)
		if !sentBack {
			t.Fatalf("%s: the first round did not keep one route and send a stop back: the request no longer tests a later round", objective)
		}
		if len(plan.Unassigned) > 0 {
			u := plan.Unassigned[0]
			t.Fatalf("%s: %d pallets unassigned, first %s %s (%s); want every pallet on the shift's trips", objective, len(plan.Unassigned), u.Pallet, u.Reason, u.Message)
		}
		if len(plan.Routes) != 2 || plan.Metrics.ShiftsUsed != 1 {
			t.Fatalf("%s: %d trips on %d shifts; want two trips of the one shift", objective, len(plan.Routes), plan.Metrics.ShiftsUsed)
		}
	}
}
