package engine

import (
	"errors"
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// TestPresetsAreValidAndHoldTheirPositions: every preset passes the
// request check, and its floor takes PalletPositions standard pallets of
// every class it carries (three classes in whole rows for the
// multi-temperature reefer) at 85 % of the payload, with legal axle loads and a layout Validate
// accepts.
func TestPresetsAreValidAndHoldTheirPositions(t *testing.T) {
	for _, name := range TrailerPresets() {
		t.Run(name, func(t *testing.T) {
			tr, ok := TrailerPreset(name)
			if !ok {
				t.Fatalf("TrailerPreset(%q) unknown", name)
			}
			if tr.Count != 0 || tr.Costs != (Costs{}) {
				t.Fatalf("a preset leaves Count and Costs to the caller, got %d and %+v", tr.Count, tr.Costs)
			}
			tr.Count = 1
			req := packingRequest(1, 1, []TrailerType{tr})
			if err := req.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			classes := []constraints.Temperature{constraints.Ambient}
			switch tr.Equipment.Kind {
			case constraints.Reefer:
				classes = []constraints.Temperature{constraints.Frozen}
			case constraints.MultiTempReefer:
				classes = []constraints.Temperature{constraints.Frozen, constraints.Chilled, constraints.Ambient}
			}
			n := tr.PalletPositions
			ps := make([]loadplan.Pallet, n)
			for i := range ps {
				p := Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 0.85 * tr.PayloadKg / float64(n), Footprint: StandardFootprint, HeightMM: 1500,
					Temperature: classes[(i/2)*len(classes)/(n/2)]} // whole rows per class
				ps[i] = layoutPallet(p, 0)
			}
			lt := layoutTrailer(tr)
			lay, err := loadplan.PlanTrailer(lt, ps, 1)
			if err != nil {
				t.Fatalf("PlanTrailer: %v", err)
			}
			if vs := loadplan.Validate(lt, ps, 1, lay); len(vs) > 0 {
				t.Fatalf("Validate: %v", vs)
			}
			if len(lay.Placements) != n || lay.Load.Positions != n {
				t.Fatalf("%d placements on %d positions, want %d", len(lay.Placements), lay.Load.Positions, n)
			}
		})
	}
}

// TestPresetFullFloorAtFullPayload pins what the presets' documentation
// says: a 53 ft dry van's floor full of pallets at the full payload
// overloads the trailer tandem.
func TestPresetFullFloorAtFullPayload(t *testing.T) {
	tr := DryVan53()
	ps := make([]loadplan.Pallet, tr.PalletPositions)
	for i := range ps {
		ps[i] = layoutPallet(Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: tr.PayloadKg / float64(len(ps)), Footprint: StandardFootprint, HeightMM: 1500}, 0)
	}
	_, err := loadplan.PlanTrailer(layoutTrailer(tr), ps, 1)
	var vs constraints.Violations
	if !errors.As(err, &vs) || !vs.Has(loadplan.CodeAxleGroup) {
		t.Fatalf("want %s, got %v", loadplan.CodeAxleGroup, err)
	}
}

func TestTrailerPresetNames(t *testing.T) {
	want := map[string]string{PresetDryVan53: "DRY53", PresetDryVan48: "DRY48", PresetReefer53: "REEF53", PresetMultiTempReefer48: "MT48"}
	if got := TrailerPresets(); len(got) != len(want) {
		t.Fatalf("TrailerPresets() = %v", got)
	}
	for name, id := range want {
		tr, ok := TrailerPreset(name)
		if !ok || tr.ID != id {
			t.Errorf("TrailerPreset(%q) = %q, %v; want %q", name, tr.ID, ok, id)
		}
	}
	if _, ok := TrailerPreset("dry_van_53"); ok {
		t.Error("names are exact")
	}
	// Each call is a new value.
	a := DryVan53()
	a.Inside.LengthMM = 1
	if DryVan53().Inside.LengthMM == 1 {
		t.Error("changing a preset changed the next one")
	}
}
