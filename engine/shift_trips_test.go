package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/haulplan/haulplan/constraints"
)

// TestPlanLeavesNoShiftAnotherCouldDrive: under the trailers and drivers
// objectives, no shift of a plan drives a single trip that another shift
// of the plan could drive as well, as the trip is timed: inside that
// shift's start and end, not overlapping its trips, within its maxTrips,
// and under its hours-of-service limits as one duty with them.
func TestPlanLeavesNoShiftAnotherCouldDrive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		req.Options.Objective = rapid.SampledFrom([]Objective{FewestTrailers, FewestDrivers}).Draw(t, "objective")
		plan := planOK(t, req)
		byShift := map[string][]Route{}
		for _, r := range plan.Routes {
			byShift[r.Shift] = append(byShift[r.Shift], r)
		}
		for si, sh := range req.Shifts {
			for oi, other := range req.Shifts {
				trips := byShift[other.ID]
				if oi == si || len(byShift[sh.ID]) != 1 || len(trips) == 0 {
					continue
				}
				if trip := byShift[sh.ID][0]; couldDrive(&req, oi, trips, trip) {
					t.Fatalf("shift %s drives only route %s, which shift %s could drive as well beside its %d", sh.ID, trip.ID, other.ID, len(trips))
				}
			}
		}
	})
}

// couldDrive reports whether shift si, driving trips, could drive trip as
// well as the trips are timed.
func couldDrive(req *Request, si int, trips []Route, trip Route) bool {
	sh := req.Shifts[si]
	if (sh.MaxTrips > 0 && len(trips) >= sh.MaxTrips) || trip.Start.Before(sh.Start) || trip.Return.After(sh.End) {
		return false
	}
	all := append(slices.Clone(trips), trip)
	slices.SortFunc(all, func(a, b Route) int { return a.Start.Compare(b.Start) })
	var legs []constraints.Leg
	for k, r := range all {
		if k > 0 && r.Start.Before(all[k-1].Return) {
			return false
		}
		at := r.Depart
		for _, st := range r.Stops {
			legs = append(legs, constraints.Leg{Depart: at, Arrive: st.Arrival})
			at = st.Departure
		}
		legs = append(legs, constraints.Leg{Depart: at, Arrive: r.Return})
	}
	duty := constraints.Duty{Start: all[0].Start, End: all[len(all)-1].Return, Legs: legs}
	return len(req.ShiftLimits(si).Validate(duty, "", func(int) string { return "" })) == 0
}

// shiftsOnMorningTrips is a fleet state of three shifts, two each driving one
// trip at 04:00 (the third is free) to a store of its own 6 km from the DC (packingRequest:
// open all day, 12 h shifts from 04:00), its 20 pallets filling a 20
// position dry van, of which there are two: each trip could be driven
// after the other by one shift, but not as timed.
func shiftsOnMorningTrips(t *testing.T) (*planContext, *fleetState) {
	t.Helper()
	return morningTrips(t, []TrailerType{dryVan(2, 20)}, [2]constraints.Temperature{constraints.Ambient, constraints.Ambient})
}

// morningTrips is shiftsOnMorningTrips with the given fleet and the
// class of each store's pallets; each trip goes on the first trailer
// type that carries its class.
func morningTrips(t *testing.T, trailers []TrailerType, classes [2]constraints.Temperature) (*planContext, *fleetState) {
	t.Helper()
	req := packingRequest(2, 3, trailers) // the third shift stays free
	req.Options.Objective = FewestDrivers
	for s, class := range classes {
		for i := range 20 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-P%02d", s, i), Store: fmt.Sprint("S", s),
				WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: class})
		}
	}
	m, pc, orders, fleet := orderedDay(t, req, time.Now)
	for _, o := range orders {
		kind := vehicleKind{trailer: slices.IndexFunc(trailers, func(tr TrailerType) bool { return tr.Equipment.Carries(o.class) })}
		rr, ok := m.retime(kind, fleet.groups[0], [][]*order{{o}})
		if !ok {
			t.Fatal("a trip of one store cannot be timed")
		}
		trips, _, err := m.buildTrips(kind, rr, []*order{o})
		if err != nil {
			t.Fatal(err)
		}
		fleet.keepShift(m, trips, kind, [][]*order{{o}})
	}
	if a, b := fleet.routes[0], fleet.routes[1]; a.Shift == b.Shift || !b.Start.Before(a.Return) {
		t.Fatalf("trips %v–%v on %s and %v–%v on %s; want two overlapping trips on two shifts", a.Start, a.Return, a.Shift, b.Start, b.Return, b.Shift)
	}
	return pc, fleet
}

// TestRetimingChainsTwoMorningTrips: chainShifts, which keeps the trips'
// times, leaves the two shifts as they are; retimeChains drives the two
// trips one after the other on one shift, frees the other, and the plan
// passes Validate.
func TestRetimingChainsTwoMorningTrips(t *testing.T) {
	pc, fleet := shiftsOnMorningTrips(t)
	if n := chainShifts(pc.m, fleet); n != 0 {
		t.Fatalf("chainShifts freed %d shifts of overlapping trips", n)
	}
	if n := retimeChains(context.Background(), pc, fleet); n != 1 {
		t.Fatalf("retimeChains freed %d shifts; want 1", n)
	}
	if a, b := fleet.routes[0], fleet.routes[1]; a.Shift != b.Shift {
		t.Fatalf("trips on shifts %s and %s; want one", a.Shift, b.Shift)
	}
	if fleet.freeShifts() != 2 {
		t.Errorf("%d shifts free; want 2 (the one freed and the one no trip took)", fleet.freeShifts())
	}
	plan := assemble(pc.m, fleet.routes, fleet.unassigned)
	if err := Validate(*pc.m.req, plan); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if plan.Metrics.ShiftsUsed != 1 || plan.Metrics.Pallets != 40 {
		t.Errorf("%d shifts deliver %d pallets; want 1 and 40", plan.Metrics.ShiftsUsed, plan.Metrics.Pallets)
	}
}

// TestRetimingAcrossKindsChainsADryAndAReefer: two shifts each drive one
// trip at 04:00, one on a dry van, one on a reefer. chainShifts (trips as
// timed) and retimeChains (one trailer type a shift) leave them as they
// are; retimeAcrossKinds times one trip again to run after the other on
// its shift, frees the other shift, and the plan passes Validate with
// both trips, of two trailer types, on one shift.
func TestRetimingAcrossKindsChainsADryAndAReefer(t *testing.T) {
	reefer := packingTrailer("REEF", constraints.Reefer, 1)
	pc, fleet := morningTrips(t, []TrailerType{dryVan(1, 20), reefer}, [2]constraints.Temperature{constraints.Ambient, constraints.Chilled})
	if n := chainShifts(pc.m, fleet); n != 0 {
		t.Fatalf("chainShifts freed %d shifts of overlapping trips", n)
	}
	if n := retimeChains(context.Background(), pc, fleet); n != 0 {
		t.Fatalf("retimeChains freed %d shifts of trips on two trailer types", n)
	}
	if n := retimeAcrossKinds(context.Background(), pc, fleet, pc.deadline); n != 1 {
		t.Fatalf("retimeAcrossKinds freed %d shifts; want 1", n)
	}
	if a, b := fleet.routes[0], fleet.routes[1]; a.Shift != b.Shift || a.Trailer == b.Trailer {
		t.Fatalf("trips on %s (shift %s) and %s (shift %s); want two trailer types on one shift", a.Trailer, a.Shift, b.Trailer, b.Shift)
	}
	if fleet.freeShifts() != 2 {
		t.Errorf("%d shifts free; want 2 (the one freed and the one no trip took)", fleet.freeShifts())
	}
	plan := assemble(pc.m, fleet.routes, fleet.unassigned)
	if err := Validate(*pc.m.req, plan); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if plan.Metrics.ShiftsUsed != 1 || plan.Metrics.Pallets != 40 {
		t.Errorf("%d shifts deliver %d pallets; want 1 and 40", plan.Metrics.ShiftsUsed, plan.Metrics.Pallets)
	}
}

// TestRetimingAcrossKindsKeepsTheDutyLimit: with shifts whose duty limit
// holds one trip and not two, retimeAcrossKinds leaves both shifts
// driving.
func TestRetimingAcrossKindsKeepsTheDutyLimit(t *testing.T) {
	reefer := packingTrailer("REEF", constraints.Reefer, 1)
	pc, fleet := morningTrips(t, []TrailerType{dryVan(1, 20), reefer}, [2]constraints.Temperature{constraints.Ambient, constraints.Chilled})
	longest := max(fleet.routes[0].Return.Sub(fleet.routes[0].Start), fleet.routes[1].Return.Sub(fleet.routes[1].Start))
	pc.m.req.HoursOfService = constraints.HoursOfService{MaxDuty: longest + longest/2, MaxDriving: longest}
	if n := retimeAcrossKinds(context.Background(), pc, fleet, pc.deadline); n != 0 {
		t.Fatalf("retimeAcrossKinds freed %d shifts of trips that cannot share a duty of %v", n, longest+longest/2)
	}
	if a, b := fleet.routes[0], fleet.routes[1]; a.Shift == b.Shift {
		t.Fatalf("both trips on shift %s", a.Shift)
	}
}
