// Package store keeps the service's state: tenants and their client
// credentials, access tokens (hashed), planning jobs with their queue, and
// booked deliveries with the history of their accepted changes. Two
// implementations share one contract: SQLite (modernc.org/sqlite, one
// process, the default) and PostgreSQL (pgx, any number of processes on any
// number of machines). Planning jobs are queued on River in the same
// transaction that records them.
//
// Every read and write that names a tenant is scoped to it: another
// tenant's job or delivery is ErrNotFound, never revealed.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"
)

// Errors a Store returns; callers test them with errors.Is.
var (
	// ErrNotFound: no such record for this tenant (another tenant's record
	// is not found either).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: the record changed since it was read (its version
	// moved on); read it again and retry.
	ErrConflict = errors.New("store: changed concurrently")
	// ErrDuplicate: a record with this unique key exists.
	ErrDuplicate = errors.New("store: already exists")
	// ErrLeaseLost: this process no longer holds the job (it finished,
	// was cancelled, or its lease expired and another attempt took it).
	ErrLeaseLost = errors.New("store: job lease lost")
	// ErrQueueFull: the tenant has as many QUEUED jobs as CreateJob was
	// told it may have.
	ErrQueueFull = errors.New("store: the tenant's queue of jobs is full")
	// ErrNothingRunnable: ClaimNext found no queued job that may start,
	// because every tenant with one runs as many jobs as it may. The
	// queue entry's job waits (see ClaimNext).
	ErrNothingRunnable = errors.New("store: no queued job may start: each tenant with one runs as many as it may")
)

// Tenant is one customer of the service, known to clients by its consumer
// id (the SVC_CONSUMER.ID header).
type Tenant struct {
	ID      string // consumer id, a UUID
	Name    string
	Created time.Time
}

// Client is a tenant's OAuth client credential. The secret is kept only as
// a hash (SecretHash, computed by the caller).
type Client struct {
	ID         string // client id
	TenantID   string
	SecretHash []byte
	Created    time.Time
}

// Token is an issued access token, kept only as a hash of its value.
type Token struct {
	Hash     []byte
	TenantID string
	ClientID string
	Expires  time.Time
}

// JobStatus is where a planning job is.
type JobStatus string

const (
	JobQueued    JobStatus = "QUEUED"
	JobRunning   JobStatus = "RUNNING"
	JobCompleted JobStatus = "COMPLETED"
	JobFailed    JobStatus = "FAILED"
	JobCancelled JobStatus = "CANCELLED"
)

// Terminal reports whether no more work happens on a job in status s.
func (s JobStatus) Terminal() bool {
	return s == JobCompleted || s == JobFailed || s == JobCancelled
}

// Progress is the latest progress report of a running job, as the engine
// gives it (engine.Progress), kept in plain fields.
type Progress struct {
	Phase      string
	Round      int
	Elapsed    time.Duration
	Limit      time.Duration
	Routes     int
	Delivered  int
	Unassigned int
	Cost       float64
	Updated    time.Time
}

// Job is a planning job: the request it answers and where it stands.
type Job struct {
	ID       string
	TenantID string
	Status   JobStatus
	Request  []byte // the engine request JSON as accepted
	// Plan is the engine plan JSON: the best plan so far while RUNNING, the
	// final plan once COMPLETED (and kept when a completed job's release is
	// cancelled). Nil when there is none yet.
	Plan     []byte
	Progress Progress
	// Error says why a job FAILED; for CANCELLED, what was cancelled.
	Error string
	// Released is true for a COMPLETED job until its release is cancelled.
	Released bool
	// Attempt counts the runs started (0 while never started).
	Attempt int
	// ReplanOf is the job this one re-plans (its request's previous plan
	// is that job's plan); empty for a job planned from scratch. The job
	// it names may have been removed by the retention since.
	ReplanOf string
	// Replans are the tenant's jobs that re-plan this one, oldest first:
	// filled by the reads for a tenant (Job, JobOverview, CancelJob), nil
	// elsewhere and when there are none.
	Replans []string
	// Owner is the process running the job and LeaseUntil when its lease
	// ends unless renewed; empty/zero when nobody runs it.
	Owner      string
	LeaseUntil time.Time

	Created  time.Time
	Started  time.Time // zero until first run
	Finished time.Time // zero until terminal
}

// Delivery is a booked delivery as stored: the delivery JSON (the
// delivery package's encoding of delivery.Delivery, status included), its
// status and external order id in columns, and a version that moves by one
// with every accepted change.
type Delivery struct {
	ID              string
	TenantID        string
	ExternalOrderID string
	Status          string
	Body            []byte // json.Marshal(delivery.Delivery)
	Version         int64  // 1 when booked
	Created         time.Time
	Updated         time.Time
}

// Change is one accepted change of a delivery, kept in its history.
type Change struct {
	DeliveryID string
	Version    int64  // the version the change produced
	Kind       string // BOOK, UPDATE, STATUS, CANCEL
	Request    []byte // the body the client sent (nil for a cancel)
	At         time.Time
}

// IdempotentRequest is a request sent with an Idempotency-Key header:
// what identifies it, and once answered, its answer.
type IdempotentRequest struct {
	TenantID string
	Key      string
	// Operation is the operation the request was sent to; Fingerprint a
	// hash of that operation and the request's body, which a repeat must
	// match.
	Operation   string
	Fingerprint []byte
	// Created is when the request was recorded (microseconds are kept);
	// Expires when the key is forgotten (zero: never).
	Created time.Time
	Expires time.Time
	// Status is 0 while the request is under way, then the status of its
	// answer; Location and Response are the answer's Location header and
	// body.
	Status   int
	Location string
	Response []byte
}

// PlanArgs are the River job arguments of a planning job. The job row in
// the store holds everything else; Attempt tells a stale River job (one
// enqueued for an attempt that was superseded) from the current one.
type PlanArgs struct {
	JobID   string `json:"jobId"`
	Attempt int    `json:"attempt"`
}

// Kind is River's name for planning jobs.
func (PlanArgs) Kind() string { return "haulplan_plan" }

// Claim asks ClaimNext for the next job to run.
//
// A River job is a wake-up: there is one for every QUEUED job that may
// start, and the job it wakes a worker for is the one whose turn it is.
// The turn goes to the tenants with queued jobs that run fewer than
// TenantRunning jobs: the one running fewest, then the one whose latest
// job was claimed longest ago (round robin), and within the tenant its
// oldest job. So one tenant's long queue never holds another's first job
// back, and no tenant runs more than TenantRunning jobs at once across
// every process that shares the store.
type Claim struct {
	// RiverJobID is the River job that woke the worker; JobID the job it
	// was enqueued for (its PlanArgs).
	RiverJobID int64
	JobID      string
	// Owner runs the job claimed, with a lease until LeaseUntil.
	Owner      string
	LeaseUntil time.Time
	// TenantRunning is how many jobs of one tenant may run at once; at
	// least 1.
	TenantRunning int
}

// Store is the service's storage and job queue. Implementations are safe
// for concurrent use.
type Store interface {
	// Tenants, clients and tokens.
	CreateTenant(ctx context.Context, t Tenant, c Client) error
	Client(ctx context.Context, clientID string) (Client, error)
	PutToken(ctx context.Context, t Token) error
	Token(ctx context.Context, hash []byte) (Token, error) // ErrNotFound when unknown or expired
	// Tenants returns the tenants whose consumer id or name is ref, oldest
	// first (names need not be unique); none is no error.
	Tenants(ctx context.Context, ref string) ([]Tenant, error)
	// RotateSecret gives the tenant's client the secret whose hash is
	// secretHash, so that the old secret stops working at once, and
	// returns the client. ErrNotFound when the tenant has no client; a
	// tenant with several is refused (no secret is changed).
	RotateSecret(ctx context.Context, tenantID string, secretHash []byte) (Client, error)
	// RevokeTokens forgets every token issued to the tenant so far and
	// returns how many it forgot. A process that cached one stops
	// accepting it when it next asks Token.
	RevokeTokens(ctx context.Context, tenantID string) (int, error)

	// CreateJob records a QUEUED job and enqueues PlanArgs{JobID, 0} on
	// River in the same transaction. When maxQueued is positive and the
	// tenant has that many QUEUED jobs already, it records nothing and
	// returns an error wrapping ErrQueueFull. A job with ReplanOf set is
	// linked to that job, which must be the same tenant's (ErrNotFound
	// otherwise, and nothing is recorded).
	CreateJob(ctx context.Context, j Job, maxQueued int) error
	Job(ctx context.Context, tenantID, jobID string) (Job, error)
	// JobOverview is Job without the request (Request is nil): what job
	// details show, read without copying a request of megabytes.
	JobOverview(ctx context.Context, tenantID, jobID string) (Job, error)
	// CancelJob moves a QUEUED or RUNNING job to CANCELLED (and cancels
	// its River job, which reaches a running worker's context), or a
	// COMPLETED and released job to not released. It returns the job as
	// it is afterwards; a job already CANCELLED or FAILED comes back
	// unchanged with no error (the caller decides how to answer).
	CancelJob(ctx context.Context, tenantID, jobID, reason string) (Job, error)

	// Worker side (no tenant: the worker acts for whoever submitted).
	// ClaimNext is how a worker woken by a River job takes a job: the
	// one whose turn it is among all tenants' QUEUED jobs (see Claim),
	// which need not be the job the River job was enqueued for. It
	// returns the job claimed, RUNNING with Attempt+1 and the lease;
	// ErrNothingRunnable when no queued job may start (the entry's job
	// then waits, and starts after one of its tenant's running jobs
	// ends); ErrLeaseLost for a River job that is stale (its job runs,
	// ended, or has another River job), which must then do nothing.
	ClaimNext(ctx context.Context, c Claim) (Job, error)
	// ClaimJob makes owner the runner of job jobID, whatever the tenants'
	// turns and caps: QUEUED (or RUNNING with an expired lease) becomes
	// RUNNING with Attempt+1 and the lease. A terminal job, or one another
	// live owner holds, is ErrLeaseLost. Tools and tests claim a given job
	// with it; the workers use ClaimNext.
	ClaimJob(ctx context.Context, jobID, owner string, leaseUntil time.Time) (Job, error)
	// RenewLeases extends the lease of every RUNNING job owner holds and
	// returns the ids of the jobs owner holds that are no longer RUNNING
	// under its name (cancelled meanwhile, say), so the runner stops them.
	RenewLeases(ctx context.Context, owner string, leaseUntil time.Time, running []string) (lost []string, err error)
	// SaveProgress stores the latest progress and, when plan is not nil,
	// the best plan so far; ErrLeaseLost unless owner runs the job.
	SaveProgress(ctx context.Context, jobID, owner string, p Progress, plan []byte) error
	// FinishJob ends the job owner runs with status (COMPLETED with its
	// plan, FAILED with errMsg); ErrLeaseLost unless owner runs it.
	FinishJob(ctx context.Context, jobID, owner string, status JobStatus, plan []byte, errMsg string) error
	// RecoverJobs handles jobs whose lease expired before now (their
	// process died): each goes back to QUEUED and is enqueued again, or
	// becomes FAILED once it has had maxAttempts runs. It returns how many
	// it requeued and failed.
	RecoverJobs(ctx context.Context, now time.Time, maxAttempts int) (requeued, failed int, err error)
	// ReleaseOwner hands the jobs owner runs back to the queue at once (a
	// clean shutdown), as RecoverJobs would after the lease.
	ReleaseOwner(ctx context.Context, owner string) error

	// Deliveries.
	CreateDelivery(ctx context.Context, d Delivery, c Change) error
	Delivery(ctx context.Context, tenantID, deliveryID string) (Delivery, error)
	// UpdateDelivery replaces the delivery when its stored version is
	// d.Version-1 (ErrConflict otherwise), and appends c to its history, in
	// one durable transaction.
	UpdateDelivery(ctx context.Context, d Delivery, c Change) error
	History(ctx context.Context, tenantID, deliveryID string) ([]Change, error)
	// DeliveryByOrder returns the tenant's delivery of externalOrderID
	// that is not cancelled: the one booking the order may have (another
	// booking of it, or an update that gives another delivery its order
	// id, is ErrDuplicate). ErrNotFound when there is none.
	DeliveryByOrder(ctx context.Context, tenantID, externalOrderID string) (Delivery, error)

	// StorageUsed is how many bytes the tenant's stored job requests and
	// plans, delivery bodies and the request bodies in their history
	// take: a count every write of them keeps in its own transaction,
	// read without scanning them.
	StorageUsed(ctx context.Context, tenantID string) (int64, error)

	// Idempotency keys. BeginIdempotent records req as under way unless
	// the tenant has sent its key before, and returns what is stored
	// for the key and whether it is req (fresh). Not fresh, the request
	// stored is the earlier one: answered (Status set), or still under
	// way. An earlier request under way since before staleBefore (its
	// process died before it answered) is replaced by req, fresh.
	BeginIdempotent(ctx context.Context, req IdempotentRequest, staleBefore time.Time) (stored IdempotentRequest, fresh bool, err error)
	// FinishIdempotent keeps the answer (Status, Location, Response) of
	// the request BeginIdempotent recorded as req (its tenant, key and
	// Created); ErrNotFound when that record is no longer under way.
	FinishIdempotent(ctx context.Context, req IdempotentRequest) error
	// AbandonIdempotent forgets the request BeginIdempotent recorded as
	// req while it is under way, so that its key may be sent again.
	AbandonIdempotent(ctx context.Context, req IdempotentRequest) error

	// DeleteExpired removes what r no longer keeps at now: finished jobs,
	// closed deliveries with their history, and idempotency keys past
	// their Expires. A working store runs it on River every
	// Config.RetentionEvery; it is safe to run at any time, from any
	// number of processes.
	DeleteExpired(ctx context.Context, now time.Time, r Retention) (Expired, error)

	// Allow takes one request from the shared limit of key (tenant and
	// operation): at most limit per window. When the limit is reached it
	// returns false and how long until a request is allowed again.
	Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (ok bool, retryAfter time.Duration, err error)

	// Start runs the River client with these workers (nil: insert-only,
	// for commands such as "tenant create") and the store's own periodic
	// job, which removes expired work (Config.Retention) and whose worker
	// it adds to workers; Stop stops it, letting running jobs see their
	// context cancelled, within ctx.
	Start(ctx context.Context, workers *river.Workers, maxJobs int) error
	Stop(ctx context.Context) error
	Close() error
}
