package engine

// Tests of the engine's fleet packing: heavier and odder freight than
// genRequest draws, so that the fleet packing, the per-store packing and
// the reported bound are all exercised.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// oddFreightRequest draws a request with many pallets for few stores, stacking,
// multi-temperature reefers of two and three zones and small floors.
func oddFreightRequest(t *rapid.T) Request {
	var fleet []TrailerType
	kinds := []constraints.EquipmentKind{constraints.DryVan, constraints.Reefer, constraints.MultiTempReefer}
	for i := range rapid.IntRange(1, 3).Draw(t, "types") {
		if i == 0 && rapid.Bool().Draw(t, "multiFirst") {
			kinds = kinds[2:]
		} else {
			kinds = []constraints.EquipmentKind{constraints.DryVan, constraints.Reefer, constraints.MultiTempReefer}
		}
		tr := packingTrailer(fmt.Sprint("T", i), rapid.SampledFrom(kinds).Draw(t, "kind"), rapid.IntRange(1, 6).Draw(t, "count"))
		if tr.Equipment.Kind == constraints.MultiTempReefer {
			tr.Equipment.MaxZones = rapid.SampledFrom([]int{0, 2, 3}).Draw(t, "zones")
		}
		tr.PalletPositions = rapid.IntRange(4, 30).Draw(t, "positions")
		tr.PayloadKg = rapid.Float64Range(3000, 19500).Draw(t, "payload")
		fleet = append(fleet, tr)
	}
	stores := rapid.IntRange(1, 5).Draw(t, "stores")
	req := packingRequest(stores, rapid.IntRange(1, 8).Draw(t, "drivers"), fleet)
	req.Options.Seed = rapid.Int64Range(0, 3).Draw(t, "seed")
	req.Options.Iterations = 30
	for i := range rapid.IntRange(0, 120).Draw(t, "pallets") {
		req.Pallets = append(req.Pallets, Pallet{
			ID: fmt.Sprint("P", i), Store: fmt.Sprint("S", rapid.IntRange(0, stores-1).Draw(t, "store")),
			WeightKg: rapid.Float64Range(50, 1200).Draw(t, "kg"), HeightMM: rapid.IntRange(600, 1400).Draw(t, "h"),
			Footprint:    rapid.SampledFrom([]Footprint{StandardFootprint, HalfFootprint, {610, 508}, {1200, 800}, {1200, 1000}}).Draw(t, "fp"),
			Temperature:  constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp")),
			MayBeStacked: rapid.Bool().Draw(t, "stacked"), MayCarry: rapid.Bool().Draw(t, "carry"),
		})
	}
	return req
}

// TestFleetPackingPlanValidates: Plan never fails on such requests, its
// plans pass Validate and never beat the reported bound.
func TestFleetPackingPlanValidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { planOK(t, oddFreightRequest(t)) })
}

// TestFleetPackingPlanCancelled: a context that has already ended, or ends
// during the fleet packing, gives a valid plan, never ErrInternal.
func TestFleetPackingPlanCancelled(t *testing.T) {
	req := packingRequest(4, 6, []TrailerType{packingTrailer("dry", constraints.DryVan, 3), packingTrailer("multi", constraints.MultiTempReefer, 2)})
	for i := range 150 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: fmt.Sprint("S", i%4), WeightKg: 200, Footprint: StandardFootprint, HeightMM: 1000,
			Temperature: constraints.Temperature(i % 3), MayBeStacked: i%2 == 0, MayCarry: i%3 == 0})
	}
	for _, d := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		plan, err := Plan(ctx, req)
		cancel()
		if errors.Is(err, ErrInternal) {
			t.Fatalf("context of %v: %v", d, err)
		}
		if err != nil {
			continue // a cancellation error is the caller's to see
		}
		if err := Validate(req, plan); err != nil {
			t.Fatalf("context of %v: %v", d, err)
		}
	}
}

// TestFleetPackingHugeCountIsCheap: Check accepts any count that is not
// negative; makeVehicles once built one unit per trailer of the fleet
// before cutting the list to the shifts, so its memory grew with the
// count (3,000,000 dry vans cost about 200 MB for a plan of ten pallets).
func TestFleetPackingHugeCountIsCheap(t *testing.T) {
	alloc := func(count int) uint64 {
		req := packingRequest(2, 2, []TrailerType{packingTrailer("dry", constraints.DryVan, count)})
		for i := range 10 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: fmt.Sprint("S", i%2), WeightKg: 200, Footprint: StandardFootprint, HeightMM: 1000})
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Plan(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(3), alloc(1_000_000)
	if large > small+10<<20 {
		t.Fatalf("Plan allocates per fleet trailer: %d MB for count 1,000,000 against %d MB for 3", large>>20, small>>20)
	}
}

// TestFleetPackingStackedOrdersFit: one store's 80 stackable pallets need
// two trailers of 30 positions (30 pairs and 20 more); the orders
// packGroup cuts must count the floor their layouts take, not their
// pallets, or routing finds no trailer for them.
func TestFleetPackingStackedOrdersFit(t *testing.T) {
	req := packingRequest(1, 3, []TrailerType{packingTrailer("dry", constraints.DryVan, 3)})
	for i := range 80 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 200, Footprint: StandardFootprint, HeightMM: 1200,
			MayCarry: i%2 == 0, MayBeStacked: i%2 == 1})
	}
	plan := planOK(t, req)
	if len(plan.Unassigned) != 0 || plan.Metrics.Routes != 2 || plan.Metrics.TrailersLowerBound != 2 {
		t.Fatalf("%d routes (bound %d), %d unassigned; want 2 routes and none", plan.Metrics.Routes, plan.Metrics.TrailersLowerBound, len(plan.Unassigned))
	}
}
