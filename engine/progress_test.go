package engine

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestProgressReportsTheBestPlanSoFar: reports come phase by phase, never
// overlap, and each one's Best is a complete plan that Validate accepts,
// built from a snapshot even while the search goes on; the last report's
// plan is the plan Plan returns.
func TestProgressReportsTheBestPlanSoFar(t *testing.T) {
	req := loadSample(t)
	req.Options.TimeLimit = 5 * time.Minute // the iteration budget ends the search
	req.Options.Iterations = 60
	if testing.Short() {
		req.Options.Iterations = 15
	}
	var (
		inFlight atomic.Int32
		overlap  atomic.Bool
		mu       sync.Mutex
		reports  []Progress
	)
	// Best is called on another goroutine while the search runs, as a
	// service saving the best plan so far would.
	bests := make(chan Progress, 1) // reports that come while a plan is built are skipped
	var checked sync.WaitGroup
	var bestErrs atomic.Int32
	var bestsBuilt atomic.Int32
	checked.Add(1)
	go func() {
		defer checked.Done()
		for p := range bests {
			plan, err := p.Best()
			if err != nil {
				t.Errorf("%s report's Best: %v", p.Phase, err)
				bestErrs.Add(1)
				continue
			}
			if err := Validate(req, plan); err != nil {
				t.Errorf("%s report's Best fails Validate: %v", p.Phase, err)
			}
			if plan.Metrics.Pallets+plan.Metrics.Unassigned != len(req.Pallets) {
				t.Errorf("%s report's Best accounts for %d+%d of %d pallets", p.Phase, plan.Metrics.Pallets, plan.Metrics.Unassigned, len(req.Pallets))
			}
			bestsBuilt.Add(1)
		}
	}()
	req.Options.Progress = func(p Progress) {
		if inFlight.Add(1) != 1 {
			overlap.Store(true)
		}
		mu.Lock()
		reports = append(reports, p)
		mu.Unlock()
		if p.Phase != PhaseDone {
			select {
			case bests <- p:
			default:
			}
		}
		inFlight.Add(-1)
	}
	plan, err := Plan(context.Background(), req)
	close(bests)
	checked.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if overlap.Load() {
		t.Fatal("Progress calls overlap")
	}
	if len(reports) < 3 || reports[0].Phase != PhaseOrders || reports[len(reports)-1].Phase != PhaseDone {
		t.Fatalf("%d reports, first %s, last %s; want ORDERS first and DONE last", len(reports), reports[0].Phase, reports[len(reports)-1].Phase)
	}
	routing := 0
	for k, p := range reports {
		if k > 0 && p.Elapsed < reports[k-1].Elapsed {
			t.Fatalf("report %d: elapsed %v after %v", k, p.Elapsed, reports[k-1].Elapsed)
		}
		if p.Phase == PhaseRouting {
			routing++
		}
	}
	if routing == 0 || bestsBuilt.Load() == 0 {
		t.Fatalf("%d routing reports, %d plans built from reports; want some of each", routing, bestsBuilt.Load())
	}
	last := reports[len(reports)-1]
	got, err := last.Best()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := MarshalIndent(got)
	b, _ := MarshalIndent(plan)
	if string(a) != string(b) {
		t.Fatal("the DONE report's plan is not the plan Plan returned")
	}
	if last.Routes != plan.Metrics.Routes || last.Delivered != plan.Metrics.Pallets || last.Cost != plan.Metrics.Cost {
		t.Fatalf("DONE report says %d routes, %d pallets, cost %g; the plan %d, %d, %g", last.Routes, last.Delivered, last.Cost,
			plan.Metrics.Routes, plan.Metrics.Pallets, plan.Metrics.Cost)
	}
}

// TestCancelReturnsTheBestPlanSoFar: cancelling the context during a
// search ends it with the best plan so far, which validates. The time
// limit is an hour, so only the cancel can end the search within the test
// run (go test's -timeout ends a run that hangs). The cancel comes once
// the search reports a plan with routes, not after some time: a loaded
// machine only makes that later.
func TestCancelReturnsTheBestPlanSoFar(t *testing.T) {
	req := loadSample(t)
	req.Options.TimeLimit = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	routed := make(chan struct{})
	var once sync.Once
	req.Options.Progress = func(p Progress) {
		if p.Phase == PhaseRouting && p.Routes > 0 {
			once.Do(func() { close(routed) })
		}
	}
	done := make(chan struct{})
	var plan Result
	var err error
	go func() {
		plan, err = Plan(ctx, req)
		close(done)
	}()
	select {
	case <-routed:
	case <-done:
		t.Fatalf("Plan returned before the cancel (err %v)", err)
	}
	cancelled := time.Now()
	cancel()
	<-done
	t.Logf("returned %v after the cancel", time.Since(cancelled))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Metrics.Routes == 0 {
		t.Fatal("no routes, though the search had reported some before the cancel")
	}
	if err := Validate(req, plan); err != nil {
		t.Fatal(err)
	}
}
