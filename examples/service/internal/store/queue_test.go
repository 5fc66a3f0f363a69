package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
)

// planWorker is a stand-in for the service's planning worker: it claims
// the job, then either finishes it or waits for its context to end.
type planWorker struct {
	river.WorkerDefaults[PlanArgs]
	s       Store
	wait    bool
	started chan string
	stopped chan time.Time
	stale   chan string
}

func (w *planWorker) Work(ctx context.Context, job *river.Job[PlanArgs]) error {
	_, err := w.s.ClaimJob(ctx, job.Args.JobID, "worker", time.Now().Add(time.Minute))
	if errors.Is(err, ErrLeaseLost) {
		w.stale <- job.Args.JobID
		return nil
	}
	if err != nil {
		return err
	}
	if w.wait {
		w.started <- job.Args.JobID
		<-ctx.Done()
		w.stopped <- time.Now()
		return ctx.Err()
	}
	return w.s.FinishJob(ctx, job.Args.JobID, "worker", JobCompleted, []byte(`{"done":true}`), "")
}

func startWorker(t *testing.T, s Store, wait bool) *planWorker {
	t.Helper()
	w := &planWorker{s: s, wait: wait, started: make(chan string, 10), stopped: make(chan time.Time, 10), stale: make(chan string, 10)}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	if err := s.Start(context.Background(), workers, 2); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop(context.Background()) })
	return w
}

func TestRiverRunsJobs(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		startWorker(t, s, false)
		if err := s.Start(ctx, river.NewWorkers(), 1); err == nil {
			t.Errorf("a second Start: no error")
		}
		j := newJob(t, s, tn.ID)
		got := waitForJob(t, s, tn.ID, j.ID, JobCompleted)
		if string(got.Plan) != `{"done":true}` || got.Attempt != 1 {
			t.Errorf("completed job = %+v", got)
		}
		// After Stop the store still enqueues (insert-only).
		if err := s.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		newJob(t, s, tn.ID)
	})
}

// TestCancelReachesRunningWorker: CancelJob cancels the River job in its
// transaction; River then cancels the running worker's context.
func TestCancelReachesRunningWorker(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		w := startWorker(t, s, true)
		j := newJob(t, s, tn.ID)
		select {
		case <-w.started:
		case <-nearDeadline(t):
			t.Fatal("the worker did not start")
		}
		cancelled := time.Now()
		if _, err := s.CancelJob(ctx, tn.ID, j.ID, "cancelled"); err != nil {
			t.Fatal(err)
		}
		select {
		case at := <-w.stopped:
			t.Logf("the worker's context ended %v after CancelJob", at.Sub(cancelled).Round(time.Millisecond))
		case <-nearDeadline(t):
			t.Fatal("the worker's context was not cancelled")
		}
		if got, _ := s.Job(ctx, tn.ID, j.ID); got.Status != JobCancelled {
			t.Errorf("job = %s, want CANCELLED", got.Status)
		}
	})
}

// TestStaleRiverJobDoesNothing: after a release the job has two River
// jobs (the interrupted one, retried by River, and the new one); one
// worker runs it and the other finds its lease lost.
func TestStaleRiverJobDoesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		j := newJob(t, s, tn.ID)
		// A process claims it and shuts down before River ran anything.
		if _, err := s.ClaimJob(ctx, j.ID, "proc-gone", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseOwner(ctx, "proc-gone"); err != nil {
			t.Fatal(err)
		}
		w := startWorker(t, s, false)
		select {
		case id := <-w.stale:
			if id != j.ID {
				t.Errorf("stale job %s, want %s", id, j.ID)
			}
		case <-nearDeadline(t):
			t.Fatal("no stale River job seen")
		}
		if got := waitForJob(t, s, tn.ID, j.ID, JobCompleted); got.Attempt != 2 {
			t.Errorf("attempt = %d, want 2 (one run before the release, one after)", got.Attempt)
		}
	})
}

// waitForJob polls the job every 20 ms until it has status and returns it.
// It sets no time limit of its own (see nearDeadline).
func waitForJob(t *testing.T, s Store, tenantID, jobID string, status JobStatus) Job {
	t.Helper()
	giveUp := nearDeadline(t)
	for {
		got, err := s.Job(context.Background(), tenantID, jobID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status == status {
			return got
		}
		select {
		case <-giveUp:
			t.Fatalf("job still %s, never %s", got.Status, status)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// nearDeadline fires shortly before go test's -timeout ends the run, and
// never when there is none. Waits select on it rather than on a time of
// their own: a slow or loaded machine makes a test slower, never failing
// it, and a wait that never ends still fails with its own message.
func nearDeadline(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil
	}
	return time.After(time.Until(deadline) - 10*time.Second)
}
