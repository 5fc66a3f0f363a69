// Command loadtest drives a running haulplan service over HTTP and reports
// requests per second and latency percentiles for two operations: GET job
// details and delivery updates. It is bounded in requests and in time, and
// it checks the service's answers: every update must be answered 200, and
// afterwards each delivery's version (its ETag) must equal one plus the
// updates accepted for it, so no update was lost or applied twice.
//
//	go run ./examples/service/loadtest -url http://127.0.0.1:8080 \
//	    -consumer C -client-id ID -client-secret S -op job -clients 32 -duration 10s
//
// One line of results goes to stdout as JSON; bench/scripts/service.sh runs
// it against the service on SQLite and on PostgreSQL and writes the table in
// BENCHMARKS.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type config struct {
	url, consumer, clientID, secret string
	op                              string
	clients                         int
	duration                        time.Duration
	maxRequests                     int
	deliveries                      int
	request                         string
	stores                          int
}

// Result is the JSON line the command prints.
type Result struct {
	Op            string  `json:"op"`
	Clients       int     `json:"clients"`
	Requests      int     `json:"requests"`
	Errors        int     `json:"errors"`
	Seconds       float64 `json:"seconds"`
	PerSecond     float64 `json:"perSecond"`
	P50ms         float64 `json:"p50ms"`
	P99ms         float64 `json:"p99ms"`
	MaxMs         float64 `json:"maxMs"`
	ResponseBytes int     `json:"responseBytes,omitempty"`
	// Lost and Duplicated count delivery updates accepted but missing from
	// a delivery's version, and versions beyond the accepted updates.
	Lost       int    `json:"lost"`
	Duplicated int    `json:"duplicated"`
	FirstError string `json:"firstError,omitempty"`
}

func main() {
	var c config
	flag.StringVar(&c.url, "url", "http://127.0.0.1:8080", "base URL of the service")
	flag.StringVar(&c.consumer, "consumer", "", "tenant consumer id (SVC_CONSUMER.ID)")
	flag.StringVar(&c.clientID, "client-id", "", "OAuth client id")
	flag.StringVar(&c.secret, "client-secret", "", "OAuth client secret")
	flag.StringVar(&c.op, "op", "job", "operation to load: job (GET job details) or update (PUT delivery update)")
	flag.IntVar(&c.clients, "clients", 32, "concurrent clients, each with its own connection")
	flag.DurationVar(&c.duration, "duration", 10*time.Second, "how long to send requests")
	flag.IntVar(&c.maxRequests, "requests", 200000, "stop after this many requests")
	flag.IntVar(&c.deliveries, "deliveries", 64, "deliveries booked for -op update; clients update them at random")
	flag.StringVar(&c.request, "request", "examples/quickstart/sample.json", "engine request whose job -op job reads")
	flag.IntVar(&c.stores, "stores", 8, "for -op job, keep only this many stores of the request (0: all)")
	flag.Parse()
	if c.consumer == "" || c.clientID == "" || c.secret == "" {
		fmt.Fprintln(os.Stderr, "loadtest: -consumer, -client-id and -client-secret are required")
		os.Exit(2)
	}
	res, err := run(context.Background(), c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	json.NewEncoder(os.Stdout).Encode(res)
	if res.Errors > 0 || res.Lost > 0 || res.Duplicated > 0 {
		os.Exit(1)
	}
}

type client struct {
	c     config
	http  *http.Client
	token string
}

func (cl *client) do(method, path, contentType string, body []byte) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, cl.c.url+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("SVC_CONSUMER.ID", cl.c.consumer)
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := cl.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b, err
}

func run(ctx context.Context, c config) (Result, error) {
	tr := &http.Transport{MaxIdleConns: c.clients * 2, MaxIdleConnsPerHost: c.clients * 2, IdleConnTimeout: time.Minute}
	cl := &client{c: c, http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	form := "grant_type=client_credentials"
	req, _ := http.NewRequest("POST", c.url+"/oauth/v1/token", strings.NewReader(form))
	req.SetBasicAuth(c.clientID, c.secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("SVC_CONSUMER.ID", c.consumer)
	resp, err := cl.http.Do(req)
	if err != nil {
		return Result{}, err
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || json.Unmarshal(b, &tok) != nil || tok.AccessToken == "" {
		return Result{}, fmt.Errorf("token: %d %s", resp.StatusCode, b)
	}
	cl.token = tok.AccessToken

	switch c.op {
	case "job":
		return loadJob(ctx, cl)
	case "update":
		return loadUpdate(ctx, cl)
	}
	return Result{}, fmt.Errorf("unknown -op %q (job or update)", c.op)
}

// smallRequest reads the engine request and keeps its first n stores and
// their pallets, with a one-second search.
func smallRequest(path string, n int) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var req map[string]any
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, err
	}
	if n > 0 {
		stores, _ := req["stores"].([]any)
		if len(stores) > n {
			stores = stores[:n]
		}
		keep := map[any]bool{}
		for _, s := range stores {
			keep[s.(map[string]any)["id"]] = true
		}
		var pallets []any
		for _, p := range req["pallets"].([]any) {
			if keep[p.(map[string]any)["store"]] {
				pallets = append(pallets, p)
			}
		}
		req["stores"], req["pallets"] = stores, pallets
	}
	req["options"] = map[string]any{"timeLimit": "1s", "seed": 1}
	return json.Marshal(req)
}

func loadJob(ctx context.Context, cl *client) (Result, error) {
	body, err := smallRequest(cl.c.request, cl.c.stores)
	if err != nil {
		return Result{}, err
	}
	st, _, b, err := cl.do("POST", "/v1/routes", "application/json", body)
	if err != nil || st != 200 && st != 201 && st != 202 {
		return Result{}, fmt.Errorf("POST /v1/routes: %d %s %v", st, b, err)
	}
	var job struct {
		JobID  string `json:"jobId"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(b, &job); err != nil {
		return Result{}, err
	}
	deadline := time.Now().Add(2 * time.Minute)
	var size int
	for {
		st, _, b, err := cl.do("GET", "/v1/job/"+job.JobID, "", nil)
		if err != nil || st != 200 {
			return Result{}, fmt.Errorf("GET job: %d %s %v", st, b, err)
		}
		json.Unmarshal(b, &job)
		if job.Status == "COMPLETED" {
			size = len(b)
			break
		}
		if job.Status == "FAILED" || job.Status == "CANCELLED" || time.Now().After(deadline) {
			return Result{}, fmt.Errorf("job %s ended %s", job.JobID, job.Status)
		}
		time.Sleep(200 * time.Millisecond)
	}
	res := hammer(cl, func(int, int) error {
		st, _, b, err := cl.do("GET", "/v1/job/"+job.JobID, "", nil)
		if err != nil {
			return err
		}
		if st != 200 {
			return fmt.Errorf("GET job: %d %s", st, b)
		}
		return nil
	})
	res.Op, res.ResponseBytes = "GET /v1/job/{jobId}", size
	return res, nil
}

const booking = `{"deliveries":{
 "clientId":"loadtest","externalOrderId":"ORD-%s-%d","deliveryMethod":"SCHEDULED_DELIVERY",
 "orderPickupReadyTime":"2026-11-22T09:30:00.000Z",
 "requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z",
 "requestedMaxDeliverySlotTime":"2026-11-22T12:00:00.000Z",
 "customer":{"firstName":"Ada","lastName":"Lovelace","phone":{"countryCode":"+1","number":"5551234567"}},
 "pickupDetails":{"pickupPointId":"STORE-42"},
 "deliveryDetails":{
  "address":{"line1":"1 Main St","city":"Bentonville","state":"AR","zipCode":"72712","countryCode":"US"},
  "latLong":{"type":"CUSTOMER_PINDROP","lat":36.3729,"lng":-94.2088},
  "propertyDetails":{"propertyType":"HOUSE","locationPreference":"FRONT_DOOR"}},
 "orderManifest":{"itemDetails":[{"itemId":"ITEM-1","quantity":2}]}
}}`

// version reads a delivery's version from its ETag ("v12" or W/"12").
func version(h http.Header) (int, error) {
	e := strings.Trim(strings.TrimPrefix(h.Get("ETag"), "W/"), `"`)
	e = strings.TrimPrefix(e, "v")
	return strconv.Atoi(e)
}

func loadUpdate(ctx context.Context, cl *client) (Result, error) {
	ids := make([]string, cl.c.deliveries)
	// A tenant books an order once: each run books orders of its own.
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	for i := range ids {
		st, _, b, err := cl.do("POST", "/deliveries", "application/json", fmt.Appendf(nil, booking, run, i))
		if err != nil || st != 200 && st != 201 {
			return Result{}, fmt.Errorf("POST /deliveries: %d %s %v", st, b, err)
		}
		var r struct {
			Deliveries struct {
				DeliveryID string `json:"deliveryId"`
			} `json:"deliveries"`
		}
		if err := json.Unmarshal(b, &r); err != nil || r.Deliveries.DeliveryID == "" {
			return Result{}, fmt.Errorf("POST /deliveries: %s", b)
		}
		ids[i] = r.Deliveries.DeliveryID
	}
	accepted := make([]atomic.Int64, len(ids))
	res := hammer(cl, func(w, n int) error {
		k := (w*7919 + n*31) % len(ids)
		body := fmt.Appendf(nil, `{"deliveries":{"customer":{"email":"c%d.n%d@example.com"}}}`, w, n)
		st, _, b, err := cl.do("PUT", "/deliveries/"+ids[k]+"/update", "application/json", body)
		if err != nil {
			return err
		}
		if st != 200 {
			return fmt.Errorf("PUT update: %d %s", st, b)
		}
		accepted[k].Add(1)
		return nil
	})
	res.Op = "PUT /deliveries/{deliveryId}/update"
	for i, id := range ids {
		st, h, b, err := cl.do("GET", "/deliveries/"+id, "", nil)
		if err != nil || st != 200 {
			return res, fmt.Errorf("GET delivery: %d %s %v", st, b, err)
		}
		v, err := version(h)
		if err != nil {
			return res, fmt.Errorf("GET delivery %s: no version in ETag %q", id, h.Get("ETag"))
		}
		want := 1 + int(accepted[i].Load())
		if v < want {
			res.Lost += want - v
		} else if v > want {
			res.Duplicated += v - want
		}
	}
	return res, nil
}

// hammer runs op from every client until the duration or the request
// budget runs out and measures each call.
func hammer(cl *client, op func(worker, n int) error) Result {
	c := cl.c
	var (
		next     atomic.Int64
		errs     atomic.Int64
		firstErr atomic.Value
		mu       sync.Mutex
		lat      []time.Duration
		wg       sync.WaitGroup
	)
	start := time.Now()
	stop := start.Add(c.duration)
	for w := range c.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, 4096)
			for n := 0; ; n++ {
				if next.Add(1) > int64(c.maxRequests) || time.Now().After(stop) {
					break
				}
				t0 := time.Now()
				err := op(w, n)
				mine = append(mine, time.Since(t0))
				if err != nil {
					if errs.Add(1) == 1 {
						firstErr.Store(err.Error())
					}
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		i := int(p * float64(len(lat)-1))
		return float64(lat[i].Microseconds()) / 1000
	}
	r := Result{
		Clients:   c.clients,
		Requests:  len(lat),
		Errors:    int(errs.Load()),
		Seconds:   elapsed.Seconds(),
		PerSecond: float64(len(lat)) / elapsed.Seconds(),
		P50ms:     pct(0.50),
		P99ms:     pct(0.99),
		MaxMs:     pct(1),
	}
	if s, ok := firstErr.Load().(string); ok {
		r.FirstError = s
	}
	return r
}
