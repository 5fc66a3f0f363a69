package store

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestIdempotencyKeys: the first request with a key is fresh; a repeat
// finds it under way, then, once answered, its answer; another tenant's
// key of the same text is its own; an abandoned key is free again; a
// request under way since before staleBefore is taken over, and its own
// end then finds nothing to end.
func TestIdempotencyKeys(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, _ := newTenant(t, s)
		other, _ := newTenant(t, s)
		t0 := time.Now().Truncate(time.Microsecond)
		first := IdempotentRequest{TenantID: tn.ID, Key: "k-1", Operation: "bookDelivery", Fingerprint: []byte("body 1"), Created: t0, Expires: t0.Add(time.Hour)}
		got, fresh, err := s.BeginIdempotent(ctx, first, t0.Add(-time.Minute))
		if err != nil || !fresh {
			t.Fatalf("first request: fresh %v, %v", fresh, err)
		}
		repeat := first
		repeat.Fingerprint, repeat.Created = []byte("body 2"), t0.Add(time.Second)
		got, fresh, err = s.BeginIdempotent(ctx, repeat, t0.Add(-time.Minute))
		if err != nil || fresh || got.Status != 0 || string(got.Fingerprint) != "body 1" || !got.Created.Equal(t0) {
			t.Fatalf("a repeat while under way = %+v, fresh %v, %v; want the first, under way", got, fresh, err)
		}
		answered := first
		answered.Status, answered.Location, answered.Response = 201, "/deliveries/d-1", []byte(`{"deliveries":{}}`)
		if err := s.FinishIdempotent(ctx, answered); err != nil {
			t.Fatal(err)
		}
		got, fresh, err = s.BeginIdempotent(ctx, repeat, t0.Add(time.Hour)) // answered: never stale
		if err != nil || fresh || got.Status != 201 || got.Location != "/deliveries/d-1" || string(got.Response) != `{"deliveries":{}}` ||
			got.Operation != "bookDelivery" || !got.Expires.Equal(first.Expires) {
			t.Fatalf("a repeat once answered = %+v, fresh %v, %v; want the answer", got, fresh, err)
		}
		theirs := first
		theirs.TenantID = other.ID
		if _, fresh, err := s.BeginIdempotent(ctx, theirs, t0); err != nil || !fresh {
			t.Errorf("another tenant's key of the same text: fresh %v, %v", fresh, err)
		}

		abandoned := IdempotentRequest{TenantID: tn.ID, Key: "k-2", Operation: "createRoutes", Fingerprint: []byte("f"), Created: t0}
		if _, fresh, err := s.BeginIdempotent(ctx, abandoned, t0); err != nil || !fresh {
			t.Fatal(fresh, err)
		}
		if err := s.AbandonIdempotent(ctx, abandoned); err != nil {
			t.Fatal(err)
		}
		if _, fresh, err := s.BeginIdempotent(ctx, abandoned, t0); err != nil || !fresh {
			t.Errorf("an abandoned key sent again: fresh %v, %v; want fresh", fresh, err)
		}

		// The request under way since t0 is stale for one that counts from
		// after t0: taken over.
		takeover := abandoned
		takeover.Created, takeover.Fingerprint = t0.Add(10*time.Minute), []byte("g")
		if _, fresh, err := s.BeginIdempotent(ctx, takeover, t0.Add(time.Microsecond)); err != nil || !fresh {
			t.Fatalf("a stale request's key: fresh %v, %v; want taken over", fresh, err)
		}
		late := abandoned
		late.Status = 202
		if err := s.FinishIdempotent(ctx, late); !errors.Is(err, ErrNotFound) {
			t.Errorf("the stale request's own answer: err = %v, want ErrNotFound", err)
		}
		takeover.Status = 202
		if err := s.FinishIdempotent(ctx, takeover); err != nil {
			t.Errorf("the answer of the request that took over: %v", err)
		}
	})
}

// TestIdempotencyKeyOnceAtOnce: of 16 requests with one key at once,
// exactly one is fresh.
func TestIdempotencyKeyOnceAtOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		tn, _ := newTenant(t, s)
		var fresh atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				req := IdempotentRequest{TenantID: tn.ID, Key: "same", Operation: "op", Fingerprint: []byte("f"), Created: time.Now()}
				_, f, err := s.BeginIdempotent(context.Background(), req, req.Created.Add(-time.Minute))
				if err != nil {
					t.Error(err)
				}
				if f {
					fresh.Add(1)
				}
			})
		}
		wg.Wait()
		if fresh.Load() != 1 {
			t.Errorf("%d of 16 requests with one key were fresh, want 1", fresh.Load())
		}
	})
}
