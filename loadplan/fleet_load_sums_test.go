package loadplan

import (
	"context"
	"testing"

	"pgregory.net/rapid"
)

// TestMayFitNecessary: the cheap checks only reject sets PlanTrailer
// cannot lay out either.
func TestMayFitNecessary(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 45, rapid.IntRange(1, 4).Draw(t, "stores"))
		f := newFleetPacker(context.Background(), fleet, ps, farFuture)
		idx := make([]int, len(ps))
		for i := range idx {
			idx[i] = i
		}
		withStops, stores := f.withStops(idx)
		for k, ft := range fleet {
			if f.mayFit(k, f.aggOf(idx)) {
				continue
			}
			if lay, err := PlanTrailer(ft.Trailer, withStops, len(stores)); err == nil {
				t.Fatalf("cheap checks reject for type %d a set PlanTrailer lays out: %+v", k, lay.Load)
			}
		}
	})
}
