package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// smallPlan is engine.Plan of testdata/small-request.json, computed once.
var (
	smallPlanOnce sync.Once
	smallPlanJSON []byte
	smallPlanErr  error
)

func smallPlan(t testing.TB) []byte {
	t.Helper()
	smallPlanOnce.Do(func() {
		req, err := engine.DecodeRequest(strings.NewReader(readTestdata(t, "small-request.json")))
		if err != nil {
			smallPlanErr = err
			return
		}
		plan, err := engine.Plan(context.Background(), req)
		if err != nil {
			smallPlanErr = err
			return
		}
		smallPlanJSON, smallPlanErr = json.Marshal(plan)
	})
	if smallPlanErr != nil {
		t.Fatal(smallPlanErr)
	}
	return smallPlanJSON
}

// jobView is what the tests read of job details.
type jobView struct {
	JobID      string            `json:"jobId"`
	Status     string            `json:"status"`
	Released   bool              `json:"released"`
	PlanState  string            `json:"planState"`
	Progress   *jobProgress      `json:"progress"`
	Error      *string           `json:"error"`
	Routes     []json.RawMessage `json:"routes"`
	Unassigned []json.RawMessage `json:"unassigned"`
	Metrics    *struct {
		Routes     int     `json:"routes"`
		Pallets    int     `json:"pallets"`
		Unassigned int     `json:"unassigned"`
		Cost       float64 `json:"cost"`
	} `json:"metrics"`
}

func (e *testEnv) getJob(tn tenant, id string) jobView {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodGet, "/v1/job/"+id, "")
	want(e.t, resp, body, http.StatusOK)
	var v jobView
	if err := json.Unmarshal(body, &v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

// submit posts the small request and returns the new job's id.
func (e *testEnv) submit(tn tenant) string {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodPost, "/v1/routes", readTestdata(e.t, "small-request.json"))
	want(e.t, resp, body, http.StatusAccepted)
	var created jobCreated
	if err := json.Unmarshal(body, &created); err != nil {
		e.t.Fatal(err)
	}
	if created.Status != store.JobQueued || created.JobID == "" || resp.Header.Get("Location") != "/v1/job/"+created.JobID {
		e.t.Fatalf("created %+v, Location %q", created, resp.Header.Get("Location"))
	}
	return created.JobID
}

// complete runs the job as a worker would: claim, best plan so far,
// finish with the plan.
func (e *testEnv) complete(id string) {
	e.t.Helper()
	ctx := context.Background()
	if _, err := e.st.ClaimJob(ctx, id, "test-worker", time.Now().Add(time.Minute)); err != nil {
		e.t.Fatal(err)
	}
	if err := e.st.FinishJob(ctx, id, "test-worker", store.JobCompleted, smallPlan(e.t), ""); err != nil {
		e.t.Fatal(err)
	}
}

// TestJobFlow goes token → POST /v1/routes → job details while queued,
// running (best plan so far) and completed → dispatch summary reopened
// with excelize → HTML report → cancel of the release.
func TestJobFlow(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	id := e.submit(a)

	v := e.getJob(a, id)
	if v.Status != "QUEUED" || v.PlanState != planNone || len(v.Routes) != 0 || v.Metrics != nil || v.Progress != nil {
		t.Fatalf("queued job: %+v", v)
	}
	resp, body := e.as(a, http.MethodGet, "/v1/job/"+id+"/dispatchSummary", "")
	want(t, resp, body, http.StatusConflict, codePlanNotReady)
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/report", "")
	want(t, resp, body, http.StatusConflict, codePlanNotReady)

	// Running, with a best plan so far.
	ctx := context.Background()
	if _, err := e.st.ClaimJob(ctx, id, "test-worker", time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	p := store.Progress{Phase: "ROUTING", Round: 2, Elapsed: 1500 * time.Millisecond, Limit: 2 * time.Second, Routes: 1, Delivered: 12, Cost: 563, Updated: time.Now()}
	if err := e.st.SaveProgress(ctx, id, "test-worker", p, smallPlan(t)); err != nil {
		t.Fatal(err)
	}
	v = e.getJob(a, id)
	if v.Status != "RUNNING" || v.PlanState != planBestSoFar || len(v.Routes) == 0 || v.Metrics == nil || v.Progress == nil ||
		v.Progress.Phase != "ROUTING" || v.Progress.Elapsed != "1.5s" || v.Progress.Delivered != 12 {
		t.Fatalf("running job: %+v", v)
	}
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/dispatchSummary", "")
	want(t, resp, body, http.StatusConflict, codePlanNotReady)
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/report", "")
	want(t, resp, body, http.StatusOK)

	if err := e.st.FinishJob(ctx, id, "test-worker", store.JobCompleted, smallPlan(t), ""); err != nil {
		t.Fatal(err)
	}
	v = e.getJob(a, id)
	plan, err := engine.DecodePlan(bytes.NewReader(smallPlan(t)))
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != "COMPLETED" || !v.Released || v.PlanState != planFinal || len(v.Routes) != len(plan.Routes) ||
		v.Metrics.Pallets != plan.Metrics.Pallets || v.Metrics.Routes != plan.Metrics.Routes {
		t.Fatalf("completed job: %+v", v)
	}

	// The dispatch summary, reopened.
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/dispatchSummary", "")
	want(t, resp, body, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); ct != xlsxType {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="dispatch-summary-`+id+`.xlsx"` {
		t.Fatalf("Content-Disposition %q", cd)
	}
	wb, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the dispatch summary does not open: %v", err)
	}
	for _, sheet := range []string{report.SheetSummary, "Routes", "Stops", "Load", "Unassigned"} {
		if !slices.Contains(wb.GetSheetList(), sheet) {
			t.Fatalf("sheets %v lack %s", wb.GetSheetList(), sheet)
		}
	}
	rows, err := wb.GetRows("Routes")
	if err != nil || len(rows) < 1+len(plan.Routes) {
		t.Fatalf("Routes sheet: %d rows (%v), want a header and %d routes", len(rows), err, len(plan.Routes))
	}
	_ = wb.Close()

	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/report", "")
	want(t, resp, body, http.StatusOK)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("<svg")) ||
		resp.Header.Get("Content-Security-Policy") == "" {
		t.Fatalf("report: %s, %d bytes", resp.Header, len(body))
	}

	// Cancelling the release withdraws it; the plan stays readable.
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	v = e.getJob(a, id)
	if v.Status != "COMPLETED" || v.Released || v.PlanState != planFinal {
		t.Fatalf("after the release's cancel: %+v", v)
	}
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/dispatchSummary", "")
	want(t, resp, body, http.StatusConflict, codeNoRelease)
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", `{"reason":"again"}`)
	want(t, resp, body, http.StatusOK)
}

// TestCompletedJobShowsItsPlansProgress runs a job on the planning job
// runner: once COMPLETED, its details show phase DONE with the numbers of
// the plan they carry, not the last report of the search. The runner
// saves progress once an hour here, so only the search's first report is
// saved while it runs.
func TestCompletedJobShowsItsPlansProgress(t *testing.T) {
	e := newEnv(t, envOptions{})
	startRunner(t, e)
	a := e.newTenant("Acme")
	id := e.submit(a)
	v := e.waitFinished(a, id)
	if v.Status != "COMPLETED" || v.PlanState != planFinal || v.Metrics == nil || v.Progress == nil {
		t.Fatalf("finished job: %+v", v)
	}
	p, m := v.Progress, v.Metrics
	if p.Phase != "DONE" || p.Routes != m.Routes || p.Delivered != m.Pallets || p.Unassigned != m.Unassigned || p.Cost != m.Cost {
		t.Fatalf("progress %+v; want phase DONE and the plan's metrics %+v", *p, *m)
	}
}

// TestStoppedJobShowsWhereItStopped: a job cancelled or failed while it
// ran keeps the last progress its search saved (the phase it stopped in,
// never DONE) and the best plan so far that was saved with it.
func TestStoppedJobShowsWhereItStopped(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	ctx := context.Background()
	routing := store.Progress{Phase: "ROUTING", Round: 1, Elapsed: time.Second, Limit: 2 * time.Second, Routes: 1, Delivered: 12, Cost: 563, Updated: time.Now()}
	running := func() string {
		id := e.submit(a)
		if _, err := e.st.ClaimJob(ctx, id, "w", time.Now().Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := e.st.SaveProgress(ctx, id, "w", routing, smallPlan(t)); err != nil {
			t.Fatal(err)
		}
		return id
	}
	cancelled := running()
	resp, body := e.as(a, http.MethodPut, "/v1/job/"+cancelled+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	failed := running()
	if err := e.st.FinishJob(ctx, failed, "w", store.JobFailed, nil, "the planner failed"); err != nil {
		t.Fatal(err)
	}
	for id, status := range map[string]string{cancelled: "CANCELLED", failed: "FAILED"} {
		v := e.getJob(a, id)
		if v.Status != status || v.Released || v.PlanState != planBestSoFar || v.Error == nil || v.Metrics == nil ||
			v.Progress == nil || v.Progress.Phase != "ROUTING" || v.Progress.Cost != 563 {
			t.Fatalf("%s job: %+v", status, v)
		}
	}
}

// TestCancelJob: a queued job is cancelled and the runner told; a second
// cancel answers the same; a failed job's cancel is 409 JOB_FAILED.
func TestCancelJob(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	id := e.submit(a)
	resp, body := e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", `{"reason":"wrong day"}`)
	want(t, resp, body, http.StatusOK)
	var v jobView
	if err := json.Unmarshal(body, &v); err != nil || v.Status != "CANCELLED" {
		t.Fatalf("cancelled job: %+v (%v)", v, err)
	}
	if got := e.cancel.cancelled(); !slices.Contains(got, id) {
		t.Fatalf("the runner was not told: %v", got)
	}
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	resp, body = e.as(a, http.MethodGet, "/v1/job/"+id+"/dispatchSummary", "")
	want(t, resp, body, http.StatusConflict, codeNoRelease)

	resp, body = e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", `{"reason":1}`)
	want(t, resp, body, http.StatusBadRequest, codeInvalidType)
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+id+"/cancel", `{"why":"x"}`)
	want(t, resp, body, http.StatusBadRequest, codeUnknownMember)

	failed := e.submit(a)
	ctx := context.Background()
	if _, err := e.st.ClaimJob(ctx, failed, "w", time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := e.st.FinishJob(ctx, failed, "w", store.JobFailed, nil, "the planner failed"); err != nil {
		t.Fatal(err)
	}
	resp, body = e.as(a, http.MethodPut, "/v1/job/"+failed+"/cancel", "")
	want(t, resp, body, http.StatusConflict, codeJobFailed)
	if v := e.getJob(a, failed); v.Status != "FAILED" || v.Error == nil || *v.Error != "the planner failed" {
		t.Fatalf("failed job: %+v", v)
	}
}

// TestCreateRoutesViolations: the engine's violations come back, every one
// with its path under body.
func TestCreateRoutesViolations(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	var req map[string]any
	if err := json.Unmarshal([]byte(readTestdata(t, "small-request.json")), &req); err != nil {
		t.Fatal(err)
	}
	pallets := req["pallets"].([]any)
	pallets[0].(map[string]any)["weightkg"] = 12
	pallets[2].(map[string]any)["temperature"] = "WARM"
	b, _ := json.Marshal(req)
	resp, body := e.as(a, http.MethodPost, "/v1/routes", string(b))
	want(t, resp, body, http.StatusBadRequest, engine.CodeUnknownMember, engine.CodeInvalidValue)
	var eb errorBody
	_ = json.Unmarshal(body, &eb)
	var fields []string
	for _, x := range eb.Errors {
		fields = append(fields, x.Field)
	}
	for _, f := range []string{"body.pallets[0].weightkg", "body.pallets[2].temperature"} {
		if !slices.Contains(fields, f) {
			t.Fatalf("fields %v lack %s", fields, f)
		}
	}
	resp, body = e.as(a, http.MethodPost, "/v1/routes", `{"dc":`)
	want(t, resp, body, http.StatusBadRequest, engine.CodeInvalidJSON)
}
