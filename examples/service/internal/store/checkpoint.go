package store

import (
	"context"
	"database/sql"
	"log/slog"
	"time"
)

// checkpointer copies the SQLite write-ahead log back into the database
// file from a connection of its own, so that no write waits for it.
// SQLite's default is to checkpoint inside the commit that crosses 1,000
// pages of log, which adds the copy and a sync of the database file to
// the latency of the writes in that commit; the writer connection is
// opened with wal_autocheckpoint(0) instead.
//
// A PASSIVE checkpoint never blocks the writer or the readers. Once it has
// copied the whole log, the next write starts the log over from its
// beginning, so the log stays small while the checkpointer keeps up; if
// it grows past walLimitPages anyway (readers holding old snapshots, a
// burst of writes), a TRUNCATE checkpoint waits for a moment without
// writers and empties it.
type checkpointer struct {
	db     *sql.DB
	every  time.Duration
	logger *slog.Logger
	quit   chan struct{}
	done   chan struct{}
}

const (
	checkpointEvery = 200 * time.Millisecond
	walLimitPages   = 16384 // 64 MiB of 4 KiB pages
)

func newCheckpointer(db *sql.DB, logger *slog.Logger) *checkpointer {
	c := &checkpointer{db: db, every: checkpointEvery, logger: logger, quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *checkpointer) run() {
	defer close(c.done)
	tick := time.NewTicker(c.every)
	defer tick.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-tick.C:
		}
		logPages, err := c.checkpoint("PASSIVE")
		if err == nil && logPages > walLimitPages {
			_, err = c.checkpoint("TRUNCATE")
		}
		if err != nil {
			c.logger.Warn("store: sqlite checkpoint", "err", err)
		}
	}
}

// checkpoint runs one checkpoint of mode and returns how many pages the
// log held.
func (c *checkpointer) checkpoint(mode string) (logPages int64, err error) {
	var busy, checkpointed int64
	err = c.db.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &logPages, &checkpointed)
	return logPages, err
}

// close stops the checkpoints. The last connection to close checkpoints
// the log and removes it (SQLite does that on its own), so a closed
// database is one file; another process still using it keeps its log.
func (c *checkpointer) close() {
	close(c.quit)
	<-c.done
}
