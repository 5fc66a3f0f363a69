package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func newDelivery(t testing.TB, s Store, tenantID string) Delivery {
	t.Helper()
	d := Delivery{ID: newID("delivery"), TenantID: tenantID, ExternalOrderID: newID("order"), Status: "BOOKED", Body: []byte(`{"v":1}`)}
	if err := s.CreateDelivery(context.Background(), d, Change{Kind: "BOOK", Request: []byte(`{"book":1}`)}); err != nil {
		t.Fatalf("create delivery: %v", err)
	}
	d.Version = 1
	return d
}

func TestDeliveries(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		d := newDelivery(t, s, tn.ID)

		got, err := s.Delivery(ctx, tn.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 1 || got.Status != "BOOKED" || got.ExternalOrderID != d.ExternalOrderID || string(got.Body) != `{"v":1}` || got.Created.IsZero() {
			t.Errorf("booked delivery = %+v", got)
		}
		if err := s.CreateDelivery(ctx, d, Change{Kind: "BOOK"}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("delivery again: err = %v, want ErrDuplicate", err)
		}

		next := got
		next.Version, next.Status, next.Body = 2, "DRIVER_ASSIGNED", []byte(`{"v":2}`)
		if err := s.UpdateDelivery(ctx, next, Change{Kind: "STATUS", Request: []byte(`{"status":"DRIVER_ASSIGNED"}`)}); err != nil {
			t.Fatal(err)
		}
		// A second update made on version 1 is refused: it has not seen the first.
		stale := got
		stale.Version, stale.Body = 2, []byte(`{"v":"stale"}`)
		if err := s.UpdateDelivery(ctx, stale, Change{Kind: "UPDATE"}); !errors.Is(err, ErrConflict) {
			t.Errorf("stale update: err = %v, want ErrConflict", err)
		}
		got, _ = s.Delivery(ctx, tn.ID, d.ID)
		if got.Version != 2 || got.Status != "DRIVER_ASSIGNED" || string(got.Body) != `{"v":2}` {
			t.Errorf("after update = %+v, want version 2 DRIVER_ASSIGNED", got)
		}
		hist, err := s.History(ctx, tn.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) != 2 || hist[0].Kind != "BOOK" || hist[0].Version != 1 || hist[1].Kind != "STATUS" || hist[1].Version != 2 ||
			string(hist[1].Request) != `{"status":"DRIVER_ASSIGNED"}` || hist[0].DeliveryID != d.ID || hist[1].At.IsZero() {
			t.Errorf("history = %+v, want BOOK v1 then STATUS v2", hist)
		}
		cancel := got
		cancel.Version, cancel.Status = 3, "CANCELLED"
		if err := s.UpdateDelivery(ctx, cancel, Change{Kind: "CANCEL"}); err != nil {
			t.Fatal(err)
		}
		hist, _ = s.History(ctx, tn.ID, d.ID)
		if len(hist) != 3 || hist[2].Request != nil {
			t.Errorf("cancel in history = %+v, want a third change without request", hist)
		}
		missing := next
		missing.ID = "no-such-delivery"
		if err := s.UpdateDelivery(ctx, missing, Change{Kind: "UPDATE"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("update of an unknown delivery: err = %v, want ErrNotFound", err)
		}
		if _, err := s.History(ctx, tn.ID, "no-such-delivery"); !errors.Is(err, ErrNotFound) {
			t.Errorf("history of an unknown delivery: err = %v, want ErrNotFound", err)
		}
	})
}

// TestConcurrentUpdatesLoseNothing: 32 clients update one delivery, each
// reading it, changing it and writing it back, and reading again on a
// conflict. Every accepted change is in the final version and in the
// history, once.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		d := newDelivery(t, s, tn.ID)
		const clients, each = 32, 5
		var successes, conflicts atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := range clients {
			wg.Go(func() {
				for k := range each {
					for {
						cur, err := s.Delivery(ctx, tn.ID, d.ID)
						if err != nil {
							errs <- err
							return
						}
						cur.Version++
						cur.Body = fmt.Appendf(nil, `{"by":%d,"k":%d}`, c, k)
						err = s.UpdateDelivery(ctx, cur, Change{Kind: "UPDATE", Request: cur.Body})
						if errors.Is(err, ErrConflict) {
							conflicts.Add(1)
							continue
						}
						if err != nil {
							errs <- err
							return
						}
						successes.Add(1)
						break
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got, err := s.Delivery(ctx, tn.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if successes.Load() != clients*each || got.Version != 1+successes.Load() {
			t.Errorf("final version %d after %d successful updates, want %d = 1 + %d", got.Version, successes.Load(), 1+clients*each, clients*each)
		}
		hist, err := s.History(ctx, tn.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i, c := range hist {
			if c.Version != int64(i+1) {
				t.Fatalf("history[%d] is version %d", i, c.Version)
			}
			if i > 0 {
				if seen[string(c.Request)] {
					t.Errorf("change %s twice in history", c.Request)
				}
				seen[string(c.Request)] = true
			}
		}
		if len(seen) != clients*each {
			t.Errorf("history holds %d distinct updates, want %d", len(seen), clients*each)
		}
		t.Logf("%d updates, %d conflicts retried", successes.Load(), conflicts.Load())
	})
}

// TestTenantScoping: another tenant's job or delivery is not found by any
// read or write, and stays as it was.
func TestTenantScoping(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		owner, _ := newTenant(t, s)
		other, _ := newTenant(t, s)
		j := newJob(t, s, owner.ID)
		d := newDelivery(t, s, owner.ID)

		if _, err := s.Job(ctx, other.ID, j.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("Job: err = %v, want ErrNotFound", err)
		}
		if _, err := s.CancelJob(ctx, other.ID, j.ID, "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("CancelJob: err = %v, want ErrNotFound", err)
		}
		if _, err := s.Delivery(ctx, other.ID, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("Delivery: err = %v, want ErrNotFound", err)
		}
		if _, err := s.History(ctx, other.ID, d.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("History: err = %v, want ErrNotFound", err)
		}
		forged := d
		forged.TenantID, forged.Version, forged.Body = other.ID, 2, []byte(`{"forged":true}`)
		if err := s.UpdateDelivery(ctx, forged, Change{Kind: "UPDATE"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdateDelivery: err = %v, want ErrNotFound", err)
		}
		// Creating a record under another tenant's id is a duplicate, and
		// changes nothing.
		steal := d
		steal.TenantID = other.ID
		if err := s.CreateDelivery(ctx, steal, Change{Kind: "BOOK"}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("CreateDelivery with another tenant's id: err = %v, want ErrDuplicate", err)
		}
		if got, _ := s.Job(ctx, owner.ID, j.ID); got.Status != JobQueued {
			t.Errorf("owner's job after the other tenant's cancel = %s, want QUEUED", got.Status)
		}
		if got, _ := s.Delivery(ctx, owner.ID, d.ID); got.Version != 1 || string(got.Body) != `{"v":1}` || got.TenantID != owner.ID {
			t.Errorf("owner's delivery after the other tenant's writes = %+v, want it unchanged", got)
		}
	})
}

// TestOneBookingPerOrder: a tenant's order has one delivery that is not
// cancelled. Booking it again, or giving another delivery its order id,
// is ErrDuplicate and changes nothing; DeliveryByOrder finds the booking;
// once it is cancelled the order may be booked again; another tenant's
// order of the same id is its own.
func TestOneBookingPerOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		other, _ := newTenant(t, s)
		first := newDelivery(t, s, tn.ID)
		again := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: first.ExternalOrderID, Status: "BOOKED", Body: []byte(`{"v":"again"}`)}
		if err := s.CreateDelivery(ctx, again, Change{Kind: "BOOK"}); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("the order booked again: err = %v, want ErrDuplicate", err)
		}
		if _, err := s.Delivery(ctx, tn.ID, again.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the refused booking was stored: %v", err)
		}
		got, err := s.DeliveryByOrder(ctx, tn.ID, first.ExternalOrderID)
		if err != nil || got.ID != first.ID {
			t.Errorf("DeliveryByOrder = %s, %v; want %s", got.ID, err, first.ID)
		}
		if _, err := s.DeliveryByOrder(ctx, tn.ID, "no-such-order"); !errors.Is(err, ErrNotFound) {
			t.Errorf("DeliveryByOrder of an unknown order: err = %v, want ErrNotFound", err)
		}
		theirs := Delivery{ID: newID("delivery"), TenantID: other.ID, ExternalOrderID: first.ExternalOrderID, Status: "BOOKED", Body: []byte(`{"v":1}`)}
		if err := s.CreateDelivery(ctx, theirs, Change{Kind: "BOOK"}); err != nil {
			t.Errorf("another tenant's order of the same id: %v", err)
		}

		// An update may not give a second delivery the order's id.
		second := newDelivery(t, s, tn.ID)
		moved := second
		moved.Version, moved.ExternalOrderID = 2, first.ExternalOrderID
		if err := s.UpdateDelivery(ctx, moved, Change{Kind: "UPDATE"}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("an update to a booked order id: err = %v, want ErrDuplicate", err)
		}
		if cur, _ := s.Delivery(ctx, tn.ID, second.ID); cur.Version != 1 || cur.ExternalOrderID != second.ExternalOrderID {
			t.Errorf("the refused update changed the delivery: %+v", cur)
		}

		// Cancelled, the order may be booked again.
		cancelled := first
		cancelled.Version, cancelled.Status = 2, "CANCELLED"
		if err := s.UpdateDelivery(ctx, cancelled, Change{Kind: "CANCEL"}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateDelivery(ctx, again, Change{Kind: "BOOK"}); err != nil {
			t.Fatalf("the order booked again after its cancel: %v", err)
		}
		if got, err := s.DeliveryByOrder(ctx, tn.ID, first.ExternalOrderID); err != nil || got.ID != again.ID {
			t.Errorf("DeliveryByOrder after the rebooking = %s, %v; want %s", got.ID, err, again.ID)
		}
	})
}
