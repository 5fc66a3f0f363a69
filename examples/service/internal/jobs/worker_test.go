package jobs

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// These tests call the worker directly on a store in memory; the tests
// in queue_test.go run the same jobs through River on the SQLite store.

// fastConfig has short leases and intervals, so that tests take seconds.
func fastConfig(t *testing.T) Config {
	return Config{
		MaxJobs: 1, Lease: 2 * time.Second, RenewEvery: 250 * time.Millisecond,
		RecoverEvery: 200 * time.Millisecond, ProgressEvery: 100 * time.Millisecond,
		PlanEvery: 300 * time.Millisecond, MaxTimeLimit: 30 * time.Second, Logger: testLogger(t),
	}
}

// ending records when and why each search ended.
type ending struct {
	mu    sync.Mutex
	at    map[string]time.Time
	cause map[string]error
}

func (e *ending) hook(jobID string, at time.Time, cause error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.at[jobID], e.cause[jobID] = at, cause
}

func (e *ending) get(jobID string) (time.Time, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.at[jobID], e.cause[jobID]
}

// startMem starts a runner on a memStore and stops it when the test ends.
func startMem(t *testing.T, st *memStore, cfg Config) (*Runner, *ending) {
	t.Helper()
	r, err := NewRunner(st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := &ending{at: map[string]time.Time{}, cause: map[string]error{}}
	r.planEnded = e.hook
	if err := r.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// No time limit: Stop waits for the searches to hand their jobs
		// back, which a loaded machine makes slower, not wrong.
		if err := r.Stop(context.Background()); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return r, e
}

// goWork runs the worker on jobID and returns what it returns.
func goWork(r *Runner, jobID string) <-chan error {
	done := make(chan error, 1)
	go func() { done <- r.work(context.Background(), store.PlanArgs{JobID: jobID}) }()
	return done
}

func TestWorkCompletesAJobWithAValidPlan(t *testing.T) {
	st := newMemStore()
	req := sampleRequest(t, 12, 500*time.Millisecond)
	st.put(store.Job{ID: "j1", Request: req})
	r, _ := startMem(t, st, fastConfig(t))
	if err := <-goWork(r, "j1"); err != nil {
		t.Fatalf("Work: %v", err)
	}
	j := st.job("j1")
	if j.Status != store.JobCompleted || j.Attempt != 1 || j.Error != "" {
		t.Fatalf("job after Work: %s, attempt %d, error %q", j.Status, j.Attempt, j.Error)
	}
	plan := checkPlan(t, req, j.Plan)
	if plan.Metrics.Routes == 0 {
		t.Error("the plan has no route")
	}
}

// TestWorkLeavesACompletedJobWithItsPlansProgress: however the saves
// were spaced (here: one at the start, none after for an hour), a
// COMPLETED job's progress is the engine's last report, phase DONE with
// the numbers of the plan it holds.
func TestWorkLeavesACompletedJobWithItsPlansProgress(t *testing.T) {
	st := newMemStore()
	req := sampleRequest(t, 12, 500*time.Millisecond)
	st.put(store.Job{ID: "j1", Request: req})
	cfg := fastConfig(t)
	cfg.ProgressEvery, cfg.PlanEvery = time.Hour, time.Hour
	r, _ := startMem(t, st, cfg)
	if err := <-goWork(r, "j1"); err != nil {
		t.Fatalf("Work: %v", err)
	}
	j := st.job("j1")
	if j.Status != store.JobCompleted {
		t.Fatalf("job after Work: %s %q", j.Status, j.Error)
	}
	m := checkPlan(t, req, j.Plan).Metrics
	p := j.Progress
	if p.Phase != string(engine.PhaseDone) || p.Routes != m.Routes || p.Delivered != m.Pallets ||
		p.Unassigned != m.Unassigned || p.Cost != m.Cost || p.Limit != 500*time.Millisecond {
		t.Fatalf("progress %+v; want phase DONE and the plan's %d routes, %d pallets, %d unassigned, cost %v",
			p, m.Routes, m.Pallets, m.Unassigned, m.Cost)
	}
}

func TestWorkFailsAJobWhoseRequestDoesNotRead(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "bad", Request: []byte(`{"dc": 1}`)})
	r, _ := startMem(t, st, fastConfig(t))
	if err := <-goWork(r, "bad"); err != nil {
		t.Fatalf("Work: %v", err)
	}
	if j := st.job("bad"); j.Status != store.JobFailed || j.Error == "" || j.Plan != nil {
		t.Errorf("job: %s, error %q, plan %d bytes", j.Status, j.Error, len(j.Plan))
	}
}

// TestWorkSavesProgressAndTheBestPlanWhileRunning: while the search runs,
// its progress and best plan so far are saved, at most every
// ProgressEvery and PlanEvery. The job as the first save with a plan left
// it is kept by the store (a poll could miss a short search); the counts
// are bounded by the run's length as measured here, which holds however
// slow the machine.
func TestWorkSavesProgressAndTheBestPlanWhileRunning(t *testing.T) {
	st := newMemStore()
	req := sampleRequest(t, 0, 3*time.Second)
	st.put(store.Job{ID: "j1", Request: req})
	cfg := fastConfig(t)
	r, _ := startMem(t, st, cfg)
	began := time.Now()
	if err := <-goWork(r, "j1"); err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if j := st.job("j1"); j.Status != store.JobCompleted {
		t.Fatalf("job: %s %q", j.Status, j.Error)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	running := st.firstPlanSaved
	if running == nil {
		t.Fatal("no best plan so far was saved while the job ran")
	}
	if p := running.Progress; running.Status != store.JobRunning || p.Phase == "" || p.Limit != 3*time.Second || p.Updated.IsZero() || p.Delivered == 0 {
		t.Errorf("job with its first best plan: %s, progress %+v", running.Status, p)
	}
	checkPlan(t, req, running.Plan)
	// Saves with a plan come at most every PlanEvery; the others at most
	// every ProgressEvery after the save before them, of either kind.
	maxPlans := int(took/cfg.PlanEvery) + 1
	maxSaves := int(took/cfg.ProgressEvery) + 1 + st.planSaves
	t.Logf("%d progress saves, %d with a plan, in a run of %v", st.saves, st.planSaves, took)
	if st.saves > maxSaves || st.planSaves > maxPlans {
		t.Errorf("%d progress saves, %d with a plan, in a run of %v; want at most %d and %d", st.saves, st.planSaves, took, maxSaves, maxPlans)
	}
}

// TestCancelStopsTheSearch: a cancel stops the search at once; the cause
// shows it was the cancel, not the 20 s time limit.
func TestCancelStopsTheSearch(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 0, 20*time.Second)})
	r, ends := startMem(t, st, fastConfig(t))
	done := goWork(r, "j1")
	waitFor(t, "the search under way", func() bool { return st.job("j1").Progress.Phase == string(engine.PhaseRouting) })
	// As the API does: the store first, then this process.
	st.cancel("j1")
	cancelled := time.Now()
	r.Cancel("j1")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	at, cause := ends.get("j1")
	took := at.Sub(cancelled)
	t.Logf("the search stopped %v after the cancel", took)
	if !errors.Is(cause, ErrCancelled) {
		t.Errorf("the search stopped %v after the cancel by %v, want ErrCancelled", took, cause)
	}
	if j := st.job("j1"); j.Status != store.JobCancelled || st.finishes != 0 {
		t.Errorf("job after the cancel: %s after %d FinishJob calls, want CANCELLED after none", j.Status, st.finishes)
	}
}

func TestStaleQueueEntryDoesNothing(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "done"})
	st.put(store.Job{ID: "elsewhere"})
	st.mu.Lock()
	st.jobs["done"].Status, st.jobs["done"].Plan = store.JobCompleted, []byte(`{}`)
	st.jobs["elsewhere"].Status, st.jobs["elsewhere"].Owner = store.JobRunning, "another process"
	st.jobs["elsewhere"].LeaseUntil = time.Now().Add(time.Minute)
	st.mu.Unlock()
	r, ends := startMem(t, st, fastConfig(t))
	for _, id := range []string{"done", "elsewhere", "unknown"} {
		if err := <-goWork(r, id); err != nil {
			t.Errorf("Work on %s: %v", id, err)
		}
		if at, _ := ends.get(id); !at.IsZero() {
			t.Errorf("%s was planned", id)
		}
	}
	if j := st.job("done"); j.Status != store.JobCompleted || string(j.Plan) != `{}` {
		t.Errorf("the completed job changed: %s %q", j.Status, j.Plan)
	}
	if j := st.job("elsewhere"); j.Owner != "another process" || j.Attempt != 0 {
		t.Errorf("the job another process runs changed: owner %q, attempt %d", j.Owner, j.Attempt)
	}
}

func TestALostLeaseStopsTheSearch(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 0, 20*time.Second)})
	r, ends := startMem(t, st, fastConfig(t))
	done := goWork(r, "j1")
	waitFor(t, "the search under way", func() bool { return st.job("j1").Progress.Phase == string(engine.PhaseRouting) })
	// Cancelled through another process: only the store knows.
	st.cancel("j1")
	cancelled := time.Now()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	at, cause := ends.get("j1")
	t.Logf("the search stopped %v after the store's cancel (%v)", at.Sub(cancelled), cause)
	if !errors.Is(cause, ErrLeaseLost) {
		t.Errorf("the search stopped by %v after the cancel in the store, want ErrLeaseLost", cause)
	}
	if j := st.job("j1"); j.Status != store.JobCancelled {
		t.Errorf("job: %s", j.Status)
	}
}

func TestAnExpiredLeaseStopsTheSearchWhenRenewalsFail(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 0, 20*time.Second)})
	cfg := fastConfig(t)
	cfg.Lease, cfg.RenewEvery = 600*time.Millisecond, 100*time.Millisecond
	r, ends := startMem(t, st, cfg)
	done := goWork(r, "j1")
	waitFor(t, "the search under way", func() bool { return st.job("j1").Status == store.JobRunning })
	st.setRenewErr(errDatabaseDown)
	failing := time.Now()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	at, cause := ends.get("j1")
	// The lease is 600 ms from the last renewal, checked every 100 ms, and
	// the search stops when 200 ms are left: long before its 20 s limit,
	// which would end it with no cause.
	t.Logf("the search stopped %v after renewals began to fail", at.Sub(failing))
	if !errors.Is(cause, ErrLeaseExpired) {
		t.Errorf("the search stopped by %v after renewals began to fail, want ErrLeaseExpired", cause)
	}
	// Nothing recorded: the job is left to the recoverer, which requeues
	// it once its lease has ended.
	if j := st.job("j1"); j.Status.Terminal() || st.finishes != 0 {
		t.Errorf("job: %s after %d FinishJob calls, want RUNNING or QUEUED after none", j.Status, st.finishes)
	}
}

func TestStopHandsRunningJobsBackAndRefusesNewOnes(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 0, 20*time.Second)})
	st.put(store.Job{ID: "j2", Request: sampleRequest(t, 12, time.Second)})
	r, err := NewRunner(st, fastConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	done := goWork(r, "j1")
	waitFor(t, "the search under way", func() bool { return st.job("j1").Status == store.JobRunning })
	stopping := time.Now()
	if err := r.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Logf("Stop took %v", time.Since(stopping))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if j := st.job("j1"); j.Status != store.JobQueued || j.Owner != "" {
		t.Errorf("the running job after Stop: %s, owner %q; want QUEUED with no owner", j.Status, j.Owner)
	}
	var snooze *river.JobSnoozeError
	if err := r.work(t.Context(), store.PlanArgs{JobID: "j2"}); !errors.As(err, &snooze) {
		t.Errorf("Work after Stop: %v, want a snooze", err)
	}
	if j := st.job("j2"); j.Status != store.JobQueued {
		t.Errorf("a job offered after Stop: %s, want QUEUED", j.Status)
	}
}
