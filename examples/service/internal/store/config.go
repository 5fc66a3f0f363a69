package store

import (
	"fmt"
	"log/slog"
	"time"
)

// Config tunes a Store. Its zero value means the documented defaults.
type Config struct {
	// Logger receives River's own log lines (warnings and errors). Nil:
	// slog.Default(), which writes to stderr, so that a command printing
	// its result on stdout is never interleaved with River's lines.
	Logger *slog.Logger

	// ReadConns is how many SQLite connections serve reads beside the one
	// writer. Zero: 2 × GOMAXPROCS, at least 4. Ignored by PostgreSQL.
	ReadConns int

	// MaxConns is the size of the PostgreSQL connection pool. Zero: 4 ×
	// GOMAXPROCS, at least 16: River's producer, notifier and leader hold
	// a few, and durable commits are cheaper when more of them wait for
	// the same flush of PostgreSQL's log. Ignored by SQLite.
	MaxConns int

	// Schema is the PostgreSQL schema that holds the service's tables and
	// River's (created when missing). Empty: the connection's search_path
	// (normally "public"). Ignored by SQLite.
	Schema string

	// PollInterval is how often River looks for new jobs when no
	// notification reached it. Zero: one second (River's default).
	PollInterval time.Duration

	// MaxBatch caps how many writes the SQLite writer commits in one
	// transaction (group commit). Zero: 256. Ignored by PostgreSQL.
	MaxBatch int

	// Retention is how long finished jobs and closed deliveries are kept
	// (zero fields: forever). A working store (Start with workers)
	// removes what it no longer keeps, and the idempotency keys past
	// their time, on River: once when started and every RetentionEvery
	// (zero: DefaultRetentionEvery). With many processes on one
	// PostgreSQL database, the one River elects leader schedules it.
	Retention      Retention
	RetentionEvery time.Duration

	// now is the retention's clock (tests only); nil: time.Now.
	now func() time.Time

	// riverTestOnly starts River without the random start-up jitter of its
	// maintenance services (tests only).
	riverTestOnly bool
	// walLimitPages and checkpointEvery replace the SQLite checkpointer's
	// constants when set (tests only).
	walLimitPages   int64
	checkpointEvery time.Duration
}

func (c Config) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

// minPollInterval is River's fetch cooldown, the shortest poll it accepts.
const minPollInterval = 100 * time.Millisecond

// check lists every field of c that no Store accepts.
func (c Config) check() error {
	p := problems{what: "config"}
	if c.ReadConns < 0 {
		p.add("ReadConns", fmt.Sprintf("must be 0 (the default) or more, not %d", c.ReadConns))
	}
	if c.MaxConns < 0 {
		p.add("MaxConns", fmt.Sprintf("must be 0 (the default) or more, not %d", c.MaxConns))
	}
	if c.MaxBatch < 0 {
		p.add("MaxBatch", fmt.Sprintf("must be 0 (the default) or more, not %d", c.MaxBatch))
	}
	if c.PollInterval != 0 && c.PollInterval < minPollInterval {
		p.add("PollInterval", fmt.Sprintf("must be 0 (River's default, 1s) or at least %v (River's fetch cooldown), not %v", minPollInterval, c.PollInterval))
	}
	if c.Retention.Jobs < 0 {
		p.add("Retention.Jobs", fmt.Sprintf("must be 0 (forever) or more, not %v", c.Retention.Jobs))
	}
	if c.Retention.Deliveries < 0 {
		p.add("Retention.Deliveries", fmt.Sprintf("must be 0 (forever) or more, not %v", c.Retention.Deliveries))
	}
	if c.RetentionEvery < 0 {
		p.add("RetentionEvery", fmt.Sprintf("must be 0 (the default, %v) or more, not %v", DefaultRetentionEvery, c.RetentionEvery))
	}
	if c.Schema != "" && !identifier.MatchString(c.Schema) {
		p.add("Schema", fmt.Sprintf("must be a plain lower-case identifier (a-z, 0-9, _), not %q", c.Schema))
	}
	return p.err()
}
