package jobs

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// These tests run planning jobs through River on the SQLite store, as the
// service does.

const tenant = "tenant-1"

// openSQLite opens the store at path (a new file in a temporary folder
// when empty) with a tenant, and closes it when the test ends.
func openSQLite(t *testing.T, path string) store.Store {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "haulplan.db")
	}
	st := openSQLiteUnclosed(t, path)
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return st
}

// openSQLiteUnclosed is openSQLite for a test that closes the store.
func openSQLiteUnclosed(t *testing.T, path string) store.Store {
	t.Helper()
	st, err := store.OpenSQLite(t.Context(), path, store.Config{
		Logger: testLogger(t), PollInterval: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	err = st.CreateTenant(t.Context(), store.Tenant{ID: tenant, Name: "Lancaster stores"},
		store.Client{ID: "client-1", SecretHash: []byte("not a real hash")})
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		t.Fatal(err)
	}
	return st
}

// startRunner starts a runner on st; it is stopped when the test ends
// unless the test stopped it.
func startRunner(t *testing.T, st store.Store, cfg Config) (*Runner, *ending) {
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
		r.mu.Lock()
		stopped := r.stopping
		r.mu.Unlock()
		if stopped {
			return
		}
		// No time limit: Stop waits for the searches to hand their jobs
		// back, which a loaded machine makes slower, not wrong.
		if err := r.Stop(context.Background()); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return r, e
}

// pausingStore holds the first progress save that carries a plan, once
// the store has it, until resume: the job then stays RUNNING with its
// best plan so far for as long as the test needs (the worker finishes a
// job only once its last save has returned), however short the search
// and however slow the machine.
type pausingStore struct {
	store.Store
	pause         sync.Once
	paused, going chan struct{}
	resumed       sync.Once
}

func newPausingStore(st store.Store) *pausingStore {
	return &pausingStore{Store: st, paused: make(chan struct{}), going: make(chan struct{})}
}

func (s *pausingStore) SaveProgress(ctx context.Context, jobID, owner string, p store.Progress, plan []byte) error {
	err := s.Store.SaveProgress(ctx, jobID, owner, p, plan)
	if err == nil && plan != nil {
		s.pause.Do(func() {
			close(s.paused)
			<-s.going
		})
	}
	return err
}

// resume lets the held save return; the test's cleanup calls it too.
func (s *pausingStore) resume() { s.resumed.Do(func() { close(s.going) }) }

func createJob(t *testing.T, st store.Store, id string, req []byte) {
	t.Helper()
	if err := st.CreateJob(t.Context(), store.Job{ID: id, TenantID: tenant, Request: req}); err != nil {
		t.Fatal(err)
	}
}

func jobOf(t *testing.T, st store.Store, id string) store.Job {
	t.Helper()
	j, err := st.Job(t.Context(), tenant, id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestQueueRunsAJobShowingItsBestPlanThenCompletes(t *testing.T) {
	st := openSQLite(t, "")
	ps := newPausingStore(st)
	startRunner(t, ps, fastConfig(t))
	t.Cleanup(ps.resume)
	req := sampleRequest(t, 0, 2*time.Second)
	createJob(t, st, "j1", req)
	<-ps.paused
	running := jobOf(t, st, "j1")
	if running.Status != store.JobRunning || running.Plan == nil {
		t.Fatalf("job with its first best plan saved: %s, plan %d bytes; want RUNNING with the plan", running.Status, len(running.Plan))
	}
	ps.resume()
	if p := running.Progress; p.Phase == "" || p.Limit != 2*time.Second || p.Delivered == 0 || running.Owner == "" {
		t.Errorf("while running: owner %q, progress %+v", running.Owner, p)
	}
	checkPlan(t, req, running.Plan)
	var j store.Job
	waitFor(t, "COMPLETED", func() bool {
		j = jobOf(t, st, "j1")
		return j.Status.Terminal()
	})
	if j.Status != store.JobCompleted || j.Attempt != 1 || j.Error != "" {
		t.Fatalf("job: %s, attempt %d, error %q", j.Status, j.Attempt, j.Error)
	}
	plan := checkPlan(t, req, j.Plan)
	if plan.Metrics.Pallets == 0 {
		t.Error("the plan delivers nothing")
	}
}

// TestQueueCancelStopsTheSearch: a cancel stops the search at once; the
// cause shows it was the cancel, not the 20 s time limit.
func TestQueueCancelStopsTheSearch(t *testing.T) {
	for _, c := range []struct {
		name string
		tell bool // whether the API tells this process (Runner.Cancel)
	}{{"told", true}, {"through the store only", false}} {
		t.Run(c.name, func(t *testing.T) {
			st := openSQLite(t, "")
			r, ends := startRunner(t, st, fastConfig(t))
			createJob(t, st, "j1", sampleRequest(t, 0, 20*time.Second))
			waitFor(t, "the search under way", func() bool {
				return jobOf(t, st, "j1").Progress.Phase == string(engine.PhaseRouting)
			})
			// Timed from the API's call, as a client sees it.
			cancelled := time.Now()
			if _, err := st.CancelJob(t.Context(), tenant, "j1", "test"); err != nil {
				t.Fatal(err)
			}
			t.Logf("store.CancelJob took %v", time.Since(cancelled))
			if c.tell {
				r.Cancel("j1")
			}
			var at time.Time
			var cause error
			waitFor(t, "the search to stop", func() bool {
				at, cause = ends.get("j1")
				return !at.IsZero()
			})
			t.Logf("the search stopped %v after the cancel (%v)", at.Sub(cancelled), cause)
			// Whichever path sees the cancel first stops the search:
			// River's cancel, the runner's, or a progress save or lease
			// renewal that finds the job cancelled in the store (which
			// happens before the runner is told, so even when told).
			if !errors.Is(cause, ErrCancelled) && !errors.Is(cause, river.ErrJobCancelledRemotely) &&
				!errors.Is(cause, ErrLeaseLost) {
				t.Errorf("stopped by %v, want ErrCancelled, River's cancel or ErrLeaseLost", cause)
			}
			// Whatever the worker does after, the job stays CANCELLED.
			waitFor(t, "the worker to return", func() bool {
				r.mu.Lock()
				defer r.mu.Unlock()
				return len(r.runs) == 0
			})
			if j := jobOf(t, st, "j1"); j.Status != store.JobCancelled {
				t.Errorf("job after the cancel: %s", j.Status)
			}
		})
	}
}

func TestQueueStaleOrDuplicateEntryDoesNothing(t *testing.T) {
	st := openSQLite(t, "")
	ps := newPausingStore(st)
	r, ends := startRunner(t, ps, fastConfig(t))
	t.Cleanup(ps.resume)
	req := sampleRequest(t, 0, 2*time.Second)
	createJob(t, st, "j1", req)
	<-ps.paused // the job runs here until resumed

	// A second process's worker handed the same job while it runs here.
	other, err := NewRunner(st, fastConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := other.work(t.Context(), store.PlanArgs{JobID: "j1"}); err != nil {
		t.Errorf("a duplicate entry in another process: %v", err)
	}
	// And this process's worker, handed it again.
	if err := r.work(t.Context(), store.PlanArgs{JobID: "j1"}); err != nil {
		t.Errorf("a duplicate entry in this process: %v", err)
	}
	ps.resume()
	var done store.Job
	waitFor(t, "COMPLETED", func() bool {
		done = jobOf(t, st, "j1")
		return done.Status.Terminal()
	})
	if done.Status != store.JobCompleted || done.Attempt != 1 {
		t.Fatalf("job: %s after %d attempts, want COMPLETED after 1", done.Status, done.Attempt)
	}
	first, _ := ends.get("j1")

	// A stale entry (an earlier attempt's, redelivered) after the end.
	if err := r.work(t.Context(), store.PlanArgs{JobID: "j1"}); err != nil {
		t.Errorf("a stale entry: %v", err)
	}
	if again, _ := ends.get("j1"); !again.Equal(first) {
		t.Error("a stale entry planned the completed job again")
	}
	if j := jobOf(t, st, "j1"); j.Status != store.JobCompleted || j.Attempt != 1 || string(j.Plan) != string(done.Plan) {
		t.Errorf("the completed job changed: %s, attempt %d", j.Status, j.Attempt)
	}
}

func TestQueueRecoversTheJobOfADeadProcess(t *testing.T) {
	st := openSQLite(t, "")
	req := sampleRequest(t, 12, time.Second)
	createJob(t, st, "j1", req)
	// A process claimed it and died: its last lease ended a second ago.
	diedWithJob(t, st, "j1", "dead process")
	startRunner(t, st, fastConfig(t))
	var j store.Job
	waitFor(t, "the job to end", func() bool {
		j = jobOf(t, st, "j1")
		return j.Status.Terminal()
	})
	if j.Status != store.JobCompleted || j.Attempt != 2 {
		t.Fatalf("job: %s after %d attempts (%q), want COMPLETED after 2", j.Status, j.Attempt, j.Error)
	}
	checkPlan(t, req, j.Plan)
}

// diedWithJob has owner claim job id and die with it: its last renewal
// gave it a lease that ended a second ago. No sleep is needed, and no
// lease so short that a slow claim finds it over already.
func diedWithJob(t *testing.T, st store.Store, id, owner string) {
	t.Helper()
	if _, err := st.ClaimJob(t.Context(), id, owner, time.Now().Add(time.Minute)); err != nil {
		t.Fatalf("%s: %v", owner, err)
	}
	if _, err := st.RenewLeases(t.Context(), owner, time.Now().Add(-time.Second), []string{id}); err != nil {
		t.Fatalf("%s: %v", owner, err)
	}
}

func TestQueueFailsAJobAfterMaxAttempts(t *testing.T) {
	st := openSQLite(t, "")
	createJob(t, st, "j1", sampleRequest(t, 12, time.Second))
	cfg := fastConfig(t)
	cfg.MaxAttempts = 2
	// Two processes in turn claimed it and died.
	for _, owner := range []string{"dead process 1", "dead process 2"} {
		diedWithJob(t, st, "j1", owner)
	}
	startRunner(t, st, cfg)
	var j store.Job
	waitFor(t, "the job to end", func() bool {
		j = jobOf(t, st, "j1")
		return j.Status.Terminal()
	})
	if j.Status != store.JobFailed || j.Attempt != 2 || j.Error == "" {
		t.Fatalf("job: %s after %d attempts (%q), want FAILED after 2 with a reason", j.Status, j.Attempt, j.Error)
	}
	t.Logf("FAILED: %s", j.Error)
}

// TestQueueStopRequeuesARunningJobThatANewRunnerCompletes: the job asks
// for 20 s, so that it is still running when Stop comes however slow the
// machine; the new runner caps searches at 2 s, so that it completes soon.
func TestQueueStopRequeuesARunningJobThatANewRunnerCompletes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haulplan.db")
	st := openSQLiteUnclosed(t, path)
	r, _ := startRunner(t, st, fastConfig(t))
	req := sampleRequest(t, 0, 20*time.Second)
	createJob(t, st, "j1", req)
	waitFor(t, "the job running", func() bool { return jobOf(t, st, "j1").Status == store.JobRunning })
	stopping := time.Now()
	if err := r.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Logf("Stop took %v", time.Since(stopping))
	if j := jobOf(t, st, "j1"); j.Status != store.JobQueued || j.Owner != "" {
		t.Fatalf("the running job after Stop: %s, owner %q; want QUEUED with no owner", j.Status, j.Owner)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	// The restarted process, on the same database.
	st2 := openSQLite(t, path)
	cfg := fastConfig(t)
	cfg.MaxTimeLimit = 2 * time.Second
	startRunner(t, st2, cfg)
	var j store.Job
	waitFor(t, "the job to end", func() bool {
		j = jobOf(t, st2, "j1")
		return j.Status.Terminal()
	})
	if j.Status != store.JobCompleted || j.Attempt != 2 {
		t.Fatalf("job: %s after %d attempts (%q), want COMPLETED after 2", j.Status, j.Attempt, j.Error)
	}
	checkPlan(t, req, j.Plan)
}
