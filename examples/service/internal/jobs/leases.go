package jobs

import (
	"context"
	"log/slog"
	"time"
)

// renewLeases renews the leases of the jobs this process runs every
// Config.RenewEvery until ctx ends, and stops the searches of jobs the
// store says are no longer this process's. When renewals keep failing
// (the database is unreachable, say) until a job's lease would end before
// the next renewal, its search is stopped as well: another process may
// take the job over once the lease has ended.
func (r *Runner) renewLeases(ctx context.Context) {
	tick := time.NewTicker(r.cfg.RenewEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		r.renewOnce(ctx)
	}
}

func (r *Runner) renewOnce(ctx context.Context) {
	r.mu.Lock()
	held := make([]string, 0, len(r.runs))
	for rn := range r.runs {
		if rn.claimed {
			held = append(held, rn.jobID)
		}
	}
	r.mu.Unlock()
	if len(held) == 0 {
		return
	}
	until := time.Now().Add(r.cfg.Lease)
	// A renewal that hangs (a locked database) must not keep the expiry
	// check below from running before the next renewal is due.
	call, cancel := context.WithTimeout(ctx, r.cfg.RenewEvery)
	lost, err := r.store.RenewLeases(call, r.cfg.Owner, until, held)
	cancel()

	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		r.log.Warn("renewing planning job leases failed", slog.String("error", err.Error()), slog.Int("jobs", len(held)))
		// Stop a search whose lease may end before the next renewal
		// returns (it starts at most RenewEvery from now and may take as
		// long): from then on the recoverer of any process may requeue
		// its job.
		next := time.Now().Add(2 * r.cfg.RenewEvery)
		for rn := range r.runs {
			if rn.claimed && !rn.expired && !next.Before(rn.leaseUntil) {
				rn.expired = true
				r.log.Error("planning job lease expired; stopping its search", slog.String("job_id", rn.jobID))
				rn.cancel(ErrLeaseExpired)
			}
		}
		return
	}
	isLost := make(map[string]bool, len(lost))
	for _, id := range lost {
		isLost[id] = true
	}
	// A run claimed after the renewal began keeps the lease of its claim.
	renewed := make(map[string]bool, len(held))
	for _, id := range held {
		renewed[id] = true
	}
	for rn := range r.runs {
		switch {
		case !rn.claimed || !renewed[rn.jobID]:
		case isLost[rn.jobID]:
			r.log.Info("planning job no longer held by this process; stopping its search", slog.String("job_id", rn.jobID))
			rn.cancel(ErrLeaseLost)
		default:
			rn.leaseUntil = until
		}
	}
}

// recoverJobs asks the store every Config.RecoverEvery until ctx ends to
// requeue the jobs whose lease ended (their process died), or to fail
// those that have had Config.MaxAttempts runs. Every process does this;
// the store makes concurrent calls safe.
func (r *Runner) recoverJobs(ctx context.Context) {
	tick := time.NewTicker(r.cfg.RecoverEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		r.recoverOnce(ctx)
	}
}

func (r *Runner) recoverOnce(ctx context.Context) {
	requeued, failed, err := r.store.RecoverJobs(ctx, time.Now(), r.cfg.MaxAttempts)
	switch {
	case err != nil && ctx.Err() == nil:
		r.log.Warn("recovering planning jobs of dead processes failed", slog.String("error", err.Error()))
	case requeued > 0 || failed > 0:
		r.log.Warn("recovered planning jobs whose process stopped renewing their lease",
			slog.Int("requeued", requeued), slog.Int("failed", failed))
	}
}
