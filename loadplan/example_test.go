package loadplan_test

import (
	"context"
	"fmt"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

func trailer(widthMM int) loadplan.Trailer {
	return loadplan.Trailer{
		ID: "T53", LengthMM: 16000, WidthMM: widthMM, HeightMM: 2700, Positions: 30, PayloadKg: 20000,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 13000, TareKg: 6000, TareCentreMM: 7000,
			KingpinLimitKg: 12000, AxleGroupLimitKg: 15422},
	}
}

func pallet(id, store string, stop int) loadplan.Pallet {
	return loadplan.Pallet{ID: id, Store: store, Stop: stop, LengthMM: 1219, WidthMM: 1016, HeightMM: 1500,
		WeightKg: 500, VolumeM3: 1.5, Temperature: constraints.Ambient}
}

// On a 2,400 mm floor two 48×40 pallets cannot stand side by side turned;
// a pinwheel alternates the orientation per side and fits four pallets in
// 2,235 mm instead of 2,438 mm. The pallets for the second stop go in
// first, at the nose.
func ExamplePlanTrailer() {
	tr := trailer(2400)
	ps := []loadplan.Pallet{pallet("a", "", 1), pallet("b", "", 1), pallet("c", "", 0), pallet("d", "", 0)}
	lay, err := loadplan.PlanTrailer(tr, ps, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range lay.Placements {
		fmt.Printf("%s row %d %-5s turned=%-5v x=%d mm\n", p.Pallet, p.Row, p.Side, p.Turned, p.XMM)
	}
	fmt.Printf("floor used %d mm; check: %d violations\n", lay.LengthMM, len(loadplan.Validate(tr, ps, 2, lay)))
	for _, a := range lay.Axles {
		fmt.Printf("after stop %2d: kingpin %.0f kg, axle group %.0f kg\n", a.AfterStop, a.KingpinKg, a.AxleGroupKg)
	}
	// Output:
	// a row 0 LEFT  turned=false x=0 mm
	// b row 0 RIGHT turned=true  x=0 mm
	// c row 1 LEFT  turned=true  x=1219 mm
	// d row 1 RIGHT turned=false x=1016 mm
	// floor used 2235 mm; check: 0 violations
	// after stop -1: kingpin 4939 kg, axle group 3061 kg
	// after stop  0: kingpin 4003 kg, axle group 2997 kg
	// after stop  1: kingpin 2975 kg, axle group 3025 kg
}

// Forty-five pallets for four stores need two 30-position trailers, and
// the lower bound proves that no plan does with one.
func ExamplePackFleet() {
	fleet := []loadplan.FleetTrailer{{Trailer: trailer(2490), Count: 3}}
	var ps []loadplan.Pallet
	for i := range 45 {
		ps = append(ps, pallet(fmt.Sprint("p", i), fmt.Sprint("S", i%4), 0))
	}
	plan, err := loadplan.PackFleet(context.Background(), fleet, ps, loadplan.FleetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range plan.Loads {
		fmt.Printf("%s: %d pallets for %v\n", l.Trailer, len(l.Pallets), l.Stores)
	}
	fmt.Printf("trailers %d, lower bound %d, optimal %v\n", len(plan.Loads), plan.LowerBound, plan.Optimal)
	// Output:
	// T53: 23 pallets for [S0 S1]
	// T53: 22 pallets for [S2 S3]
	// trailers 2, lower bound 2, optimal true
}
