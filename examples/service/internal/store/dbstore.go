package store

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"
)

// dbStore is the Store of both databases: the statements and the rules of
// the contract, over the backend that runs them.
type dbStore struct {
	b backend
	// greatest is the SQL function of the larger of two values: MAX on
	// SQLite, GREATEST on PostgreSQL.
	greatest string
	// skipLocked ends a SELECT of rows this transaction will change so that
	// concurrent transactions skip them (PostgreSQL); empty on SQLite, whose
	// writes are serialized anyway.
	skipLocked string
	// autocommit runs single statements each in a transaction of its own
	// (PostgreSQL's pool); nil on SQLite, whose writes are group-committed.
	autocommit querier
	// locks are PostgreSQL's advisory locks of the job turns (turns.go);
	// nil on SQLite, whose writes are serialized.
	locks *advisoryLocks
	// retention is what the periodic retention job removes, and when.
	retention retentionConfig
}

var _ Store = (*dbStore)(nil)

// closeStopTimeout bounds how long Close waits for running jobs to return
// after their contexts were cancelled.
const closeStopTimeout = 30 * time.Second

// Start runs River with workers and, beside them, the store's own
// periodic job that removes expired work (see Config.Retention), which it
// adds to workers.
func (s *dbStore) Start(ctx context.Context, workers *river.Workers, maxJobs int) error {
	var periodic []*river.PeriodicJob
	if workers != nil {
		var err error
		if periodic, err = s.retentionJobs(workers); err != nil {
			return err
		}
	}
	return s.b.queue().start(ctx, workers, maxJobs, periodic)
}

func (s *dbStore) Stop(ctx context.Context) error {
	return s.b.queue().stop(ctx)
}

// Close stops River if it is working (cancelling running jobs, waiting for
// them up to 30 s) and closes the database.
func (s *dbStore) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeStopTimeout)
	defer cancel()
	return errors.Join(s.b.queue().stop(ctx), s.b.close())
}

// notFound turns a missing row into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, errNoRow) {
		return ErrNotFound
	}
	return err
}
