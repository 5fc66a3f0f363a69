package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"
)

// TestRestartPersistence closes the store and opens the same database
// again: tenants, tokens, jobs with their plans and progress, deliveries
// with their history are all there, and opening applies no migration twice.
func TestRestartPersistence(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			ctx := context.Background()
			where := h.fresh(t)
			s, err := h.open(t, where)
			if err != nil {
				t.Fatal(err)
			}
			tn, c := newTenant(t, s)
			tok := Token{Hash: []byte("token"), TenantID: tn.ID, ClientID: c.ID, Expires: time.Now().Add(time.Hour)}
			if err := s.PutToken(ctx, tok); err != nil {
				t.Fatal(err)
			}
			done := newJob(t, s, tn.ID)
			s.ClaimJob(ctx, done.ID, "proc-a", time.Now().Add(time.Minute))
			s.SaveProgress(ctx, done.ID, "proc-a", Progress{Phase: "search", Round: 3}, nil)
			if err := s.FinishJob(ctx, done.ID, "proc-a", JobCompleted, []byte(`{"routes":[]}`), ""); err != nil {
				t.Fatal(err)
			}
			running := newJob(t, s, tn.ID)
			if _, err := s.ClaimJob(ctx, running.ID, "proc-a", time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			d := newDelivery(t, s, tn.ID)
			d.Version, d.Status = 2, "DRIVER_ASSIGNED"
			if err := s.UpdateDelivery(ctx, d, Change{Kind: "STATUS"}); err != nil {
				t.Fatal(err)
			}
			wantDone, _ := s.Job(ctx, tn.ID, done.ID)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			// Two opens of the same database, both kept: migrations are
			// idempotent, and the second sees what the first does.
			first := h.mustOpen(t, where)
			s = h.mustOpen(t, where)
			if _, err := first.Client(ctx, c.ID); err != nil {
				t.Errorf("client after restart, first store: %v", err)
			}
			if _, err := s.Client(ctx, c.ID); err != nil {
				t.Errorf("client after restart: %v", err)
			}
			if _, err := s.Token(ctx, tok.Hash); err != nil {
				t.Errorf("token after restart: %v", err)
			}
			gotDone, err := s.Job(ctx, tn.ID, done.ID)
			if err != nil || gotDone.Status != JobCompleted || string(gotDone.Plan) != `{"routes":[]}` ||
				gotDone.Progress.Round != 3 || !gotDone.Finished.Equal(wantDone.Finished) {
				t.Errorf("completed job after restart = %+v, %v; want %+v", gotDone, err, wantDone)
			}
			gotRunning, err := s.Job(ctx, tn.ID, running.ID)
			if err != nil || gotRunning.Status != JobRunning || gotRunning.Owner != "proc-a" {
				t.Errorf("running job after restart = %+v, %v; want RUNNING under proc-a until its lease ends", gotRunning, err)
			}
			gotD, err := s.Delivery(ctx, tn.ID, d.ID)
			if err != nil || gotD.Version != 2 || gotD.Status != "DRIVER_ASSIGNED" {
				t.Errorf("delivery after restart = %+v, %v", gotD, err)
			}
			if hist, err := s.History(ctx, tn.ID, d.ID); err != nil || len(hist) != 2 {
				t.Errorf("history after restart = %+v, %v; want 2 changes", hist, err)
			}
			var versions, latest int64
			err = s.(*dbStore).b.reader().queryRow(ctx, `SELECT COUNT(*), MAX(version) FROM haulplan_migrations`).Scan(&versions, &latest)
			if err != nil || versions != int64(len(migrations)) || latest != int64(migrations[len(migrations)-1].version) {
				t.Errorf("migrations table: %d rows up to version %d (%v); want each of the %d steps once", versions, latest, err, len(migrations))
			}
		})
	}
}

// TestClosedSQLiteIsOneFile: after Close the log is checkpointed and
// removed; the file alone holds everything.
func TestClosedSQLiteIsOneFile(t *testing.T) {
	path := sqliteHarness.fresh(t)
	s, err := sqliteHarness.open(t, path)
	if err != nil {
		t.Fatal(err)
	}
	tn, _ := newTenant(t, s)
	d := newDelivery(t, s, tn.ID)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the log after Close: %v, want it removed", err)
	}
	s = sqliteHarness.mustOpen(t, path)
	if _, err := s.Delivery(context.Background(), tn.ID, d.ID); err != nil {
		t.Errorf("delivery after reopening: %v", err)
	}
}
