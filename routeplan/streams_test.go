package routeplan

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestStreamsDeterministic: under an iteration budget, the same Problem,
// Seed and Streams give the same Solution (iterations included) whatever
// the number of workers and of OS threads; Progress calls never overlap
// and never report a worse incumbent.
func TestStreamsDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		seed := rapid.Int64().Draw(t, "seed")
		var want *Solution
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			for _, workers := range []int{1, 4, 0} {
				var inFlight atomic.Int32
				var overlap atomic.Bool
				var calls []Progress
				progress := func(pr Progress) {
					if inFlight.Add(1) != 1 {
						overlap.Store(true)
					}
					time.Sleep(time.Microsecond) // widen the window for overlaps
					calls = append(calls, pr)
					inFlight.Add(-1)
				}
				sol, err := Solve(context.Background(), p, Options{MaxIterations: 15, Seed: seed, Streams: 4, Workers: workers, Progress: progress})
				if err != nil {
					t.Fatal(err)
				}
				if err := validateSolution(p, sol); err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = sol
				} else if !reflect.DeepEqual(sol, want) {
					t.Fatalf("GOMAXPROCS %d, %d workers: a different solution\n%+v\nwant\n%+v", procs, workers, sol, want)
				}
				if len(calls) == 0 {
					t.Fatal("Progress never called")
				}
				if overlap.Load() {
					t.Fatal("Progress calls overlap")
				}
				for _, c := range calls {
					// Each report carries its incumbent, a solution of its own.
					if c.Best == nil || c.Best.Vehicles != c.Vehicles || c.Best.Trips != c.Trips || math.Abs(c.Best.Cost-c.Cost) > 1e-6*math.Max(1, c.Cost) {
						t.Fatalf("report %+v carries incumbent %+v", c, c.Best)
					}
					if err := validateSolution(p, c.Best); err != nil {
						t.Fatalf("reported incumbent: %v", err)
					}
				}
				for k := 1; k < len(calls); k++ {
					a, b := calls[k], calls[k-1]
					worse := b.Feasible && !a.Feasible
					if a.Feasible && b.Feasible {
						switch p.Objective {
						case Hierarchical:
							worse = a.Vehicles > b.Vehicles
						case FewestTrips:
							worse = a.Trips > b.Trips
						default:
							worse = a.Cost > b.Cost+1e-6*math.Max(1, b.Cost)
						}
					}
					if worse {
						t.Fatalf("progress went backwards: %+v after %+v", a, b)
					}
				}
			}
		}
	})
}

// TestProgressInterval: with ProgressInterval set, Progress is called for
// the first improvement and then no sooner than the interval after the
// last call; the search, and so the solution, is the one without it.
func TestProgressInterval(t *testing.T) {
	p := benchProblem(60, false)
	solve := func(every time.Duration) (*Solution, []Progress) {
		var calls []Progress
		opts := Options{MaxIterations: 200, Seed: 1, Streams: 2, Workers: 1, ProgressInterval: every,
			Progress: func(pr Progress) { calls = append(calls, pr) }}
		sol, err := Solve(context.Background(), p, opts)
		if err != nil {
			t.Fatal(err)
		}
		return sol, calls
	}
	all, every := solve(0)
	if len(every) < 2 {
		t.Fatalf("%d reports without an interval; the test needs a problem that improves more than once", len(every))
	}
	throttled, once := solve(time.Hour)
	if len(once) != 1 {
		t.Fatalf("%d reports with an interval of an hour, want the first alone", len(once))
	}
	if once[0].Cost != every[0].Cost || once[0].Best == nil {
		t.Errorf("the first report %+v, want the first improvement %+v with its incumbent", once[0], every[0])
	}
	if !reflect.DeepEqual(throttled, all) {
		t.Error("the interval changed the solution")
	}
}
