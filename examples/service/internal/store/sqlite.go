package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// The SQLite database is one file in WAL mode (readers never wait for the
// writer) with a busy timeout, opened twice: one writer connection, which
// River shares, and a pool of read-only connections for the reads. WAL
// mode is a setting of the file, made once by useWAL when the store opens
// (not by the connections' pragmas: see useWAL).
//
// synchronous(FULL): in WAL mode SQLite then syncs the log at every
// commit, so a write is on disk when its call returns (NORMAL would lose
// the last commits on a power cut). The cost of that sync is shared by
// the writes the group committer puts in one transaction.
const (
	busyTimeout  = 5 * time.Second // as in sqliteCommon
	sqliteCommon = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"
	sqliteWriter = sqliteCommon + "&_pragma=synchronous(FULL)&_txlock=immediate&_pragma=wal_autocheckpoint(0)"
	// The checkpointer's connection syncs the database file after copying.
	sqliteCheckpoint = sqliteCommon + "&_pragma=synchronous(FULL)"
	sqliteReader     = sqliteCommon + "&_pragma=query_only(1)"
)

// OpenSQLite opens (creating it if needed) the SQLite database at path,
// brings its schema and River's up to date, and returns a Store whose
// River client inserts jobs until Start.
func OpenSQLite(ctx context.Context, path string, cfg Config) (Store, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("%w: sqlite: path: must be a file name without ? or #, not %q", ErrInvalid, path)
	}
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	writer, err := sql.Open("sqlite", path+"?"+sqliteWriter)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// One connection: SQLite has one writer at a time anyway, and River's
	// SQLite driver is built for a pool of one (its parallel maintenance
	// would otherwise meet SQLITE_BUSY).
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxIdleTime(0)
	writer.SetConnMaxLifetime(0)

	b := &sqliteBackend{writer: writer}
	fail := func(err error) (Store, error) {
		b.closeDBs()
		return nil, err
	}
	if err := useWAL(ctx, writer); err != nil {
		return fail(fmt.Errorf("store: open %s: %w", path, err))
	}
	if err := b.migrate(ctx, cfg); err != nil {
		return fail(err)
	}
	// The readers open after the migration: the file and its WAL exist.
	reader, err := sql.Open("sqlite", path+"?"+sqliteReader)
	if err != nil {
		return fail(fmt.Errorf("store: open %s: %w", path, err))
	}
	n := cfg.ReadConns
	if n <= 0 {
		n = max(4, 2*runtime.GOMAXPROCS(0))
	}
	reader.SetMaxOpenConns(n)
	reader.SetMaxIdleConns(n)
	reader.SetConnMaxIdleTime(0)
	reader.SetConnMaxLifetime(0)
	b.readers = &sqliteDB{db: reader}
	if err := reader.PingContext(ctx); err != nil {
		return fail(fmt.Errorf("store: open %s for reading: %w", path, err))
	}

	ckpt, err := sql.Open("sqlite", path+"?"+sqliteCheckpoint)
	if err != nil {
		return fail(fmt.Errorf("store: open %s for checkpoints: %w", path, err))
	}
	ckpt.SetMaxOpenConns(1)
	b.ckptDB = ckpt

	q, err := newRiverQueue(riversqlite.New(writer), cfg, "")
	if err != nil {
		return fail(err)
	}
	b.q = q
	b.writes = &sqliteDB{db: writer}
	b.committer = newGroupCommitter(b.writes, q, cfg.MaxBatch, cfg.logger())
	b.ckpt = newCheckpointer(ckpt, func() { b.committer.restartLog.Store(true) }, cfg)
	warnShared(path, cfg.logger())
	return &dbStore{b: b, greatest: "MAX", retention: newRetentionConfig(cfg)}, nil
}

// privateMode is the mode of the database files: they hold customer
// names, phone numbers and gate codes, for the service's user only.
const privateMode fs.FileMode = 0o600

// createPrivate creates the database file, empty and private, when it is
// missing. SQLite would create it with 0644 less the umask, readable by
// every user of the machine; it takes an empty file for a new database,
// and gives the -wal and -shm files it makes beside it the database
// file's own mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, privateMode)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// warnShared logs a warning for each database file that other users may
// read or write: a file made before the service created them private, or
// opened up since. It leaves the modes as they are: they are the
// operator's to change.
func warnShared(path string, log *slog.Logger) {
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(name)
		if err != nil || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		log.Warn("a database file is open to other users of this machine; it holds customer names, phone numbers and gate codes: chmod 600 it",
			slog.String("file", name), slog.String("mode", fi.Mode().Perm().String()))
	}
}

// useWAL puts the database file in WAL mode, a setting the file keeps.
//
// On a file not yet in WAL mode (a new one), PRAGMA journal_mode=WAL
// reads the file's header and then writes it: it upgrades a read lock to
// a write lock. SQLite never calls the busy handler (busy_timeout) for
// such an upgrade, since two connections upgrading at once would wait for
// each other forever: when another connection holds the write lock, the
// pragma fails at once with SQLITE_BUSY. Several processes opening a new
// file at once meet that: one switches the file, another fails.
// The one that fails here waits for the write lock instead (BEGIN
// IMMEDIATE holds no lock before it, so it waits under the busy timeout),
// gives it back, and asks again: the file is then in WAL mode, and the
// pragma only reads it. A file that cannot be in WAL mode (SQLite then
// answers with the mode it kept) is an error.
func useWAL(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	deadline := time.Now().Add(busyTimeout)
	for {
		var mode string
		err := conn.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode)
		if err == nil {
			if !strings.EqualFold(mode, "wal") {
				return fmt.Errorf("journal mode: SQLite keeps the file in mode %q, not WAL", mode)
			}
			return nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fmt.Errorf("journal mode WAL: %w", err)
		}
		if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
			return fmt.Errorf("journal mode WAL: waiting for the writer: %w", err)
		}
		if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
			return fmt.Errorf("journal mode WAL: %w", err)
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY (any of its
// extended codes): another connection holds the lock a statement needs.
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

type sqliteBackend struct {
	writer    *sql.DB
	readers   *sqliteDB
	writes    *sqliteDB // the writer's prepared statements
	ckptDB    *sql.DB
	ckpt      *checkpointer
	q         *riverQueue[*sql.Tx]
	committer *groupCommitter
}

// migrate brings the service's schema up to date in one transaction
// (BEGIN IMMEDIATE: another process opening the file waits for it, then
// finds the steps applied), then River's with River's migrator, which runs
// its own transactions (with one connection it must not run inside ours).
func (b *sqliteBackend) migrate(ctx context.Context, cfg Config) error {
	tx, err := b.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	defer tx.Rollback()
	if err := migrate(ctx, &sqliteTx{tx: tx}, dialect{blob: "BLOB", octets: "length"}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	m, err := rivermigrate.New(riversqlite.New(b.writer), &rivermigrate.Config{Logger: cfg.logger()})
	if err != nil {
		return fmt.Errorf("store: river migrations: %w", err)
	}
	// River's migrator reads the versions applied, then applies the
	// others one transaction each: two processes opening a new file at
	// once may both try a version, and the second fails. Trying again
	// reads the versions the first applied meanwhile.
	for attempt := 1; ; attempt++ {
		_, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
		if err == nil {
			return nil
		}
		if attempt == riverMigrateAttempts || ctx.Err() != nil {
			return fmt.Errorf("store: river migrations: %w", err)
		}
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond)
	}
}

// riverMigrateAttempts bounds the tries of River's migrations (see migrate).
const riverMigrateAttempts = 10

func (b *sqliteBackend) reader() querier { return b.readers }
func (b *sqliteBackend) queue() queue    { return b.q }

func (b *sqliteBackend) write(ctx context.Context, fn func(ctx context.Context, tx txn) error) error {
	return b.committer.write(ctx, fn)
}

func (b *sqliteBackend) close() error {
	if b.committer != nil {
		b.committer.close()
	}
	return b.closeDBs()
}

func (b *sqliteBackend) closeDBs() error {
	var errs []error
	if b.ckpt != nil {
		b.ckpt.close()
	}
	if b.ckptDB != nil {
		errs = append(errs, b.ckptDB.Close())
	}
	if b.readers != nil {
		errs = append(errs, b.readers.close())
	}
	if b.writes != nil {
		errs = append(errs, b.writes.close()) // closes the writer
	} else {
		errs = append(errs, b.writer.Close())
	}
	return errors.Join(errs...)
}

// sqliteErr maps SQLite's constraint errors to the Store's.
func sqliteErr(err error) error {
	var se *sqlite.Error
	if err == nil || !errors.As(err, &se) {
		if errors.Is(err, sql.ErrNoRows) {
			return errNoRow
		}
		return err
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, sqlite3.SQLITE_CONSTRAINT_UNIQUE:
		return fmt.Errorf("%w (%v)", ErrDuplicate, err)
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return fmt.Errorf("%w: refers to a record that does not exist (%v)", ErrNotFound, err)
	}
	return err
}

// sqliteDB is the pool of readers; its statements are prepared once and
// kept (database/sql prepares them again on each connection as needed).
type sqliteDB struct {
	db      *sql.DB
	stmts   sync.Map // query → *sql.Stmt
	pending sync.Map // query → true: to prepare (the writer's, see sqliteTx.stmt)
}

// preparePending prepares the statements transactions asked for.
func (d *sqliteDB) preparePending(ctx context.Context) {
	d.pending.Range(func(query, _ any) bool {
		d.pending.Delete(query)
		d.stmt(ctx, query.(string)) // on error the statement stays unprepared
		return true
	})
}

func (d *sqliteDB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if s, ok := d.stmts.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := d.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := d.stmts.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

func (d *sqliteDB) exec(ctx context.Context, query string, args ...any) (int64, error) {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return 0, err
	}
	res, err := s.ExecContext(ctx, args...)
	if err != nil {
		return 0, sqliteErr(err)
	}
	return res.RowsAffected()
}

func (d *sqliteDB) queryRow(ctx context.Context, query string, args ...any) row {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return errRow{err}
	}
	return sqliteRow{s.QueryRowContext(ctx, args...)}
}

func (d *sqliteDB) query(ctx context.Context, query string, args ...any) (rows, error) {
	s, err := d.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rs, err := s.QueryContext(ctx, args...)
	if err != nil {
		return nil, sqliteErr(err)
	}
	return sqliteRows{rs}, nil
}

func (d *sqliteDB) close() error {
	d.stmts.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
	return d.db.Close()
}

// sqliteTx is a write transaction on the writer connection. Its
// statements are prepared once on the writer (stmts) and reused by every
// transaction: parsing was a fifth of the cost of a delivery update.
type sqliteTx struct {
	tx    *sql.Tx
	q     *riverQueue[*sql.Tx]
	stmts *sqliteDB // the writer's statements; nil: not prepared
}

// stmt is the writer's prepared statement for query bound to this
// transaction, or nil when it is not prepared yet. It cannot be prepared
// here: the transaction holds the writer's only connection, and
// preparing on the pool would wait for it forever. The group committer
// prepares it between transactions (preparePending).
func (t *sqliteTx) stmt(ctx context.Context, query string) *sql.Stmt {
	if t.stmts == nil {
		return nil
	}
	if s, ok := t.stmts.stmts.Load(query); ok {
		return t.tx.StmtContext(ctx, s.(*sql.Stmt))
	}
	t.stmts.pending.Store(query, true)
	return nil
}

func (t *sqliteTx) exec(ctx context.Context, query string, args ...any) (int64, error) {
	var res sql.Result
	var err error
	if s := t.stmt(ctx, query); s != nil {
		res, err = s.ExecContext(ctx, args...)
	} else {
		res, err = t.tx.ExecContext(ctx, query, args...)
	}
	if err != nil {
		return 0, sqliteErr(err)
	}
	return res.RowsAffected()
}

func (t *sqliteTx) queryRow(ctx context.Context, query string, args ...any) row {
	if s := t.stmt(ctx, query); s != nil {
		return sqliteRow{s.QueryRowContext(ctx, args...)}
	}
	return sqliteRow{t.tx.QueryRowContext(ctx, query, args...)}
}

func (t *sqliteTx) query(ctx context.Context, query string, args ...any) (rows, error) {
	var rs *sql.Rows
	var err error
	if s := t.stmt(ctx, query); s != nil {
		rs, err = s.QueryContext(ctx, args...)
	} else {
		rs, err = t.tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, sqliteErr(err)
	}
	return sqliteRows{rs}, nil
}

func (t *sqliteTx) enqueue(ctx context.Context, args PlanArgs) (int64, error) {
	return t.q.enqueue(ctx, t.tx, args)
}

func (t *sqliteTx) cancelRiverJob(ctx context.Context, id int64) error {
	return t.q.cancel(ctx, t.tx, id)
}

type sqliteRow struct{ r *sql.Row }

func (r sqliteRow) Scan(dest ...any) error { return sqliteErr(r.r.Scan(dest...)) }

type sqliteRows struct{ rs *sql.Rows }

func (r sqliteRows) Next() bool             { return r.rs.Next() }
func (r sqliteRows) Scan(dest ...any) error { return sqliteErr(r.rs.Scan(dest...)) }
func (r sqliteRows) Err() error             { return sqliteErr(r.rs.Err()) }
func (r sqliteRows) Close()                 { r.rs.Close() }

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }
