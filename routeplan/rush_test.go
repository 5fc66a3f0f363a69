package routeplan

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"pgregory.net/rapid"
)

// rushEpoch is the instant the times of the tests' problems count from.
var rushEpoch = time.Unix(1_772_000_000, 0).UTC()

// rushTimeline resolves slow intervals given in seconds since rushEpoch,
// as start, end, factor triples.
func rushTimeline(spans ...float64) geo.SlowTimeline {
	var ivs geo.SlowIntervals
	for i := 0; i+2 < len(spans); i += 3 {
		ivs = append(ivs, geo.SlowInterval{
			Start:  rushEpoch.Add(time.Duration(spans[i]) * time.Second),
			End:    rushEpoch.Add(time.Duration(spans[i+1]) * time.Second),
			Factor: spans[i+2],
		})
	}
	return ivs.Timeline(rushEpoch)
}

// genRush draws up to four slow intervals within [0, horizon] seconds,
// whole seconds apart, each slowing travel by a factor from 0.1 to 1 in
// steps of 0.05: rush hours as geo resolves them.
func genRush(t *rapid.T, horizon int) geo.SlowTimeline {
	var spans []float64
	at := rapid.IntRange(0, horizon/4).Draw(t, "rushStart")
	for n := rapid.IntRange(1, 4).Draw(t, "rushPeriods"); n > 0; n-- {
		end := at + rapid.IntRange(1, horizon/4).Draw(t, "rushLen")
		f := float64(rapid.IntRange(2, 20).Draw(t, "rushFactor")) / 20
		spans = append(spans, float64(at), float64(end), f)
		at = end + rapid.IntRange(0, horizon/4).Draw(t, "rushGap")
	}
	return rushTimeline(spans...)
}

// TestSolveFeasibleUnderRush: under random rush hours, every route Solve
// returns keeps every window, shift, duty, driving and break rule when
// each leg is timed again through the rush hours (validateSolution), and
// its times stay whole seconds.
func TestSolveFeasibleUnderRush(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		p.Rush = genRush(t, 3000)
		sol, err := Solve(context.Background(), p, Options{MaxIterations: 30, Seed: rapid.Int64().Draw(t, "seed")})
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatalf("infeasible under rush hours: %v", err)
		}
		for _, r := range sol.Routes {
			for _, v := range r.Visits {
				if v.Arrival != float64(int64(v.Arrival)) {
					t.Fatalf("arrival %g is not a whole second", v.Arrival)
				}
			}
		}
	})
}

// TestRushHourMissesAWindow: a store 30 min from the depot must be
// served within 45 min of the shift start. Off-peak the truck arrives
// after 30 min; in a rush hour at half speed the same leg takes 60 min,
// the window is missed and the store is left as TIME_WINDOW; with a wider
// window it is served, 60 min after leaving.
func TestRushHourMissesAWindow(t *testing.T) {
	const hour = 3600.0
	rush := rushTimeline(7*hour, 9*hour, 0.5)
	for _, c := range []struct {
		name         string
		shift, width float64
		arrive       float64 // after the shift start; 0: unassigned
	}{
		{"off-peak", 10 * hour, 45 * 60, 30 * 60},
		{"rush hour", 7 * hour, 45 * 60, 0},
		{"rush hour, a wider window", 7 * hour, 75 * 60, 60 * 60},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Problem{N: 2, Distance: []float64{0, 40, 40, 0}, Duration: []float64{0, 30 * 60, 30 * 60, 0}, Rush: rush}
			p.Sites = []Site{{Location: 1, Demand: []float64{1}, Windows: []Window{{c.shift, c.shift + c.width}}}}
			p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{1}, DistanceCost: 1, ShiftStart: c.shift, ShiftEnd: c.shift + 8*hour}}
			sol, err := Solve(context.Background(), p, Options{MaxIterations: 10})
			if err != nil {
				t.Fatal(err)
			}
			if c.arrive == 0 {
				if len(sol.Routes) != 0 || len(sol.Unassigned) != 1 || sol.Unassigned[0].Reason != TimeWindow {
					t.Fatalf("routes %+v, unassigned %+v: want the store left as TIME_WINDOW", sol.Routes, sol.Unassigned)
				}
				return
			}
			if len(sol.Routes) != 1 {
				t.Fatalf("routes %+v, unassigned %+v: want one route", sol.Routes, sol.Unassigned)
			}
			r := sol.Routes[0]
			if got := r.Visits[0].Arrival - r.Depart; got != c.arrive {
				t.Fatalf("the leg takes %g s, want %g", got, c.arrive)
			}
			if err := validateSolution(p, sol); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCheckRush: a timeline of hand-made intervals that overlap or slow
// below geo.MinRushFactor is reported at "rush", one violation each.
func TestCheckRush(t *testing.T) {
	p := &Problem{N: 1, Distance: []float64{0}, Duration: []float64{0},
		Rush: rushTimeline(0, 100, 0.5, 50, 200, 0.5, 300, 400, 0.01)}
	err := Check(p)
	var vs constraints.Violations
	if !errors.As(err, &vs) {
		t.Fatalf("Check = %v, want violations", err)
	}
	n := 0
	for _, v := range vs {
		if v.Path == "rush" && v.Code == CodeRush {
			n++
		}
	}
	if n != 2 || !strings.Contains(err.Error(), "interval 1") || !strings.Contains(err.Error(), "interval 2") {
		t.Fatalf("Check = %v, want two rush violations (intervals 1 and 2)", err)
	}
	p.Rush = rushTimeline(0, 100, 0.5)
	if err := Check(p); err != nil {
		t.Fatalf("Check of a good timeline: %v", err)
	}
}
