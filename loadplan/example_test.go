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

// A two-zone reefer with a curbside door over its first 2,500 mm, on a
// trip of three stops, each with two frozen pallets and two chilled ones.
// The frozen zone at the nose stands behind the chilled zone, whose
// pallets for later stops would block the frozen pallets of earlier stops
// at the rear door. So the frozen pallets of stops 0 and 1 stand in the
// two rows within the door's opening and come off through it, and those
// of stop 2, the last, stand behind them, reached through the rear door
// when everything else is off. With the rear door alone no layout unloads
// in stop order, and PlanTrailer says which zone and stop.
func ExamplePlanTrailer_curbsideDoor() {
	tr := trailer(2490)
	tr.Equipment = constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 2}
	tr.Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 0, ToMM: 2500}}
	var ps []loadplan.Pallet
	for stop := range 3 {
		for i, temp := range []constraints.Temperature{constraints.Frozen, constraints.Frozen, constraints.Chilled, constraints.Chilled} {
			p := pallet(fmt.Sprintf("s%d-%d", stop, i), "", stop)
			p.Temperature = temp
			ps = append(ps, p)
		}
	}
	lay, err := loadplan.PlanTrailer(tr, ps, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range lay.Placements {
		fmt.Printf("%s %-7s row %d %-5s x=%d mm\n", p.Pallet, lay.Zones[p.Zone].Temperature, p.Row, p.Side, p.XMM)
	}
	fmt.Printf("check: %d violations\n", len(loadplan.Validate(tr, ps, 3, lay)))
	tr.Doors = nil
	_, err = loadplan.PlanTrailer(tr, ps, 3)
	fmt.Println("rear door only:", err)
	// Output:
	// s1-0 FROZEN  row 0 LEFT  x=0 mm
	// s1-1 FROZEN  row 0 RIGHT x=0 mm
	// s0-0 FROZEN  row 1 LEFT  x=1016 mm
	// s0-1 FROZEN  row 1 RIGHT x=1016 mm
	// s2-0 FROZEN  row 2 LEFT  x=2032 mm
	// s2-1 FROZEN  row 2 RIGHT x=2032 mm
	// s2-2 CHILLED row 3 LEFT  x=3048 mm
	// s2-3 CHILLED row 3 RIGHT x=3048 mm
	// s1-2 CHILLED row 4 LEFT  x=4064 mm
	// s1-3 CHILLED row 4 RIGHT x=4064 mm
	// s0-2 CHILLED row 5 LEFT  x=5080 mm
	// s0-3 CHILLED row 5 RIGHT x=5080 mm
	// check: 0 violations
	// rear door only: 2 violations:
	//   pallets[0]: FROZEN zone 0 (0–3048 mm): 2 pallets for stop 0 ("s0-0", "s0-1") cannot come off through the trailer's doors (rear) once the earlier stops' pallets are off: pallets for later stops stand in their way [UNLOADING_ORDER]
	//   pallets[4]: FROZEN zone 0 (0–3048 mm): 2 pallets for stop 1 ("s1-0", "s1-1") cannot come off through the trailer's doors (rear) once the earlier stops' pallets are off: pallets for later stops stand in their way [UNLOADING_ORDER]
}
