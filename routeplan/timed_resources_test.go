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
