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
	err := Config{MaxJobs: -1, MaxAttempts: -2, ProgressEvery: -time.Second, PlanEvery: -1, Lease: 10 * time.Second, RenewEvery: time.Minute}.Check()
	var vs constraints.Violations
	if !errors.As(err, &vs) {
		t.Fatalf("Check: %v, want constraints.Violations", err)
	}
	got := map[string]bool{}
	for _, v := range vs {
		got[v.Path] = true
	}
	for _, path := range []string{"MaxJobs", "MaxAttempts", "ProgressEvery", "PlanEvery", "RenewEvery"} {
		if !got[path] {
			t.Errorf("no violation at %s in %v", path, err)
		}
	}
	if len(vs) != 5 {
		t.Errorf("%d violations, want 5: %v", len(vs), err)
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
	for _, c := range []struct {
		name     string
		in, want engine.Options
	}{
		{"defaults", engine.Options{}, engine.Options{TimeLimit: engine.DefaultTimeLimit, Workers: cores}},
		{"over the cap", engine.Options{TimeLimit: time.Hour}, engine.Options{TimeLimit: 20 * time.Second, Workers: cores}},
		{"less asked", engine.Options{TimeLimit: time.Second, Workers: 1}, engine.Options{TimeLimit: time.Second, Workers: 1}},
		{"more cores asked", engine.Options{Workers: cores + 8}, engine.Options{TimeLimit: engine.DefaultTimeLimit, Workers: cores}},
	} {
		o := c.in
		r.limit(&o)
		if o.TimeLimit != c.want.TimeLimit || o.Workers != c.want.Workers {
			t.Errorf("%s: %v, %d workers; want %v, %d", c.name, o.TimeLimit, o.Workers, c.want.TimeLimit, c.want.Workers)
		}
	}
	r, _ = NewRunner(newMemStore(), Config{MaxJobs: 4 * cores})
	o := engine.Options{}
	r.limit(&o)
	if o.Workers != 1 {
		t.Errorf("%d jobs on %d cores: %d workers each, want 1", 4*cores, cores, o.Workers)
	}
}
