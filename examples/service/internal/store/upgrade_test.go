package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestUpgradeKeepsRepeatedBookings: a database of the first schema, whose
// tenant booked one order three times (and once more, cancelled), opens
// with every later step: the bookings are all kept, the oldest is the
// order's booking, a new repeat is refused, the repeats still take
// changes, and the tenant's count of bytes starts at what its rows hold.
func TestUpgradeKeepsRepeatedBookings(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			ctx := context.Background()
			where := h.fresh(t)
			all := migrations
			migrations = migrations[:1]
			s, err := h.open(t, where)
			migrations = all
			if err != nil {
				t.Fatal(err)
			}
			tn, _ := newTenant(t, s)
			newJob(t, s, tn.ID)
			t0 := time.Now().Add(-time.Hour)
			var ids []string
			for i, status := range []string{"CANCELLED", "BOOKED", "BOOKED", "BOOKED"} {
				d := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: "ORD-1", Status: status,
					Body: []byte(`{"v":1}`), Created: t0.Add(time.Duration(i) * time.Minute)}
				if err := s.CreateDelivery(ctx, d, Change{Kind: "BOOK", Request: []byte(`{"book":1}`)}); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, d.ID)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			s = h.mustOpen(t, where)
			got, err := s.DeliveryByOrder(ctx, tn.ID, "ORD-1")
			if err != nil || got.ID != ids[1] {
				t.Errorf("the order's booking = %s, %v; want the oldest not cancelled, %s", got.ID, err, ids[1])
			}
			again := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: "ORD-1", Status: "BOOKED", Body: []byte(`{"v":1}`)}
			if err := s.CreateDelivery(ctx, again, Change{Kind: "BOOK"}); !errors.Is(err, ErrDuplicate) {
				t.Errorf("a new repeat after the upgrade: err = %v, want ErrDuplicate", err)
			}
			for _, id := range ids {
				d, err := s.Delivery(ctx, tn.ID, id)
				if err != nil {
					t.Fatalf("booking %s after the upgrade: %v", id, err)
				}
				if d.Status == "CANCELLED" {
					continue
				}
				d.Version, d.Body = 2, []byte(`{"v":2}`)
				if err := s.UpdateDelivery(ctx, d, Change{Kind: "UPDATE", Request: []byte(`{"u":2}`)}); err != nil {
					t.Errorf("an update of booking %s after the upgrade: %v", id, err)
				}
			}
			used, err := s.StorageUsed(ctx, tn.ID)
			if oracle := storedBytes(t, h, s, tn.ID); err != nil || used != oracle || used == 0 {
				t.Errorf("StorageUsed after the upgrade = %d, %v; the rows hold %d", used, err, oracle)
			}
		})
	}
}

// TestUpgradeJobsPlannedFromScratch: jobs of the schema before re-plans
// open as planned from scratch, with no re-plans, and take re-plans
// after the upgrade.
func TestUpgradeJobsPlannedFromScratch(t *testing.T) {
	for _, h := range harnesses {
		t.Run(h.name, func(t *testing.T) {
			ctx := context.Background()
			where := h.fresh(t)
			all := migrations
			migrations = migrations[:6]
			s, err := h.open(t, where)
			migrations = all
			if err != nil {
				t.Fatal(err)
			}
			tn, _ := newTenant(t, s)
			old := newJob(t, s, tn.ID)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			s = h.mustOpen(t, where)
			got, err := s.Job(ctx, tn.ID, old.ID)
			if err != nil || got.ReplanOf != "" || got.Replans != nil {
				t.Fatalf("a job from before re-plans: replanOf %q, replans %v (%v)", got.ReplanOf, got.Replans, err)
			}
			j := Job{ID: newID("job"), TenantID: tn.ID, Request: []byte(`{}`), ReplanOf: old.ID}
			if err := s.CreateJob(ctx, j, 0); err != nil {
				t.Fatal(err)
			}
			if got, err := s.JobOverview(ctx, tn.ID, old.ID); err != nil || len(got.Replans) != 1 || got.Replans[0] != j.ID {
				t.Fatalf("its re-plans after the upgrade: %v (%v), want [%s]", got.Replans, err, j.ID)
			}
		})
	}
}
