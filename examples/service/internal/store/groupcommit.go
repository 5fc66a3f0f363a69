package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// groupCommitter runs the writes of SQLite. SQLite has one writer at a
// time and a durable commit costs a sync of the log, so instead of one
// transaction per call, one goroutine commits the writes that are waiting
// together in one transaction: each write runs inside its own savepoint,
// so one that fails (a version conflict, say) is rolled back alone and
// its caller gets its own error while the others commit. Every caller is
// answered only after the commit, so "nil" still means "on disk".
type groupCommitter struct {
	db       *sql.DB
	stmts    *sqliteDB // db's prepared statements
	q        *riverQueue[*sql.Tx]
	maxBatch int

	ops chan *writeOp
	// restartLog asks for the write-ahead log to start over between two
	// batches (see checkpointer).
	restartLog atomic.Bool
	logger     *slog.Logger

	mu     sync.RWMutex // held for reading while sending on ops
	closed bool
	quit   chan struct{}
	done   chan struct{}
}

// States of a writeOp: a caller whose context ends while its write still
// waits abandons it; once taken it runs and its outcome is the answer.
const (
	opWaiting int32 = iota
	opTaken
	opAbandoned
)

type writeOp struct {
	ctx    context.Context
	fn     func(ctx context.Context, tx txn) error
	state  atomic.Int32
	result chan error // buffered: the committer never waits for a caller
}

// errClosed answers a write made after Close.
var errClosed = errors.New("store: closed")

const defaultMaxBatch = 256

func newGroupCommitter(stmts *sqliteDB, q *riverQueue[*sql.Tx], maxBatch int, logger *slog.Logger) *groupCommitter {
	if maxBatch <= 0 {
		maxBatch = defaultMaxBatch
	}
	g := &groupCommitter{
		db:       stmts.db,
		stmts:    stmts,
		q:        q,
		maxBatch: maxBatch,
		logger:   logger,
		ops:      make(chan *writeOp, 4*maxBatch),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go g.run()
	return g
}

func (g *groupCommitter) write(ctx context.Context, fn func(ctx context.Context, tx txn) error) error {
	op := &writeOp{ctx: ctx, fn: fn, result: make(chan error, 1)}
	g.mu.RLock()
	if g.closed {
		g.mu.RUnlock()
		return errClosed
	}
	select {
	case g.ops <- op:
	case <-ctx.Done():
		g.mu.RUnlock()
		return ctx.Err()
	}
	g.mu.RUnlock()
	select {
	case err := <-op.result:
		return err
	case <-ctx.Done():
		if op.state.CompareAndSwap(opWaiting, opAbandoned) {
			return ctx.Err() // it never ran
		}
		return <-op.result // it runs or ran: its outcome is the answer
	}
}

// close commits what was sent before it and stops the goroutine.
func (g *groupCommitter) close() {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.closed = true
	g.mu.Unlock()
	close(g.quit)
	<-g.done
}

func (g *groupCommitter) run() {
	defer close(g.done)
	batch := make([]*writeOp, 0, g.maxBatch)
	for {
		select {
		case op := <-g.ops:
			batch = append(batch[:0], op)
		case <-g.quit:
			// No send can start after quit; finish what was sent.
			for {
				select {
				case op := <-g.ops:
					g.commit([]*writeOp{op})
				default:
					return
				}
			}
		}
	fill:
		for len(batch) < g.maxBatch {
			select {
			case op := <-g.ops:
				batch = append(batch, op)
			default:
				break fill
			}
		}
		g.commit(batch)
		g.stmts.preparePending(context.Background())
		if g.restartLog.Swap(false) {
			g.restartWAL()
		}
	}
}

// commit runs the waiting writes of batch in one transaction and answers
// each of them.
func (g *groupCommitter) commit(batch []*writeOp) {
	live := batch[:0:0]
	for _, op := range batch {
		if op.state.CompareAndSwap(opWaiting, opTaken) {
			live = append(live, op)
		}
	}
	if len(live) == 0 {
		return
	}
	answer := func(errs []error) {
		for i, op := range live {
			op.result <- errs[i]
		}
	}
	errs := make([]error, len(live))
	all := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	tx, err := g.db.BeginTx(context.Background(), nil)
	if err != nil {
		answer(all(fmt.Errorf("store: begin: %w", err)))
		return
	}
	t := &sqliteTx{tx: tx, q: g.q, stmts: g.stmts}
	if len(live) == 1 { // no savepoint needed: the transaction is the write's
		op := live[0]
		if err := op.fn(context.WithoutCancel(op.ctx), t); err != nil {
			tx.Rollback()
			answer(all(err))
			return
		}
	} else {
		for i, op := range live {
			if _, err := t.exec(context.Background(), "SAVEPOINT write"); err != nil {
				tx.Rollback()
				answer(all(fmt.Errorf("store: savepoint: %w", err)))
				return
			}
			errs[i] = op.fn(context.WithoutCancel(op.ctx), t)
			if errs[i] != nil {
				if _, err := t.exec(context.Background(), "ROLLBACK TO write"); err != nil {
					tx.Rollback()
					answer(all(fmt.Errorf("store: rollback to savepoint: %w (after %w)", err, errs[i])))
					return
				}
			}
			if _, err := t.exec(context.Background(), "RELEASE write"); err != nil {
				tx.Rollback()
				answer(all(fmt.Errorf("store: release savepoint: %w", err)))
				return
			}
		}
	}
	if err := tx.Commit(); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = fmt.Errorf("store: commit: %w", err)
			}
		}
	}
	answer(errs)
}

// restartWAL runs a RESTART checkpoint on the writer's connection (see
// checkpointer). It waits at most restartWait for readers or for another
// process's writer: a log that cannot restart now is restarted at the
// checkpointer's next request, and the writes are not held up.
func (g *groupCommitter) restartWAL() {
	ctx := context.Background()
	conn, err := g.db.Conn(ctx)
	if err == nil {
		defer conn.Close()
		_, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", restartWait.Milliseconds()))
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, "PRAGMA wal_checkpoint(RESTART)")
		_, errBack := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds()))
		err = errors.Join(err, errBack)
	}
	if err != nil {
		g.logger.Warn("store: sqlite log restart", "err", err)
	}
}

// restartWait bounds how long restartWAL waits for the log to be free.
const restartWait = 100 * time.Millisecond
