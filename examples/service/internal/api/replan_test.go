package api

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/jobs"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// replanView is what the tests read of the links in job details.
type replanView struct {
	JobID    string   `json:"jobId"`
	Status   string   `json:"status"`
	Released bool     `json:"released"`
	ReplanOf *string  `json:"replanOf"`
	Replans  []string `json:"replans"`
}

func (e *testEnv) links(tn tenant, id string) replanView {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodGet, "/v1/job/"+id, "")
	want(e.t, resp, body, http.StatusOK)
	var v replanView
	if err := json.Unmarshal(body, &v); err != nil {
		e.t.Fatal(err)
	}
	if v.Replans == nil {
		e.t.Fatalf("job %s: replans is not an array: %s", id, body)
	}
	return v
}

// withMembers is the small request with the given top-level members
// added or replaced (each value JSON).
func withMembers(t testing.TB, members map[string]string) string {
	t.Helper()
	var req map[string]json.RawMessage
	if err := json.Unmarshal([]byte(readTestdata(t, "small-request.json")), &req); err != nil {
		t.Fatal(err)
	}
	for k, v := range members {
		req[k] = json.RawMessage(v)
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstRouteLock is a lock of the small plan's first route.
func firstRouteLock(t testing.TB) string {
	t.Helper()
	plan, err := engine.DecodePlan(bytes.NewReader(smallPlan(t)))
	if err != nil || len(plan.Routes) == 0 {
		t.Fatalf("the small plan: %d routes (%v)", len(plan.Routes), err)
	}
	return `{"routes":["` + plan.Routes[0].ID + `"]}`
}

// replan posts a re-plan of job id and returns the new job's id.
func (e *testEnv) replan(tn tenant, id, body string) string {
	e.t.Helper()
	resp, b := e.as(tn, http.MethodPost, "/v1/job/"+id+"/replan", body)
	want(e.t, resp, b, http.StatusAccepted)
	var created replanCreated
	if err := json.Unmarshal(b, &created); err != nil {
		e.t.Fatal(err)
	}
	if created.Status != store.JobQueued || created.JobID == "" || created.JobID == id || created.ReplanOf != id ||
		resp.Header.Get("Location") != "/v1/job/"+created.JobID {
		e.t.Fatalf("re-plan of %s: %+v, Location %q", id, created, resp.Header.Get("Location"))
	}
	return created.JobID
}

// TestReplanJob: a completed job is re-planned with a lock; the new job's
// stored request is the body with the job's plan as its previous plan,
// and the details of each job name the other. A re-plan of the re-plan
// links on: the middle job names both.
func TestReplanJob(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	if v := e.links(a, src); v.ReplanOf != nil || len(v.Replans) != 0 {
		t.Fatalf("a job planned from scratch: %+v", v)
	}
	lock := firstRouteLock(t)
	next := e.replan(a, src, withMembers(t, map[string]string{"lock": lock}))

	if v := e.links(a, next); v.Status != "QUEUED" || v.ReplanOf == nil || *v.ReplanOf != src || len(v.Replans) != 0 {
		t.Fatalf("the re-plan: %+v, want QUEUED, replanOf %s", v, src)
	}
	if v := e.links(a, src); v.Status != "COMPLETED" || !v.Released || v.ReplanOf != nil || !slices.Equal(v.Replans, []string{next}) {
		t.Fatalf("the job re-planned: %+v, want COMPLETED, released, replans [%s]", v, next)
	}

	// What the worker will plan: the body, and the job's plan as previous.
	stored, err := e.st.Job(context.Background(), a.consumer, next)
	if err != nil {
		t.Fatal(err)
	}
	req, err := engine.DecodeRequest(bytes.NewReader(stored.Request))
	if err != nil {
		t.Fatalf("the re-plan's stored request does not read: %v", err)
	}
	sent, err := engine.DecodeRequest(strings.NewReader(withMembers(t, map[string]string{"lock": lock, "previous": string(smallPlan(t))})))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(req, sent) {
		t.Fatalf("the stored request differs from the body with the job's plan as previous")
	}
	if req.Previous == nil || len(req.Previous.Routes) == 0 || len(req.Lock.Routes) != 1 {
		t.Fatalf("stored previous %v, lock %+v", req.Previous != nil, req.Lock)
	}

	// The re-plan's plan, with its changes and its locked route, in the
	// job details.
	if _, err := e.st.ClaimJob(context.Background(), next, "test-worker", time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := e.st.FinishJob(context.Background(), next, "test-worker", store.JobCompleted, replannedPlan(t), ""); err != nil {
		t.Fatal(err)
	}
	resp, body := e.as(a, http.MethodGet, "/v1/job/"+next, "")
	want(t, resp, body, http.StatusOK)
	var details struct {
		Routes []struct {
			Locked bool `json:"locked"`
		} `json:"routes"`
		Changes *engine.PlanChanges `json:"changes"`
	}
	if err := json.Unmarshal(body, &details); err != nil {
		t.Fatal(err)
	}
	if len(details.Routes) == 0 || !details.Routes[0].Locked || details.Changes == nil || details.Changes.Metrics.StoresRetimed == 0 {
		t.Fatalf("the re-plan's details lack its locked route or its changes: %.600s", body)
	}

	// A re-plan of the re-plan, once it has a plan.
	third := e.replan(a, next, withMembers(t, map[string]string{"lock": `{"stores":["S001"]}`}))
	if v := e.links(a, next); v.ReplanOf == nil || *v.ReplanOf != src || !slices.Equal(v.Replans, []string{third}) {
		t.Fatalf("the middle job: %+v, want replanOf %s, replans [%s]", v, src, third)
	}
	// Two re-plans of one job, oldest first.
	e.clock.advance(time.Second)
	fourth := e.replan(a, src, readTestdata(t, "small-request.json"))
	if v := e.links(a, src); !slices.Equal(v.Replans, []string{next, fourth}) {
		t.Fatalf("replans %v, want [%s %s]", v.Replans, next, fourth)
	}
}

// replannedPlan is the small plan as a re-plan of it might come back:
// its first route locked, its last route an hour later, and the changes
// from the small plan.
func replannedPlan(t testing.TB) []byte {
	t.Helper()
	prev, err := engine.DecodePlan(bytes.NewReader(smallPlan(t)))
	if err != nil {
		t.Fatal(err)
	}
	next, err := engine.DecodePlan(bytes.NewReader(smallPlan(t)))
	if err != nil {
		t.Fatal(err)
	}
	next.Routes[0].Locked = true
	last := &next.Routes[len(next.Routes)-1]
	for i := range last.Stops {
		s := &last.Stops[i]
		s.Arrival, s.Start, s.Departure = s.Arrival.Add(time.Hour), s.Start.Add(time.Hour), s.Departure.Add(time.Hour)
	}
	changes, err := engine.Changes(prev, next, engine.ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	next.Changes = &changes
	b, err := json.Marshal(next)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReplanRunsOnTheRunner: a re-plan is planned by the job runner like
// any job, and its details show the plan, with the link.
func TestReplanRunsOnTheRunner(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	startRunner(t, e)
	next := e.replan(a, src, withMembers(t, map[string]string{"lock": firstRouteLock(t)}))
	v := e.waitFinished(a, next)
	if v.Status != "COMPLETED" || v.PlanState != planFinal || v.Metrics == nil || len(v.Routes) == 0 {
		t.Fatalf("the re-plan: %+v", v)
	}
	if l := e.links(a, next); l.ReplanOf == nil || *l.ReplanOf != src {
		t.Fatalf("the re-plan's link: %+v", l)
	}
}

// startRunner runs the planning job runner on e's store until the test
// ends. It saves progress once an hour: only a search's first report is
// saved while it runs.
func startRunner(t *testing.T, e *testEnv) {
	t.Helper()
	r, err := jobs.NewRunner(e.st, jobs.Config{MaxJobs: 1, ProgressEvery: time.Hour, PlanEvery: time.Hour,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.Stop(ctx); err != nil {
			t.Errorf("stopping the runner: %v", err)
		}
	})
}

// waitFinished polls the job's details until it is no longer QUEUED or
// RUNNING, for at most a minute.
func (e *testEnv) waitFinished(tn tenant, id string) jobView {
	e.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		v := e.getJob(tn, id)
		if v.Status != "QUEUED" && v.Status != "RUNNING" {
			return v
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("job %s is still %s after a minute", id, v.Status)
		}
	}
}

// TestReplanCancelsAlone: cancelling the release of one of two linked
// jobs leaves the other's release standing, either way round; cancelling
// a queued re-plan's search leaves its source released.
func TestReplanCancelsAlone(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	next := e.replan(a, src, withMembers(t, map[string]string{"lock": firstRouteLock(t)}))
	e.complete(next)

	resp, body := e.as(a, http.MethodPut, "/v1/job/"+src+"/cancel", `{"reason":"the re-plan replaces it"}`)
	want(t, resp, body, http.StatusOK)
	var after replanView
	if err := json.Unmarshal(body, &after); err != nil {
		t.Fatal(err)
	}
	if after.Released || !slices.Equal(after.Replans, []string{next}) {
		t.Fatalf("the cancel's answer: %+v, want not released, replans [%s]", after, next)
	}
	if v := e.links(a, next); v.Status != "COMPLETED" || !v.Released {
		t.Fatalf("the re-plan after its source's release was cancelled: %+v, want COMPLETED and released", v)
	}
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+next+"/dispatchSummary", "")
	want(t, resp, body, http.StatusOK)

	// The other way round, on a fresh pair.
	src2 := e.submit(a)
	e.complete(src2)
	next2 := e.replan(a, src2, readTestdata(t, "small-request.json"))
	e.complete(next2)
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+next2+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	if v := e.links(a, src2); !v.Released || !slices.Equal(v.Replans, []string{next2}) {
		t.Fatalf("the source after its re-plan's release was cancelled: %+v", v)
	}
	if v := e.links(a, next2); v.Released || v.ReplanOf == nil || *v.ReplanOf != src2 {
		t.Fatalf("the cancelled re-plan: %+v", v)
	}

	// A queued re-plan's search cancelled: the source stays released.
	queued := e.replan(a, src2, readTestdata(t, "small-request.json"))
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+queued+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	if v := e.links(a, queued); v.Status != "CANCELLED" {
		t.Fatalf("the queued re-plan after its cancel: %+v", v)
	}
	if v := e.links(a, src2); v.Status != "COMPLETED" || !v.Released {
		t.Fatalf("the source after a re-plan's search was cancelled: %+v", v)
	}
	if got := e.cancel.cancelled(); !slices.Equal(got, []string{queued}) {
		t.Fatalf("the runner was told to cancel %v, want only [%s]", got, queued)
	}
}

// TestReplanNeedsAPlan: a job without a final plan cannot be re-planned:
// QUEUED and RUNNING (even with a best plan so far) are 409
// PLAN_NOT_READY, FAILED and CANCELLED 409 NO_PLAN; none gets a re-plan.
// A completed job whose release was cancelled still has its plan.
func TestReplanNeedsAPlan(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	ctx := context.Background()
	running := func() string {
		id := e.submit(a)
		if _, err := e.st.ClaimJob(ctx, id, "w", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := e.st.SaveProgress(ctx, id, "w", store.Progress{Phase: "ROUTING", Updated: time.Now()}, smallPlan(t)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	queued := e.submit(a)
	run := running()
	failed := running()
	if err := e.st.FinishJob(ctx, failed, "w", store.JobFailed, nil, "the planner failed"); err != nil {
		t.Fatal(err)
	}
	cancelled := running()
	resp, body := e.as(a, http.MethodPut, "/v1/job/"+cancelled+"/cancel", "")
	want(t, resp, body, http.StatusOK)

	request := readTestdata(t, "small-request.json")
	for id, code := range map[string]string{queued: codePlanNotReady, run: codePlanNotReady, failed: codeNoPlan, cancelled: codeNoPlan} {
		resp, body := e.as(a, http.MethodPost, "/v1/job/"+id+"/replan", request)
		want(t, resp, body, http.StatusConflict, code)
		if v := e.links(a, id); len(v.Replans) != 0 {
			t.Fatalf("job %s got re-plans: %v", id, v.Replans)
		}
	}

	withdrawn := e.submit(a)
	e.complete(withdrawn)
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+withdrawn+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	next := e.replan(a, withdrawn, request)
	if v := e.links(a, withdrawn); v.Released || !slices.Equal(v.Replans, []string{next}) {
		t.Fatalf("the withdrawn job: %+v", v)
	}
}

// TestReplanRefusesPrevious: a body with a previous plan of its own, even
// null, is 400 at body.previous, listed with the body's other violations,
// and nothing is queued.
func TestReplanRefusesPrevious(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	fields := func(body []byte) []string {
		var eb errorBody
		if err := json.Unmarshal(body, &eb); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range eb.Errors {
			out = append(out, x.Field)
		}
		return out
	}
	for _, previous := range []string{string(smallPlan(t)), "null", `{"routes":[]}`} {
		resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", withMembers(t, map[string]string{"previous": previous}))
		want(t, resp, body, http.StatusBadRequest, codeUnknownMember)
		if got := fields(body); !slices.Equal(got, []string{"body.previous"}) {
			t.Fatalf("previous %.40s: fields %v, want [body.previous]: %s", previous, got, body)
		}
	}

	var req map[string]any
	if err := json.Unmarshal([]byte(withMembers(t, map[string]string{"previous": "null", "lock": `{"before":"tonight"}`})), &req); err != nil {
		t.Fatal(err)
	}
	req["pallets"].([]any)[0].(map[string]any)["weightkg"] = 12
	b, _ := json.Marshal(req)
	resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", string(b))
	want(t, resp, body, http.StatusBadRequest, codeUnknownMember)
	got := fields(body)
	for _, f := range []string{"body.previous", "body.pallets[0].weightkg", "body.lock.before"} {
		if !slices.Contains(got, f) {
			t.Fatalf("fields %v lack %s: %s", got, f, body)
		}
	}
	if v := e.links(a, src); len(v.Replans) != 0 {
		t.Fatalf("a refused re-plan was queued: %v", v.Replans)
	}
}

// TestReplanBadBodies: a body that is no JSON object, or whose values the
// engine refuses, is 400 with the engine's paths; streams over the limit
// too; nothing is queued.
func TestReplanBadBodies(t *testing.T) {
	e := newEnv(t, envOptions{maxStreams: 2})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	cases := []struct {
		name, body, code, field string
	}{
		{"not JSON", `{"dc":`, engine.CodeInvalidJSON, ""},
		{"an array", `[]`, "", ""},
		{"trailing data", readTestdata(t, "small-request.json") + ` {}`, engine.CodeInvalidJSON, ""},
		{"unknown member", withMembers(t, map[string]string{"depot": "{}"}), engine.CodeUnknownMember, "body.depot"},
		{"lock not an object", withMembers(t, map[string]string{"lock": `["R1"]`}), "", "body.lock"},
		{"lock unknown member", withMembers(t, map[string]string{"lock": `{"trucks":["R1"]}`}), engine.CodeUnknownMember, "body.lock.trucks"},
		{"too many streams", withMembers(t, map[string]string{"options": `{"streams":3}`}), engine.CodeInvalidValue, "body.options.streams"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", tc.body)
			if tc.code != "" {
				want(t, resp, body, http.StatusBadRequest, tc.code)
			} else {
				want(t, resp, body, http.StatusBadRequest)
			}
			if tc.field != "" && !strings.Contains(string(body), `"field":"`+tc.field+`"`) {
				t.Fatalf("no error at %s: %s", tc.field, body)
			}
		})
	}
	resp, body := e.do(http.MethodPost, "/v1/job/"+src+"/replan", map[string]string{"Authorization": "Bearer " + a.token,
		ConsumerHeader: a.consumer, "Content-Type": "text/plain"}, "{}")
	want(t, resp, body, http.StatusUnsupportedMediaType, codeMediaType)
	if v := e.links(a, src); len(v.Replans) != 0 {
		t.Fatalf("a refused re-plan was queued: %v", v.Replans)
	}
}

// TestReplanTenantIsolation: another consumer re-planning a job gets the
// 404 a job that does not exist gets, word for word but the id, and
// nothing is queued for anyone; its token for the owner's consumer id is
// 403.
func TestReplanTenantIsolation(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	src := e.submit(a)
	e.complete(src)
	body := withMembers(t, map[string]string{"lock": firstRouteLock(t)})

	resp, foreign := e.as(b, http.MethodPost, "/v1/job/"+src+"/replan", body)
	want(t, resp, foreign, http.StatusNotFound, codeNotFound)
	const missing = "00000000-0000-4000-8000-000000000000"
	resp, none := e.as(b, http.MethodPost, "/v1/job/"+missing+"/replan", body)
	want(t, resp, none, http.StatusNotFound, codeNotFound)
	if got, want := strings.ReplaceAll(string(foreign), src, "ID"), strings.ReplaceAll(string(none), missing, "ID"); got != want {
		t.Fatalf("another consumer's job answers\n%s\nwhere a job that does not exist answers\n%s", got, want)
	}
	// Bodies the owner would have refused tell nothing either.
	resp, refused := e.as(b, http.MethodPost, "/v1/job/"+src+"/replan", withMembers(t, map[string]string{"previous": "null"}))
	want(t, resp, refused, http.StatusNotFound, codeNotFound)

	h := map[string]string{"Authorization": "Bearer " + b.token, ConsumerHeader: a.consumer, "Content-Type": "application/json"}
	resp, forbidden := e.do(http.MethodPost, "/v1/job/"+src+"/replan", h, body)
	want(t, resp, forbidden, http.StatusForbidden, codeForbidden)

	if v := e.links(a, src); len(v.Replans) != 0 || !v.Released {
		t.Fatalf("a's job after b's attempts: %+v", v)
	}
	if used, err := e.st.StorageUsed(context.Background(), b.consumer); err != nil || used != 0 {
		t.Fatalf("b stores %d bytes (%v): something was queued for it", used, err)
	}
	// a's re-plan is a's alone: b does not see it, nor b's own job a's.
	next := e.replan(a, src, body)
	resp, foreign = e.as(b, http.MethodGet, "/v1/job/"+next, "")
	want(t, resp, foreign, http.StatusNotFound, codeNotFound)
	bjob := e.submit(b)
	e.complete(bjob)
	resp, foreign = e.as(a, http.MethodPost, "/v1/job/"+bjob+"/replan", body)
	want(t, resp, foreign, http.StatusNotFound, codeNotFound)
}

// TestReplanIdempotencyKey: a re-plan sent again with its key gets the
// first answer and queues nothing more; the key and body sent for
// another job is 422.
func TestReplanIdempotencyKey(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	other := e.submit(a)
	e.complete(other)
	body := readTestdata(t, "small-request.json")
	resp, first := e.withKey(a, "replan-1", http.MethodPost, "/v1/job/"+src+"/replan", body)
	want(t, resp, first, http.StatusAccepted)
	resp, again := e.withKey(a, "replan-1", http.MethodPost, "/v1/job/"+src+"/replan", body)
	want(t, resp, again, http.StatusAccepted)
	if string(again) != string(first) || resp.Header.Get(ReplayedHeader) != "true" {
		t.Fatalf("the repeat: %s (%s %q), want %s replayed", again, ReplayedHeader, resp.Header.Get(ReplayedHeader), first)
	}
	if v := e.links(a, src); len(v.Replans) != 1 {
		t.Fatalf("the repeat queued another re-plan: %v", v.Replans)
	}
	resp, reused := e.withKey(a, "replan-1", http.MethodPost, "/v1/job/"+other+"/replan", body)
	want(t, resp, reused, http.StatusUnprocessableEntity, codeIdempotencyKeyReused)
	if v := e.links(a, other); len(v.Replans) != 0 {
		t.Fatalf("the key reused for another job queued a re-plan: %v", v.Replans)
	}
}

// TestReplanStorageQuota: the previous plan a re-plan stores counts
// against the quota: a body that fits alone but not with the plan is 507.
func TestReplanStorageQuota(t *testing.T) {
	request := readTestdata(t, "small-request.json")
	plan := smallPlan(t)
	// The source job's request and plan, then the body, fit; the plan
	// once more does not.
	quota := int64(2*len(request) + len(plan) + len(plan)/2)
	e := newEnv(t, envOptions{storageQuota: quota})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	e.clock.advance(2 * usageMaxAge) // the quota reads the plan stored since
	resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", request)
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)
	if v := e.links(a, src); len(v.Replans) != 0 {
		t.Fatalf("a re-plan past the quota was queued: %v", v.Replans)
	}
}

// TestReplanNamesThePreviousPlansFaults: what the engine refuses in the
// job's plan as the re-plan's previous plan (here a plan an older service
// stored with a member the engine no longer reads) is 400 at previous.,
// saying whose plan it is, beside the body's own violations.
func TestReplanNamesThePreviousPlansFaults(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	src := e.submit(a)
	ctx := context.Background()
	if _, err := e.st.ClaimJob(ctx, src, "w", time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	old := bytes.Replace(smallPlan(t), []byte(`{"routes":[{`), []byte(`{"routes":[{"crew":2,`), 1)
	if bytes.Equal(old, smallPlan(t)) {
		t.Fatalf("the small plan does not start with its routes: %.80s", smallPlan(t))
	}
	if err := e.st.FinishJob(ctx, src, "w", store.JobCompleted, old, ""); err != nil {
		t.Fatal(err)
	}
	resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", withMembers(t, map[string]string{"depot": "{}"}))
	want(t, resp, body, http.StatusBadRequest, codeUnknownMember)
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		t.Fatal(err)
	}
	byField := map[string]string{}
	for _, x := range eb.Errors {
		byField[x.Field] = x.Description
	}
	if d, ok := byField["previous.routes[0].crew"]; !ok || !strings.Contains(d, src) {
		t.Fatalf("no error at previous.routes[0].crew naming job %s: %s", src, body)
	}
	if _, ok := byField["body.depot"]; !ok {
		t.Fatalf("the body's own violation is not listed: %s", body)
	}
}

// TestReplanCountsInTheQueue: a re-plan waits in its consumer's queue
// like any job: one over the queue's limit is 429 TOO_MANY_QUEUED_JOBS.
func TestReplanCountsInTheQueue(t *testing.T) {
	e := newEnv(t, envOptions{tenantQueuedJobs: 1})
	a := e.newTenant("Acme")
	src := e.submit(a)
	e.complete(src)
	e.replan(a, src, readTestdata(t, "small-request.json"))
	resp, body := e.as(a, http.MethodPost, "/v1/job/"+src+"/replan", readTestdata(t, "small-request.json"))
	want(t, resp, body, http.StatusTooManyRequests, codeQueueFull)
	if v := e.links(a, src); len(v.Replans) != 1 {
		t.Fatalf("replans %v, want the first only", v.Replans)
	}
}
