package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// These tests wake workers as River would, by hand: nextEntry is the
// queued job holding the oldest River job, which River hands a worker
// first.

// riverJobOf is the River job that job jobID holds; 0 when it waits
// without one.
func riverJobOf(t *testing.T, s Store, jobID string) int64 {
	t.Helper()
	var id int64
	if err := s.(*dbStore).b.reader().queryRow(context.Background(), `SELECT river_job_id FROM jobs WHERE id = ?`, jobID).Scan(&id); err != nil {
		t.Fatalf("river job of %s: %v", jobID, err)
	}
	return id
}

// nextEntry is the River job River hands a worker next (the oldest one a
// queued job holds) and that job; ok false when no queued job holds one.
func nextEntry(t *testing.T, s Store) (jobID string, riverJobID int64, ok bool) {
	t.Helper()
	err := s.(*dbStore).b.reader().queryRow(context.Background(), `SELECT id, river_job_id FROM jobs
WHERE status = 'QUEUED' AND river_job_id <> 0 ORDER BY river_job_id LIMIT 1`).Scan(&jobID, &riverJobID)
	if errors.Is(err, errNoRow) {
		return "", 0, false
	}
	if err != nil {
		t.Fatalf("next entry: %v", err)
	}
	return jobID, riverJobID, true
}

// claimNext wakes a worker with the next entry, as River would.
func claimNext(t *testing.T, s Store, owner string, tenantRunning int) (Job, error) {
	t.Helper()
	jobID, riverJobID, ok := nextEntry(t, s)
	if !ok {
		t.Fatal("no queued job holds a River job")
	}
	return s.ClaimNext(context.Background(), Claim{RiverJobID: riverJobID, JobID: jobID, Owner: owner,
		LeaseUntil: time.Now().Add(time.Minute), TenantRunning: tenantRunning})
}

func TestClaimNextTakesTenantsInTurn(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, _ := newTenant(t, s)
		b, _ := newTenant(t, s)
		name := map[string]string{}
		for i := range 4 {
			j := newJob(t, s, a.ID)
			name[j.ID] = fmt.Sprintf("A%d", i+1)
		}
		for i := range 2 {
			j := newJob(t, s, b.ID)
			name[j.ID] = fmt.Sprintf("B%d", i+1)
		}
		// One worker: each job ends before the next is claimed.
		var order []string
		for range 6 {
			j, err := claimNext(t, s, "worker", 1)
			if err != nil {
				t.Fatal(err)
			}
			order = append(order, name[j.ID])
			if err := s.FinishJob(ctx, j.ID, "worker", JobCompleted, []byte(`{}`), ""); err != nil {
				t.Fatal(err)
			}
		}
		if got, want := fmt.Sprint(order), "[A1 B1 A2 B2 A3 A4]"; got != want {
			t.Errorf("jobs ran in the order %s, want %s: the tenants in turn, each tenant's jobs in order", got, want)
		}
		if _, _, ok := nextEntry(t, s); ok {
			t.Error("a River job is left for a job that ran")
		}
	})
}

func TestClaimNextHoldsATenantToItsRunningJobs(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, _ := newTenant(t, s)
		b, _ := newTenant(t, s)
		a1, a2, a3 := newJob(t, s, a.ID), newJob(t, s, a.ID), newJob(t, s, a.ID)
		b1 := newJob(t, s, b.ID)
		mustClaim := func(want Job) {
			t.Helper()
			got, err := claimNext(t, s, "worker", 1)
			if err != nil || got.ID != want.ID {
				t.Fatalf("claimed %s (%v), want %s", got.ID, err, want.ID)
			}
		}
		mustWait := func() {
			t.Helper()
			entry, _, _ := nextEntry(t, s)
			if got, err := claimNext(t, s, "worker", 1); !errors.Is(err, ErrNothingRunnable) {
				t.Fatalf("claimed %s (%v), want ErrNothingRunnable", got.ID, err)
			}
			if r := riverJobOf(t, s, entry); r != 0 {
				t.Fatalf("the waiting job holds River job %d, want none", r)
			}
		}
		mustClaim(a1)
		// a2's River job wakes a worker while a1 runs: it runs b1, and
		// a2 keeps b1's River job.
		b1River := riverJobOf(t, s, b1.ID)
		mustClaim(b1)
		if r := riverJobOf(t, s, a2.ID); r != b1River {
			t.Fatalf("a2 holds River job %d after b1 took its own, want b1's %d", r, b1River)
		}
		// Tenant A runs a1 already: a2 and a3 wait without River jobs.
		mustWait()
		mustWait()
		if _, _, ok := nextEntry(t, s); ok {
			t.Fatal("a queued job of a tenant at its limit holds a River job")
		}
		// a1 ends: one waiting job of A gets a River job, and runs.
		if err := s.FinishJob(ctx, a1.ID, "worker", JobCompleted, []byte(`{}`), ""); err != nil {
			t.Fatal(err)
		}
		if total, _ := h.riverJobs(t, s, a2.ID); total != 2 {
			t.Fatalf("a2 has %d River jobs after a1 ended, want 2 (its first and a new one)", total)
		}
		mustClaim(a2)
		if _, _, ok := nextEntry(t, s); ok {
			t.Fatal("a3 holds a River job while a2 runs")
		}
		// A running job cancelled frees its place as well.
		if _, err := s.CancelJob(ctx, a.ID, a2.ID, "test"); err != nil {
			t.Fatal(err)
		}
		mustClaim(a3)
	})
}

// TestClaimNextFillsARaisedLimit: jobs that began to wait under a limit
// of 1 all run once workers allow 3, each claim waking the next.
func TestClaimNextFillsARaisedLimit(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		a, _ := newTenant(t, s)
		first := newJob(t, s, a.ID)
		for range 3 {
			newJob(t, s, a.ID)
		}
		if j, err := claimNext(t, s, "worker", 1); err != nil || j.ID != first.ID {
			t.Fatalf("claimed %s (%v), want the first job", j.ID, err)
		}
		for range 3 {
			if _, err := claimNext(t, s, "worker", 1); !errors.Is(err, ErrNothingRunnable) {
				t.Fatalf("%v, want ErrNothingRunnable", err)
			}
		}
		if err := s.FinishJob(context.Background(), first.ID, "worker", JobCompleted, []byte(`{}`), ""); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := claimNext(t, s, "worker", 3); err != nil {
				t.Fatalf("claim %d under a limit of 3: %v", i+1, err)
			}
		}
		if _, _, ok := nextEntry(t, s); ok {
			t.Error("a River job is left after every job ran")
		}
	})
}

func TestClaimNextLeavesAStaleRiverJob(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, _ := newTenant(t, s)
		j := newJob(t, s, a.ID)
		old := riverJobOf(t, s, j.ID)
		// Claimed and handed back: the job has a new River job, and the
		// old one is stale.
		if _, err := s.ClaimJob(ctx, j.ID, "proc-gone", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseOwner(ctx, "proc-gone"); err != nil {
			t.Fatal(err)
		}
		claim := Claim{RiverJobID: old, JobID: j.ID, Owner: "worker", LeaseUntil: time.Now().Add(time.Minute), TenantRunning: 1}
		if got, err := s.ClaimNext(ctx, claim); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("the stale River job claimed %s (%v), want ErrLeaseLost", got.ID, err)
		}
		claim.RiverJobID = riverJobOf(t, s, j.ID)
		if got, err := s.ClaimNext(ctx, claim); err != nil || got.ID != j.ID || got.Attempt != 2 {
			t.Fatalf("the current River job: %s attempt %d (%v)", got.ID, got.Attempt, err)
		}
		if _, err := s.ClaimNext(ctx, claim); !errors.Is(err, ErrLeaseLost) {
			t.Fatalf("the River job of a running job, again: %v, want ErrLeaseLost", err)
		}
		claim.JobID = "no-such-job"
		if _, err := s.ClaimNext(ctx, claim); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a River job of no job: %v, want ErrNotFound", err)
		}
		if _, err := s.ClaimNext(ctx, Claim{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("an empty claim: %v, want ErrInvalid", err)
		} else {
			for _, field := range []string{"jobId", "owner", "riverJobId", "leaseUntil", "tenantRunning"} {
				if !strings.Contains(err.Error(), field) {
					t.Errorf("an empty claim: %v does not name %s", err, field)
				}
			}
		}
	})
}

// TestTenantLimitsHoldAcrossProcesses: two processes' stores on one
// database, claiming and creating at once, never run two jobs of a
// tenant limited to one, nor queue more than its queue holds.
func TestTenantLimitsHoldAcrossProcesses(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			ctx := context.Background()
			first, where := h.openFresh(t)
			procs := []Store{first, h.mustOpen(t, where)}
			a, _ := newTenant(t, first)
			const jobs = 8
			entries := make([]Claim, jobs)
			for i := range jobs {
				j := newJob(t, first, a.ID)
				entries[i] = Claim{RiverJobID: riverJobOf(t, first, j.ID), JobID: j.ID, Owner: fmt.Sprintf("proc-%d", i%2),
					LeaseUntil: time.Now().Add(time.Minute), TenantRunning: 1}
			}
			var wg sync.WaitGroup
			errs := make([]error, jobs)
			for i := range jobs {
				wg.Go(func() { _, errs[i] = procs[i%2].ClaimNext(ctx, entries[i]) })
			}
			wg.Wait()
			claimed := 0
			for i, err := range errs {
				switch {
				case err == nil:
					claimed++
				case !errors.Is(err, ErrNothingRunnable):
					t.Errorf("claim %d: %v", i, err)
				}
			}
			if claimed != 1 {
				t.Errorf("%d jobs of a tenant limited to 1 were claimed at once, want 1", claimed)
			}

			b, _ := newTenant(t, first)
			const maxQueued = 3
			for i := range jobs {
				errs[i] = nil
				wg.Go(func() {
					errs[i] = procs[i%2].CreateJob(ctx, Job{ID: newID("job"), TenantID: b.ID, Request: []byte(`{}`)}, maxQueued)
				})
			}
			wg.Wait()
			created := 0
			for i, err := range errs {
				switch {
				case err == nil:
					created++
				case !errors.Is(err, ErrQueueFull):
					t.Errorf("create %d: %v", i, err)
				}
			}
			if created != maxQueued {
				t.Errorf("%d jobs queued at once for a queue of %d, want %d", created, maxQueued, maxQueued)
			}
		})
	}
}

func TestCreateJobHoldsATenantToItsQueue(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, _ := newTenant(t, s)
		b, _ := newTenant(t, s)
		var last string
		create := func(tenantID string) error {
			last = newID("job")
			return s.CreateJob(ctx, Job{ID: last, TenantID: tenantID, Request: []byte(`{}`)}, 2)
		}
		for range 2 {
			if err := create(a.ID); err != nil {
				t.Fatal(err)
			}
		}
		err := create(a.ID)
		if !errors.Is(err, ErrQueueFull) {
			t.Fatalf("a third queued job: %v, want ErrQueueFull", err)
		}
		if _, err := s.Job(ctx, a.ID, last); !errors.Is(err, ErrNotFound) {
			t.Errorf("the refused job is recorded: %v", err)
		}
		if total, _ := h.riverJobs(t, s, last); total != 0 {
			t.Errorf("the refused job left %d River jobs", total)
		}
		if err := create(b.ID); err != nil {
			t.Errorf("another tenant's job: %v", err)
		}
		// A job that started no longer counts against the queue.
		if _, err := claimNext(t, s, "worker", 1); err != nil {
			t.Fatal(err)
		}
		if err := create(a.ID); err != nil {
			t.Errorf("a job once one of two started: %v", err)
		}
	})
}
