package engine

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// eliminationRequest: three stores of 12 pallets each and three trailers
// of 18 positions. Routing moves a store's pallets whole, and two stores
// take 24 positions, so it needs a trailer a store; 36 pallets fit two
// trailers when one store's pallets ride on both.
func eliminationRequest(objective Objective) Request {
	tr := dryVan(3, 18)
	req := packingRequest(3, 3, []TrailerType{tr})
	req.Options.Objective = objective
	for s := range 3 {
		for i := range 12 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-P%02d", s, i), Store: fmt.Sprint("S", s),
				WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
		}
	}
	return req
}

// TestEliminationSplitsAStoreToSaveATrailer: under FewestTrailers the plan
// takes the third route off, its store's pallets riding six and six on
// the other two; every pallet is delivered and the plan passes Validate.
// Under LowestCost, where a trailer is not worth a split delivery, and
// when the request asks for whole deliveries, each store keeps its own
// route.
func TestEliminationSplitsAStoreToSaveATrailer(t *testing.T) {
	plan := planOK(t, eliminationRequest(FewestTrailers))
	if plan.Metrics.Routes != 2 || plan.Metrics.Pallets != 36 {
		t.Fatalf("%d routes delivering %d pallets; want 2 routes with all 36", plan.Metrics.Routes, plan.Metrics.Pallets)
	}
	if split := storesOnSeveralRoutes(plan); split != 1 {
		t.Errorf("stores on two routes: %d; want 1", split)
	}

	whole := eliminationRequest(FewestTrailers)
	whole.Options.WholeDeliveries = true
	if plan := planOK(t, whole); plan.Metrics.Routes != 3 || plan.Metrics.Pallets != 36 {
		t.Errorf("WholeDeliveries: %d routes delivering %d pallets; want 3, one a store, with all 36", plan.Metrics.Routes, plan.Metrics.Pallets)
	}

	cost := planOK(t, eliminationRequest(LowestCost))
	if cost.Metrics.Routes != 3 {
		t.Errorf("LowestCost: %d routes; want 3, one a store", cost.Metrics.Routes)
	}
}

// storesOnSeveralRoutes counts the stores whose pallets come on two or
// more routes.
func storesOnSeveralRoutes(plan Result) int {
	routesOf := map[string]int{}
	for _, r := range plan.Routes {
		seen := map[string]bool{}
		for _, st := range r.Stops {
			if !seen[st.Store] {
				seen[st.Store] = true
				routesOf[st.Store]++
			}
		}
	}
	n := 0
	for _, k := range routesOf {
		if k > 1 {
			n++
		}
	}
	return n
}

// TestEliminationFreesAShiftForPalletsLeftBehind: three stores of 12
// ambient pallets take the three drivers on three dry vans of 18
// positions, and store S0's 5 frozen pallets find no driver for the
// reefer. Taking a dry-van route off (its store split over the other two)
// frees a driver, and the frozen pallets go on the reefer with it: every
// pallet is delivered on three routes.
func TestEliminationFreesAShiftForPalletsLeftBehind(t *testing.T) {
	req := eliminationRequest(FewestTrailers)
	req.Fleet = append(req.Fleet, packingTrailer("REEF", constraints.Reefer, 1))
	for i := range 5 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S0-F%d", i), Store: "S0",
			WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Frozen})
	}
	plan := planOK(t, req)
	if plan.Metrics.Pallets != len(req.Pallets) || plan.Metrics.Routes != 3 {
		t.Fatalf("%d routes delivering %d of %d pallets (unassigned %v); want all on 3 routes",
			plan.Metrics.Routes, plan.Metrics.Pallets, len(req.Pallets), plan.Unassigned)
	}
}

// TestWholeDeliveriesWithAShortFleet: three stores of 12 pallets and two
// trailers of 18 positions, on two shifts of one trip each (a unit that
// turns could run a third). The routes' room left carries part of the
// third store's pallets; with WholeDeliveries that part rides on one
// trailer only, the rest staying behind, where by default it comes on
// both and every pallet is delivered.
func TestWholeDeliveriesWithAShortFleet(t *testing.T) {
	short := func(whole bool) Request {
		req := eliminationRequest(FewestTrailers)
		req.Fleet[0].Count, req.Shifts = 2, req.Shifts[:2]
		for i := range req.Shifts {
			req.Shifts[i].MaxTrips = 1
		}
		req.Options.WholeDeliveries = whole
		return req
	}
	plan := planOK(t, short(true))
	if n := storesOnSeveralRoutes(plan); n != 0 || plan.Metrics.Pallets != 30 {
		t.Errorf("WholeDeliveries: %d pallets delivered, %d stores on two routes; want 30 (12, 12 and 6 on one route), none split",
			plan.Metrics.Pallets, n)
	}
	plan = planOK(t, short(false))
	if plan.Metrics.Pallets != 36 {
		t.Errorf("default: %d pallets delivered; want all 36", plan.Metrics.Pallets)
	}
}

// TestEliminationCountsStackedParts: three stores of 12 pallets, five of
// them stackable, take 9 floor positions each; a trailer of 14 positions
// carries one store, so routing needs three. The 27 positions fit two
// trailers when one store's pallets are split and each part counts its
// own stackable pallets stacked.
func TestEliminationCountsStackedParts(t *testing.T) {
	tr := dryVan(3, 14)
	req := packingRequest(3, 3, []TrailerType{tr})
	for s := range 3 {
		for i := range 12 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-P%02d", s, i), Store: fmt.Sprint("S", s),
				WeightKg: 300, Footprint: StandardFootprint, HeightMM: 1200, Temperature: constraints.Ambient, MayBeStacked: i < 5, MayCarry: true})
		}
	}
	plan := planOK(t, req)
	if plan.Metrics.Routes != 2 || plan.Metrics.Pallets != 36 {
		t.Fatalf("%d routes delivering %d pallets; want 2 routes with all 36", plan.Metrics.Routes, plan.Metrics.Pallets)
	}
}
