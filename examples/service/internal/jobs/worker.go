package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
	"github.com/haulplan/haulplan/routeplan"
)

// planWorker is the River worker of planning jobs.
type planWorker struct {
	river.WorkerDefaults[store.PlanArgs]
	r *Runner
}

// Timeout turns River's job timeout (a minute by default) off for planning
// jobs: River's timeout would start before the job is claimed and know
// nothing of its time limit, which is in the stored request, and a River
// job ended by it is retried by River. Each search runs under a deadline
// of its own instead, its time limit plus Config.Grace, set once the
// request is read (see search); a dead process is told from a long search
// by its lease.
func (w *planWorker) Timeout(*river.Job[store.PlanArgs]) time.Duration { return -1 }

// Work runs one planning job: the one whose turn it is (store.ClaimNext),
// which need not be the job the River job was enqueued for. The job's row
// in the store is the truth: River's job only wakes a worker, so every
// outcome that leaves the row right returns nil, and River never retries a
// plan. A returned error is one the store gave before a job was claimed
// (River retries later, which is safe: a claimed or finished job is not
// claimed again).
func (w *planWorker) Work(ctx context.Context, job *river.Job[store.PlanArgs]) error {
	return w.r.work(ctx, job.ID, job.Args)
}

func (r *Runner) work(ctx context.Context, riverJobID int64, args store.PlanArgs) error {
	log := r.log.With(slog.Int64("river_job_id", riverJobID), slog.String("queued_for", args.JobID))
	planCtx, rn, err := r.enter(ctx)
	if err != nil {
		// Shutting down: offer the job again later, to another process
		// or to this one after its restart; the job's row is still QUEUED.
		return river.JobSnooze(snoozeWhileStopping)
	}
	defer r.leave(rn)

	leaseUntil := time.Now().Add(r.cfg.Lease)
	j, err := r.store.ClaimNext(ctx, store.Claim{RiverJobID: riverJobID, JobID: args.JobID, Owner: r.cfg.Owner,
		LeaseUntil: leaseUntil, TenantRunning: r.cfg.TenantRunningJobs})
	switch {
	case errors.Is(err, store.ErrNothingRunnable):
		log.Debug("no queued planning job may start: each tenant with one runs its share; the job waits")
		return nil
	case errors.Is(err, store.ErrLeaseLost):
		log.Info("planning job finished, cancelled or run elsewhere; stale queue entry ignored")
		return nil
	case errors.Is(err, store.ErrNotFound):
		log.Warn("planning job not in the store; queue entry ignored")
		return nil
	case err != nil:
		return fmt.Errorf("jobs: claiming a job for river job %d: %w", riverJobID, err)
	}
	r.claimed(rn, j.ID, leaseUntil)
	log = r.log.With(slog.String("job_id", j.ID), slog.String("tenant", j.TenantID), slog.Int("attempt", j.Attempt))
	if planCtx.Err() != nil { // cancelled or stopping while it was claimed
		r.ended(planCtx, log)
		return nil
	}
	// A panic in this process's own part of the job (not the search's,
	// which search recovers) is a bug too: the job fails with an internal
	// error, the log has the stack, and the process goes on serving.
	defer func() {
		if p := recover(); p != nil {
			log.Error("planning job panicked", slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
			r.finish(j.ID, store.JobFailed, nil, internalFailure, log)
		}
	}()
	r.run(planCtx, j, rn, log)
	return nil
}

// run plans claimed job j and records how it ended.
func (r *Runner) run(planCtx context.Context, j store.Job, rn *run, log *slog.Logger) {
	req, err := engine.DecodeRequest(bytes.NewReader(j.Request))
	if err != nil {
		// The API checks requests before it queues them; a request that
		// fails here was stored by another version, say.
		r.finish(j.ID, store.JobFailed, nil, "the stored request does not read: "+err.Error(), log)
		return
	}
	r.limit(&req)
	saver := newProgressSaver(r, j.ID, rn, log)
	req.Options.Progress = saver.report
	saving := saver.start(planCtx)
	defer saving.stop()

	log.Info("planning job started", slog.Duration("time_limit", req.Options.TimeLimit), slog.Duration("grace", r.cfg.Grace),
		slog.Int("streams", req.Options.Streams), slog.Int("workers", req.Options.Workers), slog.Int("pallets", len(req.Pallets)))
	began := time.Now()
	o, late := r.search(planCtx, req)
	if late != nil {
		// The search ignored its deadline: the job fails now, and this
		// worker stays taken until the search returns, so that no other
		// job starts on the cores it still uses.
		saving.stop()
		if planCtx.Err() == nil {
			log.Error("planning job's search did not stop at its deadline", slog.Duration("took", time.Since(began)))
			r.finish(j.ID, store.JobFailed, nil, fmt.Sprintf("the search ran past its time limit (%v) and the service's grace period (%v) twice over without stopping; it had no plan to keep",
				req.Options.TimeLimit, r.cfg.Grace), log)
		}
		o = <-late
		log.Warn("planning job's search that did not stop has returned; its outcome is dropped", slog.Duration("took", time.Since(began)))
	}
	if r.planEnded != nil {
		r.planEnded(j.ID, time.Now(), o.cause)
	}
	saving.stop()
	if late != nil {
		return
	}
	if errors.Is(context.Cause(planCtx), errPanicked) {
		r.finish(j.ID, store.JobFailed, nil, internalFailure, log)
		return
	}
	if planCtx.Err() != nil {
		r.ended(planCtx, log)
		return
	}
	overran := errors.Is(o.cause, ErrDeadline)
	if r.searchFailed(j.ID, req.Options.TimeLimit, o, overran, log) {
		return
	}
	body, err := json.Marshal(o.plan)
	if err != nil {
		r.finish(j.ID, store.JobFailed, nil, "writing the plan: "+err.Error(), log)
		return
	}
	done := log.Info
	if overran {
		done = log.Warn // the search was stopped at its deadline: its best plan is kept
	}
	done("planning job completed", slog.Duration("took", time.Since(began)), slog.Bool("stopped_at_deadline", overran),
		slog.Int("routes", o.plan.Metrics.Routes), slog.Int("pallets", o.plan.Metrics.Pallets),
		slog.Int("unassigned", o.plan.Metrics.Unassigned))
	if final, ok := saver.final(); ok {
		r.saveFinalProgress(j.ID, final, log)
	}
	r.finish(j.ID, store.JobCompleted, body, "", log)
}

// searchFailed records job id as failed, with the reason and the log line
// that suit, when its search o returned no plan: it panicked, failed on an
// internal error, was stopped at its deadline (overran) before it had a
// plan, or failed on its input. It reports whether it did.
func (r *Runner) searchFailed(id string, timeLimit time.Duration, o outcome, overran bool, log *slog.Logger) bool {
	var panicked *searchPanic
	switch {
	case errors.As(o.err, &panicked):
		log.Error("planning job's search panicked", slog.String("panic", fmt.Sprint(panicked.value)), slog.String("stack", string(panicked.stack)))
		r.finish(id, store.JobFailed, nil, internalFailure, log)
	case errors.Is(o.err, engine.ErrInternal):
		attrs := []any{slog.String("error", o.err.Error())}
		if pe := (*routeplan.PanicError)(nil); errors.As(o.err, &pe) {
			attrs = append(attrs, slog.String("stack", string(pe.Stack)))
		}
		log.Error("planning job failed on an internal error", attrs...)
		r.finish(id, store.JobFailed, nil, internalFailure, log)
	case o.err != nil && overran:
		log.Warn("planning job stopped at its deadline without a plan", slog.String("error", o.err.Error()))
		r.finish(id, store.JobFailed, nil, fmt.Sprintf("the search ran past its time limit (%v) and the service's grace period (%v) and was stopped before it had a plan",
			timeLimit, r.cfg.Grace), log)
	case o.err != nil:
		log.Warn("planning job failed", slog.String("error", o.err.Error()))
		r.finish(id, store.JobFailed, nil, o.err.Error(), log)
	default:
		return false
	}
	return true
}

// saveFinalProgress saves the engine's last report, phase DONE with the
// finished plan's own numbers, before the job's end is recorded: the
// saver spaces its saves, so what it saved last is a report from the
// search (ROUTING, say, with the cost of a routing solution), which would
// otherwise stay the COMPLETED job's progress. A failure is logged; the
// plan is recorded all the same.
func (r *Runner) saveFinalProgress(jobID string, p engine.Progress, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.FinishTimeout)
	defer cancel()
	err := r.store.SaveProgress(ctx, jobID, r.cfg.Owner, storeProgress(p), nil)
	if err != nil && !errors.Is(err, store.ErrLeaseLost) { // a lost lease: finish says so
		log.Warn("saving the planning job's final progress failed", slog.String("error", err.Error()))
	}
}

// limit caps the search time of req at Config.MaxTimeLimit and the
// streams at Config.MaxStreams, and gives the search its share of the
// cores (a request may ask for less of each). A request that sets no
// time limit gets the engine's default, a re-plan's (engine.
// DefaultReplanTimeLimit) when it carries a previous plan.
func (r *Runner) limit(req *engine.Request) {
	o := &req.Options
	switch {
	case o.TimeLimit == 0 && req.Previous != nil:
		o.TimeLimit = engine.DefaultReplanTimeLimit
	case o.TimeLimit == 0:
		o.TimeLimit = engine.DefaultTimeLimit
	}
	o.TimeLimit = min(o.TimeLimit, r.cfg.MaxTimeLimit)
	if o.Streams == 0 {
		o.Streams = engine.DefaultStreams
	}
	o.Streams = min(o.Streams, r.cfg.MaxStreams)
	if share := r.cfg.workers(); o.Workers == 0 || o.Workers > share {
		o.Workers = share
	}
}

// ended logs why a job's search was stopped. Nothing is recorded: a
// cancelled job is CANCELLED already, a lost one is another process's, and
// on shutdown Stop hands the job back to the queue. When River ended the
// job's context on its own (its client stopped, say), the job is left to
// its lease, and then requeued like a dead process's.
func (r *Runner) ended(planCtx context.Context, log *slog.Logger) {
	cause := context.Cause(planCtx)
	switch {
	case errors.Is(cause, ErrCancelled), errors.Is(cause, river.ErrJobCancelledRemotely):
		log.Info("planning job search stopped: job cancelled")
	case errors.Is(cause, ErrShutdown):
		log.Info("planning job search stopped: shutting down; the job goes back to the queue")
	case errors.Is(cause, ErrLeaseLost), errors.Is(cause, ErrLeaseExpired):
		log.Warn("planning job search stopped", slog.String("cause", cause.Error()))
	default:
		log.Warn("planning job search stopped by the queue; the job is requeued when its lease ends",
			slog.String("cause", cause.Error()))
	}
}

// finish records a job's end, retrying a failing store call a few times
// within Config.FinishTimeout, even when the job's context has ended (a
// finished plan is worth keeping). If it still fails, the job stays
// RUNNING under this process only until its lease ends (the Work call has
// returned, so nobody renews it) and then runs again elsewhere.
func (r *Runner) finish(jobID string, status store.JobStatus, plan []byte, msg string, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.FinishTimeout)
	defer cancel()
	for pause := 100 * time.Millisecond; ; pause *= 2 {
		err := r.store.FinishJob(ctx, jobID, r.cfg.Owner, status, plan, msg)
		switch {
		case err == nil:
			return
		case errors.Is(err, store.ErrLeaseLost):
			log.Info("planning job no longer held by this process; its end is not recorded",
				slog.String("status", string(status)))
			return
		}
		log.Warn("recording the planning job's end failed", slog.String("status", string(status)),
			slog.String("error", err.Error()))
		select {
		case <-ctx.Done():
			log.Error("planning job's end not recorded; it runs again after its lease", slog.String("status", string(status)))
			return
		case <-time.After(pause):
		}
	}
}
