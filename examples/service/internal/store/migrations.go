package store

import (
	"context"
	"fmt"
	"slices"
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
	// sqlite and postgres are statements of one database only, run after
	// sql, each whole (triggers, whose bodies hold semicolons).
	sqlite, postgres []string
}

// dialect fills the placeholders of a migration: {blob} (BLOB on SQLite,
// BYTEA on PostgreSQL), {unlogged} (UNLOGGED on PostgreSQL, for a
// table whose rows may be lost in a crash and need not wait for the disk:
// the rate limits; nothing on SQLite) and {octets} (the function that
// counts a blob's bytes). postgres chooses a migration's own statements.
type dialect struct {
	blob, unlogged, octets string
	postgres               bool
}

func (d dialect) fill(sql string) string {
	return strings.NewReplacer("{blob}", d.blob, "{unlogged}", d.unlogged, "{octets}", d.octets).Replace(sql)
}

// statements are the statements of step m on d's database, in order.
func (d dialect) statements(m migration) []string {
	var out []string
	for stmt := range strings.SplitSeq(d.fill(m.sql), ";\n") {
		if strings.TrimSpace(stmt) != "" {
			out = append(out, stmt)
		}
	}
	own := m.sqlite
	if d.postgres {
		own = m.postgres
	}
	return append(out, own...)
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
)`, nil, nil},
	{2, "deliveries: one booking of an order among a tenant's deliveries that are not cancelled", `
ALTER TABLE deliveries ADD COLUMN duplicate_of TEXT NOT NULL DEFAULT '';
UPDATE deliveries SET duplicate_of = (
	SELECT e.id FROM deliveries e
	WHERE e.tenant_id = deliveries.tenant_id AND e.external_order_id = deliveries.external_order_id AND e.status <> 'CANCELLED'
		AND (e.created < deliveries.created OR (e.created = deliveries.created AND e.id < deliveries.id))
	ORDER BY e.created, e.id LIMIT 1)
WHERE status <> 'CANCELLED' AND EXISTS (
	SELECT 1 FROM deliveries e
	WHERE e.tenant_id = deliveries.tenant_id AND e.external_order_id = deliveries.external_order_id AND e.status <> 'CANCELLED'
		AND (e.created < deliveries.created OR (e.created = deliveries.created AND e.id < deliveries.id)));
CREATE UNIQUE INDEX deliveries_open_order ON deliveries (tenant_id, external_order_id)
	WHERE status <> 'CANCELLED' AND duplicate_of = '';
DROP INDEX deliveries_external_order`, nil, nil},
	{3, "the bytes each tenant's job requests and plans, delivery bodies and history take, counted by triggers", `
CREATE TABLE tenant_storage (
	tenant_id TEXT NOT NULL,
	shard     BIGINT NOT NULL,
	bytes     BIGINT NOT NULL,
	PRIMARY KEY (tenant_id, shard)
);
INSERT INTO tenant_storage (tenant_id, shard, bytes)
SELECT tenant_id, 0, SUM(n) FROM (
	SELECT tenant_id, {octets}(request) + COALESCE({octets}(plan), 0) AS n FROM jobs
	UNION ALL SELECT tenant_id, {octets}(body) FROM deliveries
	UNION ALL SELECT d.tenant_id, COALESCE({octets}(c.request), 0) FROM delivery_changes c JOIN deliveries d ON d.id = c.delivery_id
) used GROUP BY tenant_id`, sqliteStorageTriggers, postgresStorageTriggers},
	{4, "idempotency keys: the request each key was first sent with, and its answer", `
CREATE TABLE idempotency_keys (
	tenant_id       TEXT NOT NULL REFERENCES tenants (id),
	idempotency_key TEXT NOT NULL,
	operation       TEXT NOT NULL,
	fingerprint     {blob} NOT NULL,
	status          BIGINT NOT NULL DEFAULT 0,
	location        TEXT NOT NULL DEFAULT '',
	response        {blob},
	created         BIGINT NOT NULL,
	expires         BIGINT NOT NULL DEFAULT 0,
	PRIMARY KEY (tenant_id, idempotency_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires) WHERE expires > 0`, nil, nil},
	{5, "retention: finished jobs by their end, closed deliveries by their booking", `
CREATE INDEX jobs_finished ON jobs (finished) WHERE status IN ('COMPLETED', 'FAILED', 'CANCELLED');
CREATE INDEX deliveries_closed ON deliveries (created, id) WHERE status IN ('DELIVERED', 'RETURNED', 'CANCELLED')`, nil, nil},
	{6, "jobs: turns between tenants (the latest claim of a job, the queued and running jobs of each tenant)", `
ALTER TABLE jobs ADD COLUMN claimed BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_queued_tenant ON jobs (tenant_id, created) WHERE status = 'QUEUED';
CREATE INDEX jobs_queued_river_job ON jobs (river_job_id) WHERE status = 'QUEUED';
CREATE INDEX jobs_running_tenant ON jobs (tenant_id) WHERE status = 'RUNNING';
CREATE INDEX jobs_tenant_claimed ON jobs (tenant_id, claimed)`, nil, nil},
	{7, "jobs: the job a re-plan changes the plan of (NULL for a job planned from scratch)", `
ALTER TABLE jobs ADD COLUMN replan_of TEXT;
CREATE INDEX jobs_replans ON jobs (tenant_id, replan_of, created) WHERE replan_of IS NOT NULL`, nil, nil},
}

// The triggers of step 3: every insert, change and delete of a job's
// request or plan, a delivery's body or a change's request adds its
// difference in bytes to the tenant's count in the same transaction, so
// that the count is exact whatever writes the rows (the Store, the
// retention, an operator's SQL). PostgreSQL counts in 16 shards per
// tenant, one per connection (its backend's process id modulo 16), so
// that concurrent writes of one tenant seldom wait for each other's row;
// SQLite, whose writes are serialised anyway, in one.
var (
	sqliteStorageTriggers = []string{
		sqliteCount("jobs_storage_insert", "AFTER INSERT ON jobs", "",
			"NEW.tenant_id", "length(NEW.request) + COALESCE(length(NEW.plan), 0)"),
		sqliteCount("jobs_storage_update", "AFTER UPDATE OF request, plan ON jobs",
			"length(NEW.request) + COALESCE(length(NEW.plan), 0) <> length(OLD.request) + COALESCE(length(OLD.plan), 0)",
			"NEW.tenant_id", "length(NEW.request) + COALESCE(length(NEW.plan), 0) - length(OLD.request) - COALESCE(length(OLD.plan), 0)"),
		sqliteCount("jobs_storage_delete", "AFTER DELETE ON jobs", "",
			"OLD.tenant_id", "-length(OLD.request) - COALESCE(length(OLD.plan), 0)"),
		sqliteCount("deliveries_storage_insert", "AFTER INSERT ON deliveries", "",
			"NEW.tenant_id", "length(NEW.body)"),
		sqliteCount("deliveries_storage_update", "AFTER UPDATE OF body ON deliveries", "length(NEW.body) <> length(OLD.body)",
			"NEW.tenant_id", "length(NEW.body) - length(OLD.body)"),
		sqliteCount("deliveries_storage_delete", "AFTER DELETE ON deliveries", "",
			"OLD.tenant_id", "-length(OLD.body)"),
		sqliteCount("delivery_changes_storage_insert", "AFTER INSERT ON delivery_changes", "NEW.request IS NOT NULL",
			"(SELECT tenant_id FROM deliveries WHERE id = NEW.delivery_id)", "length(NEW.request)"),
		sqliteCount("delivery_changes_storage_delete", "AFTER DELETE ON delivery_changes", "OLD.request IS NOT NULL",
			"(SELECT tenant_id FROM deliveries WHERE id = OLD.delivery_id)", "-length(OLD.request)"),
	}

	postgresStorageTriggers = slices.Concat(
		postgresCount("jobs", "request, plan", "octet_length({row}.request) + COALESCE(octet_length({row}.plan), 0)"),
		postgresCount("deliveries", "body", "octet_length({row}.body)"),
		postgresCount("delivery_changes", "", "COALESCE(octet_length({row}.request), 0)"),
	)
)

// sqliteCount is a SQLite trigger named name that runs on event, when
// the condition when holds (empty: always), and adds delta bytes to
// tenant's count.
func sqliteCount(name, event, when, tenant, delta string) string {
	if when != "" {
		when = "\nWHEN " + when
	}
	return "CREATE TRIGGER " + name + " " + event + " FOR EACH ROW" + when + ` BEGIN
	INSERT INTO tenant_storage (tenant_id, shard, bytes) VALUES (` + tenant + `, 0, ` + delta + `)
	ON CONFLICT (tenant_id, shard) DO UPDATE SET bytes = bytes + excluded.bytes;
END`
}

// postgresCount is the PostgreSQL trigger function of table and its
// triggers: on insert and delete, and on an update of the columns
// updated (none: rows are not updated) that changes size, a row's bytes
// with {row} for OLD or NEW. The update's condition is checked before the
// function is called: a job's progress saves without a plan, and a
// delivery change of a body's same length, call none. The tenant of a
// delivery change is its delivery's.
func postgresCount(table, updated, size string) []string {
	tenant := "{row}.tenant_id"
	if table == "delivery_changes" {
		tenant = "(SELECT tenant_id FROM deliveries WHERE id = {row}.delivery_id)"
	}
	of := func(row, expr string) string { return strings.ReplaceAll(expr, "{row}", row) }
	out := []string{`CREATE FUNCTION ` + table + `_storage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	delta BIGINT := 0;
	tenant TEXT;
BEGIN
	IF TG_OP <> 'INSERT' THEN
		delta := delta - (` + of("OLD", size) + `);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		delta := delta + (` + of("NEW", size) + `);
	END IF;
	IF delta = 0 THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'DELETE' THEN
		tenant := ` + of("OLD", tenant) + `;
	ELSE
		tenant := ` + of("NEW", tenant) + `;
	END IF;
	UPDATE tenant_storage SET bytes = bytes + delta WHERE tenant_id = tenant AND shard = pg_backend_pid() % 16;
	IF NOT FOUND THEN
		INSERT INTO tenant_storage (tenant_id, shard, bytes) VALUES (tenant, pg_backend_pid() % 16, delta)
		ON CONFLICT (tenant_id, shard) DO UPDATE SET bytes = tenant_storage.bytes + excluded.bytes;
	END IF;
	RETURN NULL;
END
$$`,
		`CREATE TRIGGER ` + table + `_storage AFTER INSERT OR DELETE ON ` + table + ` FOR EACH ROW EXECUTE FUNCTION ` + table + `_storage()`}
	if updated != "" {
		out = append(out, `CREATE TRIGGER `+table+`_storage_update AFTER UPDATE OF `+updated+` ON `+table+` FOR EACH ROW
	WHEN (`+of("OLD", size)+` IS DISTINCT FROM `+of("NEW", size)+`) EXECUTE FUNCTION `+table+`_storage()`)
	}
	return out
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
		for _, stmt := range d.statements(m) {
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
