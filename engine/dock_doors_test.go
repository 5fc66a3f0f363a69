package engine

import (
	"testing"
)

// TestDockDoorsLimitLoading: the sample loads several trailers at once
// when the doors are unlimited; with one door fewer than that, no more
// loadings run at once than there are doors, every door is within them,
// and routing, which counts the doors, still delivers every pallet: the
// sample's dock is open from 01:00 to 22:00, time enough to load each
// trailer in turn. Scheduling the doors only after routing left trips
// without a door, as DOCK_CAPACITY.
func TestDockDoorsLimitLoading(t *testing.T) {
	req := freshSample(t)
	open := planOK(t, req)
	if open.Metrics.PeakDockDoors < 3 {
		t.Fatalf("the sample loads at most %d trailers at once with unlimited doors; the test needs 3 or more", open.Metrics.PeakDockDoors)
	}
	doors := open.Metrics.PeakDockDoors - 1
	req.DC.DockDoors = doors
	plan := planOK(t, req)
	if plan.Metrics.PeakDockDoors > doors {
		t.Fatalf("%d loadings at once on %d doors", plan.Metrics.PeakDockDoors, doors)
	}
	for _, r := range plan.Routes {
		if r.DockDoor < 1 || r.DockDoor > doors {
			t.Fatalf("route %s at door %d of %d", r.ID, r.DockDoor, doors)
		}
	}
	if plan.Metrics.Pallets != len(req.Pallets) {
		t.Fatalf("the plan on %d doors delivers %d of %d pallets (unassigned by reason %v)",
			doors, plan.Metrics.Pallets, len(req.Pallets), unassignedReasons(plan))
	}
}
