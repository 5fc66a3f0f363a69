package api

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// TestTenantIsolation: for every operation, another tenant's token with its
// own consumer id finds nothing (404) and changes nothing; with the owner's
// consumer id it is refused (403).
func TestTenantIsolation(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	job := e.submit(a)
	done := e.submit(a)
	e.complete(done)
	del := e.book(a)
	update := `{"deliveries":{"customer":{"email":"intruder@example.com"}}}`

	ops := []struct {
		name, method, path, body string
	}{
		{"getJobDetails", http.MethodGet, "/v1/job/" + done, ""},
		{"cancelRelease", http.MethodPut, "/v1/job/" + job + "/cancel", ""},
		{"cancelRelease of a completed job", http.MethodPut, "/v1/job/" + done + "/cancel", ""},
		{"replanJob", http.MethodPost, "/v1/job/" + done + "/replan", readTestdata(t, "small-request.json")},
		{"downloadDispatchSummary", http.MethodGet, "/v1/job/" + done + "/dispatchSummary", ""},
		{"getJobReport", http.MethodGet, "/v1/job/" + done + "/report", ""},
		{"getDelivery", http.MethodGet, "/deliveries/" + del, ""},
		{"updateDelivery", http.MethodPut, "/deliveries/" + del + "/update", update},
		{"cancelDelivery", http.MethodPut, "/deliveries/" + del + "/cancel", ""},
		{"changeDeliveryStatus", http.MethodPut, "/deliveries/" + del + "/status", `{"status":"DRIVER_ASSIGNED"}`},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			resp, body := e.as(b, op.method, op.path, op.body)
			want(t, resp, body, http.StatusNotFound, codeNotFound)
			if strings.Contains(string(body), "ORD-1001") || strings.Contains(string(body), "Acme") {
				t.Fatalf("the 404 reveals the record: %s", body)
			}
			// b's token presented for a's consumer id.
			h := map[string]string{"Authorization": "Bearer " + b.token, ConsumerHeader: a.consumer}
			if op.body != "" {
				h["Content-Type"] = "application/json"
			}
			resp, body = e.do(op.method, op.path, h, op.body)
			want(t, resp, body, http.StatusForbidden, codeForbidden)
		})
	}
	// The operations that create: b's token for a's consumer id is 403,
	// and nothing is created for a.
	for _, op := range []struct{ path, body string }{
		{"/v1/routes", readTestdata(t, "small-request.json")},
		{"/deliveries", readTestdata(t, "booking.json")},
	} {
		resp, body := e.do(http.MethodPost, op.path, map[string]string{"Authorization": "Bearer " + b.token, ConsumerHeader: a.consumer, "Content-Type": "application/json"}, op.body)
		want(t, resp, body, http.StatusForbidden, codeForbidden)
	}
	// b's own records are b's: a cannot see them either.
	bjob := e.submit(b)
	resp, body := e.as(a, http.MethodGet, "/v1/job/"+bjob, "")
	want(t, resp, body, http.StatusNotFound)

	// Nothing of a's changed.
	if v := e.getJob(a, job); v.Status != "QUEUED" {
		t.Fatalf("a's job: %+v", v)
	}
	if v := e.getJob(a, done); v.Status != "COMPLETED" || !v.Released {
		t.Fatalf("a's completed job: %+v", v)
	}
	if v := e.links(a, done); len(v.Replans) != 0 {
		t.Fatalf("a's completed job was re-planned: %+v", v)
	}
	if h := e.history(a, del); len(h) != 1 {
		t.Fatalf("a's delivery has %d changes", len(h))
	}
	if d := e.delivery(a, del); d.Customer.Email != "ada@example.com" || d.Status != "DELIVERY_REQUESTED" {
		t.Fatalf("a's delivery: %+v", d)
	}
	if len(e.cancel.cancelled()) != 0 {
		t.Fatalf("the runner was told to cancel: %v", e.cancel.cancelled())
	}
}

// TestNotFoundAndMethods: unknown paths, jobs and deliveries are 404;
// a known path with a wrong method is 405 with Allow.
func TestNotFoundAndMethods(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	for _, p := range []string{"/v1/job/nope", "/v1/job/nope/dispatchSummary", "/v1/job/nope/report", "/deliveries/nope"} {
		resp, body := e.as(a, http.MethodGet, p, "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}
	for _, p := range []string{"/v1/job/nope/cancel", "/deliveries/nope/cancel"} {
		resp, body := e.as(a, http.MethodPut, p, "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}
	resp, body := e.as(a, http.MethodPut, "/deliveries/nope/update", `{"deliveries":{"clientId":"x"}}`)
	want(t, resp, body, http.StatusNotFound, codeNotFound)
	resp, body = e.as(a, http.MethodPost, "/v1/job/nope/replan", readTestdata(t, "small-request.json"))
	want(t, resp, body, http.StatusNotFound, codeNotFound)
	resp, body = e.as(a, http.MethodPut, "/deliveries/nope/status", `{"status":"DRIVER_ASSIGNED"}`)
	want(t, resp, body, http.StatusNotFound, codeNotFound)
	for _, p := range []string{"/", "/v2/routes", "/v1/job", "/v1/job/x/y", "/oath/v1/token", "/v1/xcancel"} {
		resp, body := e.as(a, http.MethodGet, p, "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}
	methods := []struct{ method, path, allow string }{
		{http.MethodGet, "/oauth/v1/token", "POST"},
		{http.MethodGet, "/v1/routes", "POST"},
		{http.MethodDelete, "/v1/job/x", "GET"},
		{http.MethodPost, "/v1/job/x/cancel", "PUT"},
		{http.MethodGet, "/v1/job/x/replan", "POST"},
		{http.MethodPost, "/v1/job/x/dispatchSummary", "GET"},
		{http.MethodPut, "/v1/job/x/report", "GET"},
		{http.MethodGet, "/deliveries", "POST"},
		{http.MethodPatch, "/deliveries/x", "GET"},
		{http.MethodPost, "/deliveries/x/update", "PUT"},
		{http.MethodGet, "/deliveries/x/cancel", "PUT"},
		{http.MethodPost, "/deliveries/x/status", "PUT"},
		{http.MethodPost, "/openapi.json", "GET"},
	}
	for _, m := range methods {
		resp, body := e.as(a, m.method, m.path, "")
		want(t, resp, body, http.StatusMethodNotAllowed, codeMethodNotAllowed)
		if got := resp.Header.Get("Allow"); got != m.allow {
			t.Fatalf("%s %s: Allow %q, want %q", m.method, m.path, got, m.allow)
		}
	}
}

// TestBadBodies: malformed JSON and unknown members are 400, a wrong or
// missing content type 415 (RFC 9110 §15.5.16), a body over the limit 413
// (§15.5.14), each with its code.
func TestBadBodies(t *testing.T) {
	e := newEnv(t, envOptions{maxBody: 64 << 10})
	a := e.newTenant("Acme")
	del := e.book(a)
	send := func(method, path, contentType, body string) (*http.Response, []byte) {
		h := map[string]string{"Authorization": "Bearer " + a.token, ConsumerHeader: a.consumer}
		if contentType != "" {
			h["Content-Type"] = contentType
		}
		return e.do(method, path, h, body)
	}
	cases := []struct {
		name, method, path, contentType, body, code string
	}{
		{"routes not JSON", http.MethodPost, "/v1/routes", "application/json", "dc=1", "INVALID_JSON"},
		{"routes text/plain", http.MethodPost, "/v1/routes", "text/plain", "{}", codeMediaType},
		{"routes no content type", http.MethodPost, "/v1/routes", "", "{}", codeMediaType},
		{"routes unknown member", http.MethodPost, "/v1/routes", "application/json", `{"depot":{}}`, "UNKNOWN_MEMBER"},
		{"routes too large", http.MethodPost, "/v1/routes", "application/json", `{"dc":"` + strings.Repeat("x", 70<<10) + `"}`, codeBodyTooLarge},
		{"booking malformed", http.MethodPost, "/deliveries", "application/json", `{"deliveries":{`, codeMalformedJSON},
		{"booking unknown member", http.MethodPost, "/deliveries", "application/json", `{"delivery":{}}`, codeUnknownMember},
		{"booking form", http.MethodPost, "/deliveries", "application/x-www-form-urlencoded", "a=b", codeMediaType},
		{"update malformed", http.MethodPut, "/deliveries/" + del + "/update", "application/json", `{"deliveries":[`, codeMalformedJSON},
		{"update too large", http.MethodPut, "/deliveries/" + del + "/update", "application/json", `{"deliveries":{"clientId":"` + strings.Repeat("x", 70<<10) + `"}}`, codeBodyTooLarge},
		{"update wrong type", http.MethodPut, "/deliveries/" + del + "/update", "text/json", `{"deliveries":{"clientId":"c"}}`, codeMediaType},
		{"status malformed", http.MethodPut, "/deliveries/" + del + "/status", "application/json", `{"status":`, codeMalformedJSON},
		{"status not an object", http.MethodPut, "/deliveries/" + del + "/status", "application/json", `["DRIVER_ASSIGNED"]`, codeMalformedJSON},
		{"status twice", http.MethodPut, "/deliveries/" + del + "/status", "application/json", `{"status":"DRIVER_ASSIGNED","status":"DISPATCHED"}`, codeDuplicateMember},
		{"status trailing data", http.MethodPut, "/deliveries/" + del + "/status", "application/json", `{"status":"DRIVER_ASSIGNED"} {}`, codeMalformedJSON},
		{"cancel unknown member", http.MethodPut, "/deliveries/" + del + "/cancel", "application/json", `{"because":"x"}`, codeUnknownMember},
		{"cancel wrong type", http.MethodPut, "/deliveries/" + del + "/cancel", "text/plain", `x`, codeMediaType},
		{"status wrong type", http.MethodPut, "/deliveries/" + del + "/status", "application/xml", `<status/>`, codeMediaType},
		{"job cancel wrong type", http.MethodPut, "/v1/job/none/cancel", "text/plain", `x`, codeMediaType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := send(tc.method, tc.path, tc.contentType, tc.body)
			status := http.StatusBadRequest
			switch tc.code {
			case codeMediaType:
				status = http.StatusUnsupportedMediaType
			case codeBodyTooLarge:
				status = http.StatusRequestEntityTooLarge
			}
			want(t, resp, body, status, tc.code)
		})
	}
	if h := e.history(a, del); len(h) != 1 {
		t.Fatalf("a refused request changed the delivery: %d changes", len(h))
	}
}

// TestRateLimit: the request over the limit of a tenant's operation is 429
// with Retry-After; other operations and other tenants keep their own
// limits; the limit refills with time.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, envOptions{ratePerMinute: 3})
	a := e.newTenant("Acme") // one token request of a's 3
	b := e.newTenant("Beta")
	for range 3 {
		resp, body := e.as(a, http.MethodGet, "/v1/job/x", "")
		want(t, resp, body, http.StatusNotFound)
	}
	resp, body := e.as(a, http.MethodGet, "/v1/job/x", "")
	want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 20 {
		t.Fatalf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	resp, body = e.as(a, http.MethodGet, "/deliveries/x", "")
	want(t, resp, body, http.StatusNotFound)
	resp, body = e.as(b, http.MethodGet, "/v1/job/x", "")
	want(t, resp, body, http.StatusNotFound)

	e.clock.advance(20 * time.Second) // one request comes back every 20 s at 3 a minute
	resp, body = e.as(a, http.MethodGet, "/v1/job/x", "")
	want(t, resp, body, http.StatusNotFound)
	resp, body = e.as(a, http.MethodGet, "/v1/job/x", "")
	want(t, resp, body, http.StatusTooManyRequests, codeRateLimited)
}

// TestLogs: every log line is JSON with the request id and the tenant, and
// no line holds a secret or a token.
func TestLogs(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	e.submit(a)
	e.book(a)
	resp, body := e.as(a, http.MethodGet, "/v1/job/none", "")
	want(t, resp, body, http.StatusNotFound)
	rid := resp.Header.Get(RequestIDHeader)
	resp, body = e.do(http.MethodGet, "/v1/job/none", map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer wrong-token-value", RequestIDHeader: "client-req-7"}, "")
	want(t, resp, body, http.StatusUnauthorized)
	// The service names the request itself; the client's id is logged
	// beside its own.
	own := resp.Header.Get(RequestIDHeader)
	if len(own) != 32 || strings.Trim(own, "0123456789abcdef") != "" {
		t.Fatalf("the service's request id is %q, want 32 hex digits of its own", own)
	}

	logs := e.logs.String()
	for _, secret := range []string{a.secret, a.token, "wrong-token-value"} {
		if strings.Contains(logs, secret) {
			t.Fatalf("a secret or token is in the logs")
		}
	}
	lines, withTenant, found, clientIDLogged := 0, 0, false, false
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a log line is not JSON: %s", sc.Text())
		}
		lines++
		id, ok1 := m["request_id"].(string)
		ten, ok2 := m["tenant"].(string)
		if !ok1 || !ok2 || id == "" {
			t.Fatalf("a log line lacks the request id or the tenant: %s", sc.Text())
		}
		if ten == a.consumer {
			withTenant++
		}
		if id == rid && m["status"] == float64(http.StatusNotFound) && ten == a.consumer {
			found = true
		}
		if id == own && m["client_request_id"] == "client-req-7" && m["status"] == float64(http.StatusUnauthorized) {
			clientIDLogged = true
		}
	}
	if lines < 5 || withTenant < 4 || !found || !clientIDLogged {
		t.Fatalf("%d lines, %d with the tenant, the 404's line found: %v, the client's id beside the service's: %v\n%s", lines, withTenant, found, clientIDLogged, logs)
	}
}

// TestOpenAPIServed: the document is served without credentials.
func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t, envOptions{})
	resp, body := e.do(http.MethodGet, "/openapi.json", nil, "")
	want(t, resp, body, http.StatusOK)
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || doc.OpenAPI != "3.1.0" || len(doc.Paths) != 13 {
		t.Fatalf("document: %s, %d paths (%v)", doc.OpenAPI, len(doc.Paths), err)
	}
}

// TestOpenAPIStatesTheConfiguredLimits: the served document's description
// states the rate and body limits the service applies, defaults or not.
func TestOpenAPIStatesTheConfiguredLimits(t *testing.T) {
	cases := []struct {
		name string
		opts envOptions
		want []string
	}{
		{"defaults", envOptions{defaultLimits: true}, []string{
			"and createAccessToken 10 requests a minute;",
			"changeDeliveryStatus) 6,000 requests a minute.",
			"of at most 32 MiB; a delivery booking or update at most 1 MiB,"}},
		{"configured", envOptions{ratePerMinute: 7, deliveryRatePerMinute: 1234, maxBody: 48 << 20}, []string{
			"and createAccessToken 7 requests a minute;",
			"changeDeliveryStatus) 1,234 requests a minute.",
			"of at most 48 MiB; a delivery booking or update at most 1 MiB,"}},
		{"no delivery limit, small bodies", envOptions{ratePerMinute: 1, deliveryRatePerMinute: NoRateLimit, maxBody: 600 << 10}, []string{
			"and createAccessToken 1 request a minute;",
			"changeDeliveryStatus) have no limit.",
			"of at most 600 KiB; a delivery booking or update at most 600 KiB,"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			desc := newEnv(t, tc.opts).openAPIDescription(t, tc.want...)
			if strings.Contains(desc, "{{") || strings.Contains(desc, "4 MiB") {
				t.Errorf("a placeholder (they stand in the description only) or a wrong limit is left:\n%s", desc)
			}
		})
	}
}

// failingLimiter is a rate limiter whose database is down.
type failingLimiter struct{}

func (failingLimiter) Allow(context.Context, string, time.Time) (bool, time.Duration, error) {
	return false, 0, errors.New("connection refused")
}

// brokenJobs is a store whose job reads fail with a message that must not
// reach the client.
type brokenJobs struct{ store.Store }

func (brokenJobs) Job(context.Context, string, string) (store.Job, error) {
	return store.Job{}, errors.New("disk I/O error at /var/lib/secret-path")
}

func (b brokenJobs) JobOverview(ctx context.Context, tenantID, jobID string) (store.Job, error) {
	return b.Job(ctx, tenantID, jobID)
}

// TestServiceFailures: a limiter that cannot answer is 503 with
// Retry-After (the limit is not skipped); a store failure is 500 whose body
// tells nothing of it, while the log line has it with the request id.
func TestServiceFailures(t *testing.T) {
	e := newEnv(t, envOptions{rateLimiter: failingLimiter{}})
	c, id, secret, err := CreateTenant(context.Background(), e.st, "Acme")
	if err != nil {
		t.Fatal(err)
	}
	resp, body := e.do(http.MethodPost, "/oauth/v1/token", map[string]string{"Content-Type": "application/x-www-form-urlencoded",
		"Authorization": basic(id, secret), ConsumerHeader: c}, "grant_type=client_credentials")
	want(t, resp, body, http.StatusServiceUnavailable, codeUnavailable)
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("503 without Retry-After")
	}

	e = newEnv(t, envOptions{store: brokenJobs{newTestStore(t)}})
	a := e.newTenant("Acme")
	resp, body = e.as(a, http.MethodGet, "/v1/job/x", "")
	want(t, resp, body, http.StatusInternalServerError, codeInternal)
	if strings.Contains(string(body), "secret-path") {
		t.Fatalf("the store's error reached the client: %s", body)
	}
	rid := resp.Header.Get(RequestIDHeader)
	if !strings.Contains(e.logs.String(), "secret-path") || !strings.Contains(e.logs.String(), rid) {
		t.Fatalf("the log lacks the error or the request id:\n%s", e.logs.String())
	}
}
