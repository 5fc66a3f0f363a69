package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The two databases differ in their drivers, their placeholders and their
// error codes; everything else (the tables, the statements, the rules of
// the contract) is shared by dbStore. A backend is what one database
// supplies to it.
type backend interface {
	// reader runs single statements outside any transaction: SQLite's pool
	// of read connections, PostgreSQL's pool.
	reader() querier
	// write runs fn in one transaction and commits it; nil when committed
	// (durably). On SQLite the writes of many callers share a transaction
	// (group commit), each with its own outcome.
	write(ctx context.Context, fn func(ctx context.Context, tx txn) error) error
	// queue is the River client of this database.
	queue() queue
	close() error
}

// statementWriter is a backend that can run a single write statement
// committed on its own, without a transaction around it (PostgreSQL's
// autocommit). Store methods whose write is one statement use it when the
// backend has it.
type statementWriter interface {
	statements() querier
}

// querier is a connection, a pool or a transaction.
type querier interface {
	// exec runs a statement and returns how many rows it changed.
	exec(ctx context.Context, query string, args ...any) (int64, error)
	queryRow(ctx context.Context, query string, args ...any) row
	query(ctx context.Context, query string, args ...any) (rows, error)
}

// row and rows are what database/sql and pgx have in common.
type row interface{ Scan(dest ...any) error }

type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// txn is a write transaction; River's calls inside it commit or roll back
// with it.
type txn interface {
	querier
	// enqueue inserts a River job for args and returns its id.
	enqueue(ctx context.Context, args PlanArgs) (int64, error)
	// cancelRiverJob cancels River job id (a running worker's context is
	// cancelled once this commits); a job River no longer has is no error.
	cancelRiverJob(ctx context.Context, id int64) error
}

// errNoRow is what a backend's row.Scan returns when the query found no row.
var errNoRow = errors.New("store: no row")

// ErrInvalid marks bad input to a Store method: the error lists every
// problem with the field it concerns.
var ErrInvalid = errors.New("store: invalid input")

// problems collects the violations of one input.
type problems struct {
	what string
	list []string
}

func (p *problems) add(field, msg string) { p.list = append(p.list, field+": "+msg) }

func (p *problems) require(field, value string) {
	if strings.TrimSpace(value) == "" {
		p.add(field, "must not be empty")
	}
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s: %s", ErrInvalid, p.what, strings.Join(p.list, "; "))
}

// Instants are stored as microseconds since 1970 (BIGINT in both
// databases, 0 for the zero time): comparisons and arithmetic in SQL are
// then the same on SQLite and PostgreSQL, and PostgreSQL's precision is kept.
func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func fromMicros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

// blob passes nil as SQL NULL (a nil plan is "no plan", not an empty one).
func blob(b []byte) any {
	if b == nil {
		return nil
	}
	return b
}

// numbered rewrites the ? placeholders of a statement as $1, $2, ... for
// PostgreSQL. The statements of this package hold no ? inside literals.
type numbered struct{ cache sync.Map }

func (n *numbered) sql(query string) string {
	if s, ok := n.cache.Load(query); ok {
		return s.(string)
	}
	var b strings.Builder
	k := 0
	for _, r := range query {
		if r == '?' {
			k++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(k))
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	n.cache.Store(query, s)
	return s
}
