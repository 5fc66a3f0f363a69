package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"modernc.org/sqlite"
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

// TestOpenWaitsForTheWriterOfANewFile: while another connection holds
// the write lock of a new SQLite file (as another process opening it at
// the same moment does, switching it to WAL or migrating it), opening
// the store waits for that lock and then succeeds; it does not fail with
// SQLITE_BUSY. The other connection gives the lock back only once the
// opener asks for it (BEGIN), so the opener meets the lock every time.
func TestOpenWaitsForTheWriterOfANewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haulplan.db")
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(context.Background(), `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}

	asked := make(chan struct{})
	var once sync.Once
	onBegin.Store(path, func() { once.Do(func() { close(asked) }) })
	defer onBegin.Delete(path)

	opened := make(chan error, 1)
	go func() {
		s, err := sqliteHarness.open(t, path)
		if err == nil {
			s.Close()
		}
		opened <- err
	}()
	select {
	case <-asked:
		if _, err := lock.ExecContext(context.Background(), `ROLLBACK`); err != nil {
			t.Fatal(err)
		}
		if err := <-opened; err != nil {
			t.Fatalf("open, once the other connection gave the write lock back: %v", err)
		}
	case err := <-opened:
		t.Fatalf("open while another connection held the write lock returned %v before it asked for the lock", err)
	}
}

// onBegin maps a database path to a function that runs when a connection
// to it prepares BEGIN (see the connection hook below).
var onBegin sync.Map

// The connection hook runs on every connection the tests open; one whose
// DSN names a path in onBegin gets an authorizer that calls its function
// when BEGIN is prepared, just before the connection asks for the lock.
func init() {
	sqlite.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, dsn string) error {
		path, _, _ := strings.Cut(dsn, "?")
		fn, ok := onBegin.Load(path)
		if !ok {
			return nil
		}
		return conn.(sqlite.AuthorizerRegisterer).RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, arg1, _, _, _ string) sqlite.AuthorizerReturnCode {
			if action == sqlite.AuthTransaction && arg1 == "BEGIN" {
				fn.(func())()
			}
			return sqlite.AuthorizerOK
		})
	})
}
