package engine

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestPlanIsTheSameOnAnyNumberOfCores: with an iteration budget, the same
// request and seed give a byte-identical plan whether one core or four run
// the search streams, and whatever Workers says.
func TestPlanIsTheSameOnAnyNumberOfCores(t *testing.T) {
	req, _ := sample(t)
	req.Options.Iterations = 100
	req.Options.TimeLimit = constraints.Duration(5 * time.Minute) // the iteration budget ends the search
	req.Stores = req.Stores[:8]
	var pallets []Pallet
	for _, p := range req.Pallets {
		for _, s := range req.Stores {
			if p.Store == s.ID {
				pallets = append(pallets, p)
			}
		}
	}
	req.Pallets = pallets
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []byte
	for _, run := range []struct{ procs, workers int }{{1, 0}, {4, 0}, {2, 3}} {
		runtime.GOMAXPROCS(run.procs)
		req.Options.Workers = run.workers
		plan, err := Plan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := MarshalIndent(plan)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
			if plan.Metrics.Routes == 0 {
				t.Fatal("no routes: the test exercises nothing")
			}
			continue
		}
		if string(b) != string(first) {
			t.Fatalf("GOMAXPROCS %d with %d workers gave another plan than GOMAXPROCS 1", run.procs, run.workers)
		}
	}
}
