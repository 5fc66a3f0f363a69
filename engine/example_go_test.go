package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// ExamplePlan_inGo builds a request in Go rather than JSON: store hours
// from constraints.Daily, trailers from the presets, an iteration budget so
// that the plan is the same on any machine.
func ExamplePlan_inGo() {
	chicago, _ := time.LoadLocation("America/Chicago")
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, chicago) // a Tuesday

	vans := engine.DryVan53()
	vans.Count = 2
	vans.Costs = engine.Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}
	reefers := engine.Reefer53()
	reefers.Count = 1
	reefers.Costs = engine.Costs{Fixed: 220, PerKm: 1.45, PerHour: 38}

	unloading := engine.Unloading{Fixed: 15 * time.Minute, PerPallet: 2 * time.Minute}
	req := engine.Request{
		DC: engine.DC{ID: "DC", Location: geo.Point{Lat: 32.5921, Lng: -96.7561},
			LoadingPerPallet: 90 * time.Second},
		Stores: []engine.Store{
			{ID: "DOWNTOWN", Location: geo.Point{Lat: 32.7767, Lng: -96.7970},
				Hours: constraints.Daily("America/Chicago", "05:00", "11:00"), Unloading: unloading},
			{ID: "GARLAND", Location: geo.Point{Lat: 32.9126, Lng: -96.6389},
				Hours: constraints.Daily("America/Chicago", "06:00", "14:00").ClosedOn(time.Sunday), Unloading: unloading},
			{ID: "IRVING", Location: geo.Point{Lat: 32.8140, Lng: -96.9489},
				Hours: constraints.Daily("America/Chicago", "04:00", "10:00"), Unloading: unloading},
		},
		Fleet: []engine.TrailerType{vans, reefers},
		Shifts: []constraints.Shift{
			{ID: "D01", Start: day.Add(3 * time.Hour), End: day.Add(15 * time.Hour)},
			{ID: "D02", Start: day.Add(4 * time.Hour), End: day.Add(16 * time.Hour)},
		},
		Options: engine.Options{TimeLimit: 10 * time.Second, Iterations: 200, Seed: 1, Workers: 1},
	}
	add := func(store string, n int, kg float64, t constraints.Temperature) {
		for range n {
			req.Pallets = append(req.Pallets, engine.Pallet{ID: fmt.Sprintf("P%02d", len(req.Pallets)+1), Store: store,
				WeightKg: kg, Footprint: engine.StandardFootprint, HeightMM: 1500, Temperature: t})
		}
	}
	add("DOWNTOWN", 8, 450, constraints.Ambient)
	add("GARLAND", 10, 500, constraints.Ambient)
	add("IRVING", 6, 400, constraints.Ambient)
	add("IRVING", 4, 350, constraints.Frozen)

	plan, err := engine.Plan(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range plan.Routes {
		at := func(t time.Time) string { return t.In(chicago).Format("15:04") }
		fmt.Printf("%s: %s loaded at door %d %s–%s; shift %s trip %d on duty %s, departs %s, back %s\n", r.ID, r.TrailerUnit, r.DockDoor,
			at(r.LoadingStart), at(r.LoadingEnd), r.Shift, r.Trip, at(r.Start), at(r.Depart), at(r.Return))
		for _, s := range r.Stops {
			fmt.Printf("  %-8s unload %s, %d pallets\n", s.Store, s.Start.In(chicago).Format("15:04"), len(s.Pallets))
		}
	}
	fmt.Println("unassigned:", len(plan.Unassigned))
	fmt.Println("valid:", engine.Validate(req, plan) == nil)
	// Output:
	// R1: DRY53-01 loaded at door 1 02:34–03:10; shift D01 trip 1 on duty 03:10, departs 03:25, back 07:26
	//   IRVING   unload 04:08, 6 pallets
	//   DOWNTOWN unload 05:00, 8 pallets
	//   GARLAND  unload 06:03, 10 pallets
	// R2: REEF53-01 loaded at door 1 03:54–04:00; shift D02 trip 1 on duty 04:00, departs 04:15, back 06:05
	//   IRVING   unload 04:58, 4 pallets
	// unassigned: 0
	// valid: true
}
