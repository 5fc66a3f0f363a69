package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// packingRequest is a DC with stores a few kilometres away, open all day,
// n drivers with 12-hour shifts and the given fleet.
func packingRequest(stores, drivers int, fleet []TrailerType) Request {
	req := Request{
		DC:      DC{ID: "DC", Location: geo.Point{Lat: 32.59, Lng: -96.75}, LoadingPerPallet: 30 * time.Second},
		Fleet:   fleet,
		Options: Options{TimeLimit: time.Minute, Iterations: 100, Seed: 1, Workers: 1},
	}
	allDay := constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{}}
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		allDay.Days[d] = []constraints.Opening{{Open: "00:00", Close: "24:00"}}
	}
	for i := range stores {
		req.Stores = append(req.Stores, Store{ID: fmt.Sprint("S", i), Location: geo.Point{Lat: 32.6 + 0.01*float64(i), Lng: -96.7},
			Hours: allDay, Unloading: Unloading{Fixed: 10 * time.Minute, PerPallet: time.Minute}})
	}
	start := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	for i := range drivers {
		req.Shifts = append(req.Shifts, constraints.Shift{ID: fmt.Sprint("D", i), Start: start, End: start.Add(12 * time.Hour)})
	}
	return req
}

func packingTrailer(id string, kind constraints.EquipmentKind, count int) TrailerType {
	return TrailerType{
		ID: id, Count: count, Inside: Dimensions{LengthMM: 16002, WidthMM: 2540, HeightMM: 2794},
		PalletPositions: 30, PayloadKg: 19500, Equipment: constraints.Equipment{Kind: kind},
		Axles: constraints.AxleGeometry{KingpinMM: 914, AxleGroupMM: 12500, TareKg: 6350, TareCentreMM: 8500,
			KingpinLimitKg: 11300, AxleGroupLimitKg: 15422},
		Costs: Costs{Fixed: 150, PerKm: 1.2, PerHour: 38},
	}
}

// dryVan is packingTrailer's dry van with the given floor positions, named
// after them ("DRY18").
func dryVan(count, positions int) TrailerType {
	tr := packingTrailer(fmt.Sprint("DRY", positions), constraints.DryVan, count)
	tr.PalletPositions = positions
	return tr
}

// fataler is what planOK needs of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// planOK plans a valid request and insists on what every plan must give:
// Validate accepts it, every pallet is delivered or unassigned, and the
// routes are no fewer than the proven bound.
func planOK(t fataler, req Request) Result {
	t.Helper()
	if err := req.Check(); err != nil {
		t.Fatalf("the request is invalid: %v", err)
	}
	plan, err := Plan(context.Background(), req)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if err := Validate(req, plan); err != nil {
		t.Fatalf("Validate rejects Plan's result: %v", err)
	}
	if plan.Metrics.Pallets+len(plan.Unassigned) != len(req.Pallets) {
		t.Fatalf("%d delivered + %d unassigned != %d pallets", plan.Metrics.Pallets, len(plan.Unassigned), len(req.Pallets))
	}
	if plan.Metrics.Routes < plan.Metrics.TrailersLowerBound {
		t.Fatalf("%d routes beat the proven lower bound of %d trailers", plan.Metrics.Routes, plan.Metrics.TrailersLowerBound)
	}
	return plan
}

// TestStackableStoreTakesOneTrailer: 40 stackable pallets of one store
// stand on 20 floor positions, so one 30-position trailer carries them.
// Counting a floor position per pallet, as routing did before orders were
// laid out, split them over two trailers.
func TestStackableStoreTakesOneTrailer(t *testing.T) {
	req := packingRequest(1, 2, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 2)})
	for i := range 40 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 300, Footprint: StandardFootprint, HeightMM: 1200,
			Temperature: constraints.Ambient, MayBeStacked: true, MayCarry: true})
	}
	plan := planOK(t, req)
	if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 40 || plan.Metrics.TrailersLowerBound != 1 {
		t.Fatalf("%d routes, %d pallets delivered, bound %d; want 1 route with all 40 (bound 1)",
			plan.Metrics.Routes, plan.Metrics.Pallets, plan.Metrics.TrailersLowerBound)
	}
}

// TestReeferSetPointsFollowThePacking: 40 light chilled pallets need two
// reefers by floor, 20 frozen pallets of 1,000 kg two by weight (19,500 kg
// payload). Set in proportion to floor positions, as before the fleet
// packing chose them, three of the four reefers would be chilled and a
// frozen pallet would stay behind.
func TestReeferSetPointsFollowThePacking(t *testing.T) {
	req := packingRequest(4, 4, []TrailerType{packingTrailer("REEF53", constraints.Reefer, 4)})
	for i := range 40 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("C", i), Store: fmt.Sprint("S", i%4), WeightKg: 100, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Chilled})
	}
	for i := range 20 {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("F", i), Store: fmt.Sprint("S", i%4), WeightKg: 1000, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Frozen})
	}
	plan := planOK(t, req)
	if plan.Metrics.Unassigned != 0 {
		t.Fatalf("%d pallets unassigned, first %+v", plan.Metrics.Unassigned, plan.Unassigned[0])
	}
	if plan.Metrics.TrailersLowerBound != 4 || plan.Metrics.Routes != 4 {
		t.Fatalf("%d routes, bound %d; want 4 and 4", plan.Metrics.Routes, plan.Metrics.TrailersLowerBound)
	}
}
