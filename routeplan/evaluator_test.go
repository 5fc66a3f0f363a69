package routeplan

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// TestEvaluatorMatchesSolve: every route Solve reports comes out of the
// Evaluator identical, but for trips Solve held back until a unit of a
// Timed resource was free: then the same sites and distance, no trip
// starting earlier than the Evaluator times it. Every route the Evaluator
// accepts passes the independent checker.
func TestEvaluatorMatchesSolve(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 20, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := NewEvaluator(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sol.Routes {
			var sites []int
			next := 0
			for k, v := range r.Visits {
				if next < len(r.Reloads) && r.Reloads[next].After == k {
					sites = append(sites, ReloadSite)
					next++
				}
				sites = append(sites, v.Site)
			}
			got, reason, ok := ev.Route(r.VehicleType, sites)
			if !ok || (!reflect.DeepEqual(got, r) && !heldBackFrom(p, got, r)) {
				t.Fatalf("Evaluator gives %+v (%v, %s), Solve gave %+v", got, ok, reason, r)
			}
			// The route without its last stop, when feasible, passes the
			// checker (it usually is: windows close, they do not open).
			if len(sites) > 1 {
				if short, _, ok := ev.Route(r.VehicleType, sites[:len(sites)-1]); ok {
					if err := checkRoute(p, short); err != nil {
						t.Fatalf("shortened route: %v", err)
					}
				}
			}
		}
		// A random route: when accepted, it passes the checker too.
		if len(p.Sites) > 0 {
			vt := rapid.IntRange(0, len(p.VehicleTypes)-1).Draw(t, "type")
			sites := rapid.SliceOfNDistinct(rapid.IntRange(0, len(p.Sites)-1), 1, 4, rapid.ID).Draw(t, "route")
			if r, _, ok := ev.Route(vt, sites); ok {
				if err := checkRoute(p, r); err != nil {
					t.Fatalf("route %v of type %d: %v", sites, vt, err)
				}
			}
		}
	})
}

// checkRoute runs the checker on r alone: a solution of r that leaves
// every other site out, on p with the fleet limits lifted (the Evaluator
// does not count vehicles or resources).
func checkRoute(p *Problem, r Route) error {
	q := *p
	q.Resources = nil
	q.VehicleTypes = append([]VehicleType(nil), p.VehicleTypes...)
	for k := range q.VehicleTypes {
		q.VehicleTypes[k].Resources = nil
		q.VehicleTypes[k].Count = 1
	}
	vt := p.VehicleTypes[r.VehicleType]
	sol := &Solution{Routes: []Route{r}, Vehicles: 1, Trips: 1 + len(r.Reloads), Distance: r.Distance,
		Cost: vt.FixedCost + vt.TripCost*float64(1+len(r.Reloads)) + vt.DistanceCost*r.Distance + vt.TimeCost*r.Duration}
	for i := range p.Sites {
		served := false
		for _, v := range r.Visits {
			served = served || v.Site == i
		}
		if !served {
			sol.Unassigned = append(sol.Unassigned, Unassigned{Site: i, Reason: FleetExhausted})
		}
	}
	return validateSolution(&q, sol)
}

// TestEvaluatorReasons: the first rule a route breaks, in the documented
// order.
func TestEvaluatorReasons(t *testing.T) {
	// Depot 0, sites at 1, 2 and 3 on a line; legs take their length.
	pos := []float64{0, 10, 20, 30}
	n := len(pos)
	p := &Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
	for i := range pos {
		for j := range pos {
			d := max(pos[i]-pos[j], pos[j]-pos[i])
			p.Distance[i*n+j], p.Duration[i*n+j] = d, d
		}
	}
	p.Sites = []Site{
		{Location: 1, Demand: []float64{4}, Group: 1},
		{Location: 2, Demand: []float64{4}, Group: 2, Windows: []Window{{0, 15}}},
		{Location: 3, Demand: []float64{4}, Group: 1, VehicleTypes: []int{1}},
	}
	p.VehicleTypes = []VehicleType{
		{Count: 1, Capacity: []float64{10}, ShiftEnd: 100, MaxGroups: 1},
		{Count: 1, Capacity: []float64{6}, ShiftEnd: 55},
	}
	ev, err := NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ   int
		sites []int
		want  Reason
	}{
		{0, []int{2}, NoCompatibleVehicle},
		{2, []int{0}, NoCompatibleVehicle},
		{0, []int{0, 7}, NoCompatibleVehicle},
		{1, []int{0, 2}, Capacity},
		{0, []int{0, 1}, GroupLimit},
		{1, []int{0, 1}, Capacity},
		{1, []int{1}, TimeWindow}, // arrives at 20, window ends at 15
		{1, []int{2}, ShiftLimit}, // returns at 60, shift ends at 55
	} {
		if _, got, ok := ev.Route(c.typ, c.sites); ok || got != c.want {
			t.Errorf("type %d route %v: got %v %s, want %s", c.typ, c.sites, ok, got, c.want)
		}
	}
	if r, _, ok := ev.Route(0, []int{0}); !ok || r.Depart != 0 || r.Return != 20 {
		t.Errorf("route [0]: got %+v %v", r, ok)
	}
	if GroupLimit.String() != "GROUP_LIMIT" {
		t.Errorf("GroupLimit.String() = %q", GroupLimit.String())
	}
	if _, err := NewEvaluator(&Problem{N: -1}); !errors.Is(err, constraints.ErrInvalid) {
		t.Errorf("NewEvaluator of an invalid problem: %v", err)
	}
}

// heldBackFrom reports whether r is route tight (as the Evaluator times
// it) with trips held back: the problem has a Timed resource, the routes
// have the same sites and distance, and none of r's trips starts before
// tight's.
func heldBackFrom(p *Problem, tight, r Route) bool {
	timed := false
	for _, res := range p.Resources {
		timed = timed || res.Timed
	}
	if !timed || tight.Distance != r.Distance || len(tight.Visits) != len(r.Visits) || len(tight.Reloads) != len(r.Reloads) || r.Start < tight.Start {
		return false
	}
	for k := range r.Visits {
		if r.Visits[k].Site != tight.Visits[k].Site {
			return false
		}
	}
	for k := range r.Reloads {
		if r.Reloads[k].After != tight.Reloads[k].After || r.Reloads[k].Start < tight.Reloads[k].Start {
			return false
		}
	}
	return true
}
