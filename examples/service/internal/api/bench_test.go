package api

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks drive the handler through real HTTP on loopback
// (httptest), with as many client goroutines as b.RunParallel makes, the
// rate limit raised, and report requests per second and the p50 and p99
// latency seen by the clients. The load generator runs on the same cores.

// BenchmarkGetJobDetails: GET /v1/job/{jobId} of a completed job.
func BenchmarkGetJobDetails(b *testing.B) {
	e := newEnv(b, envOptions{discardLogs: true})
	a := e.newTenant("Acme")
	id := e.submit(a)
	e.complete(id)
	loadTest(b, e, func(int64) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/v1/job/"+id, nil)
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+a.token)
			req.Header.Set(ConsumerHeader, a.consumer)
		}
		return req, err
	})
}

// BenchmarkUpdateDelivery: PUT /deliveries/{deliveryId}/update, each
// request a real change (a new e-mail address) of one of 64 deliveries.
func BenchmarkUpdateDelivery(b *testing.B) {
	e := newEnv(b, envOptions{discardLogs: true})
	a := e.newTenant("Acme")
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = e.bookOrder(a, fmt.Sprintf("ORD-%d", i))
	}
	loadTest(b, e, func(n int64) (*http.Request, error) {
		body := fmt.Sprintf(`{"deliveries":{"customer":{"email":"u%d@example.com"}}}`, n)
		req, err := http.NewRequest(http.MethodPut, e.srv.URL+"/deliveries/"+ids[n%int64(len(ids))]+"/update", strings.NewReader(body))
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+a.token)
			req.Header.Set(ConsumerHeader, a.consumer)
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	})
}

// clientsPerCPU × GOMAXPROCS clients send at once: 8 on this 2-core
// machine, enough to keep both cores busy without measuring a queue.
const clientsPerCPU = 4

// loadTest sends b.N requests made by next from parallel clients over
// kept-alive connections; every answer must be 200.
func loadTest(b *testing.B, e *testEnv, next func(n int64) (*http.Request, error)) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute}}
	defer client.CloseIdleConnections()
	var (
		counter atomic.Int64
		mu      sync.Mutex
		all     []time.Duration
		failed  atomic.Value
	)
	b.SetParallelism(clientsPerCPU)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		lat := make([]time.Duration, 0, 1024)
		for pb.Next() {
			req, err := next(counter.Add(1))
			if err != nil {
				failed.Store(err.Error())
				return
			}
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				failed.Store(err.Error())
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lat = append(lat, time.Since(t0))
			if resp.StatusCode != http.StatusOK {
				failed.Store(fmt.Sprintf("status %d", resp.StatusCode))
				return
			}
		}
		mu.Lock()
		all = append(all, lat...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	slices.Sort(all)
	if len(all) == 0 {
		return
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[min(len(all)-1, len(all)*99/100)].Microseconds())/1000, "p99-ms")
}

// BenchmarkHandlerGetJobDetails: the handler alone (no network, no client),
// what one GET of job details costs the service: token check from the
// cache, rate limit, the store's read, the answer and the log line.
func BenchmarkHandlerGetJobDetails(b *testing.B) {
	e := newEnv(b, envOptions{discardLogs: true})
	a := e.newTenant("Acme")
	id := e.submit(a)
	e.complete(id)
	h := e.srv.Config.Handler
	req := httptest.NewRequest(http.MethodGet, "/v1/job/"+id, nil)
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set(ConsumerHeader, a.consumer)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
