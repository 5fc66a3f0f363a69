package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// A job's lease is how the service tells a job whose process died from a
// long one: the process running a job renews its lease (RenewLeases) well
// before it ends; a RUNNING job whose lease has ended has no live process,
// and RecoverJobs (or a later ClaimJob) hands it to another.

func (s *dbStore) ClaimJob(ctx context.Context, jobID, owner string, leaseUntil time.Time) (Job, error) {
	now := time.Now()
	p := problems{what: "claim"}
	p.require("jobId", jobID)
	p.require("owner", owner)
	if !leaseUntil.After(now) {
		p.add("leaseUntil", "must be in the future")
	}
	if err := p.err(); err != nil {
		return Job{}, err
	}
	var out Job
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if err := s.lockTurns(ctx, tx); err != nil {
			return err
		}
		var err error
		out, err = s.claim(ctx, tx, jobID, owner, leaseUntil, now, true)
		return err
	})
	if err != nil {
		return Job{}, err
	}
	return out, nil
}

// claim makes owner the runner of jobID if it is RUNNING with a lease
// that ended before now, or QUEUED when queued is true: RUNNING with
// Attempt+1, the lease, and now as its latest claim. Otherwise it is
// ErrLeaseLost (or ErrNotFound).
func (s *dbStore) claim(ctx context.Context, tx txn, jobID, owner string, leaseUntil, now time.Time, queued bool) (Job, error) {
	claimable := `status = ? AND lease_until < ?`
	args := []any{string(JobRunning), owner, micros(leaseUntil), micros(now), micros(now), micros(now),
		jobID, string(JobRunning), micros(now)}
	if queued {
		claimable = `(status = ? OR (status = ? AND lease_until < ?))`
		args = append(args[:len(args)-2], string(JobQueued), string(JobRunning), micros(now))
	}
	out, err := scanJob(tx.queryRow(ctx, `UPDATE jobs SET status = ?, attempt = attempt + 1, owner = ?, lease_until = ?,
	started = CASE WHEN started = 0 THEN ? ELSE started END, claimed = ?, updated = ?
WHERE id = ? AND `+claimable+`
RETURNING `+jobColumns, args...))
	if !errors.Is(err, errNoRow) {
		return out, err
	}
	var status string
	err = tx.queryRow(ctx, `SELECT status FROM jobs WHERE id = ?`, jobID).Scan(&status)
	if errors.Is(err, errNoRow) {
		return Job{}, fmt.Errorf("%w: job %s", ErrNotFound, jobID)
	}
	if err != nil {
		return Job{}, err
	}
	return Job{}, fmt.Errorf("%w: job %s is %s", ErrLeaseLost, jobID, status)
}

func (s *dbStore) RenewLeases(ctx context.Context, owner string, leaseUntil time.Time, running []string) ([]string, error) {
	p := problems{what: "lease renewal"}
	p.require("owner", owner)
	if leaseUntil.IsZero() {
		p.add("leaseUntil", "must be set")
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	var held []string
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		held = held[:0]
		rs, err := tx.query(ctx, `UPDATE jobs SET lease_until = ? WHERE owner = ? AND status = ? RETURNING id`,
			micros(leaseUntil), owner, string(JobRunning))
		if err != nil {
			return fmt.Errorf("store: renew leases: %w", err)
		}
		defer rs.Close()
		for rs.Next() {
			var id string
			if err := rs.Scan(&id); err != nil {
				return err
			}
			held = append(held, id)
		}
		return rs.Err()
	})
	if err != nil {
		return nil, err
	}
	var lost []string
	for _, id := range running {
		if !slices.Contains(held, id) {
			lost = append(lost, id)
		}
	}
	return lost, nil
}

func (s *dbStore) SaveProgress(ctx context.Context, jobID, owner string, pr Progress, plan []byte) error {
	if pr.Updated.IsZero() {
		pr.Updated = time.Now()
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		n, err := tx.exec(ctx, `UPDATE jobs SET phase = ?, round = ?, elapsed_ns = ?, limit_ns = ?, routes = ?, delivered = ?,
	unassigned = ?, cost = ?, progress_at = ?, plan = COALESCE(?, plan), updated = ?
WHERE id = ? AND owner = ? AND status = ?`,
			pr.Phase, pr.Round, int64(pr.Elapsed), int64(pr.Limit), pr.Routes, pr.Delivered, pr.Unassigned, pr.Cost,
			micros(pr.Updated), blob(plan), micros(time.Now()), jobID, owner, string(JobRunning))
		if err != nil {
			return fmt.Errorf("store: progress of job %s: %w", jobID, err)
		}
		if n == 0 {
			return fmt.Errorf("%w: job %s is not run by %s", ErrLeaseLost, jobID, owner)
		}
		return nil
	})
}

func (s *dbStore) FinishJob(ctx context.Context, jobID, owner string, status JobStatus, plan []byte, errMsg string) error {
	if status != JobCompleted && status != JobFailed {
		return fmt.Errorf("%w: finish: status: must be %s or %s, not %q", ErrInvalid, JobCompleted, JobFailed, status)
	}
	now := micros(time.Now())
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if err := s.lockTurns(ctx, tx); err != nil {
			return err
		}
		var tenantID string
		err := tx.queryRow(ctx, `UPDATE jobs SET status = ?, plan = COALESCE(?, plan), error = ?, released = ?,
	owner = '', lease_until = 0, finished = ?, updated = ?
WHERE id = ? AND owner = ? AND status = ?
RETURNING tenant_id`,
			string(status), blob(plan), errMsg, status == JobCompleted, now, now, jobID, owner, string(JobRunning)).Scan(&tenantID)
		if errors.Is(err, errNoRow) {
			return fmt.Errorf("%w: job %s is not run by %s", ErrLeaseLost, jobID, owner)
		}
		if err != nil {
			return fmt.Errorf("store: finish job %s: %w", jobID, err)
		}
		return s.wakeWaiting(ctx, tx, tenantID)
	})
}

// RecoverJobs is safe to run in several processes at once: each expired
// job is taken by one statement whose condition still requires the
// expired lease, and on PostgreSQL the rows another process is handling
// are skipped.
func (s *dbStore) RecoverJobs(ctx context.Context, now time.Time, maxAttempts int) (requeued, failed int, err error) {
	if maxAttempts < 1 {
		return 0, 0, fmt.Errorf("%w: recover jobs: maxAttempts: must be at least 1, not %d", ErrInvalid, maxAttempts)
	}
	err = s.b.write(ctx, func(ctx context.Context, tx txn) error {
		requeued, failed = 0, 0
		if err := s.lockTurns(ctx, tx); err != nil {
			return err
		}
		type expired struct {
			id, tenantID string
			attempt      int
		}
		var list []expired
		rs, err := tx.query(ctx, `SELECT id, tenant_id, attempt FROM jobs WHERE status = ? AND lease_until < ?`+s.skipLocked,
			string(JobRunning), micros(now))
		if err != nil {
			return fmt.Errorf("store: expired leases: %w", err)
		}
		for rs.Next() {
			var e expired
			var attempt int64
			if err := rs.Scan(&e.id, &e.tenantID, &attempt); err != nil {
				rs.Close()
				return err
			}
			e.attempt = int(attempt)
			list = append(list, e)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		stamp := micros(time.Now())
		for _, e := range list {
			if e.attempt >= maxAttempts {
				n, err := tx.exec(ctx, `UPDATE jobs SET status = ?, error = ?, owner = '', lease_until = 0, finished = ?, updated = ?
WHERE id = ? AND status = ? AND lease_until < ?`,
					string(JobFailed), fmt.Sprintf("the process running the job stopped during each of its %d runs", e.attempt),
					stamp, stamp, e.id, string(JobRunning), micros(now))
				if err != nil {
					return fmt.Errorf("store: fail job %s: %w", e.id, err)
				}
				failed += int(n)
				if n > 0 {
					if err := s.wakeWaiting(ctx, tx, e.tenantID); err != nil {
						return err
					}
				}
				continue
			}
			n, err := tx.exec(ctx, `UPDATE jobs SET status = ?, owner = '', lease_until = 0, updated = ?
WHERE id = ? AND status = ? AND lease_until < ?`,
				string(JobQueued), stamp, e.id, string(JobRunning), micros(now))
			if err != nil {
				return fmt.Errorf("store: requeue job %s: %w", e.id, err)
			}
			if n == 0 {
				continue
			}
			if err := s.enqueueAgain(ctx, tx, e.id, e.attempt); err != nil {
				return err
			}
			requeued++
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return requeued, failed, nil
}

func (s *dbStore) ReleaseOwner(ctx context.Context, owner string) error {
	if owner == "" {
		return fmt.Errorf("%w: release: owner: must not be empty", ErrInvalid)
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if err := s.lockTurns(ctx, tx); err != nil {
			return err
		}
		rs, err := tx.query(ctx, `UPDATE jobs SET status = ?, owner = '', lease_until = 0, updated = ?
WHERE owner = ? AND status = ? RETURNING id, attempt`,
			string(JobQueued), micros(time.Now()), owner, string(JobRunning))
		if err != nil {
			return fmt.Errorf("store: release jobs of %s: %w", owner, err)
		}
		type released struct {
			id      string
			attempt int64
		}
		var list []released
		for rs.Next() {
			var r released
			if err := rs.Scan(&r.id, &r.attempt); err != nil {
				rs.Close()
				return err
			}
			list = append(list, r)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		for _, r := range list {
			if err := s.enqueueAgain(ctx, tx, r.id, int(r.attempt)); err != nil {
				return err
			}
		}
		return nil
	})
}

// enqueueAgain puts a new River job for a job that went back to QUEUED
// after attempt runs, and records it as the job's River job (the one
// CancelJob cancels).
func (s *dbStore) enqueueAgain(ctx context.Context, tx txn, jobID string, attempt int) error {
	riverID, err := tx.enqueue(ctx, PlanArgs{JobID: jobID, Attempt: attempt})
	if err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `UPDATE jobs SET river_job_id = ? WHERE id = ?`, riverID, jobID); err != nil {
		return fmt.Errorf("store: river job of %s: %w", jobID, err)
	}
	return nil
}
