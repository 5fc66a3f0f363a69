package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// planWorker is the River worker of planning jobs.
type planWorker struct {
	river.WorkerDefaults[store.PlanArgs]
	r *Runner
}

// Timeout turns River's job timeout (a minute by default) off for planning
// jobs: the search is bounded by its time limit (at most
// Config.MaxTimeLimit), and a dead process is told from a long search by
// its lease, not by River.
func (w *planWorker) Timeout(*river.Job[store.PlanArgs]) time.Duration { return -1 }

// Work runs one planning job. The job's row in the store is the truth:
// River's job only says "look at job JobID", so every outcome that leaves
// the row right returns nil, and River never retries a plan. A returned
// error is one the store gave before the job was claimed (River retries
// later, which is safe: a claimed or finished job is not claimed again).
func (w *planWorker) Work(ctx context.Context, job *river.Job[store.PlanArgs]) error {
	return w.r.work(ctx, job.Args)
}

func (r *Runner) work(ctx context.Context, args store.PlanArgs) error {
	log := r.log.With(slog.String("job_id", args.JobID), slog.Int("river_attempt", args.Attempt))
	planCtx, rn, err := r.enter(ctx, args.JobID)
	switch {
	case errors.Is(err, ErrShutdown):
		// Offer the job again later, to another process or to this one
		// after its restart; the job's row is still QUEUED.
		return river.JobSnooze(snoozeWhileStopping)
	case err != nil:
		log.Info("planning job already running in this process; duplicate queue entry ignored")
		return nil
	}
	defer r.leave(args.JobID, rn)

	leaseUntil := time.Now().Add(r.cfg.Lease)
	j, err := r.store.ClaimJob(ctx, args.JobID, r.cfg.Owner, leaseUntil)
	switch {
	case errors.Is(err, store.ErrLeaseLost):
		log.Info("planning job finished, cancelled or run elsewhere; stale queue entry ignored")
		return nil
	case errors.Is(err, store.ErrNotFound):
		log.Warn("planning job not in the store; queue entry ignored")
		return nil
	case err != nil:
		return fmt.Errorf("jobs: claiming job %s: %w", args.JobID, err)
	}
	r.claimed(rn, leaseUntil)
	log = log.With(slog.Int("attempt", j.Attempt))
	if planCtx.Err() != nil { // cancelled or stopping while it was claimed
		r.ended(planCtx, log)
		return nil
	}

	req, err := engine.DecodeRequest(bytes.NewReader(j.Request))
	if err != nil {
		// The API checks requests before it queues them; a request that
		// fails here was stored by another version, say.
		r.finish(args.JobID, store.JobFailed, nil, "the stored request does not read: "+err.Error(), log)
		return nil
	}
	r.limit(&req.Options)
	saver := newProgressSaver(r, args.JobID, rn, log)
	req.Options.Progress = saver.report
	saving := saver.start(ctx)

	log.Info("planning job started", slog.Duration("time_limit", req.Options.TimeLimit),
		slog.Int("workers", req.Options.Workers), slog.Int("pallets", len(req.Pallets)))
	began := time.Now()
	plan, err := engine.Plan(planCtx, req)
	if r.planEnded != nil {
		r.planEnded(args.JobID, time.Now(), context.Cause(planCtx))
	}
	saving.stop()

	if planCtx.Err() != nil {
		r.ended(planCtx, log)
		return nil
	}
	if err != nil {
		log.Warn("planning job failed", slog.String("error", err.Error()))
		r.finish(args.JobID, store.JobFailed, nil, err.Error(), log)
		return nil
	}
	body, err := json.Marshal(plan)
	if err != nil {
		r.finish(args.JobID, store.JobFailed, nil, "writing the plan: "+err.Error(), log)
		return nil
	}
	log.Info("planning job completed", slog.Duration("took", time.Since(began)),
		slog.Int("routes", plan.Metrics.Routes), slog.Int("pallets", plan.Metrics.Pallets),
		slog.Int("unassigned", plan.Metrics.Unassigned))
	if final, ok := saver.final(); ok {
		r.saveFinalProgress(args.JobID, final, log)
	}
	r.finish(args.JobID, store.JobCompleted, body, "", log)
	return nil
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

// limit caps the search time at Config.MaxTimeLimit and gives the search
// its share of the cores (a request may ask for less of either).
func (r *Runner) limit(o *engine.Options) {
	if o.TimeLimit == 0 {
		o.TimeLimit = engine.DefaultTimeLimit
	}
	o.TimeLimit = min(o.TimeLimit, r.cfg.MaxTimeLimit)
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
