package api

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// postgresEnv names the environment variable with the URL of a PostgreSQL
// database the tests may create schemas in (the store's tests use it too).
const postgresEnv = "HAULPLAN_TEST_POSTGRES"

// twoProcesses is two service handlers on one store, each with the
// shared rate limit of the store, as two processes of a deployment.
func twoProcesses(t *testing.T, one, two store.Store, perMinute int) (*testEnv, *testEnv) {
	t.Helper()
	a := newEnv(t, envOptions{store: one, rateLimiter: NewStoreRateLimiter(one, perMinute)})
	b := newEnv(t, envOptions{store: two, rateLimiter: NewStoreRateLimiter(two, perMinute)})
	return a, b
}

// TestSharedRateLimitSQLite: with the store's limiter, two handlers on one
// SQLite store share one limit per tenant and operation.
func TestSharedRateLimitSQLite(t *testing.T) {
	st := newTestStore(t)
	p1, p2 := twoProcesses(t, st, st, 4)
	checkSharedLimit(t, p1, p2)
}

// checkSharedLimit: 4 a minute, spent across both processes.
func checkSharedLimit(t *testing.T, p1, p2 *testEnv) {
	t.Helper()
	a := p1.newTenant("Acme") // createAccessToken: its own limit
	for i := range 4 {
		p := []*testEnv{p1, p2}[i%2]
		resp, body := p.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound)
	}
	for _, p := range []*testEnv{p1, p2} {
		resp, body := p.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
		if resp.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
}

// postgresSchema returns the PostgreSQL URL of the tests and a new schema
// name, dropped when the test ends; without the URL the test is skipped,
// saying so.
func postgresSchema(t testing.TB) (url, schema string) {
	t.Helper()
	url = os.Getenv(postgresEnv)
	if url == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to the URL of a database this test may create schemas in (e.g. postgres://user:pass@127.0.0.1:5432/haulplan_test)", postgresEnv)
	}
	schema = "api_test_" + strings.ToLower(rand.Text()[:12])
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
	return url, schema
}

// TestPostgresTwoProcesses: two handlers, each with its own connection
// pool on one PostgreSQL schema, as two machines of a deployment: a token
// from one works on the other, a job submitted to one is read from both,
// 32 concurrent updates of one delivery through both lose none (the
// optimistic retry across processes), and the rate limit holds across both.
func TestPostgresTwoProcesses(t *testing.T) {
	url, schema := postgresSchema(t)
	open := func() store.Store {
		st, err := store.OpenPostgres(context.Background(), url, store.Config{Schema: schema,
			Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	one := open()
	two := open()
	p1, p2 := twoProcesses(t, one, two, 1000)

	a := p1.newTenant("Acme")
	job := p1.submit(a)
	if v := p2.getJob(a, job); v.Status != "QUEUED" {
		t.Fatalf("the job read from the other process: %+v", v)
	}
	p2.complete(job)
	if v := p1.getJob(a, job); v.Status != "COMPLETED" || len(v.Routes) == 0 {
		t.Fatalf("the completed job read from the first process: %+v", v)
	}

	del := p2.book(a)
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		p := []*testEnv{p1, p2}[i%2]
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPut, p.srv.URL+"/deliveries/"+del+"/update",
				strings.NewReader(fmt.Sprintf(`{"deliveries":{"customer":{"lastName":"Name%02d"}}}`, i)))
			req.Header.Set("Authorization", "Bearer "+a.token)
			req.Header.Set(ConsumerHeader, a.consumer)
			req.Header.Set("Content-Type", "application/json")
			resp, err := p.srv.Client().Do(req)
			if err != nil {
				errs <- err
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("client %d: status %d", i, resp.StatusCode)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	h := p1.history(a, del)
	if len(h) != 33 {
		t.Fatalf("%d history entries after 32 updates, want 33", len(h))
	}
	for i, c := range h {
		if c.Version != int64(i+1) {
			t.Fatalf("history %d has version %d", i, c.Version)
		}
	}

	q1, q2 := twoProcesses(t, one, two, 4)
	checkSharedLimit(t, q1, q2)
}
