package jobs

import (
	"log/slog"
	"runtime"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// Defaults of the zero Config's fields.
const (
	// DefaultMaxJobs is how many planning jobs one process runs at once.
	DefaultMaxJobs = 2
	// DefaultMaxTimeLimit caps the search time a request may ask for.
	DefaultMaxTimeLimit = 5 * time.Minute
	// DefaultLease is how long a claim or renewal holds a job: a process
	// that stops renewing (it died, or lost the database) loses its jobs
	// this long after its last renewal.
	DefaultLease = 30 * time.Second
	// DefaultRenewEvery is how often leases are renewed: six renewals fit
	// in a lease, so a few slow or failed database calls lose nothing.
	DefaultRenewEvery = 5 * time.Second
	// DefaultRecoverEvery is how often the store is asked for jobs whose
	// lease ended.
	DefaultRecoverEvery = 10 * time.Second
	// DefaultMaxAttempts is how many runs a job gets before a job whose
	// lease ended is FAILED instead of requeued.
	DefaultMaxAttempts = 3
	// DefaultProgressEvery is the least time between two progress saves.
	DefaultProgressEvery = time.Second
	// DefaultPlanEvery is the least time between two saves of the best
	// plan so far: building it lays out every route, so not on every
	// report.
	DefaultPlanEvery = 3 * time.Second
	// DefaultFinishTimeout bounds the store call that records a job's end
	// (and its retries), which runs even when the job's context has ended.
	DefaultFinishTimeout = 10 * time.Second
)

// Config tunes a Runner. The zero value means the defaults above.
type Config struct {
	// Owner names this process in the job rows it claims; it must be
	// unique per process start. Empty means hostname, process id and a
	// random part (see NewOwner).
	Owner string
	// MaxJobs is how many planning jobs run at once in this process. Each
	// job's search gets GOMAXPROCS/MaxJobs goroutines (at least one), so
	// that jobs running together share the cores instead of crowding
	// them.
	MaxJobs int
	// MaxTimeLimit caps the search time: a request asking for more (or for
	// the engine's default, when that is more) gets MaxTimeLimit.
	MaxTimeLimit time.Duration
	// Lease, RenewEvery and RecoverEvery: see the package documentation.
	// RenewEvery must be at most half the Lease.
	Lease        time.Duration
	RenewEvery   time.Duration
	RecoverEvery time.Duration
	// MaxAttempts is how many runs a job gets; a job whose lease ends
	// after that many is FAILED.
	MaxAttempts int
	// ProgressEvery and PlanEvery space the saves of a running job's
	// progress and of its best plan so far.
	ProgressEvery time.Duration
	PlanEvery     time.Duration
	// FinishTimeout bounds recording a job's end.
	FinishTimeout time.Duration
	// Logger receives the runner's log lines; nil means slog.Default().
	Logger *slog.Logger
}

// Check reports every field of c that no Runner can work with, each with
// its name as the path. Zero fields are fine: they mean the defaults.
func (c Config) Check() error {
	var vs constraints.Violations
	positive := func(path string, d time.Duration) {
		if d < 0 {
			vs.Add(engine.CodeInvalidValue, path, "must not be negative, not %v (0 means the default)", d)
		}
	}
	if c.MaxJobs < 0 {
		vs.Add(engine.CodeInvalidValue, "MaxJobs", "must not be negative, not %d (0 means %d)", c.MaxJobs, DefaultMaxJobs)
	}
	if c.MaxAttempts < 0 {
		vs.Add(engine.CodeInvalidValue, "MaxAttempts", "must not be negative, not %d (0 means %d)", c.MaxAttempts, DefaultMaxAttempts)
	}
	positive("MaxTimeLimit", c.MaxTimeLimit)
	positive("Lease", c.Lease)
	positive("RenewEvery", c.RenewEvery)
	positive("RecoverEvery", c.RecoverEvery)
	positive("ProgressEvery", c.ProgressEvery)
	positive("PlanEvery", c.PlanEvery)
	positive("FinishTimeout", c.FinishTimeout)
	if d := c.withDefaults(); c.Lease >= 0 && c.RenewEvery >= 0 && d.RenewEvery > d.Lease/2 {
		vs.Add(engine.CodeInvalidValue, "RenewEvery",
			"must be at most half the lease (%v), not %v: a lease would end between two renewals", d.Lease, d.RenewEvery)
	}
	return vs.Err()
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	set := func(d *time.Duration, def time.Duration) {
		if *d == 0 {
			*d = def
		}
	}
	if c.Owner == "" {
		c.Owner = NewOwner()
	}
	if c.MaxJobs == 0 {
		c.MaxJobs = DefaultMaxJobs
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	set(&c.MaxTimeLimit, DefaultMaxTimeLimit)
	set(&c.Lease, DefaultLease)
	set(&c.RenewEvery, DefaultRenewEvery)
	set(&c.RecoverEvery, DefaultRecoverEvery)
	set(&c.ProgressEvery, DefaultProgressEvery)
	set(&c.PlanEvery, DefaultPlanEvery)
	set(&c.FinishTimeout, DefaultFinishTimeout)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// workers is each job's share of the cores.
func (c Config) workers() int {
	return max(1, runtime.GOMAXPROCS(0)/c.MaxJobs)
}
