package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// jobColumns are the columns scanJob reads, in its order.
const jobColumns = `id, tenant_id, status, request, plan, phase, round, elapsed_ns, limit_ns, routes, delivered,
unassigned, cost, progress_at, error, released, attempt, owner, lease_until, created, started, finished,
COALESCE(replan_of, '')`

func scanJob(r row) (Job, error) {
	var (
		j                                           Job
		status                                      string
		round, elapsed, limit, routes, delivered    int64
		unassigned, progressAt, attempt, leaseUntil int64
		created, started, finished                  int64
	)
	err := r.Scan(&j.ID, &j.TenantID, &status, &j.Request, &j.Plan, &j.Progress.Phase, &round, &elapsed, &limit,
		&routes, &delivered, &unassigned, &j.Progress.Cost, &progressAt, &j.Error, &j.Released, &attempt,
		&j.Owner, &leaseUntil, &created, &started, &finished, &j.ReplanOf)
	if err != nil {
		return Job{}, err
	}
	j.Status = JobStatus(status)
	j.Progress.Round = int(round)
	j.Progress.Elapsed = time.Duration(elapsed)
	j.Progress.Limit = time.Duration(limit)
	j.Progress.Routes = int(routes)
	j.Progress.Delivered = int(delivered)
	j.Progress.Unassigned = int(unassigned)
	j.Progress.Updated = fromMicros(progressAt)
	j.Attempt = int(attempt)
	j.LeaseUntil = fromMicros(leaseUntil)
	j.Created = fromMicros(created)
	j.Started = fromMicros(started)
	j.Finished = fromMicros(finished)
	return j, nil
}

// CreateJob records j as QUEUED (j.Status must be empty or QUEUED) and
// enqueues its River job in the same transaction: either both exist
// afterwards or neither does. With maxQueued positive, a tenant with that
// many QUEUED jobs gets ErrQueueFull instead. A re-plan's source job is
// looked for in the same transaction, so that no job is linked to
// another tenant's job or to one the retention has just removed.
func (s *dbStore) CreateJob(ctx context.Context, j Job, maxQueued int) error {
	p := problems{what: "job"}
	p.require("id", j.ID)
	p.require("tenantId", j.TenantID)
	if len(j.Request) == 0 {
		p.add("request", "must not be empty")
	}
	if j.Status != "" && j.Status != JobQueued {
		p.add("status", fmt.Sprintf("a new job is %s, not %s", JobQueued, j.Status))
	}
	if err := p.err(); err != nil {
		return err
	}
	now := time.Now()
	if j.Created.IsZero() {
		j.Created = now
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if j.ReplanOf != "" {
			var n int64
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE id = ? AND tenant_id = ?`, j.ReplanOf, j.TenantID).Scan(&n); err != nil {
				return fmt.Errorf("store: job %s re-planned by %s: %w", j.ReplanOf, j.ID, err)
			}
			if n == 0 {
				return fmt.Errorf("%w: job %s, which job %s would re-plan", ErrNotFound, j.ReplanOf, j.ID)
			}
		}
		if maxQueued > 0 {
			if err := s.lockTenantQueue(ctx, tx, j.TenantID); err != nil {
				return err
			}
			var queued int64
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE tenant_id = ? AND status = ?`,
				j.TenantID, string(JobQueued)).Scan(&queued); err != nil {
				return fmt.Errorf("store: queued jobs of tenant %s: %w", j.TenantID, err)
			}
			if queued >= int64(maxQueued) {
				return fmt.Errorf("%w: tenant %s has %d queued jobs, at most %d", ErrQueueFull, j.TenantID, queued, maxQueued)
			}
		}
		riverID, err := tx.enqueue(ctx, PlanArgs{JobID: j.ID})
		if err != nil {
			return err
		}
		// A job planned from scratch leaves replan_of NULL (the statement
		// is then the one of the schema before re-plans).
		insert := `INSERT INTO jobs (id, tenant_id, status, request, river_job_id, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`
		args := []any{j.ID, j.TenantID, string(JobQueued), j.Request, riverID, micros(j.Created), micros(now)}
		if j.ReplanOf != "" {
			insert = `INSERT INTO jobs (id, tenant_id, status, request, river_job_id, created, updated, replan_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
			args = append(args, j.ReplanOf)
		}
		if _, err := tx.exec(ctx, insert, args...); err != nil {
			return fmt.Errorf("store: job %s: %w", j.ID, err)
		}
		return nil
	})
}

func (s *dbStore) Job(ctx context.Context, tenantID, jobID string) (Job, error) {
	return tenantJob(ctx, s.b.reader(), jobColumns, tenantID, jobID)
}

// jobOverviewColumns are jobColumns with a NULL for the request.
var jobOverviewColumns = strings.Replace(jobColumns, "request,", "NULL,", 1)

func (s *dbStore) JobOverview(ctx context.Context, tenantID, jobID string) (Job, error) {
	return tenantJob(ctx, s.b.reader(), jobOverviewColumns, tenantID, jobID)
}

// tenantJob reads the tenant's job jobID (columns: jobColumns or
// jobOverviewColumns) with the ids of its re-plans.
func tenantJob(ctx context.Context, q querier, columns, tenantID, jobID string) (Job, error) {
	j, err := scanJob(q.queryRow(ctx, `SELECT `+columns+` FROM jobs WHERE id = ? AND tenant_id = ?`, jobID, tenantID))
	if err != nil {
		return Job{}, notFound(err)
	}
	rs, err := q.query(ctx, `SELECT id FROM jobs WHERE tenant_id = ? AND replan_of = ? ORDER BY created, id`, tenantID, jobID)
	if err != nil {
		return Job{}, fmt.Errorf("store: re-plans of job %s: %w", jobID, err)
	}
	defer rs.Close()
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			return Job{}, fmt.Errorf("store: re-plans of job %s: %w", jobID, err)
		}
		j.Replans = append(j.Replans, id)
	}
	if err := rs.Err(); err != nil {
		return Job{}, fmt.Errorf("store: re-plans of job %s: %w", jobID, err)
	}
	return j, nil
}

func (s *dbStore) CancelJob(ctx context.Context, tenantID, jobID, reason string) (Job, error) {
	var out Job
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		now := micros(time.Now())
		// Under the lock of the turns no job starts or ends meanwhile, so
		// the status read is the one the update changes.
		if err := s.lockTurns(ctx, tx); err != nil {
			return err
		}
		var was string
		err := tx.queryRow(ctx, `SELECT status FROM jobs WHERE id = ? AND tenant_id = ?`, jobID, tenantID).Scan(&was)
		if err != nil {
			return notFound(err)
		}
		// One conditional statement per case: the job is cancelled only
		// if it still is QUEUED or RUNNING.
		var riverID int64
		err = tx.queryRow(ctx, `UPDATE jobs SET status = ?, error = ?, owner = '', lease_until = 0, finished = ?, updated = ?
WHERE id = ? AND tenant_id = ? AND status IN (?, ?) RETURNING river_job_id`,
			string(JobCancelled), reason, now, now, jobID, tenantID, string(JobQueued), string(JobRunning)).Scan(&riverID)
		switch {
		case err == nil:
			if err := tx.cancelRiverJob(ctx, riverID); err != nil {
				return err
			}
			if was == string(JobRunning) {
				if err := s.wakeWaiting(ctx, tx, tenantID); err != nil {
					return err
				}
			}
		case errors.Is(err, errNoRow):
			if _, err := tx.exec(ctx, `UPDATE jobs SET released = FALSE, updated = ?
WHERE id = ? AND tenant_id = ? AND status = ? AND released = TRUE`, now, jobID, tenantID, string(JobCompleted)); err != nil {
				return fmt.Errorf("store: cancel release of job %s: %w", jobID, err)
			}
		default:
			return fmt.Errorf("store: cancel job %s: %w", jobID, err)
		}
		out, err = tenantJob(ctx, tx, jobColumns, tenantID, jobID)
		return err
	})
	if err != nil {
		return Job{}, err
	}
	return out, nil
}
