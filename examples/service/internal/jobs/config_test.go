package jobs

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

func TestConfigCheckListsEveryBadField(t *testing.T) {
	err := Config{MaxJobs: -1, MaxAttempts: -2, ProgressEvery: -time.Second, PlanEvery: -1, Lease: 10 * time.Second, RenewEvery: time.Minute,
		Grace: -time.Second, MaxStreams: -4, TenantRunningJobs: -1}.Check()
	var vs constraints.Violations
	if !errors.As(err, &vs) {
		t.Fatalf("Check: %v, want constraints.Violations", err)
	}
	got := map[string]bool{}
	for _, v := range vs {
		got[v.Path] = true
	}
	paths := []string{"MaxJobs", "MaxAttempts", "ProgressEvery", "PlanEvery", "RenewEvery", "Grace", "MaxStreams", "TenantRunningJobs"}
	for _, path := range paths {
		if !got[path] {
			t.Errorf("no violation at %s in %v", path, err)
		}
	}
	if len(vs) != len(paths) {
		t.Errorf("%d violations, want %d: %v", len(vs), len(paths), err)
	}
	if _, err := NewRunner(newMemStore(), Config{MaxJobs: -1}); err == nil || !strings.Contains(err.Error(), "MaxJobs") {
		t.Errorf("NewRunner with a bad config: %v", err)
	}
	if err := (Config{}).Check(); err != nil {
		t.Errorf("the zero Config: %v", err)
	}
	if err := (Config{Lease: 2 * time.Second}).Check(); err == nil {
		t.Error("a 2 s lease with the default 5 s renewals passes Check")
	}
}

func TestLimitCapsTheSearchAndSharesTheCores(t *testing.T) {
	r, err := NewRunner(newMemStore(), Config{MaxTimeLimit: 20 * time.Second, MaxJobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	cores := runtime.GOMAXPROCS(0)
	def := engine.DefaultStreams
	for _, c := range []struct {
		name     string
		in, want engine.Options
	}{
		{"defaults", engine.Options{}, engine.Options{TimeLimit: engine.DefaultTimeLimit, Workers: cores, Streams: def}},
		{"over the cap", engine.Options{TimeLimit: time.Hour, Streams: 256}, engine.Options{TimeLimit: 20 * time.Second, Workers: cores, Streams: def}},
		{"less asked", engine.Options{TimeLimit: time.Second, Workers: 1, Streams: 1}, engine.Options{TimeLimit: time.Second, Workers: 1, Streams: 1}},
		{"more cores asked", engine.Options{Workers: cores + 8}, engine.Options{TimeLimit: engine.DefaultTimeLimit, Workers: cores, Streams: def}},
	} {
		req := engine.Request{Options: c.in}
		r.limit(&req)
		if o := req.Options; o.TimeLimit != c.want.TimeLimit || o.Workers != c.want.Workers || o.Streams != c.want.Streams {
			t.Errorf("%s: %v, %d workers, %d streams; want %v, %d, %d", c.name, o.TimeLimit, o.Workers, o.Streams,
				c.want.TimeLimit, c.want.Workers, c.want.Streams)
		}
	}
	// A re-plan that sets no time limit gets the engine's re-plan default.
	req := engine.Request{Previous: &engine.Result{}}
	if r.limit(&req); req.Options.TimeLimit != engine.DefaultReplanTimeLimit {
		t.Errorf("a re-plan's default time limit: %v, want %v", req.Options.TimeLimit, engine.DefaultReplanTimeLimit)
	}
	// An operator's lower cap binds the engine's default as well.
	r, _ = NewRunner(newMemStore(), Config{MaxStreams: 2})
	for _, asked := range []int{0, 3} {
		req := engine.Request{Options: engine.Options{Streams: asked}}
		if r.limit(&req); req.Options.Streams != 2 {
			t.Errorf("%d streams asked under a cap of 2: %d", asked, req.Options.Streams)
		}
	}
	r, _ = NewRunner(newMemStore(), Config{MaxJobs: 4 * cores})
	req = engine.Request{}
	r.limit(&req)
	if req.Options.Workers != 1 {
		t.Errorf("%d jobs on %d cores: %d workers each, want 1", 4*cores, cores, req.Options.Workers)
	}
}
