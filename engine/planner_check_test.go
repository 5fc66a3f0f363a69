package engine

// This test compares Validate with the validator it replaces (the
// planner's check in planner_check.go) on planned and broken plans; it
// goes away with planner_check.go.

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// breakPlan applies one drawn change to a plan: to a route's times, stops,
// pallets, trailer or shift, to the unassigned list, or to a metric.
func breakPlan(t *rapid.T, req *Request, p *Result) string {
	if len(p.Routes) == 0 {
		return "none"
	}
	ri := rapid.IntRange(0, len(p.Routes)-1).Draw(t, "route")
	r := &p.Routes[ri]
	d := rapid.SampledFrom([]time.Duration{-time.Hour, -time.Minute, -time.Second, time.Second, time.Minute, time.Hour}).Draw(t, "d")
	stop := func() *Stop { return &r.Stops[rapid.IntRange(0, len(r.Stops)-1).Draw(t, "stop")] }
	kind := rapid.SampledFrom([]string{"start", "depart", "return", "arrival", "unload", "departure", "wait", "swapStops",
		"movePallet", "dropPallet", "unassign", "shift", "trailer", "routeID", "reason", "metric", "planMetric", "limits", "hours"}).Draw(t, "kind")
	switch kind {
	case "start":
		r.Start = r.Start.Add(d)
	case "depart":
		r.Depart = r.Depart.Add(d)
	case "return":
		r.Return = r.Return.Add(d)
	case "arrival":
		stop().Arrival = stop().Arrival.Add(d)
	case "unload":
		s := stop()
		s.Start, s.Wait = s.Start.Add(d), s.Wait+constraints.Duration(d)
	case "departure":
		stop().Departure = stop().Departure.Add(d)
	case "wait":
		stop().Wait += constraints.Duration(d)
	case "swapStops":
		i, j := rapid.IntRange(0, len(r.Stops)-1).Draw(t, "i"), rapid.IntRange(0, len(r.Stops)-1).Draw(t, "j")
		r.Stops[i].Pallets, r.Stops[j].Pallets = r.Stops[j].Pallets, r.Stops[i].Pallets
		r.Stops[i].Store, r.Stops[j].Store = r.Stops[j].Store, r.Stops[i].Store
	case "movePallet":
		from, to := stop(), &p.Routes[rapid.IntRange(0, len(p.Routes)-1).Draw(t, "to")].Stops[0]
		if len(from.Pallets) == 0 {
			return kind
		}
		to.Pallets = append(to.Pallets, from.Pallets[0])
		from.Pallets = from.Pallets[1:]
	case "dropPallet":
		s := stop()
		if len(s.Pallets) == 0 {
			return kind
		}
		s.Pallets = s.Pallets[1:]
	case "unassign":
		s := stop()
		if len(s.Pallets) == 0 {
			return kind
		}
		p.Unassigned = append(p.Unassigned, Unassigned{Pallet: s.Pallets[0], Reason: ReasonCapacity})
		s.Pallets = s.Pallets[1:]
	case "shift":
		r.Shift = rapid.SampledFrom(req.Shifts).Draw(t, "shift").ID
	case "trailer":
		r.Trailer = rapid.SampledFrom(req.Fleet).Draw(t, "trailer").ID
	case "routeID":
		r.ID = p.Routes[0].ID
	case "reason":
		if len(p.Unassigned) > 0 {
			p.Unassigned[0].Reason = "LOST"
		}
	case "metric":
		m := &r.Metrics
		switch rapid.IntRange(0, 5).Draw(t, "field") {
		case 0:
			m.DistanceM++
		case 1:
			m.Cost += 0.01
		case 2:
			m.Positions++
		case 3:
			m.Driving += constraints.Duration(d)
		case 4:
			m.WeightKg++
		case 5:
			m.PosUtil += 0.01
		}
	case "planMetric":
		m := &p.Metrics
		switch rapid.IntRange(0, 3).Draw(t, "field") {
		case 0:
			m.Pallets++
		case 1:
			m.TrailersLowerBound++
		case 2:
			m.Wait += constraints.Duration(d)
		case 3:
			m.DistanceM--
		}
	case "limits":
		// The same limits under the old rule (a shift's limits, US
		// defaults for the rest) and the new one (field by field).
		for i := range req.Shifts {
			if req.Shifts[i].ID == r.Shift {
				req.Shifts[i].Limits = &constraints.HoursOfService{MaxDriving: constraints.Duration(max(time.Second, r.Metrics.Driving.D()-d.Abs())),
					MaxDuty: constraints.Duration(max(time.Second, r.Metrics.Duration.D()+d)), BreakAfter: constraints.Duration(time.Hour), BreakDuration: constraints.Duration(d.Abs())}
			}
		}
	case "hours":
		for i := range req.Stores {
			if req.Stores[i].ID == r.Stops[0].Store {
				req.Stores[i].Hours.Days = map[string][]constraints.Opening{"mon": {{Open: "10:00", Close: "11:00"}}}
			}
		}
	}
	return kind
}

// TestValidateAgreesWithTheOldValidator: on planned plans and broken
// copies, Validate and the validator it replaces give the same codes.
func TestValidateAgreesWithTheOldValidator(t *testing.T) {
	compared, rejected := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		plan, err := Plan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		for c := range 10 {
			rq, p := req, plan
			var changes []string
			if c > 0 {
				rq = cloneRequestRapid(t, req)
				p = clonePlanRapid(t, plan)
				for range rapid.IntRange(1, 2).Draw(t, "changes") {
					changes = append(changes, breakPlan(t, &rq, &p))
				}
			}
			m, err := prepare(context.Background(), &rq)
			if err != nil {
				t.Fatal(err)
			}
			old := m.validate(&p)
			cur := constraints.AsViolations(Validate(rq, p))
			if a, b := codeSet(cur), codeSet(old); !slices.Equal(a, b) {
				t.Fatalf("copy %d broken by %v: Validate gives %v, the old validator %v\nValidate: %v\nold: %v", c, changes, a, b, cur, old)
			}
			compared++
			if len(cur) > 0 {
				rejected++
			}
		}
	})
	t.Logf("%d plans compared, %d rejected by both", compared, rejected)
}

func cloneRequestRapid(t *rapid.T, r Request) Request {
	b, err := MarshalIndent(r)
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodeRequest(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c.Options = r.Options
	return c
}

func clonePlanRapid(t *rapid.T, p Result) Result {
	b, err := MarshalIndent(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodePlan(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
