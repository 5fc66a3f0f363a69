package engine

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestMarkBreaks: of the stops long enough to count as a break, a route
// states those the break rule needs, each as late as it can be, with what
// the driver does in it. The golden van's request: breaks of 30 min after
// 1 h of driving; store A unloads in 10 min + 2 min a pallet.
func TestMarkBreaks(t *testing.T) {
	req, _ := goldenVan()
	m, err := prepare(context.Background(), &req)
	if err != nil {
		t.Fatal(err)
	}
	t0 := utc(5, 0, 0)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	// route drives and stops by turns, in minutes: drive, on site, drive,
	// on site, …, drive back. Every stop is at store A with one pallet
	// (12 min of unloading).
	route := func(mins ...int) Route {
		r := Route{Shift: "D1", Start: t0, Depart: t0}
		now := 0
		for i, d := range mins {
			now += d
			if i%2 == 1 {
				arrive := now - d
				r.Stops = append(r.Stops, Stop{Store: "A", Arrival: at(arrive), Start: at(arrive), Departure: at(now), Pallets: []string{"A1"}})
			}
		}
		r.Return = at(now)
		return r
	}
	for _, c := range []struct {
		name string
		r    Route
		want []int
	}{
		{"a short day", route(20, 15, 20), nil},
		{"a long stop, needed", route(30, 30, 30, 15, 10), []int{0}},
		{"the last long stop that comes in time", route(20, 30, 20, 30, 15, 15, 10), []int{1}},
		{"two long stops, neither needed", route(20, 30, 20, 30, 20), nil},
		{"short stops do not count, even where one is needed", route(40, 15, 30), nil},
		{"two breaks", route(50, 30, 50, 30, 50), []int{0, 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			m.markBreaks(&r)
			var got []int
			for k, s := range r.Stops {
				if s.Break != nil {
					got = append(got, k)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("breaks at stops %v, want %v", got, c.want)
			}
		})
	}

	// The parts of a break: 5 min of waiting, 3 pallets unloaded in 16
	// min, and 9 min more on site make the 30 min.
	r := route(30, 30, 30, 15, 10)
	s := &r.Stops[0]
	s.Start, s.Wait, s.Pallets = at(35), 5*time.Minute, []string{"A1", "A2", "A3"}
	m.markBreaks(&r)
	want := Break{Start: at(30), Duration: 30 * time.Minute, Wait: 5 * time.Minute, Unloading: 16 * time.Minute, Rest: 9 * time.Minute}
	if s.Break == nil || *s.Break != want {
		t.Fatalf("break %+v, want %+v", s.Break, want)
	}
	if s.Break.End() != s.Departure {
		t.Errorf("the break ends %v, the stop's departure is %v", s.Break.End(), s.Departure)
	}
}

// TestPlanStatesBreaks: a planned route that drives more than the break
// rule allows without one states where its driver takes the break, the
// plan passes Validate, the break survives the JSON form, and the same
// plan without the break is rejected with BREAK_MISSING alone. The golden
// van's day with 4 h of duty: delivering A and B drives 1 h 14 min, 1 h
// allowed without a break.
func TestPlanStatesBreaks(t *testing.T) {
	req, _ := goldenVan()
	req.HoursOfService.MaxDuty = 4 * time.Hour
	req.Options.Iterations = 200
	plan := planOK(t, req)
	if len(plan.Routes) != 1 {
		t.Fatalf("%d routes, want 1", len(plan.Routes))
	}
	r := plan.Routes[0]
	var breaks []int
	for k, s := range r.Stops {
		if s.Break != nil {
			breaks = append(breaks, k)
		}
	}
	if len(breaks) != 1 {
		t.Fatalf("breaks at stops %v of a route driving %v, 1 h allowed without a break: want one", breaks, r.Metrics.Driving)
	}
	b := r.Stops[breaks[0]].Break
	if b.Duration < 30*time.Minute || b.Wait+b.Unloading+b.Rest != b.Duration {
		t.Errorf("break %+v: want 30 min or more, made of its parts", b)
	}

	js, err := MarshalIndent(plan)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodePlan(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Routes[0].Stops[breaks[0]].Break; got == nil || !got.Start.Equal(b.Start) || got.Duration != b.Duration || got.Rest != b.Rest {
		t.Errorf("the break reads back as %+v, want %+v", got, b)
	}
	if err := Validate(req, back); err != nil {
		t.Errorf("the plan read back: %v", err)
	}

	back.Routes[0].Stops[breaks[0]].Break = nil
	vs := constraints.AsViolations(Validate(req, back))
	if len(vs) != 1 || vs[0].Code != CodeBreakMissing {
		t.Errorf("the plan without its break: want one %s, got %v", CodeBreakMissing, vs)
	}
}
