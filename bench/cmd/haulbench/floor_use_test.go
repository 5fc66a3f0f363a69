package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

// TestFloorUse: one 10-position trailer with two stops; S1's low pallet
// stands on S2's, S1's two halves share a position, and S2's half stands
// alone.
func TestFloorUse(t *testing.T) {
	pallet := func(id, store string, fp engine.Footprint, stacked bool) engine.Pallet {
		return engine.Pallet{ID: id, Store: store, Footprint: fp, MayBeStacked: stacked, MayCarry: stacked}
	}
	req := engine.Request{
		Fleet: []engine.TrailerType{{ID: "T", PalletPositions: 10}},
		Pallets: []engine.Pallet{
			pallet("A", "S1", engine.StandardFootprint, true), pallet("B", "S2", engine.StandardFootprint, true),
			pallet("H1", "S1", engine.HalfFootprint, false), pallet("H2", "S1", engine.HalfFootprint, false),
			pallet("H3", "S2", engine.HalfFootprint, false),
		},
	}
	plan := engine.Result{Routes: []engine.Route{{
		Trailer: "T",
		Stops:   []engine.Stop{{Store: "S1", Pallets: []string{"A", "H1", "H2"}}, {Store: "S2", Pallets: []string{"B", "H3"}}},
		Load: engine.LoadPlan{Placements: []engine.Placement{
			{Pallet: "B", Row: 0, Side: "LEFT"}, {Pallet: "A", Row: 0, Side: "LEFT", Level: 1},
			{Pallet: "H3", Row: 0, Side: "RIGHT"},
			{Pallet: "H1", Row: 1, Side: "LEFT"}, {Pallet: "H2", Row: 1, Side: "LEFT", Slot: 1},
		}},
		Metrics: engine.RouteMetrics{Positions: 3},
	}}}
	u := measureFloorUse(req, plan)
	want := floorUse{positions: 3, capacity: 10, tops: 1, crossTops: 1, stackable: 2, halves: 3, pairedHalf: 2}
	if u != want {
		t.Fatalf("floor use %+v; want %+v", u, want)
	}
	var out bytes.Buffer
	writeFloorUse(&out, "day", u)
	if want := "day: floors: 3 of 10 positions taken, 0 routes full; 1 of 2 pallets that may be stacked stand on another (1 on another stop's); 2 of 3 half pallets"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("wrote %q; want it to begin %q", out.String(), want)
	}
}
