package engine

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// loneStackablesRequest: two stores that receive one after the other (S0
// until 08:00, S1 from 08:00), on dry vans of the given positions (two
// units, two drivers). S0 has five full pallets and one low stackable
// pallet of 200 kg, S1 four full pallets and one of 300 kg: each store's
// stackable pallet is alone in its order. Side by side they take 11
// positions; with S0's stackable pallet (unloaded first) on S1's, in the
// row between the two stores' pallets, they take 10. With halves, each
// store has a half pallet too, and the two halves share a position in the
// same rows: 13 positions, 11 with both.
func loneStackablesRequest(positions int, halves bool) Request {
	req := packingRequest(2, 2, []TrailerType{dryVan(2, positions)})
	req.Options.Objective = FewestTrailers
	opening := [][2]string{{"00:00", "08:00"}, {"08:00", "24:00"}}
	for i := range req.Stores {
		days := map[string][]constraints.Opening{} // packingRequest's stores share one map
		for d := range req.Stores[i].Hours.Days {
			days[d] = []constraints.Opening{{Open: opening[i][0], Close: opening[i][1]}}
		}
		req.Stores[i].Hours.Days = days
	}
	add := func(store string, full int, stackableKg float64) {
		for range full {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-P%d", store, len(req.Pallets)), Store: store,
				WeightKg: 500, Footprint: StandardFootprint, HeightMM: 1600, Temperature: constraints.Ambient})
		}
		if halves {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-H%d", store, len(req.Pallets)), Store: store,
				WeightKg: 150, Footprint: HalfFootprint, HeightMM: 1200, Temperature: constraints.Ambient})
		}
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-S%d", store, len(req.Pallets)), Store: store,
			WeightKg: stackableKg, Footprint: StandardFootprint, HeightMM: 1000, Temperature: constraints.Ambient,
			MayBeStacked: true, MayCarry: true})
	}
	add("S0", 5, 200)
	add("S1", 4, 300)
	return req
}

// TestLoneStackablesShareATrailer: routing counts each store's lone
// stackable pallet half a position less, as the layout stacks the earlier
// store's on the later store's, so one trailer carries both stores, and
// its floor has S0's stackable pallet on S1's; with a lone half pallet
// too, each store counts a position less, and the halves share a position
// beside the stack (11 positions). Counted whole, the stackable pallets
// took a position more and the two stores two trailers.
func TestLoneStackablesShareATrailer(t *testing.T) {
	for _, halves := range []bool{false, true} {
		t.Run(fmt.Sprint("halves ", halves), func(t *testing.T) {
			positions := 10
			if halves {
				positions = 11
			}
			req := loneStackablesRequest(positions, halves)
			plan := planOK(t, req)
			if len(plan.Unassigned) > 0 {
				t.Fatalf("%d pallets unassigned, first %s (%s); want all delivered", len(plan.Unassigned), plan.Unassigned[0].Reason, plan.Unassigned[0].Message)
			}
			if plan.Metrics.Routes != 1 {
				t.Fatalf("%d routes; want 1 trailer for both stores", plan.Metrics.Routes)
			}
			r := plan.Routes[0]
			if len(r.Stops) != 2 || r.Stops[0].Store != "S0" || r.Stops[1].Store != "S1" {
				t.Fatalf("stops %+v; want S0 then S1", r.Stops)
			}
			var stacked []string
			for k, p := range r.Load.Placements {
				if p.Level == 1 {
					// loadplan lists a top right after the pallet it stands on.
					stacked = append(stacked, p.Pallet+" on "+r.Load.Placements[k-1].Pallet)
				}
			}
			want := "[S0-S5 on S1-S10]"
			if halves {
				want = "[S0-S6 on S1-S12]"
			}
			if fmt.Sprint(stacked) != want || r.Metrics.Positions != positions {
				t.Fatalf("stacked %v on %d positions; want %s on %d", stacked, r.Metrics.Positions, want, positions)
			}
		})
	}
}
