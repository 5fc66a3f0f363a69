package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestJobLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		j := newJob(t, s, tn.ID)

		got, err := s.Job(ctx, tn.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != JobQueued || got.Attempt != 0 || got.Plan != nil || got.Owner != "" || string(got.Request) != string(j.Request) || got.Created.IsZero() {
			t.Fatalf("new job = %+v, want QUEUED, attempt 0, no plan, no owner, the request", got)
		}
		if total, _ := h.riverJobs(t, s, j.ID); total != 1 {
			t.Errorf("river jobs for a new job = %d, want 1", total)
		}
		if err := s.CreateJob(ctx, j, 0); !errors.Is(err, ErrDuplicate) {
			t.Errorf("job again: err = %v, want ErrDuplicate", err)
		}
		if err := s.CreateJob(ctx, Job{ID: newID("job"), TenantID: "no-such-tenant", Request: []byte("{}")}, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("job of an unknown tenant: err = %v, want ErrNotFound", err)
		}

		lease := time.Now().Add(time.Minute)
		claimed, err := s.ClaimJob(ctx, j.ID, "proc-a", lease)
		if err != nil {
			t.Fatal(err)
		}
		if claimed.Status != JobRunning || claimed.Attempt != 1 || claimed.Owner != "proc-a" || !claimed.LeaseUntil.Equal(lease.Truncate(time.Microsecond)) || claimed.Started.IsZero() {
			t.Fatalf("claimed = %+v, want RUNNING, attempt 1, owner proc-a, the lease, started", claimed)
		}
		// A duplicate River job, in this process or another, does nothing.
		for _, owner := range []string{"proc-a", "proc-b"} {
			if _, err := s.ClaimJob(ctx, j.ID, owner, lease); !errors.Is(err, ErrLeaseLost) {
				t.Errorf("claim of a job with a live lease by %s: err = %v, want ErrLeaseLost", owner, err)
			}
		}
		if _, err := s.ClaimJob(ctx, "no-such-job", "proc-a", lease); !errors.Is(err, ErrNotFound) {
			t.Errorf("claim of an unknown job: err = %v, want ErrNotFound", err)
		}

		p := Progress{Phase: "search", Round: 7, Elapsed: 1500 * time.Millisecond, Limit: 10 * time.Second,
			Routes: 4, Delivered: 120, Unassigned: 3, Cost: 1234.5}
		if err := s.SaveProgress(ctx, j.ID, "proc-a", p, []byte(`{"plan":1}`)); err != nil {
			t.Fatal(err)
		}
		p.Round = 8
		if err := s.SaveProgress(ctx, j.ID, "proc-a", p, nil); err != nil { // keeps the plan
			t.Fatal(err)
		}
		if err := s.SaveProgress(ctx, j.ID, "proc-b", p, nil); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("progress by another owner: err = %v, want ErrLeaseLost", err)
		}
		got, err = s.Job(ctx, tn.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantP := p
		wantP.Updated = got.Progress.Updated
		if got.Progress != wantP || got.Progress.Updated.IsZero() || string(got.Plan) != `{"plan":1}` {
			t.Errorf("running job: progress %+v plan %s, want %+v and the best plan so far", got.Progress, got.Plan, p)
		}
		// The overview is the same job without its request, and as
		// private to its tenant.
		over, err := s.JobOverview(ctx, tn.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		withoutRequest := got
		withoutRequest.Request = nil
		if !reflect.DeepEqual(over, withoutRequest) {
			t.Errorf("overview = %+v, want the job without its request %+v", over, withoutRequest)
		}
		other, _ := newTenant(t, s)
		if _, err := s.JobOverview(ctx, other.ID, j.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("overview by another tenant: err = %v, want ErrNotFound", err)
		}

		if err := s.FinishJob(ctx, j.ID, "proc-b", JobCompleted, []byte(`{"plan":2}`), ""); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("finish by another owner: err = %v, want ErrLeaseLost", err)
		}
		if err := s.FinishJob(ctx, j.ID, "proc-a", JobCompleted, []byte(`{"plan":2}`), ""); err != nil {
			t.Fatal(err)
		}
		got, err = s.Job(ctx, tn.ID, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != JobCompleted || !got.Released || string(got.Plan) != `{"plan":2}` || got.Owner != "" || !got.LeaseUntil.IsZero() || got.Finished.IsZero() {
			t.Errorf("completed job = %+v, want COMPLETED, released, the final plan, no owner, finished", got)
		}
		// A stale River job of a finished job does nothing.
		if _, err := s.ClaimJob(ctx, j.ID, "proc-b", lease); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("claim of a completed job: err = %v, want ErrLeaseLost", err)
		}
		if err := s.SaveProgress(ctx, j.ID, "proc-a", p, nil); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("progress of a completed job: err = %v, want ErrLeaseLost", err)
		}
		if err := s.FinishJob(ctx, j.ID, "proc-a", JobFailed, nil, "again"); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("finish of a completed job: err = %v, want ErrLeaseLost", err)
		}

		// A failed job says why.
		f := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, f.ID, "proc-a", lease); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishJob(ctx, f.ID, "proc-a", JobFailed, nil, "no trailer fits"); err != nil {
			t.Fatal(err)
		}
		got, _ = s.Job(ctx, tn.ID, f.ID)
		if got.Status != JobFailed || got.Error != "no trailer fits" || got.Released || got.Finished.IsZero() {
			t.Errorf("failed job = %+v, want FAILED with its reason", got)
		}
	})
}

func TestCancelJob(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		lease := time.Now().Add(time.Minute)

		queued := newJob(t, s, tn.ID)
		got, err := s.CancelJob(ctx, tn.ID, queued.ID, "cancelled by the client")
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != JobCancelled || got.Error != "cancelled by the client" || got.Finished.IsZero() {
			t.Errorf("cancelled queued job = %+v", got)
		}
		if total, cancelled := h.riverJobs(t, s, queued.ID); total != 1 || cancelled != 1 {
			t.Errorf("river jobs of a cancelled queued job: %d, %d cancelled; want 1, 1", total, cancelled)
		}
		if _, err := s.ClaimJob(ctx, queued.ID, "proc-a", lease); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("claim of a cancelled job: err = %v, want ErrLeaseLost", err)
		}

		running := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, running.ID, "proc-a", lease); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveProgress(ctx, running.ID, "proc-a", Progress{Phase: "search"}, []byte(`{"best":1}`)); err != nil {
			t.Fatal(err)
		}
		got, err = s.CancelJob(ctx, tn.ID, running.ID, "cancelled")
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != JobCancelled || got.Owner != "" || string(got.Plan) != `{"best":1}` {
			t.Errorf("cancelled running job = %+v, want CANCELLED keeping its best plan", got)
		}
		lost, err := s.RenewLeases(ctx, "proc-a", lease, []string{running.ID})
		if err != nil {
			t.Fatal(err)
		}
		if len(lost) != 1 || lost[0] != running.ID {
			t.Errorf("RenewLeases after cancel: lost = %v, want [%s]", lost, running.ID)
		}
		if err := s.FinishJob(ctx, running.ID, "proc-a", JobCompleted, []byte(`{}`), ""); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("finish of a cancelled job: err = %v, want ErrLeaseLost", err)
		}

		completed := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, completed.ID, "proc-a", lease); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishJob(ctx, completed.ID, "proc-a", JobCompleted, []byte(`{"final":1}`), ""); err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second cancel finds it not released and changes nothing
			got, err = s.CancelJob(ctx, tn.ID, completed.ID, "release cancelled")
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != JobCompleted || got.Released || string(got.Plan) != `{"final":1}` {
				t.Errorf("cancelled release = %+v, want COMPLETED, not released, its plan kept", got)
			}
		}

		// Already cancelled or failed: unchanged, no error.
		again, err := s.CancelJob(ctx, tn.ID, queued.ID, "other reason")
		if err != nil || again.Status != JobCancelled || again.Error != "cancelled by the client" {
			t.Errorf("cancel of a cancelled job = %+v, %v; want it unchanged", again, err)
		}
		failed := newJob(t, s, tn.ID)
		s.ClaimJob(ctx, failed.ID, "proc-a", lease)
		s.FinishJob(ctx, failed.ID, "proc-a", JobFailed, nil, "broken")
		again, err = s.CancelJob(ctx, tn.ID, failed.ID, "cancel")
		if err != nil || again.Status != JobFailed || again.Error != "broken" {
			t.Errorf("cancel of a failed job = %+v, %v; want it unchanged", again, err)
		}
		if _, err := s.CancelJob(ctx, tn.ID, "no-such-job", "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("cancel of an unknown job: err = %v, want ErrNotFound", err)
		}
	})
}

// TestCreateJobRollsBackRiverJob: the River job is inserted in the job's
// transaction, before the job row; when the row fails (a duplicate id),
// the River job goes with it.
func TestCreateJobRollsBackRiverJob(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		tn, _ := newTenant(t, s)
		j := newJob(t, s, tn.ID)
		for range 3 {
			if err := s.CreateJob(context.Background(), j, 0); !errors.Is(err, ErrDuplicate) {
				t.Fatalf("duplicate job: err = %v, want ErrDuplicate", err)
			}
		}
		if total, _ := h.riverJobs(t, s, j.ID); total != 1 {
			t.Errorf("river jobs after 3 failed CreateJob = %d, want the first job's 1", total)
		}
	})
}

// TestJobReplans: a job created as a re-plan names its source, and the
// source lists its re-plans, oldest first, in every read for the tenant
// (Job, JobOverview, CancelJob). A re-plan of another tenant's job, or of
// none, is ErrNotFound and records nothing.
func TestJobReplans(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		src := newJob(t, s, tn.ID)
		t0 := time.Now()
		var replans []string
		for i := range 2 {
			j := Job{ID: newID("job"), TenantID: tn.ID, Request: []byte(`{"stores":[]}`), ReplanOf: src.ID, Created: t0.Add(time.Duration(i) * time.Second)}
			if err := s.CreateJob(ctx, j, 0); err != nil {
				t.Fatal(err)
			}
			replans = append(replans, j.ID)
		}
		for name, read := range map[string]func(context.Context, string, string) (Job, error){"Job": s.Job, "JobOverview": s.JobOverview} {
			got, err := read(ctx, tn.ID, src.ID)
			if err != nil || got.ReplanOf != "" || !reflect.DeepEqual(got.Replans, replans) {
				t.Errorf("%s of the source: replanOf %q, replans %v (%v); want none, %v", name, got.ReplanOf, got.Replans, err, replans)
			}
			got, err = read(ctx, tn.ID, replans[0])
			if err != nil || got.ReplanOf != src.ID || got.Replans != nil {
				t.Errorf("%s of a re-plan: replanOf %q, replans %v (%v); want %s, none", name, got.ReplanOf, got.Replans, err, src.ID)
			}
		}
		cancelled, err := s.CancelJob(ctx, tn.ID, replans[1], "not needed")
		if err != nil || cancelled.Status != JobCancelled || cancelled.ReplanOf != src.ID {
			t.Errorf("cancelled re-plan = %+v (%v), want CANCELLED, replanOf %s", cancelled, err, src.ID)
		}
		cancelled, err = s.CancelJob(ctx, tn.ID, src.ID, "not needed")
		if err != nil || !reflect.DeepEqual(cancelled.Replans, replans) {
			t.Errorf("cancelled source: replans %v (%v), want %v", cancelled.Replans, err, replans)
		}
		if got, err := s.Job(ctx, tn.ID, replans[0]); err != nil || got.Status != JobQueued {
			t.Errorf("the other re-plan after the cancels = %s (%v), want QUEUED", got.Status, err)
		}

		other, _ := newTenant(t, s)
		for _, of := range []string{src.ID, "no-such-job"} {
			j := Job{ID: newID("job"), TenantID: other.ID, Request: []byte(`{}`), ReplanOf: of}
			if err := s.CreateJob(ctx, j, 0); !errors.Is(err, ErrNotFound) {
				t.Errorf("a re-plan of %s by another tenant: err = %v, want ErrNotFound", of, err)
			}
			if _, err := s.Job(ctx, other.ID, j.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("the refused re-plan of %s was recorded: err = %v", of, err)
			}
			if total, _ := h.riverJobs(t, s, j.ID); total != 0 {
				t.Errorf("the refused re-plan of %s has %d River jobs", of, total)
			}
		}
		if got, err := s.Job(ctx, tn.ID, src.ID); err != nil || len(got.Replans) != 2 {
			t.Errorf("the source after another tenant's attempts: replans %v (%v)", got.Replans, err)
		}
		// Another tenant's re-plans are not listed, whatever they claim:
		// a job's link is read only within its tenant.
		if got, err := s.Job(ctx, other.ID, src.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the source read by another tenant = %+v, %v; want ErrNotFound", got, err)
		}
	})
}
