package jobs

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// These tests run tenants' jobs through River, one worker, as the service
// does: tenant A queues six jobs, then tenant B one, and B's job runs
// second, not seventh.

func TestQueueTakesTenantsInTurn(t *testing.T) {
	testTenantsInTurn(t, openSQLite(t, ""))
}

func TestPostgresQueueTakesTenantsInTurn(t *testing.T) {
	testTenantsInTurn(t, openPostgres(t, postgresSchema(t)))
}

func testTenantsInTurn(t *testing.T, st store.Store) {
	const other = "tenant-2"
	err := st.CreateTenant(t.Context(), store.Tenant{ID: other, Name: "Mesquite stores"},
		store.Client{ID: "client-2", SecretHash: []byte("not a real hash")})
	if err != nil {
		t.Fatal(err)
	}
	req := sampleRequest(t, 12, time.Second)
	var ids []string
	for i := range 6 {
		id := fmt.Sprintf("a%d", i+1)
		createJob(t, st, id, req)
		ids = append(ids, id)
	}
	if err := st.CreateJob(t.Context(), store.Job{ID: "b1", TenantID: other, Request: req}, 0); err != nil {
		t.Fatal(err)
	}
	// Every job's plan is found at once: the order is the queue's alone.
	instant := func(context.Context, engine.Request) (engine.Result, error) { return engine.Result{}, nil }
	cfg := fastConfig(t)
	cfg.MaxJobs = 1
	_, ends := startRunnerPlanning(t, st, cfg, instant)
	job := func(id string) store.Job {
		tn := tenant
		if id == "b1" {
			tn = other
		}
		j, err := st.Job(t.Context(), tn, id)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	ids = append(ids, "b1")
	waitFor(t, "every job to end", func() bool {
		return !slices.ContainsFunc(ids, func(id string) bool { return !job(id).Status.Terminal() })
	})
	if got, want := ends.ended(), []string{"a1", "b1", "a2", "a3", "a4", "a5", "a6"}; !slices.Equal(got, want) {
		t.Errorf("the jobs ran in the order %v, want %v: tenant B's job second", got, want)
	}
	for _, id := range ids {
		if j := job(id); j.Status != store.JobCompleted || j.Attempt != 1 {
			t.Errorf("job %s: %s after %d attempts, want COMPLETED after 1", id, j.Status, j.Attempt)
		}
	}
}
