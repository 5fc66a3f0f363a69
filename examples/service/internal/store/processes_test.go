package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestProcessesShareOneDatabase opens one PostgreSQL database twice (two
// pools, as two service processes on two machines would): the rate limit
// holds across both, RecoverJobs run by both at once handles each expired
// job once, and a job created through one is read, claimed and finished
// through the other.
func TestProcessesShareOneDatabase(t *testing.T) {
	h := postgresHarness
	schema := h.fresh(t)
	a, b := h.mustOpen(t, schema), h.mustOpen(t, schema)
	ctx := context.Background()

	now := time.Now()
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for i := range 40 {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			ok, _, err := s.Allow(ctx, "tenant/routes", 10, time.Minute, now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				allowed.Add(1)
			}
		})
	}
	wg.Wait()
	if allowed.Load() != 10 {
		t.Errorf("%d of 40 requests through two processes allowed, want 10", allowed.Load())
	}

	tn, _ := newTenant(t, a)
	const n = 20
	jobs := make([]Job, n)
	lease := time.Now().Add(time.Minute)
	for i := range jobs {
		jobs[i] = newJob(t, a, tn.ID)
		if _, err := b.ClaimJob(ctx, jobs[i].ID, "proc-dead", lease); err != nil {
			t.Fatal(err)
		}
	}
	var requeued atomic.Int64
	for _, s := range []Store{a, b, a, b} {
		wg.Go(func() {
			rq, _, err := s.RecoverJobs(ctx, lease.Add(time.Second), 5)
			if err != nil {
				t.Error(err)
			}
			requeued.Add(int64(rq))
		})
	}
	wg.Wait()
	if requeued.Load() != n {
		t.Errorf("RecoverJobs in 4 goroutines of 2 processes requeued %d, want each of the %d jobs once", requeued.Load(), n)
	}
	for _, j := range jobs {
		if total, _ := h.riverJobs(t, a, j.ID); total != 2 {
			t.Errorf("job %s has %d River jobs, want 2 (created, requeued once)", j.ID, total)
		}
	}

	j := newJob(t, b, tn.ID)
	if _, err := a.ClaimJob(ctx, j.ID, "proc-a", lease); err != nil {
		t.Fatal(err)
	}
	if err := a.FinishJob(ctx, j.ID, "proc-a", JobCompleted, []byte(`{}`), ""); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Job(ctx, tn.ID, j.ID); err != nil || got.Status != JobCompleted {
		t.Errorf("job read through the other process = %+v, %v; want COMPLETED", got, err)
	}
}

// TestProcessesOpenNewDatabaseAtOnce: processes started together on a new
// database apply each migration once and all open (PostgreSQL: an
// advisory lock; SQLite: the file's write lock).
func TestProcessesOpenNewDatabaseAtOnce(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) { openAtOnce(t, h) })
	}
}

func openAtOnce(t *testing.T, h harness) {
	schema := h.fresh(t)
	const n = 4
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			s, err := h.open(t, schema)
			if err == nil {
				t.Cleanup(func() { s.Close() })
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("open: %v", err)
		}
	}
	s := h.mustOpen(t, schema)
	var steps int64
	if err := s.(*dbStore).b.reader().queryRow(context.Background(), `SELECT COUNT(*) FROM haulplan_migrations`).Scan(&steps); err != nil {
		t.Fatal(err)
	}
	if steps != int64(len(migrations)) {
		t.Errorf("%d migration rows, want %d", steps, len(migrations))
	}
}
