package loadplan

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

func benchPallets(n, stops int) []Pallet {
	var ps []Pallet
	for i := range n {
		ps = append(ps, std(fmt.Sprint(i), i*stops/n, 600, constraints.Ambient))
	}
	return ps
}

// BenchmarkPlanTrailer lays out a full 53 ft trailer (30 turned pallets,
// three stops), the call engine.Plan makes for every route it builds.
func BenchmarkPlanTrailer(b *testing.B) {
	tr := testTrailer(constraints.DryVan)
	ps := benchPallets(30, 3)
	for b.Loop() {
		if _, err := PlanTrailer(tr, ps, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanTrailerPinwheel lays out 28 pallets pinwheeled on a floor
// too narrow to turn two side by side.
func BenchmarkPlanTrailerPinwheel(b *testing.B) {
	tr := testTrailer(constraints.DryVan)
	tr.WidthMM, tr.Positions = 2400, 28
	ps := benchPallets(28, 4)
	for b.Loop() {
		if _, err := PlanTrailer(tr, ps, 4); err != nil {
			b.Fatal(err)
		}
	}
}
