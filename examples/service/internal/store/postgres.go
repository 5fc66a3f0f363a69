package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// OpenPostgres connects to the PostgreSQL database at url (a pgx
// connection string), brings its schema and River's up to date, and
// returns a Store whose River client inserts jobs until Start. Any number
// of processes may open the same database: they share tenants, jobs,
// deliveries and rate limits, and River hands each job to one of them.
func OpenPostgres(ctx context.Context, url string, cfg Config) (Store, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included.
		return nil, fmt.Errorf("%w: postgres: the connection URL does not parse", ErrInvalid)
	}
	if cfg.Schema != "" {
		pc.ConnConfig.RuntimeParams["search_path"] = cfg.Schema
	}
	pc.MaxConns = int32(cfg.MaxConns)
	if pc.MaxConns <= 0 {
		pc.MaxConns = int32(max(16, 4*runtime.GOMAXPROCS(0)))
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("store: postgres: %w", err)
	}
	b := &pgBackend{pool: pool, pool0: pgDB{pool: pool}}
	if err := b.migrate(ctx, cfg); err != nil {
		pool.Close()
		return nil, err
	}
	q, err := newRiverQueue(riverpgxv5.New(pool), cfg, cfg.Schema)
	if err != nil {
		pool.Close()
		return nil, err
	}
	b.q = q
	return &dbStore{b: b, greatest: "GREATEST", skipLocked: " FOR UPDATE SKIP LOCKED", autocommit: &b.pool0,
		locks: &advisoryLocks{schema: cfg.Schema}, retention: newRetentionConfig(cfg)}, nil
}

var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

type pgBackend struct {
	pool  *pgxpool.Pool
	pool0 pgDB
	q     *riverQueue[pgx.Tx]
}

// migrate brings the service's schema and River's up to date. A session
// advisory lock is held meanwhile, so that processes opening a new
// database at once apply each step once: the service's steps in one
// transaction, then River's with River's migrator (some of its steps
// cannot share a transaction).
func (b *pgBackend) migrate(ctx context.Context, cfg Config) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("store: postgres: %w", err)
	}
	defer conn.Release()
	const lockKey = `hashtextextended('haulplan_migrations:' || $1, 0)`
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(`+lockKey+`)`, cfg.Schema); err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+lockKey+`)`, cfg.Schema)
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if cfg.Schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+cfg.Schema); err != nil {
				return fmt.Errorf("store: schema %s: %w", cfg.Schema, err)
			}
		}
		return migrate(ctx, &pgTx{tx: tx}, dialect{blob: "BYTEA", unlogged: "UNLOGGED", octets: "octet_length", postgres: true})
	})
	if err != nil {
		return err
	}
	m, err := rivermigrate.New(riverpgxv5.New(b.pool), &rivermigrate.Config{Logger: cfg.logger(), Schema: cfg.Schema})
	if err != nil {
		return fmt.Errorf("store: river migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("store: river migrations: %w", err)
	}
	return nil
}

func (b *pgBackend) reader() querier { return &b.pool0 }

// statements runs single statements on the pool, each committed alone.
func (b *pgBackend) statements() querier { return &b.pool0 }
func (b *pgBackend) queue() queue        { return b.q }

func (b *pgBackend) close() error {
	b.pool.Close()
	return nil
}

// write runs fn in a READ COMMITTED transaction; the statements of the
// Store carry their own conditions (version, owner, status), so no
// stronger isolation is needed. A deadlock or serialization failure is
// retried a few times.
func (b *pgBackend) write(ctx context.Context, fn func(ctx context.Context, tx txn) error) error {
	var err error
	for range 3 {
		err = pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
			return fn(ctx, &pgTx{tx: tx, q: b.q})
		})
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || (pe.Code != "40P01" && pe.Code != "40001") {
			return pgErr(err)
		}
	}
	return pgErr(err)
}

// pgErr maps PostgreSQL's errors to the Store's.
func pgErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoRow
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return fmt.Errorf("%w (%v)", ErrDuplicate, err)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%w: refers to a record that does not exist (%v)", ErrNotFound, err)
		}
	}
	return err
}

// rebind turns the package's ? placeholders into PostgreSQL's $n.
var rebind numbered

type pgDB struct{ pool *pgxpool.Pool }

func (d *pgDB) exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := d.pool.Exec(ctx, rebind.sql(query), args...)
	if err != nil {
		return 0, pgErr(err)
	}
	return tag.RowsAffected(), nil
}

func (d *pgDB) queryRow(ctx context.Context, query string, args ...any) row {
	return pgRow{d.pool.QueryRow(ctx, rebind.sql(query), args...)}
}

func (d *pgDB) query(ctx context.Context, query string, args ...any) (rows, error) {
	rs, err := d.pool.Query(ctx, rebind.sql(query), args...)
	if err != nil {
		return nil, pgErr(err)
	}
	return pgRows{rs}, nil
}

type pgTx struct {
	tx pgx.Tx
	q  *riverQueue[pgx.Tx]
}

func (t *pgTx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, rebind.sql(query), args...)
	if err != nil {
		return 0, pgErr(err)
	}
	return tag.RowsAffected(), nil
}

func (t *pgTx) queryRow(ctx context.Context, query string, args ...any) row {
	return pgRow{t.tx.QueryRow(ctx, rebind.sql(query), args...)}
}

func (t *pgTx) query(ctx context.Context, query string, args ...any) (rows, error) {
	rs, err := t.tx.Query(ctx, rebind.sql(query), args...)
	if err != nil {
		return nil, pgErr(err)
	}
	return pgRows{rs}, nil
}

func (t *pgTx) enqueue(ctx context.Context, args PlanArgs) (int64, error) {
	return t.q.enqueue(ctx, t.tx, args)
}

func (t *pgTx) cancelRiverJob(ctx context.Context, id int64) error {
	return t.q.cancel(ctx, t.tx, id)
}

type pgRow struct{ r pgx.Row }

func (r pgRow) Scan(dest ...any) error { return pgErr(r.r.Scan(dest...)) }

type pgRows struct{ rs pgx.Rows }

func (r pgRows) Next() bool             { return r.rs.Next() }
func (r pgRows) Scan(dest ...any) error { return pgErr(r.rs.Scan(dest...)) }
func (r pgRows) Err() error             { return pgErr(r.rs.Err()) }
func (r pgRows) Close()                 { r.rs.Close() }
