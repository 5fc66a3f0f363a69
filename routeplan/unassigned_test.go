package routeplan

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// checkFleetExhausted returns an error when sol leaves a site out for want
// of vehicles (or of a Timed resource's units, ResourceBusy) although a compatible type still has a vehicle and its
// resources free, and that vehicle serves the site on a route of its own:
// value left out comes first under either objective, so the free vehicle
// must be used.
func checkFleetExhausted(p *Problem, sol *Solution) error {
	used := make([]int, len(p.VehicleTypes))
	taken := make([]int, len(p.Resources))
	for _, r := range sol.Routes {
		used[r.VehicleType]++
		for _, x := range p.VehicleTypes[r.VehicleType].Resources {
			// A resource taken per trip is taken once by each trip.
			if p.Resources[x].PerTrip {
				taken[x] += 1 + len(r.Reloads)
			} else {
				taken[x]++
			}
		}
	}
	for _, u := range sol.Unassigned {
		if u.Reason == ResourceBusy && (u.Resource < 0 || u.Resource >= len(p.Resources) || !p.Resources[u.Resource].Timed) {
			return fmt.Errorf("site %d left %s on resource %d, not a Timed resource", u.Site, u.Reason, u.Resource)
		}
		if u.Reason != FleetExhausted && u.Reason != ResourceBusy {
			continue
		}
		for k, vt := range p.VehicleTypes {
			allowed := p.Sites[u.Site].VehicleTypes == nil
			for _, a := range p.Sites[u.Site].VehicleTypes {
				allowed = allowed || a == k
			}
			free := used[k] < vt.Count
			for _, x := range vt.Resources {
				free = free && (p.Resources[x].Timed || taken[x] < p.Resources[x].Count)
			}
			if !allowed || !free {
				continue
			}
			vt.Resources = nil
			one := &Problem{N: p.N, Distance: p.Distance, Duration: p.Duration, Sites: []Site{p.Sites[u.Site]}, VehicleTypes: []VehicleType{vt}}
			one.Sites[0].VehicleTypes = nil
			s1, err := Solve(context.Background(), one, Options{MaxIterations: 1})
			if err != nil {
				return fmt.Errorf("site %d alone on type %d: %v", u.Site, k, err)
			}
			if len(s1.Routes) != 1 {
				continue
			}
			// A Timed resource is free for the route only when its units
			// are not all out while it would hold one.
			r := s1.Routes[0]
			r.VehicleType = k
			r.Visits = slices.Clone(r.Visits)
			r.Visits[0].Site = u.Site
			if validateTimedResources(p, &Solution{Routes: append(slices.Clone(sol.Routes), r)}) == nil {
				return fmt.Errorf("site %d left %s though type %d has a spare vehicle that serves it", u.Site, u.Reason, k)
			}
		}
	}
	return nil
}

// TestFreedVehicleServesLeftOutSite is a case TestUnassignedReasons found.
// Construction fills the fleet (five routes of type 1, one of type 2)
// before site 1 (value 2) comes up, so site 1 is left out; local search
// then moves site 17 from its route of its own into the type-2 route, a
// gain under the fewest-vehicles objective, and a type-1 vehicle stands
// free. The ruins that followed rebuilt the same picture, and Solve
// returned site 1 as FLEET_EXHAUSTED beside the free vehicle that serves
// it alone.
func TestFreedVehicleServesLeftOutSite(t *testing.T) {
	xy := [][2]float64{{2, 61}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {13, 0}, {0, 48}, {0, 0}, {0, 0}, {0, 3}, {0, 0}, {0, 0}, {16, 2}, {0, 3}, {0, 55}, {4, 7}, {1, 1}, {28, 89}, {5, 47}, {1, 39}}
	p := &Problem{N: len(xy), Objective: Hierarchical, Resources: []Resource{{Count: 3}, {Count: 3}}}
	for _, a := range xy {
		for _, b := range xy {
			d := math.Round(math.Hypot(a[0]-b[0], a[1]-b[1]))
			p.Distance = append(p.Distance, d)
			p.Duration = append(p.Duration, d)
		}
	}
	p.VehicleTypes = []VehicleType{
		{Count: 0, ShiftStart: 95, ShiftEnd: 643, StartService: 30, MaxDriving: 321, FixedCost: 100, DistanceCost: 2, Capacity: []float64{6}, StartWindows: []Window{{94, 262}}, Resources: []int{0, 1}, MaxGroups: 2},
		{Count: 5, EndLocation: 1, ShiftStart: 30, ShiftEnd: 504, MaxDuty: 1172, FixedCost: 82, DistanceCost: 2, TimeCost: 1, Capacity: []float64{11}, MaxGroups: 1},
		{Count: 1, StartLocation: 1, ShiftStart: 58, ShiftEnd: 1641, StartService: 43, MaxDriving: 303, BreakAfter: 214, BreakDuration: 2, FixedCost: 53, DistanceCost: 3, TimeCost: 2, Capacity: []float64{10}, StartWindows: []Window{{56, 166}, {167, 263}}, Resources: []int{0, 1}, MaxGroups: 1},
	}
	p.Sites = []Site{
		{Location: 2, Service: 7, Demand: []float64{3}, Group: 3, Value: 4},                                                                                                     // 0
		{Location: 2, Service: 4, StopService: 5, Demand: []float64{10}, Group: 2, Value: 2},                                                                                    // 1
		{Location: 2, Windows: []Window{{432, 434}, {595, 705}}, Service: 2, Demand: []float64{4}, Group: 3, Value: 20},                                                         // 2
		{Location: 5, Windows: []Window{{1, 43}, {243, 255}}, Service: 1, ServicePerUnit: []float64{0}, Demand: []float64{3}, Value: 12},                                        // 3
		{Location: 6, Windows: []Window{{31, 391}, {398, 401}}, Service: 5, ServicePerUnit: []float64{2}, Demand: []float64{2}, Group: 1, Value: 7},                             // 4
		{Location: 7, Windows: []Window{{0, 1}}, Service: 16, Demand: []float64{7}, Group: 2},                                                                                   // 5
		{Location: 8, Windows: []Window{{39, 61}}, Service: 20, ServicePerUnit: []float64{5}, Demand: []float64{1}, Group: 1, Value: 10},                                        // 6
		{Location: 9, Windows: []Window{{709, 715}, {737, 759}, {785, 793}}, Demand: []float64{8}, Group: 2, Value: 4},                                                          // 7
		{Location: 9, Windows: []Window{{5, 206}, {206, 445}}, Service: 10, StopService: 20, ServicePerUnit: []float64{5}, Demand: []float64{0}, Value: 4},                      // 8
		{Location: 9, Windows: []Window{{180, 365}}, Service: 7, StopService: 1, ServicePerUnit: []float64{5}, Demand: []float64{10}, Group: 1, Value: 1},                       // 9
		{Location: 12, Service: 2, StopService: 9, Demand: []float64{3}, Group: 1},                                                                                              // 10
		{Location: 13, Windows: []Window{{22, 368}, {481, 484}, {619, 931}}, ServicePerUnit: []float64{3}, Demand: []float64{6}, VehicleTypes: []int{0, 2}, Group: 3, Value: 2}, // 11
		{Location: 14, Windows: []Window{{367, 367}}, Demand: []float64{10}, Value: 9},                                                                                          // 12
		{Location: 15, Windows: []Window{{56, 111}, {130, 153}, {201, 214}}, Service: 3, Demand: []float64{3}, Value: 3},                                                        // 13
		{Location: 15, Service: 1, Demand: []float64{3}, Group: 1, Value: 4},                                                                                                    // 14
		{Location: 17, Windows: []Window{{1, 138}, {139, 140}, {177, 236}}, Service: 3, Demand: []float64{10}, Group: 1},                                                        // 15
		{Location: 18, Windows: []Window{{3, 169}}, Service: 28, ServicePerUnit: []float64{0}, Demand: []float64{4}, Group: 1, Value: 18},                                       // 16
		{Location: 19, Windows: []Window{{1, 4}, {204, 204}}, Service: 3, ServicePerUnit: []float64{4}, Demand: []float64{2}, Group: 2, Value: 14},                              // 17
	}
	for _, seed := range []int64{0, 1, 2, 3} {
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 10, Seed: seed})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatalf("seed %d: infeasible: %v", seed, err)
		}
		if err := checkFleetExhausted(p, sol); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}
