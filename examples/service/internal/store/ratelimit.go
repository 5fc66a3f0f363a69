package store

import (
	"context"
	"fmt"
	"time"
)

// Allow is a token bucket of limit requests that refills one request
// every window/limit, the behaviour of golang.org/x/time/rate with
// rate.Every(window/limit) and burst limit, so that the limit shared through
// the database answers like the in-process one. It is kept as GCRA: one
// row per key holds the theoretical arrival time (tat) of the next request,
// and one atomic statement per call decides and moves it, so the limit
// holds across processes.
//
// A full bucket takes limit requests at once; after that a request is
// allowed every window/limit, and after a whole window without requests
// the bucket is full again.
func (s *dbStore) Allow(ctx context.Context, key string, limit int, window time.Duration, now time.Time) (bool, time.Duration, error) {
	p := problems{what: "rate limit"}
	p.require("key", key)
	if limit < 1 {
		p.add("limit", fmt.Sprintf("must be at least 1, not %d", limit))
	}
	if window < time.Microsecond {
		p.add("window", fmt.Sprintf("must be at least 1µs, not %v", window))
	}
	if err := p.err(); err != nil {
		return false, 0, err
	}
	interval := max(window.Microseconds()/int64(limit), 1)
	tolerance := window.Microseconds()
	at := micros(now)
	var tat int64
	var allowed bool
	take := func(q querier) error {
		next := s.greatest + `(rate_limits.tat, ?) + ?`
		return q.queryRow(ctx, `INSERT INTO rate_limits (key, tat, allowed) VALUES (?, ?, TRUE)
ON CONFLICT (key) DO UPDATE SET
	allowed = (`+next+` - ? <= ?),
	tat = CASE WHEN `+next+` - ? <= ? THEN `+next+` ELSE rate_limits.tat END
RETURNING tat, allowed`,
			key, at+interval,
			at, interval, at, tolerance,
			at, interval, at, tolerance, at, interval).Scan(&tat, &allowed)
	}
	// One statement, committed alone where the database allows it
	// (PostgreSQL: one round trip, and the table is unlogged, so the
	// commit waits for no disk); else in a write transaction.
	var err error
	if sw, ok := s.b.(statementWriter); ok {
		err = take(sw.statements())
	} else {
		err = s.b.write(ctx, func(ctx context.Context, tx txn) error { return take(tx) })
	}
	if err != nil {
		return false, 0, fmt.Errorf("store: rate limit %s: %w", key, err)
	}
	if allowed {
		return true, 0, nil
	}
	// The next request fits when now + interval - tolerance reaches tat.
	return false, time.Duration(tat+interval-tolerance-at) * time.Microsecond, nil
}
