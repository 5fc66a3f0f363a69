package api

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// xlsxType is the media type of the dispatch summary workbook.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// dispatchSummary is GET /v1/job/{jobId}/dispatchSummary: the workbook of
// the job's release. Only a COMPLETED job whose release stands has one: a
// job still QUEUED or RUNNING gets 409 PLAN_NOT_READY (its best plan so far
// is not a release to dispatch from), a FAILED or CANCELLED job or a
// withdrawn release 409 NO_RELEASE.
func (s *server) dispatchSummary(w http.ResponseWriter, r *http.Request, c *call) {
	j, ok := s.job(w, r, c, true)
	if !ok {
		return
	}
	switch {
	case j.Status == store.JobQueued || j.Status == store.JobRunning:
		s.fail(w, c, http.StatusConflict, apiError{Code: codePlanNotReady, Field: "jobId",
			Description: "The job is " + string(j.Status) + "; its dispatch summary exists once it is COMPLETED.",
			Category:    categoryApplication})
		return
	case j.Status != store.JobCompleted || !j.Released || len(j.Plan) == 0:
		what := "the job is " + string(j.Status)
		if j.Status == store.JobCompleted {
			what = "the job's release was cancelled"
		}
		s.fail(w, c, http.StatusConflict, apiError{Code: codeNoRelease, Field: "jobId",
			Description: "There is no release to summarise: " + what + ".", Category: categoryApplication})
		return
	}
	s.planFile(w, c, j, xlsxType, `attachment; filename="dispatch-summary-`+j.ID+`.xlsx"`, report.DispatchSummary)
}

// jobReport is GET /v1/job/{jobId}/report: the self-contained HTML page of
// the job's plan for a planner's browser, the best plan so far while the
// job runs (the page says nothing else is final: planState in the job
// details does). 409 PLAN_NOT_READY while there is no plan.
func (s *server) jobReport(w http.ResponseWriter, r *http.Request, c *call) {
	j, ok := s.job(w, r, c, true)
	if !ok {
		return
	}
	if len(bytes.TrimSpace(j.Plan)) == 0 {
		s.fail(w, c, http.StatusConflict, apiError{Code: codePlanNotReady, Field: "jobId",
			Description: "The job (" + string(j.Status) + ") has no plan yet.", Category: categoryApplication})
		return
	}
	// The page fetches nothing and runs no script: forbid both, and let
	// no other site frame it (clickjacking) or a <base> redirect its links.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'")
	s.planFile(w, c, j, "text/html; charset=utf-8", "", report.HTML)
}

// planFile renders a file of the job's request and plan into memory and
// sends it, so that a failure is a clean 500, never a cut file.
func (s *server) planFile(w http.ResponseWriter, c *call, j store.Job, mediaType, disposition string, render func(io.Writer, engine.Request, engine.Result) error) {
	req, err := engine.DecodeRequest(bytes.NewReader(j.Request))
	if err != nil {
		s.internal(w, c, fmt.Errorf("job %s: stored request: %w", j.ID, err))
		return
	}
	plan, err := engine.DecodePlan(bytes.NewReader(j.Plan))
	if err != nil {
		s.internal(w, c, fmt.Errorf("job %s: stored plan: %w", j.ID, err))
		return
	}
	var buf bytes.Buffer
	if err := render(&buf, req, plan); err != nil {
		s.internal(w, c, fmt.Errorf("job %s: rendering: %w", j.ID, err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", mediaType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if disposition != "" {
		h.Set("Content-Disposition", disposition)
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}
