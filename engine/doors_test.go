package engine

import (
	"context"
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
// opening.
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

}

// TestDoorsLeaveLoadLayout: with doors that cannot reach the nose zone
// (the rear door alone, or a curbside door behind the frozen zone), the
// one trip cannot take every store's chilled pallets, whose frozen
// pallets for stop 0 would stand behind them. When the multi-temperature
// reefer is the only type that carries them, the pallets left out are
// LOAD_LAYOUT, with a message that names the trailer type, the zone and
// the stop, though the one driver is busy too, or planning ends (the
// clock jumps past the time limit once the first routing round is laid
// out) before they are routed again: the doors are what to change. When
// a reefer of one temperature could carry them too, what kept them off
// is that the fleet had no driver for it, FLEET_EXHAUSTED, with the
// doors' trouble in the message; planning that ends before they are
// routed again routes them past the limit (routeUnreached), and finds
// the same.
func TestDoorsLeaveLoadLayout(t *testing.T) {
	reefer := Reefer53()
	reefer.Count, reefer.Costs = 1, Costs{Fixed: 240, PerKm: 1.5, PerHour: 38}
	rear := []constraints.Door{{Side: constraints.RearDoor}}
	for _, tc := range []struct {
		name   string
		doors  []constraints.Door
		also   []TrailerType
		timeUp bool
		reason string
	}{
		{"rear door only", rear, nil, false, ReasonLoadLayout},
		{"side door behind the nose zone", []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 6000, ToMM: 8500}}, nil, false, ReasonLoadLayout},
		{"rear door only, planning ends", rear, nil, true, ReasonLoadLayout},
		{"a reefer carries them too", rear, []TrailerType{reefer}, false, ReasonFleetExhausted},
		{"a reefer carries them too, planning ends", rear, []TrailerType{reefer}, true, ReasonFleetExhausted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := doorsRequest()
			req.Fleet[0].Doors = tc.doors
			req.Fleet = append(req.Fleet, tc.also...)
			clock := &offsetClock{}
			if tc.timeUp {
				req.Options.Progress = func(p Progress) {
					if p.Phase == PhaseLayouts && p.Round == 1 {
						clock.offset.Store(int64(2*p.Limit - p.Elapsed))
					}
				}
			}
			plan, err := planWithClock(context.Background(), req, clock.now)
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(req, plan); err != nil {
				t.Fatalf("Validate rejects Plan's result: %v", err)
			}
			if len(plan.Unassigned) == 0 {
				t.Fatal("every pallet is delivered on one trip through doors that do not reach the nose zone")
			}
			for _, u := range plan.Unassigned {
				if u.Reason != tc.reason {
					t.Fatalf("pallet %s left out with %s: %s; want %s", u.Pallet, u.Reason, u.Message, tc.reason)
				}
				for _, want := range []string{"doors of MT48", "FROZEN zone 0", "for stop 0", "S0 (stop 0)", "store " + u.Store} {
					if !strings.Contains(u.Message, want) {
						t.Fatalf("pallet %s: %q does not say %q", u.Pallet, u.Message, want)
					}
				}
			}
		})
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
	i, why, ok := stuckPallet(err)
	if !ok || lp[i].Stop != 0 || lp[i].Temperature != constraints.Frozen {
		t.Fatalf("stuck pallet %d (%v) of %v; want a frozen pallet of stop 0", i, ok, err)
	}
	if !strings.Contains(why, "FROZEN zone 0") || !strings.Contains(why, "for stop 0") {
		t.Fatalf("%q does not name the frozen zone and stop 0", why)
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
