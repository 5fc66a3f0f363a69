package routeplan

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/haulplan/haulplan/geo"
)

// benchProblem draws n sites on a 100×100 square around a central depot,
// with 1-hour windows over a 10-hour day; with rules set, every site gets a
// second window and the trucks a duty limit, a driving limit, a break rule
// and a time cost, which takes the general (simulated) evaluation path.
func benchProblem(n int, rules bool) *Problem {
	rng := rand.New(rand.NewPCG(1, 2))
	m := n + 1
	xs, ys := make([]float64, m), make([]float64, m)
	xs[0], ys[0] = 50, 50
	for i := 1; i < m; i++ {
		xs[i], ys[i] = math.Round(rng.Float64()*100), math.Round(rng.Float64()*100)
	}
	p := &Problem{N: m, Distance: make([]float64, m*m), Duration: make([]float64, m*m)}
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			d := math.Round(math.Hypot(xs[i]-xs[j], ys[i]-ys[j]))
			p.Distance[i*m+j], p.Duration[i*m+j] = d, d
		}
	}
	vt := VehicleType{Count: n, Capacity: []float64{100}, ShiftEnd: 600, DistanceCost: 1}
	if rules {
		vt.MaxDuty, vt.MaxDriving, vt.BreakAfter, vt.BreakDuration, vt.TimeCost = 540, 400, 120, 15, 0.1
	}
	p.VehicleTypes = []VehicleType{vt}
	for i := 1; i < m; i++ {
		start := math.Round(rng.Float64() * 480)
		s := Site{Location: i, Service: 10, Demand: []float64{float64(1 + rng.IntN(20))}, Windows: []Window{{start, start + 60}}}
		if rules && start < 400 {
			s.Windows = append(s.Windows, Window{start + 120, start + 180})
		}
		p.Sites = append(p.Sites, s)
	}
	return p
}

func benchmarkSolve(b *testing.B, n int, rules bool) {
	p := benchProblem(n, rules)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSolve200(b *testing.B)      { benchmarkSolve(b, 200, false) }
func BenchmarkSolve200Rules(b *testing.B) { benchmarkSolve(b, 200, true) }

// weekdayRush is the weekday rush hours of a DC (06:30–09:00 at 0.6 of
// free-flow speed, 15:30–19:00 at 0.65) on benchProblem's clock, whose
// unit is a minute and whose day starts at 06:00: slowdowns round up to
// whole minutes.
func weekdayRush() geo.SlowTimeline {
	return rushTimeline(30, 180, 0.6, 570, 780, 0.65)
}

// BenchmarkSolve200RulesRush is BenchmarkSolve200Rules under weekday rush
// hours: every leg timed through them, the departure search taking their
// inverse candidates.
func BenchmarkSolve200RulesRush(b *testing.B) {
	p := benchProblem(200, true)
	p.Rush = weekdayRush()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// fleetProblem is benchProblem with a DC's fleet: vehicle types pairing
// each of 5 shift groups (10 shifts each, an hour apart) with each of 3
// trailer types (20 units each, larger ones dearer) and each of 4 reefer
// set points (a site allows the types of its own), 60 types drawing on 8
// resources; loading of 10 min plus 1 min per unit at a dock closed
// 120-180, and site values.
func fleetProblem(n int) *Problem {
	p := benchProblem(n, false)
	proto := p.VehicleTypes[0]
	p.VehicleTypes = nil
	const groups, trailers, setPoints = 5, 3, 4
	for g := 0; g < groups; g++ {
		p.Resources = append(p.Resources, Resource{Count: 10})
	}
	for tr := 0; tr < trailers; tr++ {
		p.Resources = append(p.Resources, Resource{Count: 20})
	}
	bySetPoint := make([][]int, setPoints)
	for g := 0; g < groups; g++ {
		for tr := 0; tr < trailers; tr++ {
			for sp := 0; sp < setPoints; sp++ {
				vt := proto
				vt.Count = 10
				vt.Capacity = []float64{float64(60 + 20*tr)}
				vt.ShiftStart, vt.ShiftEnd = float64(60*g-200), float64(60*g+600)
				vt.StartService, vt.StartServicePerUnit = 10, []float64{1}
				vt.StartWindows = []Window{{-200, 120}, {180, 1000}}
				vt.FixedCost = float64(100 + 20*tr)
				vt.TimeCost = 0.1
				vt.Resources = []int{g, groups + tr}
				bySetPoint[sp] = append(bySetPoint[sp], len(p.VehicleTypes))
				p.VehicleTypes = append(p.VehicleTypes, vt)
			}
		}
	}
	for i := range p.Sites {
		p.Sites[i].VehicleTypes = bySetPoint[i%setPoints]
		p.Sites[i].Value = p.Sites[i].Demand[0]
	}
	return p
}

func BenchmarkSolve200Fleet(b *testing.B) {
	p := fleetProblem(200)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchProblems keeps the benchmark instances honest: both solve to
// solutions the checker accepts.
func TestBenchProblems(t *testing.T) {
	for _, rules := range []bool{false, true} {
		p := benchProblem(60, rules)
		if newInstance(p).exact == rules {
			t.Fatalf("rules=%v: Solomon case %v", rules, !rules)
		}
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 50, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatalf("rules=%v: %v", rules, err)
		}
		if len(sol.Unassigned) > 0 {
			t.Errorf("rules=%v: %d unassigned", rules, len(sol.Unassigned))
		}
	}
	p := fleetProblem(60)
	sol, err := Solve(context.Background(), p, Options{MaxIterations: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := validateSolution(p, sol); err != nil {
		t.Fatalf("fleet: %v", err)
	}
	if len(sol.Unassigned) > 0 {
		t.Errorf("fleet: %d unassigned", len(sol.Unassigned))
	}
	p = benchProblem(60, true)
	p.Rush = weekdayRush()
	sol, err = Solve(context.Background(), p, Options{MaxIterations: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := validateSolution(p, sol); err != nil {
		t.Fatalf("rules under rush hours: %v", err)
	}
}

// BenchmarkSolve200Trips is BenchmarkSolve200Rules with routes of up to
// three trips, a reload of 15 and a fixed cost that makes a second trip
// cheaper than a second vehicle.
func BenchmarkSolve200Trips(b *testing.B) {
	p := benchProblem(200, true)
	vt := &p.VehicleTypes[0]
	vt.MaxTrips, vt.StartService, vt.FixedCost = 3, 15, 500
	b.ResetTimer()
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{MaxIterations: 200, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
