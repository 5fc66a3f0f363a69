package engine

import (
	"strings"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// doorsRequest is three stores that each take two frozen and three
// chilled pallets, one multi-temperature reefer (the preset, with its
// curbside door for the nose compartment) and one driver for one trip.
func doorsRequest() Request {
	mt := MultiTempReefer48()
	mt.Count, mt.Costs = 1, Costs{Fixed: 240, PerKm: 1.5, PerHour: 38}
	req := packingRequest(3, 1, []TrailerType{mt})
	req.Shifts[0].MaxTrips = 1
	for _, s := range req.Stores {
		addPallets(&req, s.ID, constraints.Frozen, 2)
		addPallets(&req, s.ID, constraints.Chilled, 3)
	}
	return req
}

// TestMultiTempDoors: the preset's curbside door lets one trip serve the
// three stores, the frozen pallets of the first stops standing within its
// opening; with the rear door alone the trip cannot take every store's
// frozen pallets (Plan's plan still passes Validate), and a pallet left
// out for its layout names the zone and the stop.
func TestMultiTempDoors(t *testing.T) {
	req := doorsRequest()
	plan := planOK(t, req)
	if len(plan.Unassigned) > 0 || len(plan.Routes) != 1 || len(plan.Routes[0].Stops) != 3 {
		t.Fatalf("%d routes, %d pallets unassigned (%v); want one trip to the three stores", len(plan.Routes), len(plan.Unassigned), unassignedReasons(plan))
	}
	r := plan.Routes[0]
	first := map[string]bool{r.Stops[0].Store: true}
	side := 0
	for _, pl := range r.Load.Placements {
		p := req.Pallets[palletIndex(req, pl.Pallet)]
		if p.Temperature == constraints.Frozen && first[p.Store] {
			if pl.XMM+1016 > 2500 {
				t.Errorf("frozen pallet %s for the first stop stands at %d mm, outside the curbside door's 0–2,500 mm", p.ID, pl.XMM)
			}
			side++
		}
	}
	if side != 2 {
		t.Fatalf("%d frozen pallets for the first stop, want 2", side)
	}

	rear := doorsRequest()
	rear.Fleet[0].Doors = []constraints.Door{{Side: constraints.RearDoor}}
	plan = planOK(t, rear)
	if len(plan.Unassigned) == 0 {
		t.Fatal("with the rear door alone every pallet is delivered on one trip")
	}
	// The layout sent the stop back naming the zone and the stop; routing
	// then found no driver left for it.
	for _, u := range plan.Unassigned {
		switch u.Reason {
		case ReasonFleetExhausted:
		case ReasonLoadLayout:
			if !strings.Contains(u.Message, "zone 0") || !strings.Contains(u.Message, "for stop ") {
				t.Fatalf("pallet %s left out for its layout: %s; want the zone and the stop named", u.Pallet, u.Message)
			}
		default:
			t.Fatalf("pallet %s left out with %s: %s", u.Pallet, u.Reason, u.Message)
		}
	}
}

// TestDoorStopGoesBack: a trip whose floor the doors cannot unload sends
// back the stop they cannot unload, named by the layout error (the first
// stuck pallet's path), and the message of the layout names its zone and
// stop.
func TestDoorStopGoesBack(t *testing.T) {
	req := doorsRequest()
	req.Fleet[0].Doors = nil
	tt := layoutTrailer(req.Fleet[0])
	var lp []loadplan.Pallet
	for pi, p := range req.Pallets {
		lp = append(lp, layoutPallet(p, pi/5)) // five pallets a store, in store order
	}
	_, err := loadplan.PlanTrailer(tt, lp, 3)
	i, ok := stuckPallet(err)
	if !ok || lp[i].Stop != 0 || lp[i].Temperature != constraints.Frozen {
		t.Fatalf("stuck pallet %d (%v) of %v; want a frozen pallet of stop 0", i, ok, err)
	}
	if !strings.Contains(err.Error(), "FROZEN zone 0") || !strings.Contains(err.Error(), "for stop 0") {
		t.Fatalf("%v does not name the frozen zone and stop 0", err)
	}
}

// palletIndex is the index of pallet id in req.Pallets.
func palletIndex(req Request, id string) int {
	for i, p := range req.Pallets {
		if p.ID == id {
			return i
		}
	}
	return -1
}
