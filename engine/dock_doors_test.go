package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestDockDoorsLimitLoading: the sample loads several trailers at once
// when the doors are unlimited; with fewer doors than that, no more
// loadings run at once than there are doors, every door is within them,
// and the trips that found no door free leave their pallets unassigned
// as DOCK_CAPACITY, with a message that names the doors. Every pallet is
// delivered or listed.
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
	short := 0
	for _, u := range plan.Unassigned {
		if u.Reason == ReasonDockCapacity {
			short++
			if want := "dock doors are all loading"; !strings.Contains(u.Message, want) || !strings.Contains(u.Message, fmt.Sprintf("the DC's %d dock doors", doors)) {
				t.Fatalf("DOCK_CAPACITY message %q does not name the %d doors", u.Message, doors)
			}
		}
	}
	if short == 0 {
		t.Fatalf("the plan on %d doors leaves nothing unassigned for dock capacity (unassigned by reason %v), yet delivers %d of %d pallets",
			doors, unassignedReasons(plan), plan.Metrics.Pallets, len(req.Pallets))
	}
	if plan.Metrics.Pallets+len(plan.Unassigned) != len(req.Pallets) {
		t.Fatalf("%d delivered and %d unassigned of %d pallets", plan.Metrics.Pallets, len(plan.Unassigned), len(req.Pallets))
	}
}
