package jobs

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// These tests run two service processes' runners (two stores, two River
// clients, two owners) on one PostgreSQL database.

// postgresEnv names the environment variable holding the URL of a
// PostgreSQL database the tests may create schemas in (the store's tests
// read the same one).
const postgresEnv = "HAULPLAN_TEST_POSTGRES"

// postgresSchema returns a new schema name in the test database, dropped
// when the test ends; it skips the test when no database is configured.
func postgresSchema(t *testing.T) string {
	t.Helper()
	url := os.Getenv(postgresEnv)
	if url == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to the URL of a database this test may create schemas in (e.g. postgres://user:pass@127.0.0.1:5432/haulplan_test)", postgresEnv)
	}
	schema := "jobs_test_" + strings.ToLower(rand.Text()[:12])
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// openPostgres opens one process's store on schema, with the test tenant.
func openPostgres(t *testing.T, schema string) store.Store {
	t.Helper()
	st, err := store.OpenPostgres(t.Context(), os.Getenv(postgresEnv), store.Config{
		Logger: testLogger(t), PollInterval: 100 * time.Millisecond, Schema: schema,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	err = st.CreateTenant(t.Context(), store.Tenant{ID: tenant, Name: "Lancaster stores"},
		store.Client{ID: "client-1", SecretHash: []byte("not a real hash")})
	if err != nil && !errors.Is(err, store.ErrDuplicate) {
		t.Fatal(err)
	}
	return st
}

// twoProcesses starts two runners on one schema.
func twoProcesses(t *testing.T) (sts [2]store.Store, rs [2]*Runner, ends [2]*ending) {
	schema := postgresSchema(t)
	for i := range 2 {
		sts[i] = openPostgres(t, schema)
		rs[i], ends[i] = startRunner(t, sts[i], fastConfig(t))
	}
	return sts, rs, ends
}

// runningIn waits until job id runs and returns the index of the runner
// that runs it.
func runningIn(t *testing.T, sts [2]store.Store, rs [2]*Runner, id string) int {
	t.Helper()
	var j store.Job
	waitFor(t, "the search under way", func() bool {
		j = jobOf(t, sts[0], id)
		return j.Progress.Phase == string(engine.PhaseRouting)
	})
	for i, r := range rs {
		if j.Owner == r.Owner() {
			return i
		}
	}
	t.Fatalf("job %s runs under %q, neither runner", id, j.Owner)
	return -1
}

// TestPostgresCancelThroughAnotherProcessStopsTheSearch: a cancel answered
// by another process stops the search; the job asks for 20 s, which would
// end it with no cause.
func TestPostgresCancelThroughAnotherProcessStopsTheSearch(t *testing.T) {
	sts, rs, ends := twoProcesses(t)
	createJob(t, sts[0], "j1", sampleRequest(t, 0, 20*time.Second))
	in := runningIn(t, sts, rs, "j1")
	other := 1 - in
	// The API of the other process answers the cancel.
	cancelled := time.Now()
	if _, err := sts[other].CancelJob(t.Context(), tenant, "j1", "test"); err != nil {
		t.Fatal(err)
	}
	rs[other].Cancel("j1") // not its job: nothing happens there
	var at time.Time
	var cause error
	waitFor(t, "the search to stop", func() bool {
		at, cause = ends[in].get("j1")
		return !at.IsZero()
	})
	t.Logf("the search stopped %v after the cancel in the other process (%v)", at.Sub(cancelled), cause)
	if cause == nil {
		t.Errorf("the search ended on its own, not by the cancel in the other process")
	}
	waitFor(t, "the worker to return", func() bool {
		rs[in].mu.Lock()
		defer rs[in].mu.Unlock()
		return len(rs[in].runs) == 0
	})
	if j := jobOf(t, sts[in], "j1"); j.Status != store.JobCancelled {
		t.Errorf("job after the cancel: %s", j.Status)
	}
}

// TestPostgresTheOtherProcessCompletesADeadProcesssJob: a process dies
// while it runs a job; another process on the same database completes it
// once the lease has ended. The job asks for 20 s, so that it still runs
// when the first process dies however slow the machine; the other process
// caps searches at 2 s, so that it completes soon.
func TestPostgresTheOtherProcessCompletesADeadProcesssJob(t *testing.T) {
	schema := postgresSchema(t)
	first := openPostgres(t, schema)
	dead, _ := startRunner(t, first, fastConfig(t))
	req := sampleRequest(t, 0, 20*time.Second)
	createJob(t, first, "j1", req)
	waitFor(t, "the search under way", func() bool {
		return jobOf(t, first, "j1").Progress.Phase == string(engine.PhaseRouting)
	})
	// The process dies: its leases are no longer renewed and its River
	// client stops (nothing is handed back, as after a kill).
	died := time.Now()
	dead.stopBg()
	if err := first.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	other := openPostgres(t, schema)
	cfg := fastConfig(t)
	cfg.MaxTimeLimit = 2 * time.Second
	startRunner(t, other, cfg)
	var j store.Job
	waitFor(t, "the job to end", func() bool {
		j = jobOf(t, other, "j1")
		return j.Status.Terminal()
	})
	t.Logf("completed by the other process %v after the first died (lease %v)", time.Since(died), fastConfig(t).Lease)
	if j.Status != store.JobCompleted || j.Attempt != 2 || j.Owner != "" {
		t.Fatalf("job: %s after %d attempts (%q), want COMPLETED after 2", j.Status, j.Attempt, j.Error)
	}
	checkPlan(t, req, j.Plan)
	// The dead runner's Stop (its cleanup) must not disturb the job.
	dead.mu.Lock()
	dead.stopping = true
	dead.mu.Unlock()
}
