package engine

// A stacked pallet takes no floor position (loadplan's layout rule), so a
// route's positions metric counts the pallets on the floor only.

import (
	"errors"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestStackedPositionsMetric: 17 stackable pallets on a 16-position
// trailer stand 16 on the floor and one on top. The route's positions
// metric is 16 and its utilisation at most 1; Validate recomputes 16 and
// rejects a copy of the plan that says 17. Counting a position per
// placement reported 17 positions, a utilisation of 17/16.
func TestStackedPositionsMetric(t *testing.T) {
	plan := planOK(t, shortFleetRequest(17, true))
	req := shortFleetRequest(17, true)
	if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 17 {
		t.Fatalf("%d routes delivering %d pallets; want 1 route with 17", plan.Metrics.Routes, plan.Metrics.Pallets)
	}
	r := plan.Routes[0]
	stacked := 0
	for _, p := range r.Load.Placements {
		stacked += p.Level
	}
	if stacked != 1 {
		t.Fatalf("%d pallets stacked; want 1 (stacking only when the floor runs out)", stacked)
	}
	if r.Metrics.Positions != 16 {
		t.Errorf("positions metric %d; want 16", r.Metrics.Positions)
	}
	if r.Metrics.PosUtil > 1 || plan.Metrics.PosUtil > 1 {
		t.Errorf("positions utilisation %g (plan %g); want at most 1", r.Metrics.PosUtil, plan.Metrics.PosUtil)
	}

	lying := clonePlan(t, plan)
	lying.Routes[0].Metrics.Positions = 17
	lying.Routes[0].Metrics.PosUtil = 17.0 / 16
	lying.Metrics.PosUtil = 17.0 / 16
	err := Validate(req, lying)
	if !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("Validate accepts a plan that counts the stacked pallet's position: %v", err)
	}
	found := false
	for _, v := range constraints.AsViolations(err) {
		if v.Code == CodeMetric && v.Path == "routes[0].metrics.positions" {
			found = true
		}
	}
	if !found {
		t.Fatalf("want %s at routes[0].metrics.positions, got %v", CodeMetric, err)
	}
}
