package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestAllow(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		const limit, window = 3, time.Minute
		allow := func(key string, at time.Time) (bool, time.Duration) {
			t.Helper()
			ok, retry, err := s.Allow(ctx, key, limit, window, at)
			if err != nil {
				t.Fatal(err)
			}
			return ok, retry
		}
		for i := range limit {
			if ok, _ := allow("tenant-a/routes", t0); !ok {
				t.Fatalf("request %d of %d refused", i+1, limit)
			}
		}
		ok, retry := allow("tenant-a/routes", t0)
		if ok || retry <= 0 || retry > window {
			t.Fatalf("request over the limit: ok %v, retry after %v; want refused, 0 < retry <= %v", ok, retry, window)
		}
		if ok, _ := allow("tenant-a/routes", t0.Add(retry-time.Millisecond)); ok {
			t.Errorf("allowed before the retry time")
		}
		if ok, _ := allow("tenant-a/routes", t0.Add(retry)); !ok {
			t.Errorf("refused at the retry time %v", retry)
		}
		// Another key has its own limit.
		if ok, _ := allow("tenant-b/routes", t0); !ok {
			t.Errorf("another key refused")
		}
		// After a whole window without requests, the full limit again.
		later := t0.Add(3 * window)
		for i := range limit {
			if ok, _ := allow("tenant-a/routes", later); !ok {
				t.Fatalf("after the window: request %d refused", i+1)
			}
		}
		if ok, _ := allow("tenant-a/routes", later); ok {
			t.Errorf("after the window: request %d allowed", limit+1)
		}
	})
}

// TestAllowConcurrent: many callers at one instant; exactly limit pass.
func TestAllowConcurrent(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		now := time.Now()
		var allowed atomic.Int64
		var wg sync.WaitGroup
		for range 40 {
			wg.Go(func() {
				ok, _, err := s.Allow(context.Background(), "shared", 10, time.Minute, now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					allowed.Add(1)
				}
			})
		}
		wg.Wait()
		if allowed.Load() != 10 {
			t.Errorf("%d of 40 simultaneous requests allowed, want 10", allowed.Load())
		}
	})
}
