package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/delivery"
)

// finishJob runs a job to status (COMPLETED with a plan, FAILED, or
// CANCELLED) and returns it as stored, its end in Finished.
func finishJob(t testing.TB, s Store, tenantID string, status JobStatus) Job {
	t.Helper()
	ctx := context.Background()
	j := newJob(t, s, tenantID)
	switch status {
	case JobCancelled:
		if _, err := s.CancelJob(ctx, tenantID, j.ID, "test"); err != nil {
			t.Fatal(err)
		}
	default:
		if _, err := s.ClaimJob(ctx, j.ID, "proc", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishJob(ctx, j.ID, "proc", status, []byte(`{"routes":[]}`), ""); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Job(ctx, tenantID, j.ID)
	if err != nil || got.Finished.IsZero() {
		t.Fatalf("job %s: %v, finished %v", j.ID, err, got.Finished)
	}
	return got
}

// closeDelivery books a delivery at booked and moves it to status at
// the instant at (its last change).
func closeDelivery(t testing.TB, s Store, tenantID, status string, booked, at time.Time) Delivery {
	t.Helper()
	d := Delivery{ID: newID("delivery"), TenantID: tenantID, ExternalOrderID: newID("order"), Status: "BOOKED", Body: []byte(`{"v":1}`),
		Created: booked}
	if err := s.CreateDelivery(context.Background(), d, Change{Kind: "BOOK", Request: []byte(`{"book":1}`)}); err != nil {
		t.Fatal(err)
	}
	d.Version, d.Status, d.Updated = 2, status, at
	if err := s.UpdateDelivery(context.Background(), d, Change{Kind: "STATUS", Request: []byte(`{"status":"` + status + `"}`)}); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDeleteExpired: at now, DeleteExpired removes the jobs that finished
// longer than the retention ago (in batches: there are more than one
// batch), the deliveries closed longer ago with their history, and the
// idempotency keys past their time; it keeps the rest: jobs queued or
// running, deliveries not closed however old, whatever is younger, and
// everything when the retention is zero. Each tenant's count of bytes
// follows.
func TestDeleteExpired(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		const retention = 24 * time.Hour

		var old []Job
		for i := range expireJobsBatch + 8 {
			old = append(old, finishJob(t, s, tn.ID, []JobStatus{JobCompleted, JobFailed, JobCancelled}[i%3]))
		}
		last := old[len(old)-1].Finished
		queued := newJob(t, s, tn.ID)
		running := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, running.ID, "proc", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}

		now := last.Add(retention) // the last job is exactly as old as the retention: kept
		// More closed deliveries than a batch, booked a minute apart; among
		// them, booked as long ago, deliveries closed too recently to go.
		closedAt := now.Add(-retention - time.Second)
		var closed, recent []Delivery
		for i := range expireDeliveriesBatch + 8 {
			booked := closedAt.Add(-time.Duration(i) * time.Minute)
			if i%100 == 50 {
				recent = append(recent, closeDelivery(t, s, tn.ID, "DELIVERED", booked, now.Add(-retention+time.Second)))
			}
			closed = append(closed, closeDelivery(t, s, tn.ID, []string{"DELIVERED", "CANCELLED", "RETURNED"}[i%3], booked, closedAt))
		}
		open := newDelivery(t, s, tn.ID) // booked now, never closed: kept even when everything else goes
		for i, exp := range []time.Time{now.Add(-time.Second), now, now.Add(time.Second), {}} {
			req := IdempotentRequest{TenantID: tn.ID, Key: fmt.Sprintf("key-%d", i), Operation: "op", Fingerprint: []byte("f"),
				Created: now.Add(-time.Hour), Expires: exp}
			if _, _, err := s.BeginIdempotent(ctx, req, req.Created); err != nil {
				t.Fatal(err)
			}
		}

		// With no retention only the keys past their time go: the two
		// that expire at or before now.
		got, err := s.DeleteExpired(ctx, now, Retention{})
		if want := (Expired{IdempotencyKeys: 2}); err != nil || got != want {
			t.Fatalf("with no retention: removed %+v, %v; want %+v", got, err, want)
		}
		got, err = s.DeleteExpired(ctx, now, Retention{Jobs: retention, Deliveries: retention})
		if err != nil {
			t.Fatal(err)
		}
		if want := (Expired{Jobs: int64(len(old) - 1), Deliveries: int64(len(closed)), Changes: 2 * int64(len(closed))}); got != want {
			t.Errorf("removed %+v, want %+v", got, want)
		}
		for i, j := range old {
			_, err := s.Job(ctx, tn.ID, j.ID)
			if kept := i == len(old)-1; kept != (err == nil) {
				t.Errorf("job %d (finished %v before now): err = %v, kept want %v", i, now.Sub(j.Finished), err, kept)
			}
		}
		for _, j := range []Job{queued, running} {
			if _, err := s.Job(ctx, tn.ID, j.ID); err != nil {
				t.Errorf("an unfinished job was removed: %v", err)
			}
		}
		for _, d := range closed {
			if _, err := s.Delivery(ctx, tn.ID, d.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("an expired delivery: err = %v, want ErrNotFound", err)
			}
			if _, err := s.History(ctx, tn.ID, d.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("an expired delivery's history: err = %v, want ErrNotFound", err)
			}
		}
		for _, d := range append(recent, open) {
			if hist, err := s.History(ctx, tn.ID, d.ID); err != nil || len(hist) == 0 {
				t.Errorf("a delivery to keep lost its history: %v", err)
			}
		}
		for i := range 4 {
			req := IdempotentRequest{TenantID: tn.ID, Key: fmt.Sprintf("key-%d", i), Operation: "op", Fingerprint: []byte("g"), Created: now}
			_, fresh, err := s.BeginIdempotent(ctx, req, req.Created.Add(-2*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if wantFresh := i < 2; fresh != wantFresh {
				t.Errorf("key %d after the expiry: fresh %v, want %v", i, fresh, wantFresh)
			}
		}
		used, err := s.StorageUsed(ctx, tn.ID)
		if err != nil {
			t.Fatal(err)
		}
		if oracle := storedBytes(t, h, s, tn.ID); used != oracle {
			t.Errorf("after the retention StorageUsed = %d, the rows hold %d", used, oracle)
		}

		// Much later everything finished goes; the open delivery stays.
		if _, err := s.DeleteExpired(ctx, now.Add(100*retention), Retention{Jobs: retention, Deliveries: retention}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Delivery(ctx, tn.ID, open.ID); err != nil {
			t.Errorf("the open delivery was removed: %v", err)
		}
		if used, _ := s.StorageUsed(ctx, tn.ID); used != storedBytes(t, h, s, tn.ID) {
			t.Errorf("StorageUsed = %d, the rows hold %d", used, storedBytes(t, h, s, tn.ID))
		}
	})
}

// TestRetentionStatusesAreTheLifecycles: the statuses retention removes
// are the jobs' terminal ones and the deliveries' closed ones, and the
// migrations index them as the queries spell them.
func TestRetentionStatusesAreTheLifecycles(t *testing.T) {
	var closed, finished []string
	for _, st := range delivery.Statuses() {
		if st.Terminal() {
			closed = append(closed, "'"+string(st)+"'")
		}
	}
	for _, st := range []JobStatus{JobQueued, JobRunning, JobCompleted, JobFailed, JobCancelled} {
		if st.Terminal() {
			finished = append(finished, "'"+string(st)+"'")
		}
	}
	for _, c := range []struct{ cond, want string }{
		{closedDelivery, "status IN (" + strings.Join(closed, ", ") + ")"},
		{finishedJob, "status IN (" + strings.Join(finished, ", ") + ")"},
	} {
		if c.cond != c.want {
			t.Errorf("retention removes %s, want %s", c.cond, c.want)
		}
		if !slices.ContainsFunc(migrations, func(m migration) bool { return strings.Contains(m.sql, c.cond) }) {
			t.Errorf("no migration indexes %s as the queries write it", c.cond)
		}
	}
}

// TestRetentionRunsOnRiver: a working store removes expired work on its
// own, by the River job it schedules when it starts, with its clock.
func TestRetentionRunsOnRiver(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			ctx := context.Background()
			where := h.fresh(t)
			s, err := h.open(t, where)
			if err != nil {
				t.Fatal(err)
			}
			tn, _ := newTenant(t, s)
			done := finishJob(t, s, tn.ID, JobCompleted)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			cfg := testConfig()
			cfg.Retention = Retention{Jobs: time.Hour}
			cfg.now = func() time.Time { return done.Finished.Add(2 * time.Hour) }
			s = openConfigured(t, h, where, cfg)
			// The job's own River job is still queued: a worker that has
			// nothing to do takes it.
			workers := river.NewWorkers()
			river.AddWorker(workers, river.WorkFunc(func(context.Context, *river.Job[PlanArgs]) error { return nil }))
			if err := s.Start(ctx, workers, 1); err != nil {
				t.Fatal(err)
			}
			for {
				_, err := s.Job(ctx, tn.ID, done.ID)
				if errors.Is(err, ErrNotFound) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond) // a poll: the removal comes when River runs the job
			}
		})
	}
}

// openConfigured opens the database at where with cfg, closed when the
// test ends.
func openConfigured(t testing.TB, h harness, where string, cfg Config) Store {
	t.Helper()
	var s Store
	var err error
	if h.name == "postgres" {
		cfg.Schema = where
		s, err = OpenPostgres(context.Background(), os.Getenv(postgresEnv), cfg)
	} else {
		s, err = OpenSQLite(context.Background(), where, cfg)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
