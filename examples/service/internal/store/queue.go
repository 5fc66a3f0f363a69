package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// queue is the River side of a Store as the Store's Start and Stop see it.
type queue interface {
	// start runs the planning jobs (at most maxJobs at once) and, in a
	// queue of their own, the store's periodic jobs.
	start(ctx context.Context, workers *river.Workers, maxJobs int, periodic []*river.PeriodicJob) error
	stop(ctx context.Context) error
}

// riverQueue holds the River client of one database. Before Start it is an
// insert-only client; Start replaces it with a working client (the same
// database, so jobs inserted by either are the same jobs), and Stop goes
// back to an insert-only one so that the Store still enqueues.
//
// River's own job timeout is off (JobTimeout -1) and its rescuer waits an
// hour (RescueStuckJobsAfter, River's default): a planning job may
// legitimately run for minutes, and the Store's leases (ClaimJob,
// RenewLeases, RecoverJobs) are how the service tells a crashed job from a
// long one. A River job that the rescuer retries later is a stale one;
// ClaimJob answers it ErrLeaseLost and it does nothing.
type riverQueue[TTx any] struct {
	driver riverdriver.Driver[TTx]
	base   river.Config

	insertOnly *river.Client[TTx]

	mu      sync.Mutex
	client  *river.Client[TTx] // insertOnly, or the working client
	working bool
}

// riverRescueAfter is River's rescue delay for a job still "running" in
// River's table (see riverQueue).
const riverRescueAfter = time.Hour

func newRiverQueue[TTx any](driver riverdriver.Driver[TTx], cfg Config, schema string) (*riverQueue[TTx], error) {
	q := &riverQueue[TTx]{
		driver: driver,
		base: river.Config{
			Logger:               cfg.logger(),
			Schema:               schema,
			JobTimeout:           -1,
			RescueStuckJobsAfter: riverRescueAfter,
			FetchPollInterval:    cfg.PollInterval,
			TestOnly:             cfg.riverTestOnly,
		},
	}
	insertCfg := q.base
	client, err := river.NewClient(driver, &insertCfg)
	if err != nil {
		return nil, fmt.Errorf("store: river client: %w", err)
	}
	q.insertOnly, q.client = client, client
	return q, nil
}

func (q *riverQueue[TTx]) current() *river.Client[TTx] {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.client
}

func (q *riverQueue[TTx]) enqueue(ctx context.Context, tx TTx, args PlanArgs) (int64, error) {
	res, err := q.current().InsertTx(ctx, tx, args, &river.InsertOpts{Queue: river.QueueDefault})
	if err != nil {
		return 0, fmt.Errorf("store: enqueue job %s: %w", args.JobID, err)
	}
	return res.Job.ID, nil
}

func (q *riverQueue[TTx]) cancel(ctx context.Context, tx TTx, id int64) error {
	if id == 0 {
		return nil
	}
	_, err := q.current().JobCancelTx(ctx, tx, id)
	if err != nil && !errors.Is(err, rivertype.ErrNotFound) {
		return fmt.Errorf("store: cancel river job %d: %w", id, err)
	}
	return nil
}

func (q *riverQueue[TTx]) start(ctx context.Context, workers *river.Workers, maxJobs int, periodic []*river.PeriodicJob) error {
	if workers == nil {
		return nil // insert-only, as before
	}
	if maxJobs < 1 {
		return fmt.Errorf("%w: start: maxJobs: must be at least 1, not %d", ErrInvalid, maxJobs)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.working {
		return errors.New("store: start: the River client is already working")
	}
	c := q.base
	c.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: maxJobs}}
	if len(periodic) > 0 {
		c.Queues[retentionQueue] = river.QueueConfig{MaxWorkers: 1}
		c.PeriodicJobs = periodic
	}
	c.Workers = workers
	client, err := river.NewClient(q.driver, &c)
	if err != nil {
		return fmt.Errorf("store: river client: %w", err)
	}
	// The client runs until Stop, not until the caller's context ends:
	// Start is often called with a short set-up context.
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("store: start river: %w", err)
	}
	q.client, q.working = client, true
	return nil
}

// stop cancels the context of every running job and waits, within ctx,
// until they returned and River stopped. The lock is not held meanwhile:
// a worker that is stopping may still enqueue (ReleaseOwner).
func (q *riverQueue[TTx]) stop(ctx context.Context) error {
	q.mu.Lock()
	client, working := q.client, q.working
	q.mu.Unlock()
	if !working {
		return nil
	}
	if err := client.StopAndCancel(ctx); err != nil {
		return fmt.Errorf("store: stop river: %w", err)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.client == client {
		q.client, q.working = q.insertOnly, false
	}
	return nil
}
