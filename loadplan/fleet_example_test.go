package loadplan_test

import (
	"context"
	"fmt"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// Three stores each want 12 chilled and 12 frozen pallets: 72 pallets, so
// at least three 30-position trailers. A single-temperature reefer takes
// one class per trip, a three-zone reefer both at once (frozen at the
// nose). With the trailer count settled, PackFleet looks for fewer stops:
// here two stores ride on the two reefers and the third alone on the
// three-zone reefer (5 stops; a plan that splits every store has 9).
func ExamplePackFleet_multiTemperature() {
	reefer, multi := trailer(2490), trailer(2490)
	reefer.ID, reefer.Equipment = "REEFER", constraints.Equipment{Kind: constraints.Reefer}
	multi.ID, multi.Equipment = "MULTI", constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 3}
	fleet := []loadplan.FleetTrailer{{Trailer: reefer, Count: 2}, {Trailer: multi, Count: 1}}
	var ps []loadplan.Pallet
	for s := range 3 {
		store := fmt.Sprint("S", s)
		for i := range 24 {
			p := pallet(fmt.Sprint(store, "-", i), store, 0)
			p.Temperature = constraints.Chilled
			if i >= 12 {
				p.Temperature = constraints.Frozen
			}
			ps = append(ps, p)
		}
	}
	plan, err := loadplan.PackFleet(context.Background(), fleet, ps, loadplan.FleetOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range plan.Loads {
		count := map[constraints.Temperature]int{}
		for _, p := range l.Pallets {
			count[p.Temperature]++
		}
		fmt.Printf("%s: %d chilled, %d frozen for %v in %d zones\n", l.Trailer, count[constraints.Chilled], count[constraints.Frozen], l.Stores, len(l.Layout.Zones))
	}
	fmt.Printf("trailers %d, lower bound %d, optimal %v\n", len(plan.Loads), plan.LowerBound, plan.Optimal)
	// Output:
	// REEFER: 0 chilled, 24 frozen for [S0 S1] in 1 zones
	// REEFER: 24 chilled, 0 frozen for [S0 S1] in 1 zones
	// MULTI: 12 chilled, 12 frozen for [S2] in 2 zones
	// trailers 3, lower bound 3, optimal true
}
