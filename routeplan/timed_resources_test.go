package routeplan

import (
	"context"
	"testing"
)

// TestTimedUnitTurns: two routes of one trip each, two sites apiece (the
// capacity holds two), share one unit that turns. When the second pair
// receives only well after the first pair's route is back, the unit
// serves both routes one after the other. When both pairs receive from
// the start, the second route is held back until the unit is back and
// turned, if its sites are still open by then: until 300 both are; until
// 100 only one is (held back to 65, a route of two would reach its second
// site at 105). A unit counted per trip (not Timed) serves one route
// either way.
func TestTimedUnitTurns(t *testing.T) {
	const turnaround = 10
	for _, tc := range []struct {
		name        string
		late        Window // the windows of sites 3 and 4
		timed       bool
		served      int
		wantOverlap bool
	}{
		{"apart, timed", Window{200, 300}, true, 4, false},
		{"together, held back", Window{0, 300}, true, 4, false},
		{"together, no time to wait", Window{0, 100}, true, 3, false},
		{"apart, counted", Window{200, 300}, false, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fourSites()
			for i := range p.Sites {
				p.Sites[i].Windows = []Window{{0, 100}}
				if i >= 2 {
					p.Sites[i].Windows = []Window{tc.late}
				}
			}
			p.Resources = []Resource{{ID: "trailers", Count: 1, PerTrip: !tc.timed, Timed: tc.timed, Turnaround: turnaround}}
			p.VehicleTypes = []VehicleType{{Count: 2, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1, Resources: []int{0}}}
			sol, err := Solve(context.Background(), p, Options{MaxIterations: 300, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := validateSolution(p, sol); err != nil {
				t.Fatal(err)
			}
			if served := 4 - len(sol.Unassigned); served != tc.served {
				t.Fatalf("%d sites served, want %d: %+v", served, tc.served, sol.Routes)
			}
			if tc.timed && len(sol.Routes) == 2 {
				a, b := sol.Routes[0], sol.Routes[1]
				if a.Start > b.Start {
					a, b = b, a
				}
				if b.Start < a.Return+turnaround {
					t.Fatalf("the second route starts at %g, before the unit is back and turned at %g", b.Start, a.Return+turnaround)
				}
			}
		})
	}
}

// TestTimedUnitBusy: a unit held outside the problem over the only time
// the sites can be served leaves them unassigned; held at another time,
// it does not.
func TestTimedUnitBusy(t *testing.T) {
	for _, tc := range []struct {
		busy   Window
		served int
	}{
		{Window{0, 500}, 0},
		{Window{600, 900}, 2},
	} {
		p := fourSites()
		p.Sites = p.Sites[:2]
		p.Resources = []Resource{{ID: "trailers", Count: 1, Timed: true, Busy: []Window{tc.busy}}}
		p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{10}, ShiftEnd: 500, StartService: 15, DistanceCost: 1, Resources: []int{0}}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if served := 2 - len(sol.Unassigned); served != tc.served {
			t.Fatalf("busy %v: %d sites served, want %d", tc.busy, served, tc.served)
		}
	}
}

// TestTimedUnitWaitsBetweenTrips: one driver drives two trips of two
// sites with the one unit there is, which turns in 10. Back from the first
// trip, the driver waits at the start location until the unit is turned
// (and, when trips are loaded ahead, loaded again) before the second trip
// begins: every site is served, and the second trip's hold starts no
// earlier than the first's return plus the turnaround.
func TestTimedUnitWaitsBetweenTrips(t *testing.T) {
	const turnaround = 10
	for _, tc := range []struct {
		name    string
		loading *TripLoading
	}{
		{"start service", nil},
		{"loaded ahead", &TripLoading{Fixed: 20}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := fourSites()
			for i := range p.Sites {
				p.Sites[i].Windows = []Window{{0, 300}}
			}
			p.Resources = []Resource{{ID: "trailers", Count: 1, Timed: true, Turnaround: turnaround}}
			p.VehicleTypes = []VehicleType{{Count: 1, MaxTrips: 2, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1, Resources: []int{0}, Loading: tc.loading}}
			sol, err := Solve(context.Background(), p, Options{MaxIterations: 300, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := validateSolution(p, sol); err != nil {
				t.Fatal(err)
			}
			if len(sol.Unassigned) > 0 || len(sol.Routes) != 1 || len(sol.Routes[0].Reloads) != 1 {
				t.Fatalf("want every site on one route of two trips: %+v, unassigned %v", sol.Routes, sol.Unassigned)
			}
			rl := sol.Routes[0].Reloads[0]
			holdStart := rl.Start
			if tc.loading != nil {
				holdStart -= tc.loading.Fixed
			}
			if holdStart < rl.Arrival+turnaround {
				t.Fatalf("the second trip holds the unit from %g, before it is back and turned at %g: %+v", holdStart, rl.Arrival+turnaround, sol.Routes[0])
			}
		})
	}
}

// TestDockDoorHoldsTheLoading: two routes of two sites each, every trip
// loaded ahead in 40 (4 a unit, 10 units), both best leaving at once.
// With one dock door (a Timed resource held over the loading only) both
// are still served, their loadings do not overlap, and the second route
// starts later, once the door is free; the units out on the road hold
// no door. With two doors both start at once.
func TestDockDoorHoldsTheLoading(t *testing.T) {
	const loading = 40
	for _, doors := range []int{1, 2} {
		p := fourSites()
		for i := range p.Sites {
			p.Sites[i].Windows = []Window{{0, 300}}
		}
		p.Resources = []Resource{{ID: "doors", Count: doors, Timed: true, Holds: HoldLoading}}
		p.VehicleTypes = []VehicleType{{Count: 2, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1,
			Resources: []int{0}, Loading: &TripLoading{PerUnit: []float64{4}}}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 300, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if len(sol.Unassigned) > 0 || len(sol.Routes) != 2 {
			t.Fatalf("%d doors: want every site on two routes: %+v, unassigned %v", doors, sol.Routes, sol.Unassigned)
		}
		a, b := sol.Routes[0], sol.Routes[1]
		if a.Start > b.Start {
			a, b = b, a
		}
		// A loading ends as its route's start service begins.
		overlap := b.Start-loading < a.Start
		if doors == 1 && (overlap || b.Start <= a.Start) {
			t.Fatalf("one door: loadings [%g, %g) and [%g, %g) overlap", a.Start-loading, a.Start, b.Start-loading, b.Start)
		}
		if doors == 1 && b.Start >= a.Return {
			t.Fatalf("one door: the second route starts at %g, after the first is back at %g: a door is held over the loading only", b.Start, a.Return)
		}
		if doors == 2 && a.Start != b.Start {
			t.Fatalf("two doors: the routes start at %g and %g, want both at once", a.Start, b.Start)
		}
	}
}

// TestResourceBusyNamesTheResource: two sites a vehicle could serve, with
// a trailer unit free, while the one dock door loads other trailers over
// every time they could be loaded: both are unassigned ResourceBusy,
// naming the door. With the door free and the unit held instead, they
// name the unit; with a door free later, both are served.
func TestResourceBusyNamesTheResource(t *testing.T) {
	for _, tc := range []struct {
		name           string
		unitBusy, door Window
		resource       int
	}{
		{"door", Window{2000, 2100}, Window{-1000, 1000}, 1},
		{"unit", Window{-1000, 1000}, Window{2000, 2100}, 0},
		{"door free later", Window{2000, 2100}, Window{-1000, 60}, -1},
	} {
		p := fourSites()
		p.Sites = p.Sites[:2]
		for i := range p.Sites {
			p.Sites[i].Windows = []Window{{0, 200}}
		}
		p.Resources = []Resource{
			{ID: "trailers", Count: 1, Timed: true, Busy: []Window{tc.unitBusy}},
			{ID: "doors", Count: 1, Timed: true, Holds: HoldLoading, Busy: []Window{tc.door}},
		}
		p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{10}, ShiftEnd: 500, StartService: 15, DistanceCost: 1,
			Resources: []int{0, 1}, Loading: &TripLoading{Fixed: 20}}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 100, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if tc.resource < 0 {
			if len(sol.Unassigned) > 0 {
				t.Fatalf("%s: unassigned %+v, want both served", tc.name, sol.Unassigned)
			}
			continue
		}
		if len(sol.Unassigned) != 2 {
			t.Fatalf("%s: unassigned %+v, want both", tc.name, sol.Unassigned)
		}
		for _, u := range sol.Unassigned {
			if u.Reason != ResourceBusy || u.Resource != tc.resource {
				t.Fatalf("%s: site %d unassigned %v on resource %d, want RESOURCE_BUSY on %d", tc.name, u.Site, u.Reason, u.Resource, tc.resource)
			}
		}
	}
}

// TestDockDoorLoadsAhead: two routes whose loadings (40 each) may start
// only in [0, 100] and wait loaded up to 200, whose sites receive from
// 200: both trips start at 175, so both would load from 100, the latest
// start, on the one door. Holding a trip back cannot help (its loading
// cannot start later); the DC loads one trailer ahead instead, 60–100, and
// both routes start at once. Without staging, one route is served.
func TestDockDoorLoadsAhead(t *testing.T) {
	const loading = 40
	for _, tc := range []struct {
		staging float64
		routes  int
	}{{200, 2}, {0, 1}} {
		p := fourSites()
		for i := range p.Sites {
			p.Sites[i].Windows = []Window{{200, 400}}
		}
		p.Resources = []Resource{{ID: "doors", Count: 1, Timed: true, Holds: HoldLoading}}
		p.VehicleTypes = []VehicleType{{Count: 2, Capacity: []float64{10}, ShiftEnd: 1000, StartService: 15, DistanceCost: 1,
			StartWindows: []Window{{0, 100}}, Resources: []int{0}, Loading: &TripLoading{Fixed: loading, Staging: tc.staging}}}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 300, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if len(sol.Routes) != tc.routes || len(sol.Unassigned) != 4-2*tc.routes {
			t.Fatalf("staging %g: %d routes, unassigned %v; want %d routes", tc.staging, len(sol.Routes), sol.Unassigned, tc.routes)
		}
		if tc.routes < 2 {
			continue
		}
		a, b := sol.Routes[0], sol.Routes[1]
		if a.LoadingStarts[0] > b.LoadingStarts[0] {
			a, b = b, a
		}
		if a.LoadingStarts[0] != 60 || b.LoadingStarts[0] != 100 || a.Start != b.Start {
			t.Fatalf("loadings from %g and %g, routes starting at %g and %g; want 60 and 100, both starting at once",
				a.LoadingStarts[0], b.LoadingStarts[0], a.Start, b.Start)
		}
	}
}
