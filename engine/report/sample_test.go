package report

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/paulmach/orb"

	"github.com/haulplan/haulplan/engine"
)

var sample struct {
	once sync.Once
	req  engine.Request
	plan engine.Result
	err  error
}

// samplePlan plans the quickstart's sample with an iteration budget, once
// per test binary, so that every test reads the same plan on any machine.
func samplePlan(t testing.TB) (engine.Request, engine.Result) {
	t.Helper()
	sample.once.Do(func() {
		f, err := os.Open("../../examples/quickstart/sample.json")
		if err != nil {
			sample.err = err
			return
		}
		defer f.Close()
		req, err := engine.DecodeRequest(f)
		if err != nil {
			sample.err = err
			return
		}
		req.Options.Iterations = 300
		req.Options.Streams = 2
		plan, err := engine.Plan(context.Background(), req)
		if err == nil {
			err = engine.Validate(req, plan)
		}
		sample.req, sample.plan, sample.err = req, plan, err
	})
	if sample.err != nil {
		t.Fatal(sample.err)
	}
	return sample.req, sample.plan
}

func dcPoint(req engine.Request) orb.Point {
	return orb.Point{req.DC.Location.Lng, req.DC.Location.Lat}
}
