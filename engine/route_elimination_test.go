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
	tr := packingTrailer("DRY18", constraints.DryVan, 3)
	tr.PalletPositions = 18
	req := packingRequest(3, 3, []TrailerType{tr})
	req.Options.Objective = objective
	for s := range 3 {
		for i := range 12 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-P%02d", s, i), Store: fmt.Sprint("S", s),
				WeightKg: 400, HeightMM: 1500, Temperature: constraints.Ambient})
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
	routesOf := map[string]int{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			routesOf[st.Store]++
		}
	}
	split := 0
	for _, n := range routesOf {
		if n > 1 {
			split++
		}
	}
	if split != 1 {
		t.Errorf("stores on two routes: %d (%v); want 1", split, routesOf)
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
