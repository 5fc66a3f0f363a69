package loadplan

import (
	"context"
	"fmt"
	"testing"
	"time"

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
	benchPackFleet(b, fleet, ps, FleetOptions{})
}

// BenchmarkPackFleetMixed packs 400 pallets of 48 stores (about 65 %
// ambient, 25 % chilled, 10 % frozen, some half pallets, some stackable)
// into a fleet of 53 and 48 ft dry vans, reefers and three-zone reefers,
// with the time limit the engine gives it.
func BenchmarkPackFleetMixed(b *testing.B) {
	benchPackFleet(b, mixedFleet(), mixedPallets(400, 48, 1), FleetOptions{TimeLimit: 300 * time.Millisecond})
}

// BenchmarkPackFleetHeavyLight packs stores of heavy pallets alternating
// with stores of light ones, where first-fit fills trailers' payload and
// leaves positions empty (heavyLight: 6 trailers, first-fit 7).
func BenchmarkPackFleetHeavyLight(b *testing.B) {
	benchPackFleet(b, []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 10}}, heavyLight(), FleetOptions{})
}

// BenchmarkPackFleetWeightTight packs 300 pallets cut from ten trailers
// full in positions and 97.5 % in payload (weightTight: 10 trailers,
// first-fit 11).
func BenchmarkPackFleetWeightTight(b *testing.B) {
	benchPackFleet(b, []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 14}}, weightTight(1), FleetOptions{})
}

// BenchmarkPackFleetScarce packs 800 pallets of 96 stores into a fleet with
// few large trailers left, with the engine's time limit.
func BenchmarkPackFleetScarce(b *testing.B) {
	benchPackFleet(b, scarceFleet(), mixedPallets(800, 96, 4), FleetOptions{TimeLimit: 300 * time.Millisecond})
}

// benchPackFleet times PackFleet and reports the plan: trailers, the lower
// bound, the bound the search stops at (countBound), stops over all
// trailers, the pallets left over, and the trailers and pallets left over
// of store-order first-fit alone for comparison.
func benchPackFleet(b *testing.B, fleet []FleetTrailer, ps []Pallet, opts FleetOptions) {
	var plan *FleetPlan
	for b.Loop() {
		var err error
		if plan, err = PackFleet(context.Background(), fleet, ps, opts); err != nil {
			b.Fatal(err)
		}
	}
	stops := 0
	for _, l := range plan.Loads {
		stops += len(l.Stores)
	}
	b.ReportMetric(float64(len(plan.Loads)), "trailers")
	b.ReportMetric(float64(plan.LowerBound), "lower_bound")
	b.ReportMetric(float64(stops), "stops")
	b.ReportMetric(float64(len(plan.Unplaced)), "unplaced")
	b.ReportMetric(float64(countBoundOf(fleet, ps, plan)), "count_bound")
	ffTrailers, ffNoRoom := firstFitCount(fleet, ps)
	b.ReportMetric(float64(ffTrailers), "firstfit_trailers")
	b.ReportMetric(float64(ffNoRoom), "firstfit_unplaced")
}
