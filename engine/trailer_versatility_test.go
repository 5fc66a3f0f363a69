package engine

import (
	"context"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestSparingVersatileUnitsMovesAmbientTripsOffReefers: two shifts each
// drive a trip of ambient pallets at 04:00 on a reefer, and an order of
// chilled pallets, which only a reefer carries, is left out. With dry
// vans in the yard, spareVersatileUnits (which moves nothing while
// nothing is left out) moves each trip onto a dry van, as many as
// there are dry vans free over its times, so that the reefers are free
// for what only they carry; every shift keeps its trip, and the plan
// passes Validate with every pallet delivered.
func TestSparingVersatileUnitsMovesAmbientTripsOffReefers(t *testing.T) {
	for _, vans := range []int{2, 1} {
		reefer := packingTrailer("REEF", constraints.Reefer, 2)
		pc, fleet := morningTrips(t, []TrailerType{reefer, dryVan(vans, 20)}, [2]constraints.Temperature{constraints.Ambient, constraints.Ambient})
		if n := spareVersatileUnits(context.Background(), pc, fleet); n != 0 {
			t.Fatalf("with nothing left out, %d trips moved; want none", n)
		}
		fleet.leftOut = append(fleet.leftOut, chilledLeftOut(fleet))
		shifts := []string{fleet.routes[0].Shift, fleet.routes[1].Shift}
		for _, r := range fleet.routes {
			if r.Trailer != "REEF" {
				t.Fatalf("a trip of ambient pallets on %s before; want both on REEF", r.Trailer)
			}
		}
		if n := spareVersatileUnits(context.Background(), pc, fleet); n != vans {
			t.Fatalf("with %d dry vans, %d trips moved; want %d", vans, n, vans)
		}
		onVans := 0
		for k, r := range fleet.routes {
			if r.Trailer == "DRY20" {
				onVans++
			}
			if r.Shift != shifts[k] {
				t.Errorf("trip %d on shift %s; want %s", k, r.Shift, shifts[k])
			}
		}
		if onVans != vans {
			t.Errorf("%d trips on dry vans; want %d", onVans, vans)
		}
		plan := assemble(pc.m, fleet.routes, fleet.unassigned)
		if err := Validate(*pc.m.req, plan); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		if plan.Metrics.Pallets != 40 || len(plan.Unassigned) != 0 {
			t.Errorf("%d pallets delivered, %d unassigned; want 40 and none", plan.Metrics.Pallets, len(plan.Unassigned))
		}
		reefers := map[string]bool{}
		for _, r := range plan.Routes {
			if r.Trailer == "REEF" {
				reefers[r.TrailerUnit] = true
			}
		}
		if len(reefers) != 2-vans {
			t.Errorf("%d reefer units used; want %d", len(reefers), 2-vans)
		}
	}
}

// TestSparingVersatileUnitsKeepsColdTripsOnReefers: a trip of chilled
// pallets stays on its reefer however many dry vans stand free.
func TestSparingVersatileUnitsKeepsColdTripsOnReefers(t *testing.T) {
	reefer := packingTrailer("REEF", constraints.Reefer, 2)
	pc, fleet := morningTrips(t, []TrailerType{reefer, dryVan(2, 20)}, [2]constraints.Temperature{constraints.Chilled, constraints.Ambient})
	fleet.leftOut = append(fleet.leftOut, chilledLeftOut(fleet))
	if n := spareVersatileUnits(context.Background(), pc, fleet); n != 1 {
		t.Fatalf("%d trips moved; want the ambient one alone", n)
	}
	if fleet.routes[0].Trailer != "REEF" || fleet.routes[1].Trailer != "DRY20" {
		t.Fatalf("trips on %s and %s; want the chilled one on REEF, the ambient one on DRY20", fleet.routes[0].Trailer, fleet.routes[1].Trailer)
	}
	if err := Validate(*pc.m.req, assemble(pc.m, fleet.routes, fleet.unassigned)); err != nil {
		t.Fatalf("Validate: %v", err)
	}
}

// chilledLeftOut is an order of chilled pallets, as many as the first
// route's, that the first trailer type alone carries, left out.
func chilledLeftOut(fleet *fleetState) *order {
	o := *fleet.placed[0].orders[0]
	o.class = constraints.Chilled
	o.trailers = []bool{true, false}
	o.reason = ReasonFleetExhausted
	return &o
}

// TestSparingVersatileUnitsOnlyForWhatRoutingTakes: an order left out
// that no later routing round takes (outside its store's hours), or one
// that no free shift could drive, moves no trip off its reefer.
func TestSparingVersatileUnitsOnlyForWhatRoutingTakes(t *testing.T) {
	reefer := packingTrailer("REEF", constraints.Reefer, 2)
	pc, fleet := morningTrips(t, []TrailerType{reefer, dryVan(2, 20)}, [2]constraints.Temperature{constraints.Ambient, constraints.Ambient})
	late := chilledLeftOut(fleet)
	late.reason = ReasonTimeWindow
	fleet.leftOut = append(fleet.leftOut, late)
	if n := spareVersatileUnits(context.Background(), pc, fleet); n != 0 {
		t.Fatalf("for an order left out of its store's hours, %d trips moved; want none", n)
	}
	fleet.leftOut = append(fleet.leftOut, chilledLeftOut(fleet))
	for g := range fleet.groups {
		for len(fleet.groups[g].free) > 0 {
			fleet.takeShift(g)
		}
	}
	if n := spareVersatileUnits(context.Background(), pc, fleet); n != 0 {
		t.Fatalf("with no shift free, %d trips moved; want none", n)
	}
}
