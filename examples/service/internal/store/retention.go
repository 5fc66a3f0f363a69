package store

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Retention says how long finished work is kept. A zero field keeps it
// forever.
type Retention struct {
	// Jobs is how long a finished job (COMPLETED, FAILED or CANCELLED),
	// its request and its plan are kept, counted from its end.
	Jobs time.Duration
	// Deliveries is how long a closed delivery (DELIVERED, CANCELLED or
	// RETURNED) and its history are kept, counted from its last change.
	// A delivery that is not closed is kept, whatever its age.
	Deliveries time.Duration
}

// Expired counts what DeleteExpired removed.
type Expired struct {
	Jobs            int64
	Deliveries      int64
	Changes         int64 // the history entries of those deliveries
	IdempotencyKeys int64
}

// The rows retention removes, written as the partial indexes of
// migration 5 are, so that the queries use them.
const (
	finishedJob    = `status IN ('COMPLETED', 'FAILED', 'CANCELLED')`
	closedDelivery = `status IN ('DELIVERED', 'RETURNED', 'CANCELLED')`
)

// Rows removed per transaction: a job may hold a request and a plan of
// megabytes each, a delivery's history a few kilobytes an entry. Short
// transactions keep the writer (SQLite) and the rows' locks (PostgreSQL)
// free for the requests that wait meanwhile.
const (
	expireJobsBatch       = 32
	expireDeliveriesBatch = 256
)

func (s *dbStore) DeleteExpired(ctx context.Context, now time.Time, r Retention) (Expired, error) {
	p := problems{what: "retention"}
	if now.IsZero() {
		p.add("now", "must be set")
	}
	if r.Jobs < 0 {
		p.add("jobs", fmt.Sprintf("must be 0 (forever) or more, not %v", r.Jobs))
	}
	if r.Deliveries < 0 {
		p.add("deliveries", fmt.Sprintf("must be 0 (forever) or more, not %v", r.Deliveries))
	}
	if err := p.err(); err != nil {
		return Expired{}, err
	}
	var out Expired
	if r.Jobs > 0 {
		n, err := s.deleteExpiredJobs(ctx, micros(now.Add(-r.Jobs)))
		out.Jobs = n
		if err != nil {
			return out, err
		}
	}
	if r.Deliveries > 0 {
		if err := s.deleteClosedDeliveries(ctx, micros(now.Add(-r.Deliveries)), &out); err != nil {
			return out, err
		}
	}
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		n, err := tx.exec(ctx, `DELETE FROM idempotency_keys WHERE expires > 0 AND expires <= ?`, micros(now))
		out.IdempotencyKeys = n
		return err
	})
	if err != nil {
		return out, fmt.Errorf("store: expired idempotency keys: %w", err)
	}
	return out, nil
}

// deleteExpiredJobs removes the jobs that finished before cutoff, a
// batch per transaction. River keeps its own rows of them as long as its
// job cleaner says (a day for completed and cancelled River jobs).
func (s *dbStore) deleteExpiredJobs(ctx context.Context, cutoff int64) (int64, error) {
	var total int64
	for {
		var n int64
		err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
			var err error
			n, err = tx.exec(ctx, `DELETE FROM jobs WHERE id IN (
	SELECT id FROM jobs WHERE `+finishedJob+` AND finished < ? ORDER BY finished LIMIT ?)`, cutoff, expireJobsBatch)
			return err
		})
		total += n
		if err != nil {
			return total, fmt.Errorf("store: expired jobs: %w", err)
		}
		if n < expireJobsBatch {
			return total, nil
		}
	}
}

// deleteClosedDeliveries removes the deliveries closed before cutoff,
// their history first, a batch per transaction. It walks the closed
// deliveries by their booking (the index deliveries_closed), not by their
// last change: an index of that column, which every change writes, would
// cost every delivery update (on PostgreSQL, its updates in place). A
// delivery's last change is after its booking, so every delivery to
// remove was booked before cutoff; those of them closed since are passed
// over, once.
func (s *dbStore) deleteClosedDeliveries(ctx context.Context, cutoff int64, out *Expired) error {
	var afterCreated int64 = -1
	var afterID string
	for {
		var ids []string
		var changes int64
		err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
			ids, changes = ids[:0], 0
			rs, err := tx.query(ctx, `SELECT id, created FROM deliveries
WHERE `+closedDelivery+` AND created < ? AND (created > ? OR (created = ? AND id > ?)) AND updated < ?
ORDER BY created, id LIMIT ?`, cutoff, afterCreated, afterCreated, afterID, cutoff, expireDeliveriesBatch)
			if err != nil {
				return err
			}
			for rs.Next() {
				var id string
				if err := rs.Scan(&id, &afterCreated); err != nil {
					rs.Close()
					return err
				}
				ids, afterID = append(ids, id), id
			}
			rs.Close()
			if err := rs.Err(); err != nil || len(ids) == 0 {
				return err
			}
			// A closed delivery takes no change, so the ids read are still
			// closed and still as old.
			in, args := inList(ids)
			if changes, err = tx.exec(ctx, `DELETE FROM delivery_changes WHERE delivery_id IN (`+in+`)`, args...); err != nil {
				return err
			}
			_, err = tx.exec(ctx, `DELETE FROM deliveries WHERE id IN (`+in+`)`, args...)
			return err
		})
		if err != nil {
			return fmt.Errorf("store: expired deliveries: %w", err)
		}
		out.Deliveries += int64(len(ids))
		out.Changes += changes
		if len(ids) < expireDeliveriesBatch {
			return nil
		}
	}
}

// inList is "?, ?, ?" for the values, and the values as arguments.
func inList(values []string) (string, []any) {
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	return strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", "), args
}

// DefaultRetentionEvery is how often a working store removes expired
// work when Config.RetentionEvery is zero.
const DefaultRetentionEvery = time.Hour

// retentionQueue is the River queue of the store's own periodic work,
// apart from the planning jobs' so that it never takes a planning slot.
const retentionQueue = "haulplan_maintenance"

// retentionTimeout bounds one run of DeleteExpired; what it leaves, the
// next run removes.
const retentionTimeout = 10 * time.Minute

// retentionArgs are the arguments of the River job that removes expired
// work.
type retentionArgs struct{}

func (retentionArgs) Kind() string { return "haulplan_retention" }

// retentionWorker runs DeleteExpired with the store's retention.
type retentionWorker struct {
	river.WorkerDefaults[retentionArgs]
	s   *dbStore
	cfg retentionConfig
}

// retentionConfig is what the retention job needs from the store's
// Config.
type retentionConfig struct {
	retention Retention
	every     time.Duration
	now       func() time.Time
	log       *slog.Logger
}

func newRetentionConfig(cfg Config) retentionConfig {
	rc := retentionConfig{retention: cfg.Retention, every: cfg.RetentionEvery, now: cfg.now, log: cfg.logger()}
	if rc.every <= 0 {
		rc.every = DefaultRetentionEvery
	}
	if rc.now == nil {
		rc.now = time.Now
	}
	return rc
}

func (w *retentionWorker) Work(ctx context.Context, _ *river.Job[retentionArgs]) error {
	exp, err := w.s.DeleteExpired(ctx, w.cfg.now(), w.cfg.retention)
	if exp != (Expired{}) {
		w.cfg.log.Info("expired work removed", slog.Int64("jobs", exp.Jobs), slog.Int64("deliveries", exp.Deliveries),
			slog.Int64("delivery_changes", exp.Changes), slog.Int64("idempotency_keys", exp.IdempotencyKeys))
	}
	return err
}

func (w *retentionWorker) Timeout(*river.Job[retentionArgs]) time.Duration { return retentionTimeout }

// retentionJobs registers the retention worker in workers and returns
// its periodic job: once when River's leader starts (the one process of
// many that River elects), then every cfg.every. At most one run is
// waiting or running at a time; a failed run is not retried, the next
// one does its work.
func (s *dbStore) retentionJobs(workers *river.Workers) ([]*river.PeriodicJob, error) {
	if err := river.AddWorkerSafely(workers, &retentionWorker{s: s, cfg: s.retention}); err != nil {
		return nil, fmt.Errorf("store: registering the retention worker: %w", err)
	}
	opts := &river.InsertOpts{
		Queue:       retentionQueue,
		MaxAttempts: 1,
		UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
			rivertype.JobStateRetryable, rivertype.JobStateScheduled,
		}},
	}
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(s.retention.every),
		func() (river.JobArgs, *river.InsertOpts) { return retentionArgs{}, opts },
		&river.PeriodicJobOpts{RunOnStart: true})}, nil
}
