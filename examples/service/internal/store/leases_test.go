package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRenewLeases(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		a, b := newJob(t, s, tn.ID), newJob(t, s, tn.ID)
		first := time.Now().Add(time.Minute)
		for _, j := range []Job{a, b} {
			if _, err := s.ClaimJob(ctx, j.ID, "proc-a", first); err != nil {
				t.Fatal(err)
			}
		}
		other := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, other.ID, "proc-b", first); err != nil {
			t.Fatal(err)
		}
		later := first.Add(time.Minute)
		lost, err := s.RenewLeases(ctx, "proc-a", later, []string{a.ID, b.ID, other.ID, "gone"})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(lost)
		want := []string{"gone", other.ID}
		slices.Sort(want)
		if !slices.Equal(lost, want) {
			t.Errorf("lost = %v, want %v (held by another, or unknown)", lost, want)
		}
		for _, c := range []struct {
			id    string
			lease time.Time
		}{{a.ID, later}, {b.ID, later}, {other.ID, first}} {
			got, err := s.Job(ctx, tn.ID, c.id)
			if err != nil {
				t.Fatal(err)
			}
			if !got.LeaseUntil.Equal(c.lease.Truncate(time.Microsecond)) {
				t.Errorf("job %s lease = %v, want %v", c.id, got.LeaseUntil, c.lease)
			}
		}
	})
}

func TestRecoverJobs(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		j := newJob(t, s, tn.ID)
		live := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, live.ID, "proc-live", time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		const maxAttempts = 3
		for attempt := 1; attempt <= maxAttempts; attempt++ {
			lease := time.Now().Add(time.Minute)
			claimed, err := s.ClaimJob(ctx, j.ID, "proc-dead", lease)
			if err != nil {
				t.Fatalf("claim %d: %v", attempt, err)
			}
			if claimed.Attempt != attempt {
				t.Fatalf("claim %d: attempt = %d", attempt, claimed.Attempt)
			}
			// Nothing has expired yet.
			if rq, f, err := s.RecoverJobs(ctx, time.Now(), maxAttempts); err != nil || rq != 0 || f != 0 {
				t.Fatalf("RecoverJobs before the lease ends = %d, %d, %v; want 0, 0", rq, f, err)
			}
			// After the lease (the process died): requeued, then failed.
			rq, f, err := s.RecoverJobs(ctx, lease.Add(time.Second), maxAttempts)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := s.Job(ctx, tn.ID, j.ID)
			total, _ := h.riverJobs(t, s, j.ID)
			if attempt < maxAttempts {
				if rq != 1 || f != 0 || got.Status != JobQueued || got.Owner != "" || got.Attempt != attempt {
					t.Fatalf("after attempt %d: RecoverJobs = %d, %d; job %+v; want 1 requeued, QUEUED without owner", attempt, rq, f, got)
				}
				if total != attempt+1 {
					t.Errorf("after attempt %d: %d river jobs, want %d (one per requeue)", attempt, total, attempt+1)
				}
				// The dead process's writes no longer count.
				if err := s.SaveProgress(ctx, j.ID, "proc-dead", Progress{}, nil); !errors.Is(err, ErrLeaseLost) {
					t.Errorf("progress after recovery: err = %v, want ErrLeaseLost", err)
				}
				continue
			}
			if rq != 0 || f != 1 || got.Status != JobFailed || !strings.Contains(got.Error, "3 runs") || got.Finished.IsZero() {
				t.Errorf("after the last attempt: RecoverJobs = %d, %d; job %+v; want 1 failed saying why", rq, f, got)
			}
		}
		if got, _ := s.Job(ctx, tn.ID, live.ID); got.Status != JobRunning || got.Owner != "proc-live" {
			t.Errorf("a job with a live lease = %+v, want it left RUNNING", got)
		}
	})
}

// TestClaimExpiredLease: a River job arriving for a job whose runner died
// (its lease ended) takes it over without waiting for RecoverJobs.
func TestClaimExpiredLease(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		j := newJob(t, s, tn.ID)
		// Its last renewal gave it a lease that ended a second ago: no
		// sleep, and no lease so short that a slow claim finds it over.
		if _, err := s.ClaimJob(ctx, j.ID, "proc-dead", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RenewLeases(ctx, "proc-dead", time.Now().Add(-time.Second), []string{j.ID}); err != nil {
			t.Fatal(err)
		}
		got, err := s.ClaimJob(ctx, j.ID, "proc-b", time.Now().Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if got.Owner != "proc-b" || got.Attempt != 2 {
			t.Errorf("claim of an expired lease = %+v, want owner proc-b, attempt 2", got)
		}
	})
}

func TestReleaseOwner(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		lease := time.Now().Add(time.Minute)
		mine := []Job{newJob(t, s, tn.ID), newJob(t, s, tn.ID)}
		for _, j := range mine {
			if _, err := s.ClaimJob(ctx, j.ID, "proc-a", lease); err != nil {
				t.Fatal(err)
			}
		}
		theirs := newJob(t, s, tn.ID)
		if _, err := s.ClaimJob(ctx, theirs.ID, "proc-b", lease); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseOwner(ctx, "proc-a"); err != nil {
			t.Fatal(err)
		}
		for _, j := range mine {
			got, _ := s.Job(ctx, tn.ID, j.ID)
			if got.Status != JobQueued || got.Owner != "" || got.Attempt != 1 {
				t.Errorf("released job = %+v, want QUEUED without owner, attempt 1", got)
			}
			if total, _ := h.riverJobs(t, s, j.ID); total != 2 {
				t.Errorf("river jobs of a released job = %d, want 2 (enqueued again)", total)
			}
			if err := s.FinishJob(ctx, j.ID, "proc-a", JobCompleted, []byte("{}"), ""); !errors.Is(err, ErrLeaseLost) {
				t.Errorf("finish after release: err = %v, want ErrLeaseLost", err)
			}
			// The next process takes it.
			if got, err := s.ClaimJob(ctx, j.ID, "proc-c", lease); err != nil || got.Attempt != 2 {
				t.Errorf("claim after release = %+v, %v; want attempt 2", got, err)
			}
		}
		if got, _ := s.Job(ctx, tn.ID, theirs.ID); got.Status != JobRunning || got.Owner != "proc-b" {
			t.Errorf("another owner's job = %+v, want it RUNNING under proc-b", got)
		}
	})
}
