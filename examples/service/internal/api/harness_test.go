package api

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// The OpenAPI document as a handler with the default limits serves it,
// loaded once and checked as a 3.1 document; every response a test
// receives through the harness is validated against it (the limits are
// only words in its descriptions).
var (
	oasOnce   sync.Once
	oasRouter routers.Router
	oasErr    error
)

func openAPIRouter(t testing.TB) routers.Router {
	t.Helper()
	oasOnce.Do(func() {
		// The two media types that are not JSON are read as a plain
		// string (the page) and as a file (the workbook).
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
		openapi3filter.RegisterBodyDecoder(xlsxType, openapi3filter.FileBodyDecoder)
		doc, err := openapi3.NewLoader().LoadFromData(withJobLimits(renderOpenAPI(DefaultRatePerMinute, DefaultDeliveryRatePerMinute, DefaultMaxBodyBytes),
			jobLimits{maxStreams: engine.DefaultStreams, queued: DefaultTenantQueuedJobs}))
		if err != nil {
			oasErr = err
			return
		}
		if err = doc.Validate(context.Background()); err != nil {
			oasErr = err
			return
		}
		oasRouter, oasErr = gorillamux.NewRouter(doc)
	})
	if oasErr != nil {
		t.Fatalf("the OpenAPI document: %v", oasErr)
	}
	return oasRouter
}

// validateResponse fails the test unless the response (status, media type,
// headers and body) is one the OpenAPI document describes for the request.
func validateResponse(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	router := openAPIRouter(t)
	// The router matches on the document's server-less paths.
	probe := req.Clone(context.Background())
	probe.URL = &url.URL{Scheme: "http", Host: "localhost", Path: req.URL.Path, RawQuery: req.URL.RawQuery}
	probe.Host = "localhost"
	route, params, err := router.FindRoute(probe)
	if err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			checkErrorBody(t, resp, body)
			return // an unknown path or method is not in the document, by definition
		}
		t.Fatalf("%s %s: not in the OpenAPI document: %v", req.Method, req.URL.Path, err)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route},
		Status:                 resp.StatusCode,
		Header:                 resp.Header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Fatalf("%s %s → %d does not match the OpenAPI document: %v\nbody: %.600s", req.Method, req.URL.Path, resp.StatusCode, err, body)
	}
	if resp.StatusCode >= 400 {
		checkErrorBody(t, resp, body)
	}
}

// checkErrorBody checks the common error body of every failure.
func checkErrorBody(t testing.TB, resp *http.Response, body []byte) {
	t.Helper()
	var eb struct {
		Errors []map[string]any `json:"errors"`
	}
	if err := json.Unmarshal(body, &eb); err != nil || len(eb.Errors) == 0 {
		t.Fatalf("status %d: the body is not an error body: %.300s", resp.StatusCode, body)
	}
	for _, e := range eb.Errors {
		for _, k := range []string{"code", "field", "description", "info", "severity", "category"} {
			if _, ok := e[k].(string); !ok {
				t.Fatalf("status %d: error entry %v lacks %q", resp.StatusCode, e, k)
			}
		}
	}
}

// testEnv is a service on an httptest server with its store and logs.
type testEnv struct {
	t      testing.TB
	srv    *httptest.Server
	st     store.Store
	logs   *syncBuffer
	clock  *testClock
	cancel *cancelRecorder
}

// envOptions configure a test's service. The rate limits and the limit of
// failed authentications are off (a billion a minute) unless set, or
// unless defaultLimits asks for the defaults a zero Config means.
type envOptions struct {
	ratePerMinute         int
	deliveryRatePerMinute int
	authFailuresPerMinute int
	defaultLimits         bool
	maxBody               int64
	store                 store.Store
	discardLogs           bool // benchmarks: the lines are formatted, then dropped
	rateLimiter           RateLimiter
	trustedProxies        []netip.Prefix
	maxStreams            int
	tenantQueuedJobs      int
	tenantRunningJobs     int
	storageQuota          int64
	retention             store.Retention
}

func newEnv(t testing.TB, o envOptions) *testEnv {
	t.Helper()
	st := o.store
	if st == nil {
		st = newTestStore(t)
	}
	if o.ratePerMinute == 0 && !o.defaultLimits {
		o.ratePerMinute = 1 << 30
	}
	if o.deliveryRatePerMinute == 0 && !o.defaultLimits {
		o.deliveryRatePerMinute = 1 << 30
	}
	if o.authFailuresPerMinute == 0 && !o.defaultLimits {
		o.authFailuresPerMinute = 1 << 30
	}
	e := &testEnv{t: t, st: st, logs: &syncBuffer{}, clock: &testClock{}, cancel: &cancelRecorder{}}
	e.clock.set(time.Now())
	var logTo io.Writer = e.logs
	if o.discardLogs {
		logTo = io.Discard
	}
	h := New(Config{
		Store: st, Canceller: e.cancel,
		Logger:        slog.New(slog.NewJSONHandler(logTo, &slog.HandlerOptions{Level: slog.LevelDebug})),
		RatePerMinute: o.ratePerMinute, RateLimiter: o.rateLimiter, DeliveryRatePerMinute: o.deliveryRatePerMinute,
		AuthFailuresPerMinute: o.authFailuresPerMinute, TrustedProxies: o.trustedProxies,
		MaxBodyBytes: o.maxBody, Now: e.clock.now,
		MaxStreams: o.maxStreams, TenantQueuedJobs: o.tenantQueuedJobs, TenantRunningJobs: o.tenantRunningJobs,
		TenantStorageQuota: o.storageQuota, Retention: o.retention,
	})
	e.srv = httptest.NewServer(h)
	t.Cleanup(e.srv.Close)
	return e
}

// storeFlag chooses the store every test runs on:
//
//	go test ./examples/service/internal/api                 # SQLite
//	HAULPLAN_TEST_POSTGRES=postgres://... go test ./examples/service/internal/api -store postgres
var storeFlag = flag.String("store", "sqlite", "the store the tests run on: sqlite, or postgres (a schema of each test's own in $"+postgresEnv+")")

// newTestStore is the store a test runs on: SQLite in a file of the
// test's own, or a PostgreSQL schema of its own; closed (and the schema
// dropped) when the test ends.
func newTestStore(t testing.TB) store.Store {
	t.Helper()
	cfg := store.Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	var st store.Store
	var err error
	switch *storeFlag {
	case "sqlite":
		st, err = store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "haulplan.db"), cfg)
	case "postgres":
		var url string
		url, cfg.Schema = postgresSchema(t)
		st, err = store.OpenPostgres(context.Background(), url, cfg)
	default:
		t.Fatalf("-store %q: want sqlite or postgres", *storeFlag)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// tenant is a tenant's credentials and a token.
type tenant struct {
	consumer, clientID, secret, token string
}

func (e *testEnv) newTenant(name string) tenant {
	e.t.Helper()
	c, id, secret, err := CreateTenant(context.Background(), e.st, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.newTenantToken(tenant{consumer: c, clientID: id, secret: secret})
}

// do sends one request and validates its response against the OpenAPI
// document.
func (e *testEnv) do(method, path string, headers map[string]string, body string) (*http.Response, []byte) {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range headers {
		req.Header[k] = []string{v} // as given: SVC_CONSUMER.ID is not canonical
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	validateResponse(e.t, req, resp, b)
	return resp, b
}

// as sends a request as tenant tn (its token and consumer id); body JSON.
func (e *testEnv) as(tn tenant, method, path, body string) (*http.Response, []byte) {
	e.t.Helper()
	h := map[string]string{"Authorization": "Bearer " + tn.token, ConsumerHeader: tn.consumer}
	if body != "" {
		h["Content-Type"] = "application/json"
	}
	return e.do(method, path, h, body)
}

// want fails unless resp has status and, when codes are given, the error
// body lists exactly those codes (in any order, each at least once).
func want(t testing.TB, resp *http.Response, body []byte, status int, codes ...string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d: %.800s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, body)
	}
	if len(codes) == 0 {
		return
	}
	got := errorCodes(t, body)
	for _, c := range codes {
		if !got[c] {
			t.Fatalf("%s %s: codes %v, want %v: %.800s", resp.Request.Method, resp.Request.URL.Path, got, codes, body)
		}
	}
}

func errorCodes(t testing.TB, body []byte) map[string]bool {
	t.Helper()
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		t.Fatalf("error body: %v: %s", err, body)
	}
	m := map[string]bool{}
	for _, e := range eb.Errors {
		m[e.Code] = true
	}
	return m
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testClock is the service's clock in tests.
type testClock struct{ ns atomic.Int64 }

func (c *testClock) set(t time.Time)         { c.ns.Store(t.UnixNano()) }
func (c *testClock) advance(d time.Duration) { c.ns.Add(int64(d)) }
func (c *testClock) now() time.Time          { return time.Unix(0, c.ns.Load()) }

// cancelRecorder is the Canceller in tests.
type cancelRecorder struct {
	mu  sync.Mutex
	ids []string
}

func (c *cancelRecorder) Cancel(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids = append(c.ids, id)
}

func (c *cancelRecorder) cancelled() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ids...)
}

// syncBuffer collects log lines from concurrent requests.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// openAPIDescription fetches the served /openapi.json and returns its
// description, failing the test for each of wants it does not contain.
func (e *testEnv) openAPIDescription(t *testing.T, wants ...string) string {
	t.Helper()
	resp, body := e.do(http.MethodGet, "/openapi.json", nil, "")
	want(t, resp, body, http.StatusOK)
	var doc struct {
		Info struct {
			Description string `json:"description"`
		} `json:"info"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		if !strings.Contains(doc.Info.Description, w) {
			t.Errorf("the description lacks %q:\n%s", w, doc.Info.Description)
		}
	}
	return doc.Info.Description
}
