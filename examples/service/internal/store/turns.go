package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Turns between tenants. River offers one queue order (priority, then
// time, then id), named queues with a number of workers per process,
// unique jobs and insert middleware; limits on how many jobs of one
// partition (a tenant) run at once are River Pro's, not River's. So the
// store decides whose turn it is when a worker wakes (ClaimNext), and
// River's jobs are wake-ups: a QUEUED job either has a River job (its
// river_job_id), or waits without one (river_job_id 0) because its tenant
// ran as many jobs as it may when its River job woke a worker. Every
// transaction that ends a running job gives one waiting job of its tenant
// a River job again (wakeWaiting), so that the freed place is taken.
//
// On PostgreSQL the transactions that start a job or end a running one
// hold one advisory lock, so that two processes never both see a
// tenant's last free place, and a job never starts waiting just as the
// job it waits for ends unseen; CreateJob holds one lock per tenant for
// the count of its queue. SQLite runs one write at a time anyway.

// advisoryLocks makes PostgreSQL's transaction-scoped advisory locks of
// one schema (two services in two schemas of one database do not wait
// for each other).
type advisoryLocks struct{ schema string }

// lockTurns serializes the transactions that start or end jobs.
func (s *dbStore) lockTurns(ctx context.Context, tx txn) error {
	if s.locks == nil {
		return nil
	}
	if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('haulplan_turns:' || ?, 0))`, s.locks.schema); err != nil {
		return fmt.Errorf("store: lock the job turns: %w", err)
	}
	return nil
}

// lockTenantQueue serializes the creation of one tenant's jobs, so that
// two at once cannot both find one free place in its queue.
func (s *dbStore) lockTenantQueue(ctx context.Context, tx txn, tenantID string) error {
	if s.locks == nil {
		return nil
	}
	if _, err := tx.exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('haulplan_queue:' || ? || ':' || ?, 0))`,
		s.locks.schema, tenantID); err != nil {
		return fmt.Errorf("store: lock the queue of tenant %s: %w", tenantID, err)
	}
	return nil
}

func (s *dbStore) ClaimNext(ctx context.Context, c Claim) (Job, error) {
	now := time.Now()
	if err := checkClaim(c, now); err != nil {
		return Job{}, err
	}
	var out Job
	var waits string // the entry's job, when it waits
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		var err error
		out, waits, err = s.claimTurn(ctx, tx, c, now)
		return err
	})
	if err != nil {
		return Job{}, err
	}
	if waits != "" {
		return Job{}, fmt.Errorf("%w (job %s waits)", ErrNothingRunnable, waits)
	}
	return out, nil
}

// checkClaim lists every field of c that ClaimNext cannot take.
func checkClaim(c Claim, now time.Time) error {
	p := problems{what: "claim"}
	p.require("jobId", c.JobID)
	p.require("owner", c.Owner)
	if c.RiverJobID <= 0 {
		p.add("riverJobId", fmt.Sprintf("must be a River job id, not %d", c.RiverJobID))
	}
	if !c.LeaseUntil.After(now) {
		p.add("leaseUntil", "must be in the future")
	}
	if c.TenantRunning < 1 {
		p.add("tenantRunning", fmt.Sprintf("must be at least 1, not %d", c.TenantRunning))
	}
	return p.err()
}

// claimTurn is ClaimNext's transaction. It returns the job claimed, or
// the queue entry's job when that job waits instead: then nothing is
// claimed and the waiting is committed, since the write of a function
// that fails is undone.
func (s *dbStore) claimTurn(ctx context.Context, tx txn, c Claim, now time.Time) (Job, string, error) {
	if err := s.lockTurns(ctx, tx); err != nil {
		return Job{}, "", err
	}
	// The queued job this River job is the wake-up of: the one it
	// was enqueued for, or another it was handed to by a claim.
	var entry string
	var entryAttempt int64
	err := tx.queryRow(ctx, `SELECT id, attempt FROM jobs WHERE river_job_id = ? AND status = ?`,
		c.RiverJobID, string(JobQueued)).Scan(&entry, &entryAttempt)
	if errors.Is(err, errNoRow) {
		// No queued job has it: a stale River job, or that of a job
		// whose process died (taken over once its lease has ended).
		out, err := s.claim(ctx, tx, c.JobID, c.Owner, c.LeaseUntil, now, false)
		if err == nil {
			_, err = tx.exec(ctx, `UPDATE jobs SET river_job_id = ? WHERE id = ?`, c.RiverJobID, c.JobID)
		}
		return out, "", err
	}
	if err != nil {
		return Job{}, "", fmt.Errorf("store: the job of river job %d: %w", c.RiverJobID, err)
	}
	next, nextRiver, err := s.nextTurn(ctx, tx, c.TenantRunning)
	if errors.Is(err, errNoRow) {
		if _, err := tx.exec(ctx, `UPDATE jobs SET river_job_id = 0 WHERE id = ?`, entry); err != nil {
			return Job{}, "", fmt.Errorf("store: job %s waits: %w", entry, err)
		}
		return Job{}, entry, nil
	}
	if err != nil {
		return Job{}, "", err
	}
	out, err := s.claim(ctx, tx, next, c.Owner, c.LeaseUntil, now, true)
	if err != nil {
		return Job{}, "", err
	}
	if _, err := tx.exec(ctx, `UPDATE jobs SET river_job_id = ? WHERE id = ?`, c.RiverJobID, next); err != nil {
		return Job{}, "", fmt.Errorf("store: river job of %s: %w", next, err)
	}
	if next != entry {
		if err := s.passWakeUp(ctx, tx, entry, int(entryAttempt), nextRiver); err != nil {
			return Job{}, "", err
		}
	}
	return out, "", s.wakeIfRoom(ctx, tx, out.TenantID, c.TenantRunning)
}

// passWakeUp keeps a wake-up for the queue entry's job when its River job
// went to another job: the one that job had (nextRiver), or a new one when
// that job waited without one.
func (s *dbStore) passWakeUp(ctx context.Context, tx txn, entry string, entryAttempt int, nextRiver int64) error {
	var err error
	if nextRiver == 0 {
		err = s.enqueueAgain(ctx, tx, entry, entryAttempt)
	} else {
		_, err = tx.exec(ctx, `UPDATE jobs SET river_job_id = ? WHERE id = ?`, nextRiver, entry)
	}
	if err != nil {
		return fmt.Errorf("store: river job of %s: %w", entry, err)
	}
	return nil
}

// wakeIfRoom gives one more waiting job of the tenant a wake-up when the
// tenant may run more jobs still (it may now run more than when they
// began to wait): each claim of the tenant's fills the next place.
func (s *dbStore) wakeIfRoom(ctx context.Context, tx txn, tenantID string, tenantRunning int) error {
	var running int64
	if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE tenant_id = ? AND status = ?`,
		tenantID, string(JobRunning)).Scan(&running); err != nil {
		return fmt.Errorf("store: running jobs of tenant %s: %w", tenantID, err)
	}
	if running < int64(tenantRunning) {
		return s.wakeWaiting(ctx, tx, tenantID)
	}
	return nil
}

// nextTurn is the queued job whose turn it is (see Claim) and its River
// job (0 when it waits without one); errNoRow when every tenant with a
// queued job runs tenantRunning jobs or more.
func (s *dbStore) nextTurn(ctx context.Context, tx txn, tenantRunning int) (id string, riverJobID int64, err error) {
	const running = `(SELECT COUNT(*) FROM jobs r WHERE r.tenant_id = q.tenant_id AND r.status = 'RUNNING')`
	err = tx.queryRow(ctx, `SELECT q.id, q.river_job_id FROM jobs q
WHERE q.status = 'QUEUED' AND `+running+` < ?
ORDER BY `+running+`, (SELECT MAX(c.claimed) FROM jobs c WHERE c.tenant_id = q.tenant_id), q.created, q.id
LIMIT 1`, tenantRunning).Scan(&id, &riverJobID)
	if err != nil && !errors.Is(err, errNoRow) {
		return "", 0, fmt.Errorf("store: the next job to run: %w", err)
	}
	return id, riverJobID, err
}

// wakeWaiting gives the oldest of tenantID's jobs that wait without a
// River job a new one: a job of the tenant has just stopped running, so
// one more of its jobs may start. The worker the River job wakes claims
// whichever job's turn it is then.
func (s *dbStore) wakeWaiting(ctx context.Context, tx txn, tenantID string) error {
	var id string
	var attempt int64
	err := tx.queryRow(ctx, `SELECT id, attempt FROM jobs WHERE tenant_id = ? AND status = ? AND river_job_id = 0
ORDER BY created, id LIMIT 1`, tenantID, string(JobQueued)).Scan(&id, &attempt)
	if errors.Is(err, errNoRow) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: the waiting jobs of tenant %s: %w", tenantID, err)
	}
	return s.enqueueAgain(ctx, tx, id, int(attempt))
}
