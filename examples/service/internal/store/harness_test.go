package store

import (
	"context"
	"crypto/rand"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A harness opens stores of one database for the contract tests: each
// test gets a database of its own (a file in its temporary directory, or
// a PostgreSQL schema of its own), which it may close and open again.
type harness struct {
	name string
	// fresh makes a new empty database and returns where it is.
	fresh func(t testing.TB) string
	// open opens the database at where.
	open func(t testing.TB, where string) (Store, error)
	// riverJobs counts River's jobs for jobID, and how many are cancelled.
	riverJobs func(t testing.TB, s Store, jobID string) (total, cancelled int)
}

// postgresEnv names the environment variable holding the URL of a
// PostgreSQL database the tests may create schemas in.
const postgresEnv = "HAULPLAN_TEST_POSTGRES"

func testConfig() Config {
	return Config{
		riverTestOnly: true,
		PollInterval:  100 * time.Millisecond, // River's shortest
		Logger:        slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
}

var sqliteHarness = harness{
	name: "sqlite",
	fresh: func(t testing.TB) string {
		return filepath.Join(t.TempDir(), "haulplan.db")
	},
	open: func(t testing.TB, where string) (Store, error) {
		return OpenSQLite(context.Background(), where, testConfig())
	},
	riverJobs: func(t testing.TB, s Store, jobID string) (int, int) {
		return countRiverJobs(t, s, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN state = 'cancelled' THEN 1 ELSE 0 END), 0)
FROM river_job WHERE kind = 'haulplan_plan' AND json_extract(args, '$.jobId') = ?`, jobID)
	},
}

var postgresHarness = harness{
	name: "postgres",
	fresh: func(t testing.TB) string {
		url := os.Getenv(postgresEnv)
		if url == "" {
			t.Skipf("PostgreSQL tests skipped: set %s to the URL of a database this test may create schemas in (e.g. postgres://user:pass@localhost:5432/haulplan_test)", postgresEnv)
		}
		schema := "store_test_" + strings.ToLower(rand.Text()[:12])
		t.Cleanup(func() {
			conn, err := pgx.Connect(context.Background(), url)
			if err != nil {
				t.Errorf("drop schema %s: %v", schema, err)
				return
			}
			defer conn.Close(context.Background())
			if _, err := conn.Exec(context.Background(), `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
				t.Errorf("drop schema %s: %v", schema, err)
			}
		})
		return schema
	},
	open: func(t testing.TB, schema string) (Store, error) {
		cfg := testConfig()
		cfg.Schema = schema
		return OpenPostgres(context.Background(), os.Getenv(postgresEnv), cfg)
	},
	riverJobs: func(t testing.TB, s Store, jobID string) (int, int) {
		return countRiverJobs(t, s, `SELECT COUNT(*), COUNT(*) FILTER (WHERE state = 'cancelled')
FROM river_job WHERE kind = 'haulplan_plan' AND args->>'jobId' = ?`, jobID)
	},
}

func countRiverJobs(t testing.TB, s Store, query, jobID string) (total, cancelled int) {
	t.Helper()
	var n, c int64
	if err := s.(*dbStore).b.reader().queryRow(context.Background(), query, jobID).Scan(&n, &c); err != nil {
		t.Fatalf("count river jobs: %v", err)
	}
	return int(n), int(c)
}

var harnesses = []harness{sqliteHarness, postgresHarness}

// eachStore runs test against a fresh store of every database.
func eachStore(t *testing.T, test func(t *testing.T, h harness, s Store)) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			s, _ := h.openFresh(t)
			test(t, h, s)
		})
	}
}

// openFresh opens a store on a new database, closed when the test ends.
func (h harness) openFresh(t testing.TB) (Store, string) {
	where := h.fresh(t)
	return h.mustOpen(t, where), where
}

func (h harness) mustOpen(t testing.TB, where string) Store {
	t.Helper()
	s, err := h.open(t, where)
	if err != nil {
		t.Fatalf("open %s %s: %v", h.name, where, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newID(prefix string) string { return prefix + "-" + rand.Text()[:16] }

// newTenant creates a tenant with one client.
func newTenant(t testing.TB, s Store) (Tenant, Client) {
	t.Helper()
	tn := Tenant{ID: newID("tenant"), Name: "Tenant " + rand.Text()[:4]}
	c := Client{ID: newID("client"), SecretHash: []byte("hash of " + tn.ID)}
	if err := s.CreateTenant(context.Background(), tn, c); err != nil {
		t.Fatalf("create tenant: %v", err)
	}
	c.TenantID = tn.ID
	return tn, c
}

func newJob(t testing.TB, s Store, tenantID string) Job {
	t.Helper()
	j := Job{ID: newID("job"), TenantID: tenantID, Request: []byte(`{"stores":[]}`)}
	if err := s.CreateJob(context.Background(), j, 0); err != nil {
		t.Fatalf("create job: %v", err)
	}
	return j
}
