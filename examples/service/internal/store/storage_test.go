package store

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// storedBytes counts a tenant's bytes the slow way, by reading every row:
// the oracle of StorageUsed.
func storedBytes(t testing.TB, h harness, s Store, tenantID string) int64 {
	t.Helper()
	octets := "length"
	if h.name == "postgres" {
		octets = "octet_length"
	}
	var n int64
	err := s.(*dbStore).b.reader().queryRow(context.Background(), fmt.Sprintf(`SELECT
	(SELECT COALESCE(SUM(%[1]s(request) + COALESCE(%[1]s(plan), 0)), 0) FROM jobs WHERE tenant_id = ?) +
	(SELECT COALESCE(SUM(%[1]s(body)), 0) FROM deliveries WHERE tenant_id = ?) +
	(SELECT COALESCE(SUM(%[1]s(c.request)), 0) FROM delivery_changes c JOIN deliveries d ON d.id = c.delivery_id WHERE d.tenant_id = ?)`, octets),
		tenantID, tenantID, tenantID).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStorageUsed: every write of a job's request or plan, a delivery's
// body or a change's request moves the tenant's count by its bytes, and
// only that tenant's; the count always equals what the rows hold.
func TestStorageUsed(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		other, _ := newTenant(t, s)
		expect := func(what string, want int64) {
			t.Helper()
			got, err := s.StorageUsed(ctx, tn.ID)
			if err != nil {
				t.Fatal(err)
			}
			if oracle := storedBytes(t, h, s, tn.ID); got != want || got != oracle {
				t.Fatalf("%s: StorageUsed = %d, want %d (the rows hold %d)", what, got, want, oracle)
			}
		}
		expect("a new tenant", 0)

		req := bytes.Repeat([]byte("r"), 1000)
		j := Job{ID: newID("job"), TenantID: tn.ID, Request: req}
		if err := s.CreateJob(ctx, j, 0); err != nil {
			t.Fatal(err)
		}
		expect("a job's request", 1000)
		if _, err := s.ClaimJob(ctx, j.ID, "proc", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveProgress(ctx, j.ID, "proc", Progress{Phase: "search"}, bytes.Repeat([]byte("p"), 300)); err != nil {
			t.Fatal(err)
		}
		expect("the best plan so far", 1300)
		if err := s.SaveProgress(ctx, j.ID, "proc", Progress{Phase: "search", Round: 2}, nil); err != nil {
			t.Fatal(err)
		}
		expect("progress without a plan", 1300)
		if err := s.FinishJob(ctx, j.ID, "proc", JobCompleted, bytes.Repeat([]byte("p"), 500), ""); err != nil {
			t.Fatal(err)
		}
		expect("the final plan", 1500)

		d := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: "o-1", Status: "BOOKED", Body: bytes.Repeat([]byte("b"), 200)}
		if err := s.CreateDelivery(ctx, d, Change{Kind: "BOOK", Request: bytes.Repeat([]byte("q"), 150)}); err != nil {
			t.Fatal(err)
		}
		expect("a booking", 1500+200+150)
		d.Version, d.Body = 2, bytes.Repeat([]byte("b"), 120)
		if err := s.UpdateDelivery(ctx, d, Change{Kind: "UPDATE", Request: bytes.Repeat([]byte("q"), 40)}); err != nil {
			t.Fatal(err)
		}
		expect("an update", 1500+120+150+40)
		d.Version, d.Status = 3, "CANCELLED"
		if err := s.UpdateDelivery(ctx, d, Change{Kind: "CANCEL"}); err != nil {
			t.Fatal(err)
		}
		expect("a cancel without a body", 1500+120+150+40)
		if n, _ := s.StorageUsed(ctx, other.ID); n != 0 {
			t.Errorf("the other tenant's count moved to %d", n)
		}
	})
}

// TestStorageUsedUnderConcurrentWrites: 16 clients book and update the
// deliveries of one tenant at once; the count equals what the rows hold
// (PostgreSQL counts in shards, one per connection).
func TestStorageUsedUnderConcurrentWrites(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for c := range 16 {
			wg.Go(func() {
				for k := range 8 {
					d := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: fmt.Sprintf("o-%d-%d", c, k), Status: "BOOKED",
						Body: bytes.Repeat([]byte("b"), 1+10*c+k)}
					if err := s.CreateDelivery(ctx, d, Change{Kind: "BOOK", Request: bytes.Repeat([]byte("q"), k)}); err != nil {
						errs <- err
						return
					}
					d.Version, d.Body = 2, bytes.Repeat([]byte("u"), c+1)
					if err := s.UpdateDelivery(ctx, d, Change{Kind: "UPDATE", Request: bytes.Repeat([]byte("q"), c+k)}); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got, err := s.StorageUsed(ctx, tn.ID)
		if err != nil {
			t.Fatal(err)
		}
		if oracle := storedBytes(t, h, s, tn.ID); got != oracle || got == 0 {
			t.Errorf("StorageUsed = %d, the rows hold %d", got, oracle)
		}
	})
}
