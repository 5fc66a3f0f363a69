package store

import (
	"cmp"
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
// A PASSIVE checkpoint never blocks the writer or the readers. But the
// log only starts over from its beginning when a write begins with the
// whole log copied, and under a steady stream of writes that moment never
// comes: the log grows by megabytes a second. Past walLimitPages the
// checkpointer asks the writer to restart it: the writer runs a RESTART
// checkpoint between two group commits, on its own connection, so no
// write is under way and the checkpoint only copies what was written since
// the PASSIVE one and waits for the reads in flight. Measured with 16
// writers and 16 readers: a pause of about 15 ms every 64 MiB of log, every
// 8 s at 2,000 updates/s. RESTART, not TRUNCATE: the log file keeps its
// size and is overwritten, which syncs faster than a growing file.
type checkpointer struct {
	db      *sql.DB
	every   time.Duration
	limit   int64  // pages of log past which the writer restarts it
	restart func() // asks the writer to restart the log
	logger  *slog.Logger
	quit    chan struct{}
	done    chan struct{}
}

const (
	checkpointEvery = 200 * time.Millisecond
	walLimitPages   = 16384 // 64 MiB of 4 KiB pages
)

func newCheckpointer(db *sql.DB, restart func(), cfg Config) *checkpointer {
	c := &checkpointer{db: db, every: cmp.Or(cfg.checkpointEvery, checkpointEvery), limit: cmp.Or(cfg.walLimitPages, walLimitPages),
		restart: restart, logger: cfg.logger(),
		quit: make(chan struct{}), done: make(chan struct{})}
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
		c.round()
	}
}

// round runs one PASSIVE checkpoint and, when the log held more than the
// limit, asks the writer to restart it.
func (c *checkpointer) round() {
	logPages, err := c.checkpoint("PASSIVE")
	if err != nil {
		c.logger.Warn("store: sqlite checkpoint", "err", err)
	}
	if logPages > c.limit {
		c.restart()
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
