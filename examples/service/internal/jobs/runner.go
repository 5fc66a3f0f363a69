package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Why a running search was stopped: the cause of its context.
var (
	// ErrCancelled: this process was told to cancel the job (Runner.Cancel).
	ErrCancelled = errors.New("jobs: job cancelled")
	// ErrLeaseLost: the store says the job is no longer this process's
	// (cancelled through another process, or taken over after its lease).
	ErrLeaseLost = errors.New("jobs: job no longer held by this process")
	// ErrLeaseExpired: the lease could not be renewed before it ended, so
	// another process may run the job by now.
	ErrLeaseExpired = errors.New("jobs: job lease expired before it could be renewed")
	// ErrShutdown: the runner is stopping; the job goes back to the queue.
	ErrShutdown = errors.New("jobs: runner stopping")
)

// snoozeWhileStopping is how long a River job fetched while the runner
// stops waits before it is offered again (to another process, or to this
// one after its restart).
const snoozeWhileStopping = 2 * time.Second

// Runner runs planning jobs in this process: it registers the planning
// worker with the store's River client, renews the leases of the jobs it
// runs, recovers the jobs of dead processes, and cancels running searches
// on request. Its methods are safe for concurrent use.
type Runner struct {
	store store.Store
	cfg   Config
	log   *slog.Logger

	mu       sync.Mutex
	runs     map[*run]struct{} // the Work calls in flight
	started  bool
	stopping bool
	stopBg   context.CancelFunc

	works sync.WaitGroup // Work calls in flight
	bg    sync.WaitGroup // lease renewer and recoverer

	// plan is the planning call: engine.Plan, unless a test puts a fault
	// in its place.
	plan func(ctx context.Context, req engine.Request) (engine.Result, error)

	// planEnded, when set (by tests), hears when each search returns and
	// why its context ended (nil when it did not).
	planEnded func(jobID string, at time.Time, cause error)
	// stuckAfter is when a search that has not returned is given up on:
	// time.After, unless a test waits for the search however long it
	// takes.
	stuckAfter func(d time.Duration) <-chan time.Time
}

// run is one Work call: the job it claimed, once it has.
type run struct {
	cancel context.CancelCauseFunc
	// jobID is set once the store has made this process the job's
	// runner (claimed); until then there is no lease to renew.
	jobID      string
	claimed    bool
	leaseUntil time.Time
	expired    bool // the search was stopped for its lease's end
}

// NewRunner returns a runner of the planning jobs of st. The zero Config
// means the documented defaults; a Config that Check rejects is an error
// listing every bad field.
func NewRunner(st store.Store, cfg Config) (*Runner, error) {
	if st == nil {
		return nil, errors.New("jobs: no store")
	}
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("jobs: bad config: %w", err)
	}
	cfg = cfg.withDefaults()
	return &Runner{
		store:      st,
		cfg:        cfg,
		log:        cfg.Logger.With(slog.String("owner", cfg.Owner)),
		runs:       map[*run]struct{}{},
		plan:       engine.Plan,
		stuckAfter: time.After,
	}, nil
}

// Owner is the name under which this runner holds job leases.
func (r *Runner) Owner() string { return r.cfg.Owner }

// Start starts working planning jobs: the store's River client runs with
// the planning worker and at most Config.MaxJobs jobs at once, and the
// lease renewer and the recoverer of dead processes' jobs run, until Stop:
// ctx bounds starting only (its values reach the jobs, its end does not).
// A Runner starts once.
func (r *Runner) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return errors.New("jobs: runner already started (a Runner starts once)")
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &planWorker{r: r}); err != nil {
		return fmt.Errorf("jobs: registering the planning worker: %w", err)
	}
	// Jobs whose process died go back to the queue (or fail) before this
	// process takes jobs: a queue entry of such a job must not claim it
	// for one more run than Config.MaxAttempts allows.
	r.recoverOnce(ctx)
	if err := r.store.Start(ctx, workers, r.cfg.MaxJobs); err != nil {
		return fmt.Errorf("jobs: starting the job queue: %w", err)
	}
	r.started = true
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	r.stopBg = stop
	r.bg.Add(2)
	go func() {
		defer r.bg.Done()
		r.renewLeases(bg)
	}()
	go func() {
		defer r.bg.Done()
		r.recoverJobs(bg)
	}()
	r.log.Info("planning jobs runner started", slog.Int("max_jobs", r.cfg.MaxJobs),
		slog.Int("workers_per_job", r.cfg.workers()), slog.Duration("max_time_limit", r.cfg.MaxTimeLimit),
		slog.Duration("grace", r.cfg.Grace), slog.Int("max_streams", r.cfg.MaxStreams),
		slog.Int("tenant_running_jobs", r.cfg.TenantRunningJobs), slog.Duration("lease", r.cfg.Lease))
	return nil
}

// Cancel stops the search of job jobID if this process runs it, within
// the engine's reaction time (milliseconds). It records nothing: the
// caller has cancelled the job in the store (store.CancelJob) already. A
// job this process does not run is ignored; the process that runs it
// hears of the cancel through River or its next lease renewal.
func (r *Runner) Cancel(jobID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for rn := range r.runs {
		if rn.claimed && rn.jobID == jobID {
			rn.cancel(ErrCancelled)
			r.log.Info("planning job cancelled", slog.String("job_id", jobID))
		}
	}
}

// Stop stops the runner for a clean shutdown: no new job starts here,
// running searches are stopped and their jobs handed back to the queue
// (QUEUED, to run again here after a restart or in another process), then
// the store's River client stops. It returns when all is done or ctx ends;
// jobs still held then are recovered after their lease like those of a
// dead process.
func (r *Runner) Stop(ctx context.Context) error {
	r.mu.Lock()
	if !r.started {
		r.mu.Unlock()
		return errors.New("jobs: runner not started")
	}
	if r.stopping {
		r.mu.Unlock()
		return errors.New("jobs: runner already stopped")
	}
	r.stopping = true
	for rn := range r.runs {
		rn.cancel(ErrShutdown)
	}
	held := len(r.runs)
	r.mu.Unlock()

	var errs []error
	if err := wait(ctx, &r.works); err != nil {
		errs = append(errs, fmt.Errorf("jobs: waiting for running jobs to stop: %w", err))
	}
	r.stopBg()
	if err := wait(ctx, &r.bg); err != nil {
		errs = append(errs, fmt.Errorf("jobs: waiting for the lease renewer: %w", err))
	}
	if err := r.store.ReleaseOwner(ctx, r.cfg.Owner); err != nil {
		errs = append(errs, fmt.Errorf("jobs: handing running jobs back to the queue: %w", err))
	}
	if err := r.store.Stop(ctx); err != nil {
		errs = append(errs, fmt.Errorf("jobs: stopping the job queue: %w", err))
	}
	r.log.Info("planning jobs runner stopped", slog.Int("jobs_handed_back", held))
	return errors.Join(errs...)
}

// wait waits for wg or for ctx to end.
func wait(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enter registers a Work call, with a context for its search that
// Cancel, the lease renewer and Stop can end. It returns ErrShutdown when
// the runner stops: no job starts then.
func (r *Runner) enter(ctx context.Context) (context.Context, *run, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return nil, nil, ErrShutdown
	}
	planCtx, cancel := context.WithCancelCause(ctx)
	rn := &run{cancel: cancel}
	r.runs[rn] = struct{}{}
	r.works.Add(1)
	return planCtx, rn, nil
}

// claimed records that the store made this process jobID's runner until
// leaseUntil.
func (r *Runner) claimed(rn *run, jobID string, leaseUntil time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rn.jobID, rn.claimed, rn.leaseUntil = jobID, true, leaseUntil
}

// leave ends a Work call that enter registered.
func (r *Runner) leave(rn *run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rn.cancel(nil)
	delete(r.runs, rn)
	r.works.Done()
}
