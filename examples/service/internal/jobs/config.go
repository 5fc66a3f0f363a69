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
	// DefaultGrace is how long past its time limit a job may run. Past
	// the limit engine.Plan finishes the step under way, lays out the
	// routes and validates the plan: about 3 s of one core at the
	// engine's largest request (engine.Options.TimeLimit), so 10 s leaves
	// room for a core shared with another job.
	DefaultGrace = 10 * time.Second
	// DefaultTenantRunningJobs is how many jobs of one tenant run at
	// once, across every process that shares the store.
	DefaultTenantRunningJobs = 1
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
	// Grace is how long past its time limit a job may run (0:
	// DefaultGrace). At the time limit plus Grace the search's context
	// ends: a plan engine.Plan returns then is recorded (COMPLETED), like
	// any plan of a search stopped early. A search that has not returned
	// one more Grace later is FAILED, and its worker stays taken until it
	// returns.
	Grace time.Duration
	// MaxStreams caps options.streams (0: engine.DefaultStreams): a job
	// asking for more, or for the engine's default when that is more,
	// runs MaxStreams. The API refuses requests that ask for more; this
	// holds the jobs it queued before, under another limit.
	MaxStreams int
	// TenantRunningJobs is how many jobs of one tenant run at once (0:
	// DefaultTenantRunningJobs), across every process sharing the store:
	// its other jobs wait, and the tenants' queued jobs start in turn
	// (store.Claim).
	TenantRunningJobs int
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
	if c.MaxStreams < 0 {
		vs.Add(engine.CodeInvalidValue, "MaxStreams", "must not be negative, not %d (0 means %d)", c.MaxStreams, engine.DefaultStreams)
	}
	if c.TenantRunningJobs < 0 {
		vs.Add(engine.CodeInvalidValue, "TenantRunningJobs", "must not be negative, not %d (0 means %d)", c.TenantRunningJobs, DefaultTenantRunningJobs)
	}
	positive("MaxTimeLimit", c.MaxTimeLimit)
	positive("Grace", c.Grace)
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
	if c.MaxStreams == 0 {
		c.MaxStreams = engine.DefaultStreams
	}
	if c.TenantRunningJobs == 0 {
		c.TenantRunningJobs = DefaultTenantRunningJobs
	}
	set(&c.MaxTimeLimit, DefaultMaxTimeLimit)
	set(&c.Grace, DefaultGrace)
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
