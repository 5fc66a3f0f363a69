package engine

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// samplePlan plans the quickstart sample once for all tests that need it.
var samplePlan = sync.OnceValues(func() (samplePair, error) {
	b, err := os.ReadFile("../examples/quickstart/sample.json")
	if err != nil {
		return samplePair{}, err
	}
	req, err := DecodeRequest(bytes.NewReader(b))
	if err != nil {
		return samplePair{}, err
	}
	// An iteration budget, not the time limit, ends the search, so the
	// plan does not depend on how loaded the machine is (the race
	// detector and parallel packages slow it down many times).
	req.Options.Iterations = 300
	req.Options.TimeLimit = 5 * time.Minute
	req.Options.Workers = 1
	plan, err := Plan(context.Background(), req)
	return samplePair{req, plan}, err
})

type samplePair struct {
	req  Request
	plan Result
}

func sample(t *testing.T) (Request, Result) {
	t.Helper()
	s, err := samplePlan()
	if err != nil {
		t.Fatal(err)
	}
	return s.req, clonePlan(t, s.plan)
}

// clonePlan deep-copies a plan through its JSON form, which also checks
// that the JSON form round-trips.
func clonePlan(t *testing.T, p Result) Result {
	t.Helper()
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

func TestSamplePlanIsValidAndComplete(t *testing.T) {
	req, plan := sample(t)
	if err := Validate(req, plan); err != nil {
		t.Fatalf("the sample's plan fails Validate: %v", err)
	}
	if len(plan.Routes) == 0 {
		t.Fatal("no routes")
	}
	if plan.Metrics.Pallets+plan.Metrics.Unassigned != len(req.Pallets) {
		t.Fatalf("%d delivered + %d unassigned != %d pallets", plan.Metrics.Pallets, plan.Metrics.Unassigned, len(req.Pallets))
	}
	// The sample is built to be fully deliverable with the fleet it has.
	if plan.Metrics.Unassigned > 0 {
		t.Errorf("%d pallets unassigned, first: %+v", plan.Metrics.Unassigned, plan.Unassigned[0])
	}
}

func TestValidateCatchesBrokenPlans(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(t *testing.T, req *Request, p *Result)
		code   string
	}{
		{"late arrival", func(t *testing.T, req *Request, p *Result) {
			// Move a whole stop to 23:30 local time, when every sample store
			// is closed: unloading starts outside the store's hours.
			s := &p.Routes[0].Stops[0]
			late := time.Date(2026, 11, 24, 23, 30, 0, 0, time.FixedZone("CST", -6*3600))
			d := late.Sub(s.Start)
			s.Arrival, s.Start, s.Departure = s.Arrival.Add(d), s.Start.Add(d), s.Departure.Add(d)
		}, CodeOpeningHours},
		{"travel faster than the model", func(t *testing.T, req *Request, p *Result) {
			s := &p.Routes[0].Stops[0]
			s.Arrival = s.Arrival.Add(-time.Minute)
			s.Wait += time.Minute
		}, CodeTravelTime},
		{"overload", func(t *testing.T, req *Request, p *Result) {
			// Halve the payload of route 0's trailer type below its load.
			r := &p.Routes[0]
			for i := range req.Fleet {
				if req.Fleet[i].ID == r.Trailer {
					req.Fleet[i].PayloadKg = r.Metrics.WeightKg / 2
				}
			}
		}, "PAYLOAD"},
		{"wrong temperature", func(t *testing.T, req *Request, p *Result) {
			// Put a route carrying frozen pallets on a dry van.
			for i := range p.Routes {
				for _, z := range p.Routes[i].Load.Zones {
					if z.Temperature == constraints.Frozen {
						p.Routes[i].Trailer = "DRY53"
						return
					}
				}
			}
			t.Fatal("no frozen pallet in the plan")
		}, CodeTemperature},
		{"missing pallet", func(t *testing.T, req *Request, p *Result) {
			s := &p.Routes[0].Stops[0]
			s.Pallets = s.Pallets[1:]
		}, CodePalletMissing},
		{"wrong unloading order", func(t *testing.T, req *Request, p *Result) {
			// Swap the places of a first-stop pallet and a last-stop pallet
			// of one zone and footprint: the last stop's pallet now stands
			// nearer the door.
			fp := map[string]Footprint{}
			for _, pl := range req.Pallets {
				fp[pl.ID] = pl.Footprint
			}
			for i := range p.Routes {
				r := &p.Routes[i]
				if len(r.Stops) < 2 {
					continue
				}
				for _, first := range r.Stops[0].Pallets {
					for _, last := range r.Stops[len(r.Stops)-1].Pallets {
						a, b := -1, -1
						for k, pl := range r.Load.Placements {
							switch pl.Pallet {
							case first:
								a = k
							case last:
								b = k
							}
						}
						pa, pb := &r.Load.Placements[a], &r.Load.Placements[b]
						if pa.Zone != pb.Zone || pa.Row == pb.Row || fp[first] != fp[last] {
							continue
						}
						pa.Pallet, pb.Pallet = pb.Pallet, pa.Pallet
						return
					}
				}
			}
			t.Fatal("no route to break")
		}, "UNLOADING_ORDER"},
		{"one shift drives two trips at once", func(t *testing.T, req *Request, p *Result) {
			for i := range p.Routes {
				for j := range p.Routes {
					a, b := &p.Routes[i], &p.Routes[j]
					if i != j && !b.Start.Before(a.Start) && b.Start.Before(a.Return) {
						b.Shift, b.Trip = a.Shift, 2
						return
					}
				}
			}
			t.Fatal("no two routes at once")
		}, CodeTripOverlap},
		{"pallet delivered twice", func(t *testing.T, req *Request, p *Result) {
			p.Unassigned = append(p.Unassigned, Unassigned{Pallet: p.Routes[0].Stops[0].Pallets[0], Reason: ReasonCapacity})
		}, CodePalletTwice},
		{"lying metric", func(t *testing.T, req *Request, p *Result) { p.Routes[0].Metrics.DistanceM -= 1000 }, CodeMetric},
		{"lying bound", func(t *testing.T, req *Request, p *Result) { p.Metrics.TrailersLowerBound-- }, CodeMetric},
		{"no break", func(t *testing.T, req *Request, p *Result) {
			// Tighten route 0's driver's limits so that the route needs a
			// break it does not take.
			for i := range req.Shifts {
				if req.Shifts[i].ID == p.Routes[0].Shift {
					req.Shifts[i].Limits = &constraints.HoursOfService{BreakAfter: 10 * time.Minute, BreakDuration: 2 * time.Hour}
				}
			}
		}, constraints.CodeBreakRequired},
		{"trailer too long for the store", func(t *testing.T, req *Request, p *Result) {
			for i := range req.Stores {
				if req.Stores[i].ID == p.Routes[0].Stops[0].Store {
					req.Stores[i].MaxTrailerLengthMM = 5000
				}
			}
		}, CodeTrailerTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, plan := sample(t)
			req = cloneRequest(t, req)
			tc.break_(t, &req, &plan)
			err := Validate(req, plan)
			if !errors.Is(err, constraints.ErrInvalid) {
				t.Fatalf("want a violation %s, got %v", tc.code, err)
			}
			if vs := constraints.AsViolations(err); !vs.Has(tc.code) {
				t.Fatalf("want code %s, got %v", tc.code, vs)
			}
		})
	}
}

func cloneRequest(t *testing.T, r Request) Request {
	t.Helper()
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
