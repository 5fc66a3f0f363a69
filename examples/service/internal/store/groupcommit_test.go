package store

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestGroupCommitOutcomes: writes waiting together share one transaction
// yet each gets its own outcome; a write whose caller gave up before it
// ran never runs.
func TestGroupCommitOutcomes(t *testing.T) {
	s, _ := sqliteHarness.openFresh(t)
	b := s.(*dbStore).b
	ctx := context.Background()
	tn, _ := newTenant(t, s)

	// Hold the writer with a first write until the others are queued.
	hold, held := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- b.write(ctx, func(ctx context.Context, tx txn) error {
			close(held)
			<-hold
			return nil
		})
	}()
	<-held

	ok := newID("delivery")
	results := make(chan error, 2)
	go func() {
		results <- b.write(ctx, func(ctx context.Context, tx txn) error {
			_, err := tx.exec(ctx, `INSERT INTO deliveries (id, tenant_id, external_order_id, status, body, version, created, updated)
VALUES (?, ?, ?, 'BOOKED', X'7b7d', 1, 1, 1)`, ok, tn.ID, ok)
			return err
		})
	}()
	failing := errors.New("refused")
	go func() {
		results <- b.write(ctx, func(ctx context.Context, tx txn) error {
			if _, err := tx.exec(ctx, `INSERT INTO deliveries (id, tenant_id, external_order_id, status, body, version, created, updated)
VALUES ('rolled-back', ?, 'rolled-back', 'BOOKED', X'7b7d', 1, 1, 1)`, tn.ID); err != nil {
				return err
			}
			return failing
		})
	}()
	gaveUp, cancel := context.WithCancel(ctx)
	ranAnyway := make(chan struct{}, 1)
	abandoned := make(chan error, 1)
	go func() {
		abandoned <- b.write(gaveUp, func(ctx context.Context, tx txn) error {
			ranAnyway <- struct{}{}
			return nil
		})
	}()
	// Wait until the three are queued behind the first: then the two
	// share a transaction and the third is abandoned while it waits.
	for len(b.(*sqliteBackend).committer.ops) < 3 {
		runtime.Gosched()
	}
	cancel()
	if err := <-abandoned; !errors.Is(err, context.Canceled) {
		t.Errorf("abandoned write: err = %v, want context.Canceled", err)
	}
	close(hold)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	var errs []error
	for range 2 {
		errs = append(errs, <-results)
	}
	if !(errs[0] == nil && errors.Is(errs[1], failing) || errs[1] == nil && errors.Is(errs[0], failing)) {
		t.Errorf("outcomes = %v, want one nil and one %v", errs, failing)
	}
	select {
	case <-ranAnyway:
		t.Errorf("the abandoned write ran")
	default:
	}
	if _, err := s.Delivery(ctx, tn.ID, ok); err != nil {
		t.Errorf("the successful write of the batch: %v", err)
	}
	if _, err := s.Delivery(ctx, tn.ID, "rolled-back"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the failed write of the batch: err = %v, want it rolled back", err)
	}
}

// TestClosedStoreRefusesWrites: a write after Close is an error, not a hang.
func TestClosedStoreRefusesWrites(t *testing.T) {
	s, err := sqliteHarness.open(t, sqliteHarness.fresh(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTenant(context.Background(), Tenant{ID: "t", Name: "n"}, Client{ID: "c", SecretHash: []byte("h")}); !errors.Is(err, errClosed) {
		t.Errorf("write after close: err = %v, want %v", err, errClosed)
	}
}
