package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks run the two calls the service's throughput targets are
// about, from many goroutines at once (b.SetParallelism: 16 per
// GOMAXPROCS, so 32 callers with -cpu 2), and report the latency
// percentiles of the calls beside ns/op:
//
//	go test ./examples/service/internal/store -run '^$' -bench . -cpu 2 -benchtime 5s
//
// (with HAULPLAN_TEST_POSTGRES set for the PostgreSQL figures).

const benchParallelism = 16

// latencies collects call durations from many goroutines.
type latencies struct {
	mu  sync.Mutex
	all []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.all = append(l.all, d...)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	if len(l.all) == 0 {
		return
	}
	slices.Sort(l.all)
	q := func(p float64) float64 {
		return float64(l.all[min(len(l.all)-1, int(p*float64(len(l.all))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// BenchmarkJob reads a running job with its best plan so far (8 KiB of
// plan and 4 KiB of request), as GET /v1/job/{jobId} does.
func BenchmarkJob(b *testing.B) {
	for _, h := range harnesses {
		b.Run(h.name, func(b *testing.B) {
			s, _ := h.openFresh(b)
			ctx := context.Background()
			tn, _ := newTenant(b, s)
			ids := make([]string, 64)
			for i := range ids {
				j := Job{ID: newID("job"), TenantID: tn.ID, Request: make([]byte, 4<<10)}
				if err := s.CreateJob(ctx, j, 0); err != nil {
					b.Fatal(err)
				}
				if _, err := s.ClaimJob(ctx, j.ID, "bench", time.Now().Add(time.Hour)); err != nil {
					b.Fatal(err)
				}
				if err := s.SaveProgress(ctx, j.ID, "bench", Progress{Phase: "search"}, make([]byte, 8<<10)); err != nil {
					b.Fatal(err)
				}
				ids[i] = j.ID
			}
			var lat latencies
			var next atomic.Int64
			b.SetParallelism(benchParallelism)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				k := int(next.Add(1))
				var mine []time.Duration
				for pb.Next() {
					start := time.Now()
					if _, err := s.Job(ctx, tn.ID, ids[k%len(ids)]); err != nil {
						b.Error(err)
						return
					}
					mine = append(mine, time.Since(start))
					k++
				}
				lat.add(mine)
			})
			b.StopTimer()
			lat.report(b)
		})
	}
}

// BenchmarkUpdateDelivery updates deliveries as PUT
// /deliveries/{id}/update does once the rules accepted the change: each
// caller writes the next version of a delivery of its own (2 KiB body),
// durably, with its change in the history. In "while-reading", 8 more
// goroutines read a job all the while (about 4,000 reads/s), so that the
// SQLite log is never idle and must be restarted by the writer (see
// checkpointer); a run of 10 s or more (-benchtime 10s) crosses its 64 MiB
// limit several times.
func BenchmarkUpdateDelivery(b *testing.B) {
	for _, h := range harnesses {
		for _, reading := range []bool{false, true} {
			name := h.name
			if reading {
				name += "/while-reading"
			}
			b.Run(name, func(b *testing.B) { benchmarkUpdateDelivery(b, h, reading) })
		}
	}
}

func benchmarkUpdateDelivery(b *testing.B, h harness, reading bool) {
	s, _ := h.openFresh(b)
	ctx := context.Background()
	tn, _ := newTenant(b, s)
	done := make(chan struct{})
	var readers sync.WaitGroup
	if reading {
		j := newJob(b, s, tn.ID)
		for range 8 {
			readers.Go(func() {
				for {
					select {
					case <-done:
						return
					case <-time.After(2 * time.Millisecond):
					}
					if _, err := s.Job(ctx, tn.ID, j.ID); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
	}
	var lat latencies
	body := make([]byte, 2<<10)
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		d := Delivery{ID: newID("delivery"), TenantID: tn.ID, ExternalOrderID: newID("order"), Status: "BOOKED", Body: body}
		if err := s.CreateDelivery(ctx, d, Change{Kind: "BOOK", Request: body}); err != nil {
			b.Error(err)
			return
		}
		d.Version = 1
		var mine []time.Duration
		for pb.Next() {
			d.Version++
			start := time.Now()
			if err := s.UpdateDelivery(ctx, d, Change{Kind: "UPDATE", Request: body}); err != nil {
				b.Error(fmt.Errorf("version %d: %w", d.Version, err))
				return
			}
			mine = append(mine, time.Since(start))
		}
		lat.add(mine)
	})
	b.StopTimer()
	close(done)
	readers.Wait()
	lat.report(b)
}
