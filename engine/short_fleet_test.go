package engine

// When the fleet is short, the plan delivers the most pallets it can: a
// route carries as much as its trailer takes, and what no trailer or
// driver is left for is reported FLEET_EXHAUSTED.

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// shortFleetRequest is one store with n pallets of 400 kg, 1.2 m tall (two
// levels fit under 2,794 mm), one dry van of 16 positions and one driver.
func shortFleetRequest(n int, stackable bool) Request {
	tr := dryVan(1, 16)
	req := packingRequest(1, 1, []TrailerType{tr})
	for i := range n {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1200,
			Temperature: constraints.Ambient, MayBeStacked: stackable, MayCarry: stackable})
	}
	return req
}

// TestShortFleetDeliversMostPallets: 24 standard pallets, one trailer of 16
// positions, one shift of one trip. The one route carries 16; the other 8
// stay behind because no trailer or driver is left. Cutting the store's
// pallets into orders of 12 + 12 (or 16 + 8) and routing whichever came
// first delivered 8. (A shift of two trips takes all 24, the second trip
// held back until the trailer is back and turned.)
func TestShortFleetDeliversMostPallets(t *testing.T) {
	req := shortFleetRequest(24, false)
	req.Shifts[0].MaxTrips = 1
	plan := planOK(t, req)
	if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 16 {
		t.Fatalf("%d routes delivering %d pallets; want 1 route with 16", plan.Metrics.Routes, plan.Metrics.Pallets)
	}
	if r := unassignedReasons(plan); len(plan.Unassigned) != 8 || r[ReasonFleetExhausted] != 8 {
		t.Fatalf("unassigned by reason %v; want 8 %s", r, ReasonFleetExhausted)
	}
}

// TestShortFleetStacksToDeliverAll: the same 24 pallets, each allowed to be
// stacked and to carry, stand 16 on the floor and 8 on top: one route
// delivers all 24.
func TestShortFleetStacksToDeliverAll(t *testing.T) {
	plan := planOK(t, shortFleetRequest(24, true))
	if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 24 || len(plan.Unassigned) != 0 {
		t.Fatalf("%d routes delivering %d pallets, unassigned by reason %v; want 1 route with all 24",
			plan.Metrics.Routes, plan.Metrics.Pallets, unassignedReasons(plan))
	}
}

// TestShortFleetStacksAcrossOrders: two stores of 10 pallets each, 4 of
// them low pallets that may be stacked, one 16-position trailer and one
// driver. Each store's order stands on 8 positions with its own pairs
// stacked, so one route delivers all 20 pallets on 16 positions. Counting
// each order at its unstacked floor (10 + 10 positions) routed one store
// and left the other behind.
func TestShortFleetStacksAcrossOrders(t *testing.T) {
	tr := dryVan(1, 16)
	req := packingRequest(2, 1, []TrailerType{tr})
	for s := range 2 {
		for i := range 10 {
			p := Pallet{ID: fmt.Sprintf("S%d-P%d", s, i), Store: fmt.Sprint("S", s), WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient}
			if i < 4 {
				p.HeightMM, p.WeightKg = 1000, float64(200+10*i)
				p.MayBeStacked, p.MayCarry = true, true
			}
			req.Pallets = append(req.Pallets, p)
		}
	}
	plan := planOK(t, req)
	if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 20 || len(plan.Unassigned) != 0 {
		t.Fatalf("%d routes delivering %d pallets, unassigned by reason %v; want 1 route with all 20",
			plan.Metrics.Routes, plan.Metrics.Pallets, unassignedReasons(plan))
	}
	if got := plan.Routes[0].Metrics.Positions; got != 16 {
		t.Errorf("the route stands on %d positions; want 16 (two pairs stacked per store)", got)
	}
}
