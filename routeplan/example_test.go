package routeplan_test

import (
	"context"
	"fmt"

	"github.com/haulplan/haulplan/routeplan"
)

// A depot (location 0) and three stores on a line, one trailer type with two
// trailers of 10 pallets. The far store only receives in the afternoon, and
// the third store needs more than a trailer holds, so it is left unassigned
// with a reason.
func ExampleSolve() {
	// Travel times between locations in minutes; distance in km.
	pos := []float64{0, 10, 20, 30}
	n := len(pos)
	p := &routeplan.Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
	for i := range pos {
		for j := range pos {
			d := pos[i] - pos[j]
			if d < 0 {
				d = -d
			}
			p.Distance[i*n+j] = d
			p.Duration[i*n+j] = 2 * d
		}
	}
	p.Sites = []routeplan.Site{
		{ID: "store-1", Location: 1, Service: 15, Demand: []float64{4}},
		{ID: "store-2", Location: 3, Service: 15, Demand: []float64{5}, Windows: []routeplan.Window{{Start: 300, End: 360}}},
		{ID: "store-3", Location: 2, Service: 15, Demand: []float64{12}},
	}
	p.VehicleTypes = []routeplan.VehicleType{{
		ID: "53ft", Count: 2, Capacity: []float64{10},
		ShiftStart: 0, ShiftEnd: 600, FixedCost: 100, DistanceCost: 1,
	}}
	sol, err := routeplan.Solve(context.Background(), p, routeplan.Options{MaxIterations: 100, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range sol.Routes {
		fmt.Printf("trailer %s departs %g, returns %g:\n", p.VehicleTypes[r.VehicleType].ID, r.Depart, r.Return)
		for _, v := range r.Visits {
			fmt.Printf("  %s arrive %g start %g leave %g\n", p.Sites[v.Site].ID, v.Arrival, v.Start, v.Departure)
		}
	}
	for _, u := range sol.Unassigned {
		fmt.Printf("%s unassigned: %s\n", p.Sites[u.Site].ID, u.Reason)
	}
	fmt.Printf("cost %g, distance %g km, %d vehicle(s)\n", sol.Cost, sol.Distance, sol.Vehicles)
	// Output:
	// trailer 53ft departs 225, returns 375:
	//   store-1 arrive 245 start 245 leave 260
	//   store-2 arrive 300 start 300 leave 315
	// store-3 unassigned: CAPACITY
	// cost 160, distance 60 km, 1 vehicle(s)
}

// A trailer cannot be loaded with all three stores of its route, so the
// caller drops the last stop and asks for the shorter route's schedule; it
// also learns why a frozen store cannot join a single-temperature trailer
// that already carries chilled goods.
func ExampleEvaluator_Route() {
	pos := []float64{0, 10, 20, 30}
	n := len(pos)
	p := &routeplan.Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
	for i := range pos {
		for j := range pos {
			d := pos[i] - pos[j]
			if d < 0 {
				d = -d
			}
			p.Distance[i*n+j] = d
			p.Duration[i*n+j] = 2 * d
		}
	}
	const chilled, frozen = 1, 2
	p.Sites = []routeplan.Site{
		{ID: "store-1", Location: 1, Service: 15, Demand: []float64{4}, Group: chilled},
		{ID: "store-2", Location: 2, Service: 15, Demand: []float64{5}, Group: chilled, Windows: []routeplan.Window{{Start: 300, End: 360}}},
		{ID: "store-3", Location: 3, Service: 15, Demand: []float64{1}, Group: frozen},
	}
	p.VehicleTypes = []routeplan.VehicleType{{
		ID: "reefer", Count: 1, Capacity: []float64{10}, ShiftStart: 0, ShiftEnd: 600,
		StartService: 30, MaxGroups: 1, DistanceCost: 1, TimeCost: 1,
	}}
	ev, err := routeplan.NewEvaluator(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _, ok := ev.Route(0, []int{0, 1})
	fmt.Printf("feasible %v: loading from %g, departs %g, returns %g, duty %g\n", ok, r.Start, r.Depart, r.Return, r.Duration)
	_, reason, ok := ev.Route(0, []int{0, 1, 2})
	fmt.Printf("feasible %v: %s\n", ok, reason)
	// Output:
	// feasible true: loading from 215, departs 245, returns 355, duty 140
	// feasible false: GROUP_LIMIT
}
