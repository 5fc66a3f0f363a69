package routeplan

import (
	"context"
	"testing"
)

// TestResourcesChooseTrailers: two driver shifts, 12 dry trailers and 3
// reefers. Two stores accept any trailer and two only reefers; a short duty
// makes the morning pair and the afternoon pair two routes. Dry trailers
// are cheaper, so the construction gives both shifts one, and the reefer
// stores find no free shift; the search must give both shifts reefers.
func TestResourcesChooseTrailers(t *testing.T) {
	n := 5
	p := &Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i != j {
				p.Distance[i*n+j], p.Duration[i*n+j] = 10, 10
			}
		}
	}
	const shift1, shift2, dry, reefer = 0, 1, 2, 3
	p.Resources = []Resource{{ID: "shift-1", Count: 1}, {ID: "shift-2", Count: 1}, {ID: "dry", Count: 12}, {ID: "reefer", Count: 3}}
	vt := func(id string, shift, trailer int, fixed float64) VehicleType {
		return VehicleType{ID: id, Count: 15, Capacity: []float64{26}, ShiftEnd: 600, MaxDuty: 120,
			FixedCost: fixed, DistanceCost: 1, Resources: []int{shift, trailer}}
	}
	p.VehicleTypes = []VehicleType{
		vt("shift-1 dry", shift1, dry, 10), vt("shift-1 reefer", shift1, reefer, 50),
		vt("shift-2 dry", shift2, dry, 10), vt("shift-2 reefer", shift2, reefer, 50),
	}
	reefers := []int{1, 3}
	p.Sites = []Site{
		{ID: "any-morning", Location: 1, Demand: []float64{4}, Windows: []Window{{20, 40}}},
		{ID: "reefer-morning", Location: 2, Demand: []float64{4}, Windows: []Window{{20, 60}}, VehicleTypes: reefers},
		{ID: "any-afternoon", Location: 3, Demand: []float64{4}, Windows: []Window{{300, 320}}},
		{ID: "reefer-afternoon", Location: 4, Demand: []float64{4}, Windows: []Window{{300, 340}}, VehicleTypes: reefers},
	}
	for seed := int64(0); seed < 5; seed++ {
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if len(sol.Unassigned) > 0 || len(sol.Routes) != 2 {
			t.Fatalf("seed %d: %d routes, unassigned %+v", seed, len(sol.Routes), sol.Unassigned)
		}
		for _, r := range sol.Routes {
			if r.VehicleType != 1 && r.VehicleType != 3 {
				t.Fatalf("seed %d: a route of type %s", seed, p.VehicleTypes[r.VehicleType].ID)
			}
		}
	}
}

// TestResourceCountZero: a type whose resource has no unit has no vehicle.
func TestResourceCountZero(t *testing.T) {
	p := &Problem{N: 2, Distance: []float64{0, 1, 1, 0}, Duration: []float64{0, 1, 1, 0},
		Resources:    []Resource{{Count: 0}},
		VehicleTypes: []VehicleType{{Count: 3, ShiftEnd: 100, Resources: []int{0}}},
		Sites:        []Site{{Location: 1}}}
	sol, err := Solve(context.Background(), p, Options{MaxIterations: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Routes) != 0 || len(sol.Unassigned) != 1 || sol.Unassigned[0].Reason != NoCompatibleVehicle {
		t.Fatalf("got %+v", sol)
	}
}
