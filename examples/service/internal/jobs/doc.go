// Package jobs runs the service's planning jobs: a River worker claims a
// job from the store under a lease that this process renews, plans it with
// engine.Plan, saves the latest progress and the best plan so far while the
// search runs, and records the finished plan (COMPLETED) or why it failed
// (FAILED).
//
// Tenants take turns. A River job only wakes a worker; the job it runs is
// the one store.ClaimNext says it is the turn of: among the tenants with
// queued jobs that run fewer than Config.TenantRunningJobs (default 1)
// across every process, the one running fewest, then the one served
// longest ago, and its oldest job. A tenant that queued six jobs before
// another queued one therefore gets the first, the other tenant the
// second. A job whose tenant runs its share waits without a River job,
// and one of them gets one again as each of its tenant's jobs ends.
//
// A running search stops when River cancels its job (a cancel through
// another process reaches this one's context through River), when this
// process cancels it (Runner.Cancel, which the API calls right after
// store.CancelJob, so that even SQLite's poll-only queue stops the search
// at once), when the store says the job is no longer this process's (a
// lease renewal or a progress save finds it cancelled or taken over), and
// on shutdown. A stopped search records nothing: the job is CANCELLED
// already, or another process runs it, or on shutdown Runner.Stop hands
// it back to the queue (store.ReleaseOwner) to run again here or
// elsewhere.
//
// Leases tell a long search from a dead process. Every process renews the
// leases of the jobs it runs every Config.RenewEvery (default 5 s) for
// Config.Lease (default 30 s), and every process asks the store every
// Config.RecoverEvery (default 10 s) to requeue the jobs whose lease ended,
// or to fail those that have had Config.MaxAttempts runs (default 3). A
// job whose process died is therefore back in the queue at most Lease +
// RecoverEvery after its last renewal (40 s with the defaults, plus the
// queue's fetch delay of about a second), and FAILED after its third such
// death, never left RUNNING. A run is safe to repeat: planning has no side
// effect but the job's own row, which only the lease holder may write.
// A process that cannot renew (its database is unreachable) stops a search
// while two renewal intervals are left on its lease, before any other
// process may take the job over. A restarting runner recovers such jobs
// before it takes new ones.
//
// Each search runs for the request's time limit (the engine's default when
// it sets none), at most Config.MaxTimeLimit (default 5 min), with at most
// Config.MaxStreams search streams (default the engine's 4), on
// GOMAXPROCS/Config.MaxJobs goroutines (engine.Options.Workers), so that
// the jobs that run at once share the cores. Whatever the search does, its
// context ends at the time limit plus Config.Grace (default 10 s; cause
// ErrDeadline): a plan engine.Plan returns then is recorded, COMPLETED
// like the plan of any search stopped early (the pallets it had not
// reached NOT_PLANNED), and an error it returns then fails the job,
// saying it was stopped before it had a plan. A search that has not returned one more
// Grace later is FAILED at once; its worker stays taken until it returns.
// River's own job timeout is turned off for planning jobs: it would start
// before the job, whose time limit is in the stored request, is claimed;
// the lease tells a dead process.
//
// A panic in a job's planning, on the search's goroutine or in this
// package's own code, and an engine.ErrInternal from engine.Plan (a bug:
// a plan Validate rejects, or a search stream's recovered panic) fail the
// job with an internal-error message; its log line has the panic's value
// and stack, or the engine's error, and the process goes on serving.
package jobs
