package loadplan

import (
	"context"
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

// BenchmarkPackFleet packs 300 pallets of 30 stores into 53 ft trailers.
func BenchmarkPackFleet(b *testing.B) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 20}}
	var ps []Pallet
	for i := range 300 {
		p := std(fmt.Sprint(i), 0, float64(200+i%7*100), constraints.Ambient)
		p.Store = fmt.Sprint("S", i%30)
		ps = append(ps, p)
	}
	for b.Loop() {
		if _, err := PackFleet(context.Background(), fleet, ps, FleetOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
