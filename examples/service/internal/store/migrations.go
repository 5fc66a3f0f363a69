package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// migration is one step of the service's schema. Steps are applied in
// order, each once, in the transaction that opens the store; the versions
// applied are kept in the table haulplan_migrations. A new step goes at the
// end with the next version; an applied step is never edited.
type migration struct {
	version int
	name    string
	// sql is the step for both databases, with the placeholders of
	// dialect. Statements are separated by ";\n".
	sql string
}

// dialect fills the placeholders of a migration: {blob} (BLOB on SQLite,
// BYTEA on PostgreSQL) and {unlogged} (UNLOGGED on PostgreSQL, for a
// table whose rows may be lost in a crash and need not wait for the disk:
// the rate limits; nothing on SQLite).
type dialect struct{ blob, unlogged string }

func (d dialect) fill(sql string) string {
	return strings.NewReplacer("{blob}", d.blob, "{unlogged}", d.unlogged).Replace(sql)
}

var migrations = []migration{
	{1, "tenants, clients, tokens, jobs, deliveries, their history, rate limits", `
CREATE TABLE tenants (
	id      TEXT PRIMARY KEY,
	name    TEXT NOT NULL,
	created BIGINT NOT NULL
);
CREATE TABLE clients (
	id          TEXT PRIMARY KEY,
	tenant_id   TEXT NOT NULL REFERENCES tenants (id),
	secret_hash {blob} NOT NULL,
	created     BIGINT NOT NULL
);
CREATE INDEX clients_tenant ON clients (tenant_id);
CREATE TABLE tokens (
	hash      {blob} PRIMARY KEY,
	tenant_id TEXT NOT NULL REFERENCES tenants (id),
	client_id TEXT NOT NULL REFERENCES clients (id),
	expires   BIGINT NOT NULL
);
CREATE INDEX tokens_expires ON tokens (expires);
CREATE TABLE jobs (
	id           TEXT PRIMARY KEY,
	tenant_id    TEXT NOT NULL REFERENCES tenants (id),
	status       TEXT NOT NULL,
	request      {blob} NOT NULL,
	plan         {blob},
	phase        TEXT NOT NULL DEFAULT '',
	round        BIGINT NOT NULL DEFAULT 0,
	elapsed_ns   BIGINT NOT NULL DEFAULT 0,
	limit_ns     BIGINT NOT NULL DEFAULT 0,
	routes       BIGINT NOT NULL DEFAULT 0,
	delivered    BIGINT NOT NULL DEFAULT 0,
	unassigned   BIGINT NOT NULL DEFAULT 0,
	cost         DOUBLE PRECISION NOT NULL DEFAULT 0,
	progress_at  BIGINT NOT NULL DEFAULT 0,
	error        TEXT NOT NULL DEFAULT '',
	released     BOOLEAN NOT NULL DEFAULT FALSE,
	attempt      BIGINT NOT NULL DEFAULT 0,
	owner        TEXT NOT NULL DEFAULT '',
	lease_until  BIGINT NOT NULL DEFAULT 0,
	river_job_id BIGINT NOT NULL DEFAULT 0,
	created      BIGINT NOT NULL,
	started      BIGINT NOT NULL DEFAULT 0,
	finished     BIGINT NOT NULL DEFAULT 0,
	updated      BIGINT NOT NULL
);
CREATE INDEX jobs_tenant ON jobs (tenant_id, created);
CREATE INDEX jobs_running_owner ON jobs (owner) WHERE status = 'RUNNING';
CREATE INDEX jobs_running_lease ON jobs (lease_until) WHERE status = 'RUNNING';
CREATE TABLE deliveries (
	id                TEXT PRIMARY KEY,
	tenant_id         TEXT NOT NULL REFERENCES tenants (id),
	external_order_id TEXT NOT NULL,
	status            TEXT NOT NULL,
	body              {blob} NOT NULL,
	version           BIGINT NOT NULL,
	created           BIGINT NOT NULL,
	updated           BIGINT NOT NULL
);
CREATE INDEX deliveries_external_order ON deliveries (tenant_id, external_order_id);
CREATE TABLE delivery_changes (
	delivery_id TEXT NOT NULL REFERENCES deliveries (id),
	version     BIGINT NOT NULL,
	kind        TEXT NOT NULL,
	request     {blob},
	at          BIGINT NOT NULL,
	PRIMARY KEY (delivery_id, version)
);
CREATE {unlogged} TABLE rate_limits (
	key     TEXT PRIMARY KEY,
	tat     BIGINT NOT NULL,
	allowed BOOLEAN NOT NULL
)`},
	{2, "jobs: turns between tenants (the latest claim of a job, the queued and running jobs of each tenant)", `
ALTER TABLE jobs ADD COLUMN claimed BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_queued_tenant ON jobs (tenant_id, created) WHERE status = 'QUEUED';
CREATE INDEX jobs_queued_river_job ON jobs (river_job_id) WHERE status = 'QUEUED';
CREATE INDEX jobs_running_tenant ON jobs (tenant_id) WHERE status = 'RUNNING';
CREATE INDEX jobs_tenant_claimed ON jobs (tenant_id, claimed)`},
}

// migrate applies the steps of migrations that tx's database lacks.
// Opening an up-to-date database applies nothing. A database whose
// schema is newer than this program knows is refused.
func migrate(ctx context.Context, tx querier, d dialect) error {
	if _, err := tx.exec(ctx, `CREATE TABLE IF NOT EXISTS haulplan_migrations (
	version BIGINT PRIMARY KEY,
	name    TEXT NOT NULL,
	applied BIGINT NOT NULL
)`); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	var have int64
	if err := tx.queryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM haulplan_migrations`).Scan(&have); err != nil {
		return fmt.Errorf("store: schema version: %w", err)
	}
	latest := migrations[len(migrations)-1].version
	if have > int64(latest) {
		return fmt.Errorf("store: the database's schema is version %d, newer than this program's %d", have, latest)
	}
	for _, m := range migrations {
		if int64(m.version) <= have {
			continue
		}
		for stmt := range strings.SplitSeq(d.fill(m.sql), ";\n") {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			if _, err := tx.exec(ctx, stmt); err != nil {
				return fmt.Errorf("store: migration %d (%s): %w", m.version, m.name, err)
			}
		}
		if _, err := tx.exec(ctx, `INSERT INTO haulplan_migrations (version, name, applied) VALUES (?, ?, ?)`,
			m.version, m.name, micros(time.Now())); err != nil {
			return fmt.Errorf("store: migration %d: %w", m.version, err)
		}
	}
	return nil
}
