package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The tests in this file run the service as a real process, built once,
// and talk to it with a real HTTP client: what an operator runs.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "haulplan-service-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "service")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the service: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is one running service process.
type proc struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	mu   sync.Mutex
	logs bytes.Buffer
	done chan struct{}
}

// start runs the service with these flags and waits for its "listening"
// line.
func start(t *testing.T, flags ...string) *proc {
	t.Helper()
	// Polling a job would run into the default limit of 10 a minute; a
	// test that is about the limit sets its own (the last flag wins).
	args := append([]string{"-addr", "127.0.0.1:0", "-rate-per-minute", "100000"}, flags...)
	cmd := exec.Command(binary, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			p.mu.Lock()
			p.logs.Write(line)
			p.logs.WriteByte('\n')
			p.mu.Unlock()
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(line, &rec) == nil && rec.Msg == "listening" {
				addr <- rec.Addr
			}
		}
		cmd.Wait()
		close(p.done)
	}()
	select {
	case a := <-addr:
		p.base = "http://" + a
	case <-p.done:
		t.Fatalf("the service exited before listening:\n%s", p.log())
	case <-nearDeadline(t):
		p.kill()
		t.Fatalf("the service did not listen:\n%s", p.log())
	}
	t.Cleanup(func() { p.kill() })
	return p
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// terminate sends SIGTERM and waits for a clean exit.
func (p *proc) terminate() {
	p.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-nearDeadline(p.t):
		p.t.Fatalf("the service did not stop after SIGTERM:\n%s", p.log())
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		p.t.Fatalf("the service exited %d after SIGTERM:\n%s", code, p.log())
	}
}

// kill stops the process at once, as a crash would.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.done
}

type tenant struct {
	ConsumerID   string `json:"consumerId"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
}

// runTenantCreate runs "tenant create" and demands exactly one JSON object.
func runTenantCreate(t *testing.T, name string, flags ...string) tenant {
	t.Helper()
	cmd := exec.Command(binary, append(flags, "tenant", "create", name)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tenant create: %v\n%s", err, stderr.String())
	}
	var tn tenant
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tn); err != nil {
		t.Fatalf("tenant create printed %q: %v", out, err)
	}
	if dec.More() {
		t.Fatalf("tenant create printed more than one JSON object: %q", out)
	}
	if tn.ConsumerID == "" || tn.ClientID == "" || tn.ClientSecret == "" {
		t.Fatalf("tenant create printed %q", out)
	}
	return tn
}

// client is an API client for one tenant.
type client struct {
	t      *testing.T
	base   string
	tn     tenant
	token  string
	client *http.Client
}

func newClient(t *testing.T, base string, tn tenant) *client {
	t.Helper()
	c := &client{t: t, base: base, tn: tn, client: &http.Client{Timeout: 30 * time.Second}}
	form := url.Values{"grant_type": {"client_credentials"}}
	req, _ := http.NewRequest("POST", base+"/oauth/v1/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("SVC_CONSUMER.ID", tn.ConsumerID)
	req.SetBasicAuth(tn.ClientID, tn.ClientSecret)
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || json.Unmarshal(b, &tok) != nil || tok.AccessToken == "" || tok.TokenType != "Bearer" || tok.ExpiresIn <= 0 {
		t.Fatalf("token: %d %s", resp.StatusCode, b)
	}
	c.token = tok.AccessToken
	return c
}

// on returns the same tenant's client talking to another process.
func (c *client) on(base string) *client {
	d := *c
	d.base = base
	return &d
}

func (c *client) do(method, path string, body []byte) (int, http.Header, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("SVC_CONSUMER.ID", c.tn.ConsumerID)
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	validate(c.t, c.base, req, resp, b)
	return resp.StatusCode, resp.Header, b
}

// The OpenAPI document the running service serves, loaded once per
// process address: every response these tests receive is validated
// against it, so the document cannot drift from the server.
var (
	oasMu      sync.Mutex
	oasRouters = map[string]routers.Router{}
)

func validate(t *testing.T, base string, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	oasMu.Lock()
	router, ok := oasRouters[base]
	if !ok {
		r, err := http.Get(base + "/openapi.json")
		if err != nil {
			oasMu.Unlock()
			t.Fatalf("GET /openapi.json: %v", err)
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body.Close()
		doc, err := openapi3.NewLoader().LoadFromData(raw)
		if err == nil {
			err = doc.Validate(context.Background())
		}
		if err == nil {
			router, err = gorillamux.NewRouter(doc)
		}
		if err != nil {
			oasMu.Unlock()
			t.Fatalf("the served OpenAPI document: %v", err)
		}
		oasRouters[base] = router
	}
	oasMu.Unlock()
	probe := req.Clone(context.Background())
	probe.URL = &url.URL{Scheme: "http", Host: "localhost", Path: req.URL.Path}
	probe.Host = "localhost"
	route, params, err := router.FindRoute(probe)
	if err != nil {
		t.Fatalf("%s %s: not in the served OpenAPI document: %v", req.Method, req.URL.Path, err)
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
}

type jobView struct {
	JobID    string          `json:"jobId"`
	Status   string          `json:"status"`
	Routes   json.RawMessage `json:"routes"`
	Metrics  json.RawMessage `json:"metrics"`
	Progress json.RawMessage `json:"progress"`
}

func (c *client) job(id string) jobView {
	c.t.Helper()
	st, _, b := c.do("GET", "/v1/job/"+id, nil)
	if st != 200 {
		c.t.Fatalf("GET job %s: %d %s", id, st, b)
	}
	var j jobView
	if err := json.Unmarshal(b, &j); err != nil {
		c.t.Fatalf("GET job %s: %v: %s", id, err, b)
	}
	return j
}

// submit posts the sample request with this time limit and returns the job id.
func (c *client) submit(timeLimit string) string {
	c.t.Helper()
	raw, err := os.ReadFile("../quickstart/sample.json")
	if err != nil {
		c.t.Fatal(err)
	}
	var req map[string]any
	json.Unmarshal(raw, &req)
	req["options"] = map[string]any{"timeLimit": timeLimit, "seed": 1}
	body, _ := json.Marshal(req)
	st, _, b := c.do("POST", "/v1/routes", body)
	if st != 200 && st != 201 && st != 202 {
		c.t.Fatalf("POST /v1/routes: %d %s", st, b)
	}
	var j jobView
	if err := json.Unmarshal(b, &j); err != nil || j.JobID == "" {
		c.t.Fatalf("POST /v1/routes: %s", b)
	}
	return j.JobID
}

// waitFor polls the job every 100 ms until cond holds. It sets no time
// limit of its own (see nearDeadline).
func (c *client) waitFor(id string, what string, cond func(jobView) bool) jobView {
	c.t.Helper()
	giveUp := nearDeadline(c.t)
	for {
		j := c.job(id)
		if cond(j) {
			return j
		}
		select {
		case <-giveUp:
			c.t.Fatalf("job %s: never %s (status %s)", id, what, j.Status)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// nearDeadline fires shortly before go test's -timeout ends the run, and
// never when there is none. Waits select on it rather than on a time of
// their own: a slow or loaded machine makes a test slower, never failing
// it, and a wait that never ends still fails with its own message.
func nearDeadline(t *testing.T) <-chan time.Time {
	deadline, ok := t.Deadline()
	if !ok {
		return nil
	}
	return time.After(time.Until(deadline) - 10*time.Second)
}

func hasPlan(j jobView) bool {
	return len(j.Routes) > 2 && string(j.Routes) != "null"
}

// bookingFile is a complete booking body, shared with the API's tests.
const bookingFile = "internal/api/testdata/booking.json"

func (c *client) book() string {
	c.t.Helper()
	body, err := os.ReadFile(bookingFile)
	if err != nil {
		c.t.Fatal(err)
	}
	st, _, b := c.do("POST", "/deliveries", body)
	if st != 200 && st != 201 {
		c.t.Fatalf("POST /deliveries: %d %s", st, b)
	}
	var r struct {
		Deliveries struct{ DeliveryID string } `json:"deliveries"`
	}
	if json.Unmarshal(b, &r) != nil || r.Deliveries.DeliveryID == "" {
		c.t.Fatalf("POST /deliveries: %s", b)
	}
	return r.Deliveries.DeliveryID
}

// TestRestartKeepsEverything: jobs, plans, deliveries and their changes,
// and tokens survive a clean stop and a start on the same database.
func TestRestartKeepsEverything(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	tn := runTenantCreate(t, "acme", "-db", db)
	p := start(t, "-db", db)
	c := newClient(t, p.base, tn)
	id := c.submit("1s")
	done := c.waitFor(id, "COMPLETED", func(j jobView) bool { return j.Status == "COMPLETED" })
	if !hasPlan(done) {
		t.Fatalf("completed job has no routes: %+v", done)
	}
	did := c.book()
	if st, _, b := c.do("PUT", "/deliveries/"+did+"/update", []byte(`{"deliveries":{"customer":{"firstName":"Augusta"}}}`)); st != 200 {
		t.Fatalf("update: %d %s", st, b)
	}
	p.terminate()

	p2 := start(t, "-db", db)
	c2 := c.on(p2.base) // the token issued before the restart still works
	again := c2.job(id)
	if again.Status != "COMPLETED" || !bytes.Equal(again.Routes, done.Routes) || !bytes.Equal(again.Metrics, done.Metrics) {
		t.Fatalf("after restart the job reads %s with other routes or metrics", again.Status)
	}
	st, _, b := c2.do("GET", "/deliveries/"+did, nil)
	if st != 200 || !bytes.Contains(b, []byte(`"Augusta"`)) {
		t.Fatalf("after restart the delivery reads %d %s", st, b)
	}
}

// TestKilledJobIsNotLeftRunning kills the process while a job runs (a
// crash: no clean shutdown) and starts another on the same database: the
// job is run again and completes; it never stays RUNNING. The job asks
// for a minute, so that it still runs when the kill comes however slow
// the machine; the second process caps searches at 4 s.
func TestKilledJobIsNotLeftRunning(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	tn := runTenantCreate(t, "acme", "-db", db)
	flags := []string{"-db", db, "-job-lease", "3s"}
	p := start(t, flags...)
	c := newClient(t, p.base, tn)
	id := c.submit("1m")
	c.waitFor(id, "RUNNING", func(j jobView) bool { return j.Status == "RUNNING" })
	p.kill()

	p2 := start(t, append(flags, "-max-time-limit", "4s")...)
	c2 := c.on(p2.base)
	j := c2.waitFor(id, "run again to COMPLETED", func(j jobView) bool { return j.Status == "COMPLETED" })
	if !hasPlan(j) {
		t.Fatalf("the job run again has no plan")
	}
}

// TestShutdownHandsRunningJobsBack: SIGTERM stops a running search and the
// job is QUEUED again, not RUNNING or COMPLETED (had the stop waited for
// the search, it would have completed it), and the next process can
// cancel it.
func TestShutdownHandsRunningJobsBack(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	tn := runTenantCreate(t, "acme", "-db", db)
	p := start(t, "-db", db)
	c := newClient(t, p.base, tn)
	id := c.submit("20s")
	c.waitFor(id, "RUNNING", func(j jobView) bool { return j.Status == "RUNNING" })
	t0 := time.Now()
	p.terminate()
	t.Logf("SIGTERM with a running job took %v", time.Since(t0))
	p2 := start(t, "-db", db)
	c2 := c.on(p2.base)
	j := c2.job(id)
	if j.Status != "QUEUED" && j.Status != "RUNNING" {
		t.Fatalf("after a clean stop the job is %s, want QUEUED (or RUNNING again)", j.Status)
	}
	st, _, b := c2.do("PUT", "/v1/job/"+id+"/cancel", nil)
	if st != 200 {
		t.Fatalf("cancel: %d %s", st, b)
	}
	c2.waitFor(id, "CANCELLED", func(j jobView) bool { return j.Status == "CANCELLED" })
}

// postgresURL returns the test server's URL or skips, visibly.
func postgresURL(t *testing.T) string {
	u := os.Getenv("HAULPLAN_TEST_POSTGRES")
	if u == "" {
		t.Skip("HAULPLAN_TEST_POSTGRES is not set: no PostgreSQL server to test the -postgres mode against (.ci/run starts one; see .ci/postgres.sh)")
	}
	return u
}

// freshDatabase creates an empty database on the test server and returns
// its URL.
func freshDatabase(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("svc_%d", time.Now().UnixNano())
	if out, err := exec.Command("psql", base, "-c", "CREATE DATABASE "+name).CombinedOutput(); err != nil {
		t.Fatalf("HAULPLAN_TEST_POSTGRES is set but psql cannot create a database on %s: %v %s", u.Host, err, out)
	}
	t.Cleanup(func() {
		exec.Command("psql", base, "-c", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)").Run()
	})
	u.Path = "/" + name
	return u.String()
}

// TestTwoProcessesShareOnePostgres: a job submitted to one process is run
// by either and read from both; deliveries are shared; the rate limit
// holds across both.
func TestTwoProcessesShareOnePostgres(t *testing.T) {
	pg := freshDatabase(t, postgresURL(t))
	tn := runTenantCreate(t, "acme", "-postgres", pg)
	a := start(t, "-postgres", pg, "-rate-per-minute", "1000")
	b := start(t, "-postgres", pg, "-rate-per-minute", "1000")
	ca := newClient(t, a.base, tn)
	cb := ca.on(b.base)
	id := ca.submit("1s")
	j := cb.waitFor(id, "COMPLETED", func(j jobView) bool { return j.Status == "COMPLETED" })
	if !hasPlan(j) || !bytes.Equal(ca.job(id).Routes, j.Routes) {
		t.Fatalf("the two processes read the job differently")
	}
	did := cb.book()
	if st, _, body := ca.do("PUT", "/deliveries/"+did+"/update", []byte(`{"deliveries":{"customer":{"firstName":"Augusta"}}}`)); st != 200 {
		t.Fatalf("update through the other process: %d %s", st, body)
	}

	// The delivery operations' rate limit, set to 10 a minute per tenant
	// and operation, holds whichever process answers.
	a.kill()
	b.kill()
	a = start(t, "-postgres", pg, "-delivery-rate-per-minute", "10")
	b = start(t, "-postgres", pg, "-delivery-rate-per-minute", "10")
	ca, cb = ca.on(a.base), ca.on(b.base)
	ok, limited := 0, 0
	for i := range 14 {
		c := ca
		if i%2 == 1 {
			c = cb
		}
		st, h, body := c.do("GET", "/deliveries/"+did, nil)
		switch st {
		case 200:
			ok++
		case 429:
			limited++
			if h.Get("Retry-After") == "" || !bytes.Contains(body, []byte(`"errors"`)) {
				t.Fatalf("429 without Retry-After or error body: %v %s", h, body)
			}
		default:
			t.Fatalf("GET delivery: %d %s", st, body)
		}
	}
	if ok != 10 || limited != 4 {
		t.Fatalf("14 requests over two processes at 10 a minute: %d answered, %d limited; want 10 and 4", ok, limited)
	}
}

// TestDefaultLimitsLetConcurrentDeliveryUpdatesThrough: with every flag
// at its default, 32 concurrent updates of one delivery each get 200 or
// 409, never 429: the delivery operations have a limit of their own, not
// the planning operations' 10 a minute.
func TestDefaultLimitsLetConcurrentDeliveryUpdatesThrough(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	tn := runTenantCreate(t, "acme", "-db", db)
	p := start(t, "-db", db, "-rate-per-minute", "10") // start raises the planning limit; back to its default
	c := newClient(t, p.base, tn)
	id := c.book()
	const clients = 32
	statuses := make([]int, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			body := fmt.Sprintf(`{"deliveries":{"customer":{"lastName":"Name%02d"}}}`, i)
			req, err := http.NewRequest("PUT", p.base+"/deliveries/"+id+"/update", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("SVC_CONSUMER.ID", tn.ConsumerID)
			req.Header.Set("Authorization", "Bearer "+c.token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := c.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK && st != http.StatusConflict {
			t.Errorf("update %d: %d, want 200 or 409", i, st)
		}
	}
}

// TestServedOpenAPIStatesTheFlags: /openapi.json states the body limit
// and the rate limits the process was started with.
func TestServedOpenAPIStatesTheFlags(t *testing.T) {
	p := start(t, "-db", filepath.Join(t.TempDir(), "haulplan.db"),
		"-max-body", "8388608", "-rate-per-minute", "20", "-delivery-rate-per-minute", "0")
	resp, err := http.Get(p.base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Info struct {
			Description string `json:"description"`
		} `json:"info"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"createAccessToken 20 requests a minute;", "changeDeliveryStatus) have no limit.", "of at most 8 MiB;"} {
		if !strings.Contains(doc.Info.Description, want) {
			t.Errorf("the served description lacks %q:\n%s", want, doc.Info.Description)
		}
	}
}

// TestLogDurationsAreGoDurations: a request's log line gives its duration
// as a Go duration string ("1.234ms"), not as an integer of nanoseconds.
func TestLogDurationsAreGoDurations(t *testing.T) {
	p := start(t, "-db", filepath.Join(t.TempDir(), "haulplan.db"))
	resp, err := http.Get(p.base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	p.terminate() // every line is written once the process has exited
	for line := range strings.SplitSeq(p.log(), "\n") {
		var rec struct {
			Msg      string `json:"msg"`
			Path     string `json:"path"`
			Duration any    `json:"duration"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Msg != "request" || rec.Path != "/openapi.json" {
			continue
		}
		s, ok := rec.Duration.(string)
		if !ok {
			t.Fatalf("duration %v (%T), want a Go duration string: %s", rec.Duration, rec.Duration, line)
		}
		if d, err := time.ParseDuration(s); err != nil || d <= 0 {
			t.Fatalf("duration %q does not read as a Go duration (%v): %s", s, err, line)
		}
		return
	}
	t.Fatalf("no request line for GET /openapi.json:\n%s", p.log())
}

// TestBadFlagsAreAllReported: every flag the service cannot run with is
// named, and it does not start.
func TestBadFlagsAreAllReported(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"-rate-per-minute", "0", "-delivery-rate-per-minute", "-1", "-jobs", "-1", "-log-level", "loud", "-job-lease", "10ms",
		"-auth-failures-per-minute", "-1", "-write-timeout", "10ms", "-trusted-proxies", "10.0.0.0/8, proxy.internal,2001:db8::1,10.0.0.300"}, &stdout, &stderr)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, flag := range []string{"-rate-per-minute 0", "-delivery-rate-per-minute -1", "-jobs -1", `-log-level "loud"`, "-job-lease 10ms",
		"-auth-failures-per-minute -1", "-write-timeout 10ms", `-trusted-proxies: "proxy.internal", "10.0.0.300"`} {
		if !strings.Contains(stderr.String(), flag) {
			t.Errorf("stderr does not name %s:\n%s", flag, stderr.String())
		}
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout: %q", stdout.String())
	}
	stderr.Reset()
	if code := run(t.Context(), []string{"tenant", "delete", "x"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "unknown command") {
		t.Errorf("an unknown command: exit %d, %s", code, stderr.String())
	}
}
