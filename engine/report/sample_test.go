package report

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/paulmach/orb"

	"github.com/haulplan/haulplan/engine"
)

// planned is a plan of the quickstart's sample, made once per test binary.
type planned struct {
	once sync.Once
	req  engine.Request
	plan engine.Result
	err  error
}

var sample, sampleBreaks planned

// samplePlan plans the quickstart's sample with an iteration budget, once
// per test binary, so that every test reads the same plan on any machine.
func samplePlan(t testing.TB) (engine.Request, engine.Result) {
	t.Helper()
	return sample.get(t, nil)
}

// breaksPlan plans the sample with a break due after 2 h of driving
// instead of 8 h, so that many routes take an hours-of-service break.
func breaksPlan(t testing.TB) (engine.Request, engine.Result) {
	t.Helper()
	return sampleBreaks.get(t, func(req *engine.Request) { req.HoursOfService.BreakAfter = 2 * time.Hour })
}

func (s *planned) get(t testing.TB, change func(*engine.Request)) (engine.Request, engine.Result) {
	t.Helper()
	s.once.Do(func() {
		f, err := os.Open("../../examples/quickstart/sample.json")
		if err != nil {
			s.err = err
			return
		}
		defer f.Close()
		req, err := engine.DecodeRequest(f)
		if err != nil {
			s.err = err
			return
		}
		req.Options.Iterations = 300
		req.Options.Streams = 2
		if change != nil {
			change(&req)
		}
		plan, err := engine.Plan(context.Background(), req)
		if err == nil {
			err = engine.Validate(req, plan)
		}
		s.req, s.plan, s.err = req, plan, err
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.req, s.plan
}

// breakStops lists the plan's stops that state a break, as route and stop
// indices.
func breakStops(plan engine.Result) [][2]int {
	var out [][2]int
	for i, r := range plan.Routes {
		for k, s := range r.Stops {
			if s.Break != nil {
				out = append(out, [2]int{i, k})
			}
		}
	}
	return out
}

func dcPoint(req engine.Request) orb.Point {
	return orb.Point{req.DC.Location.Lng, req.DC.Location.Lat}
}
