package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// replanExpiring re-plans again with a time limit that ends at the first
// progress report of phase (ORDERS: before routing begins; LAYOUTS: as
// the first routing round's routes are laid out), and checks the plan as
// planOK does.
func replanExpiring(t *testing.T, again Request, phase Phase) Result {
	t.Helper()
	clock := &limitClock{}
	var phases []Phase
	again.Options.Progress = func(p Progress) {
		phases = append(phases, p.Phase)
		if p.Phase == phase {
			clock.expired.Store(true)
		}
	}
	plan, err := planWithClock(context.Background(), again, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(again, plan); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(phases, phase) {
		t.Fatalf("no %s report (reports %v): the limit never ended", phase, phases)
	}
	if plan.Metrics.Pallets+len(plan.Unassigned) != len(again.Pallets) {
		t.Fatalf("%d delivered + %d unassigned != %d pallets", plan.Metrics.Pallets, len(plan.Unassigned), len(again.Pallets))
	}
	return plan
}

// TestReplanRoutesLatePalletsPastTheTimeLimit: when a re-plan's time
// limit ends before routing begins (the ORDERS report) or as the first
// routing round's routes are laid out (LAYOUTS), the late pallets still
// ride where the fleet has room: the orders the limit left unrouted are
// routed past it with the fleet left, and the room left on the routes
// takes what no route can. The plan delivers what the re-plan with time
// delivers, and keeps the previous route as it was. Before, they were
// left NOT_PLANNED or FLEET_EXHAUSTED though the fleet had room: at 1,000
// stores on a busy machine, hundreds of a night's late pallets.
//
//   - added store: the previous plan carries six stores on a full van;
//     the night adds a store of four pallets and three late pallets for a
//     store on the van, and a second van and driver stand free;
//   - spare room: the previous plan's one driver drives one trip for one
//     store, 10 pallets on a 16-position van; the night adds 10 pallets
//     for another store, and only the room left on that van can carry
//     them: 6 ride, 4 stay FLEET_EXHAUSTED.
func TestReplanRoutesLatePalletsPastTheTimeLimit(t *testing.T) {
	req := packingRequest(6, 2, []TrailerType{dryVan(2, 18)})
	for _, s := range req.Stores {
		for k := range 3 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-%d", s.ID, k), Store: s.ID, WeightKg: 400,
				Footprint: StandardFootprint, HeightMM: 1400})
		}
	}
	req.Shifts[0].MaxTrips, req.Shifts[1].MaxTrips = 1, 1
	prev := planOK(t, req)
	if len(prev.Routes) != 1 || prev.Routes[0].Metrics.Positions != 18 {
		t.Fatalf("the first plan has %d routes; want one full van", len(prev.Routes))
	}
	addedStore := withLate(req, prev, Lock{}, "S2", 3)
	added := req.Stores[0]
	added.ID, added.Location.Lat = "S6", added.Location.Lat+0.05
	addedStore.Stores = append(slices.Clone(req.Stores), added)
	addPallets(&addedStore, "S6", constraints.Ambient, 4)

	one := spareRoomRequest()
	one.Pallets = slices.DeleteFunc(one.Pallets, func(p Pallet) bool { return p.Store == "S1" })
	onePrev := planOK(t, one)
	spareRoom := one
	spareRoom.Previous = &onePrev
	spareRoom.Pallets = slices.Clone(one.Pallets)
	addPallets(&spareRoom, "S1", constraints.Ambient, 10)

	for _, c := range []struct {
		name                 string
		again                Request
		delivered, exhausted int
	}{{"added store", addedStore, 25, 0}, {"spare room", spareRoom, 16, 4}} {
		withTime := planOK(t, c.again)
		if withTime.Metrics.Pallets != c.delivered {
			t.Fatalf("%s: with time, %d pallets delivered; want %d", c.name, withTime.Metrics.Pallets, c.delivered)
		}
		for _, phase := range []Phase{PhaseOrders, PhaseLayouts} {
			plan := replanExpiring(t, c.again, phase)
			if r := unassignedReasons(plan); plan.Metrics.Pallets != c.delivered || r[ReasonFleetExhausted] != c.exhausted {
				t.Errorf("%s, limit ending at %s: %d pallets delivered, unassigned by reason %v; want %d delivered, as with time, and %d %s",
					c.name, phase, plan.Metrics.Pallets, r, c.delivered, c.exhausted, ReasonFleetExhausted)
			}
			for _, sc := range plan.Changes.Stores {
				if sc.Store != "S6" && sc.Store != "S2" && sc.Store != "S1" && (sc.Has(Moved) || sc.Has(Retimed)) {
					t.Errorf("%s, limit ending at %s: store %s %v; want the previous route kept", c.name, phase, sc.Store, sc.Kinds)
				}
			}
		}
	}
}
