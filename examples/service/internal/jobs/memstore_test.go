package jobs

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// memStore is the job side of store.Store in memory, by the contract's
// words, for the tests that call the worker directly and need failures a
// real database does not produce on demand (renewals that fail). Every
// other method says it is not there.
type memStore struct {
	store.Store // nil: the methods not written here are not for these tests

	mu        sync.Mutex
	jobs      map[string]*store.Job
	renewErr  error // RenewLeases fails with it while set
	saves     int   // SaveProgress calls that stored something
	planSaves int   // of which with a plan
	// firstPlanSaved is the job as the first SaveProgress with a plan
	// left it.
	firstPlanSaved *store.Job
	finishes       int
	released       []string
	enqueued       []store.PlanArgs
	recoveries     int
}

func newMemStore() *memStore { return &memStore{jobs: map[string]*store.Job{}} }

func (m *memStore) put(j store.Job) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j.Status = store.JobQueued
	m.jobs[j.ID] = &j
}

func (m *memStore) job(id string) store.Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return *m.jobs[id]
}

func (m *memStore) setRenewErr(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.renewErr = err
}

// cancel is store.CancelJob for a queued or running job.
func (m *memStore) cancel(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.jobs[id]
	if j.Status == store.JobQueued || j.Status == store.JobRunning {
		j.Status, j.Owner, j.LeaseUntil = store.JobCancelled, "", time.Time{}
	}
}

func (m *memStore) ClaimJob(_ context.Context, jobID, owner string, leaseUntil time.Time) (store.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[jobID]
	switch {
	case !ok:
		return store.Job{}, store.ErrNotFound
	case j.Status == store.JobQueued, j.Status == store.JobRunning && time.Now().After(j.LeaseUntil):
	default:
		return store.Job{}, store.ErrLeaseLost
	}
	j.Status, j.Owner, j.LeaseUntil = store.JobRunning, owner, leaseUntil
	j.Attempt++
	return *j, nil
}

func (m *memStore) RenewLeases(_ context.Context, owner string, leaseUntil time.Time, running []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.renewErr != nil {
		return nil, m.renewErr
	}
	var lost []string
	for _, j := range m.jobs {
		if j.Status == store.JobRunning && j.Owner == owner {
			j.LeaseUntil = leaseUntil
		}
	}
	for _, id := range running {
		if j, ok := m.jobs[id]; !ok || j.Status != store.JobRunning || j.Owner != owner {
			lost = append(lost, id)
		}
	}
	return lost, nil
}

func (m *memStore) held(jobID, owner string) (*store.Job, error) {
	j, ok := m.jobs[jobID]
	if !ok || j.Status != store.JobRunning || j.Owner != owner {
		return nil, store.ErrLeaseLost
	}
	return j, nil
}

func (m *memStore) SaveProgress(_ context.Context, jobID, owner string, p store.Progress, plan []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, err := m.held(jobID, owner)
	if err != nil {
		return err
	}
	j.Progress = p
	m.saves++
	if plan != nil {
		j.Plan = slices.Clone(plan)
		m.planSaves++
		if m.firstPlanSaved == nil {
			saved := *j
			m.firstPlanSaved = &saved
		}
	}
	return nil
}

func (m *memStore) FinishJob(_ context.Context, jobID, owner string, status store.JobStatus, plan []byte, errMsg string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, err := m.held(jobID, owner)
	if err != nil {
		return err
	}
	j.Status, j.Plan, j.Error, j.Owner, j.LeaseUntil = status, plan, errMsg, "", time.Time{}
	m.finishes++
	return nil
}

func (m *memStore) RecoverJobs(_ context.Context, now time.Time, maxAttempts int) (int, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recoveries++
	var requeued, failed int
	for _, j := range m.jobs {
		if j.Status != store.JobRunning || !j.LeaseUntil.Before(now) {
			continue
		}
		j.Owner, j.LeaseUntil = "", time.Time{}
		if j.Attempt >= maxAttempts {
			j.Status, j.Error = store.JobFailed, "its process stopped"
			failed++
			continue
		}
		j.Status = store.JobQueued
		m.enqueued = append(m.enqueued, store.PlanArgs{JobID: j.ID, Attempt: j.Attempt})
		requeued++
	}
	return requeued, failed, nil
}

func (m *memStore) ReleaseOwner(_ context.Context, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if j.Status == store.JobRunning && j.Owner == owner {
			j.Status, j.Owner, j.LeaseUntil = store.JobQueued, "", time.Time{}
			m.released = append(m.released, j.ID)
			m.enqueued = append(m.enqueued, store.PlanArgs{JobID: j.ID, Attempt: j.Attempt})
		}
	}
	return nil
}

// Start and Stop stand for the River client: the tests call the worker.
func (m *memStore) Start(context.Context, *river.Workers, int) error { return nil }
func (m *memStore) Stop(context.Context) error                       { return nil }

var errDatabaseDown = errors.New("memstore: database unreachable")
