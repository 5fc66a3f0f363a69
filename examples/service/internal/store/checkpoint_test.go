package store

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLogStaysBoundedUnderReadsAndWrites: with reads and writes going on
// all the time, SQLite never finds a moment to start its log over on its
// own; the checkpointer has the writer restart it, so the log stays near
// its limit instead of growing with every write. The checkpointer's
// rounds are run by the writers, one every 16 updates, rather than by its
// ticker: a round under way holds the writer that runs it, and the rounds
// run one at a time, so at most 8 × 16 updates are written between two
// rounds however fast or slow the machine, while the other writers keep
// the log busy.
func TestLogStaysBoundedUnderReadsAndWrites(t *testing.T) {
	path := sqliteHarness.fresh(t)
	cfg := testConfig()
	cfg.walLimitPages = 256 // 1 MiB
	cfg.checkpointEvery = time.Hour
	s, err := OpenSQLite(context.Background(), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ckpt := s.(*dbStore).b.(*sqliteBackend).ckpt
	ctx := context.Background()
	tn, _ := newTenant(t, s)
	j := newJob(t, s, tn.ID)
	done := make(chan struct{})
	var readers, writers sync.WaitGroup
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := s.Job(ctx, tn.ID, j.ID); err != nil {
					t.Error(err)
					return
				}
				time.Sleep(100 * time.Microsecond)
			}
		})
	}
	const each, every = 300, 16
	var updates atomic.Int64
	for range 8 {
		writers.Go(func() {
			d := newDelivery(t, s, tn.ID)
			body := make([]byte, 2048)
			for range each {
				d.Version++
				d.Body = body
				if err := s.UpdateDelivery(ctx, d, Change{Kind: "UPDATE", Request: body}); err != nil {
					t.Error(err)
					return
				}
				if updates.Add(1)%every == 0 {
					ckpt.round()
				}
			}
		})
	}
	writers.Wait()
	close(done)
	readers.Wait()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	// 2,400 updates of 2 KiB bodies with 2 KiB history entries write
	// about 37 MiB of log (16 KiB each); restarted past 1 MiB, with at
	// most 128 updates (2 MiB) between two rounds, it stays near 3 MiB.
	if fi.Size() > 6<<20 {
		t.Errorf("log is %d KiB after %d updates, want it near its 1 MiB limit", fi.Size()>>10, 8*each)
	}
	t.Logf("log %d KiB", fi.Size()>>10)
}
