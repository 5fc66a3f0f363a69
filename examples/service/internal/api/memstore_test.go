package api

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// memStore is a store.Store in memory for these tests, until the SQLite
// store is merged.
type memStore struct {
	mu         sync.Mutex
	tenants    map[string]store.Tenant
	clients    map[string]store.Client
	tokens     map[string]store.Token
	jobs       map[string]store.Job
	deliveries map[string]store.Delivery
	history    map[string][]store.Change
}

func newMemStore() *memStore {
	return &memStore{tenants: map[string]store.Tenant{}, clients: map[string]store.Client{}, tokens: map[string]store.Token{},
		jobs: map[string]store.Job{}, deliveries: map[string]store.Delivery{}, history: map[string][]store.Change{}}
}

func (m *memStore) CreateTenant(_ context.Context, t store.Tenant, c store.Client) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tenants[t.ID]; ok {
		return store.ErrDuplicate
	}
	m.tenants[t.ID] = t
	m.clients[c.ID] = c
	return nil
}

func (m *memStore) Client(_ context.Context, id string) (store.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.clients[id]
	if !ok {
		return store.Client{}, store.ErrNotFound
	}
	return c, nil
}

func (m *memStore) PutToken(_ context.Context, t store.Token) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens[string(t.Hash)] = t
	return nil
}

func (m *memStore) Token(_ context.Context, hash []byte) (store.Token, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[string(hash)]
	if !ok || !time.Now().Before(t.Expires) {
		return store.Token{}, store.ErrNotFound
	}
	return t, nil
}

func (m *memStore) CreateJob(_ context.Context, j store.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.jobs[j.ID] = j
	return nil
}

func (m *memStore) Job(_ context.Context, tenant, id string) (store.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok || j.TenantID != tenant {
		return store.Job{}, store.ErrNotFound
	}
	return j, nil
}

func (m *memStore) CancelJob(_ context.Context, tenant, id, reason string) (store.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok || j.TenantID != tenant {
		return store.Job{}, store.ErrNotFound
	}
	switch j.Status {
	case store.JobQueued, store.JobRunning:
		j.Status, j.Error, j.Finished, j.Owner = store.JobCancelled, reason, time.Now(), ""
	case store.JobCompleted:
		j.Released = false
	}
	m.jobs[id] = j
	return j, nil
}

func (m *memStore) ClaimJob(_ context.Context, id, owner string, lease time.Time) (store.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok || j.Status != store.JobQueued {
		return store.Job{}, store.ErrLeaseLost
	}
	j.Status, j.Owner, j.LeaseUntil, j.Attempt, j.Started = store.JobRunning, owner, lease, j.Attempt+1, time.Now()
	m.jobs[id] = j
	return j, nil
}

func (m *memStore) RenewLeases(context.Context, string, time.Time, []string) ([]string, error) {
	return nil, nil
}

func (m *memStore) SaveProgress(_ context.Context, id, owner string, p store.Progress, plan []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok || j.Owner != owner || j.Status != store.JobRunning {
		return store.ErrLeaseLost
	}
	j.Progress = p
	if plan != nil {
		j.Plan = bytes.Clone(plan)
	}
	m.jobs[id] = j
	return nil
}

func (m *memStore) FinishJob(_ context.Context, id, owner string, status store.JobStatus, plan []byte, errMsg string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok || j.Owner != owner || j.Status != store.JobRunning {
		return store.ErrLeaseLost
	}
	j.Status, j.Error, j.Finished, j.Owner = status, errMsg, time.Now(), ""
	if plan != nil {
		j.Plan = bytes.Clone(plan)
	}
	j.Released = status == store.JobCompleted
	m.jobs[id] = j
	return nil
}

func (m *memStore) RecoverJobs(context.Context, time.Time, int) (int, int, error) { return 0, 0, nil }
func (m *memStore) ReleaseOwner(context.Context, string) error                    { return nil }

func (m *memStore) CreateDelivery(_ context.Context, d store.Delivery, c store.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.deliveries[d.ID]; ok {
		return store.ErrDuplicate
	}
	m.deliveries[d.ID] = d
	m.history[d.ID] = []store.Change{c}
	return nil
}

func (m *memStore) Delivery(_ context.Context, tenant, id string) (store.Delivery, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.deliveries[id]
	if !ok || d.TenantID != tenant {
		return store.Delivery{}, store.ErrNotFound
	}
	return d, nil
}

func (m *memStore) UpdateDelivery(_ context.Context, d store.Delivery, c store.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.deliveries[d.ID]
	if !ok || cur.TenantID != d.TenantID {
		return store.ErrNotFound
	}
	if cur.Version != d.Version-1 {
		return store.ErrConflict
	}
	m.deliveries[d.ID] = d
	m.history[d.ID] = append(m.history[d.ID], c)
	return nil
}

func (m *memStore) History(_ context.Context, tenant, id string) ([]store.Change, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.deliveries[id]
	if !ok || d.TenantID != tenant {
		return nil, store.ErrNotFound
	}
	return append([]store.Change(nil), m.history[id]...), nil
}

func (m *memStore) Allow(context.Context, string, int, time.Duration, time.Time) (bool, time.Duration, error) {
	return true, 0, nil
}

func (m *memStore) Start(context.Context, *river.Workers, int) error { return nil }
func (m *memStore) Stop(context.Context) error                       { return nil }
func (m *memStore) Close() error                                     { return nil }
