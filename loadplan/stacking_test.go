package loadplan

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestStackingNeedsPlanner: the planner refuses to stack against
// each rule in turn, so it reports the floor shortage instead.
func TestStackingRulesInPlanner(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.Positions = 1
	base := func() []Pallet {
		b := sizedPallet("bottom", 0, 1219, 1016, 1300, 800, constraints.Ambient)
		b.MayCarry = true
		tp := sizedPallet("top", 0, 1219, 1016, 1300, 400, constraints.Ambient)
		tp.MayBeStacked = true
		return []Pallet{b, tp}
	}
	planValid(t, tr, base(), 1) // stackable as given
	cases := []struct {
		name string
		mod  func(ps []Pallet)
	}{
		{"top heavier", func(ps []Pallet) { ps[1].WeightKg = 900 }},
		{"together too tall", func(ps []Pallet) { ps[1].HeightMM = 1500 }},
		{"top larger", func(ps []Pallet) { ps[1].LengthMM = 1300 }},
		{"top may not be stacked", func(ps []Pallet) { ps[1].MayBeStacked = false }},
		{"bottom may not carry", func(ps []Pallet) { ps[0].MayCarry = false }},
		{"different stops", func(ps []Pallet) { ps[0].Stop = 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := base()
			tc.mod(ps)
			lay, err := PlanTrailer(tr, ps, 2)
			if err == nil {
				t.Fatalf("stacked against the rules: %+v", lay.Placements)
			}
			if !constraints.AsViolations(err).Has(CodePositions) {
				t.Fatalf("want %s, got %v", CodePositions, err)
			}
		})
	}
	// Only as much stacking as the floor needs: two of four stackable
	// pallets on three positions.
	tr.Positions = 3
	var ps []Pallet
	for i := range 4 {
		p := sizedPallet(fmt.Sprint("s", i), 0, 1219, 1016, 1300, 800-float64(i)*100, constraints.Ambient)
		p.MayCarry, p.MayBeStacked = true, true
		ps = append(ps, p)
	}
	lay := planValid(t, tr, ps, 1)
	stacked := 0
	for _, p := range lay.Placements {
		stacked += p.Level
	}
	if stacked != 1 || lay.Load.Positions != 3 {
		t.Fatalf("want exactly one pallet stacked on 3 positions, got %d stacked: %+v", stacked, lay.Placements)
	}
}
