package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Error codes of re-planning.
const (
	// codeNoPlan: the job never will have a plan (FAILED, or CANCELLED
	// before it completed); PLAN_NOT_READY says it has none yet.
	codeNoPlan = "NO_PLAN"
)

// replanCreated is the answer to POST /v1/job/{jobId}/replan: the new
// job, as POST /v1/routes answers, and the job it re-plans.
type replanCreated struct {
	JobID    string          `json:"jobId"`
	Status   store.JobStatus `json:"status"`
	ReplanOf string          `json:"replanOf"`
}

// replanJob is POST /v1/job/{jobId}/replan: a new job that plans the
// body, an ordinary planning request with its changes (orders, stores,
// fleet, shifts) and its "lock", from the previous plan the path's job
// has. The service puts that plan into the request as "previous"; a body
// that carries one of its own is refused. Only a COMPLETED job has a plan
// to re-plan, whether its release stands or not: a job still QUEUED or
// RUNNING is 409 PLAN_NOT_READY, a FAILED or CANCELLED one 409 NO_PLAN.
// The new job is queued as POST /v1/routes queues one (limits, queue,
// quota) and linked to its source: each job's details name the other.
// Neither job's release is changed: a client that means the re-plan to
// replace the plan cancels the source's release itself.
func (s *server) replanJob(w http.ResponseWriter, r *http.Request, c *call) {
	body, berr := s.readBody(r, "application/json", 0)
	if berr != nil {
		s.refuseBody(w, c, berr)
		return
	}
	src, ok := s.job(w, r, c, false)
	if !ok {
		return
	}
	if !s.replannable(w, c, src) {
		return
	}
	request, sentPrevious, err := replanRequest(body, bytes.TrimSpace(src.Plan))
	if err != nil {
		// The engine's reader says where the body goes wrong; the
		// scanner's own message is the last resort.
		var errs []apiError
		if _, derr := engine.DecodeRequest(bytes.NewReader(body)); derr != nil {
			errs = violationErrors(derr, "body")
		}
		if len(errs) == 0 {
			errs = []apiError{{Code: codeMalformedJSON, Field: "body", Description: "The body is not a JSON object: " + err.Error() + "."}}
		}
		s.fail(w, c, http.StatusBadRequest, errs...)
		return
	}
	var errs []apiError
	if sentPrevious {
		errs = append(errs, apiError{Code: codeUnknownMember, Field: "body.previous",
			Description: "A re-plan's previous plan is the plan of job " + quote(src.ID) + ", which the service sends itself; " +
				"the body must not carry \"previous\" (POST /v1/routes takes a request with a previous plan of its own)."})
	}
	req, reqErrs, err := s.decodePlanningRequest(request)
	if err != nil {
		s.internal(w, c, err)
		return
	}
	errs = append(errs, previousPlanErrors(reqErrs, src.ID)...)
	if e, over := s.limits.streamsViolation(req); over {
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		s.fail(w, c, http.StatusBadRequest, errs...)
		return
	}
	// The body was counted against the quota before this handler ran; the
	// previous plan it now carries is counted here.
	if !s.withinQuota(w, r, c, max(0, int64(len(request)-len(body)))) {
		return
	}
	j := store.Job{ID: s.newID(), TenantID: c.tenant, Status: store.JobQueued, Request: request, Created: s.now().UTC(), ReplanOf: src.ID}
	switch err := s.st.CreateJob(r.Context(), j, s.limits.queued); {
	case errors.Is(err, store.ErrQueueFull):
		s.queueFull(w, c)
		return
	case errors.Is(err, store.ErrNotFound): // the retention removed the source meanwhile
		s.notFound(w, c, "jobId", "job", src.ID)
		return
	case err != nil:
		s.internal(w, c, err)
		return
	}
	c.log.InfoContext(r.Context(), "job created", "job_id", j.ID, "replan_of", src.ID)
	w.Header().Set("Location", "/v1/job/"+j.ID)
	writeJSON(w, http.StatusAccepted, replanCreated{JobID: j.ID, Status: j.Status, ReplanOf: src.ID})
}

// replannable reports whether job j has a plan to re-plan, and when not,
// answers 409 itself.
func (s *server) replannable(w http.ResponseWriter, c *call, j store.Job) bool {
	switch {
	case j.Status == store.JobCompleted && len(bytes.TrimSpace(j.Plan)) > 0:
		return true
	case j.Status == store.JobQueued || j.Status == store.JobRunning:
		s.fail(w, c, http.StatusConflict, apiError{Code: codePlanNotReady, Field: "jobId",
			Description: "The job is " + string(j.Status) + "; it can be re-planned once it is COMPLETED.", Category: categoryApplication})
	case j.Status == store.JobFailed:
		s.fail(w, c, http.StatusConflict, apiError{Code: codeNoPlan, Field: "jobId",
			Description: "The job failed (" + j.Error + "); it has no plan to re-plan. Plan the day with POST /v1/routes.", Category: categoryApplication})
	default:
		s.fail(w, c, http.StatusConflict, apiError{Code: codeNoPlan, Field: "jobId",
			Description: "The job is " + string(j.Status) + " and has no final plan to re-plan (a search cancelled before it completed leaves none). Plan the day with POST /v1/routes.",
			Category:    categoryApplication})
	}
	return false
}

// previousPlanErrors rewrites the entries at body.previous, which the
// engine finds in the source job's plan as it meets the re-plan's request
// (a locked route whose trailer type the request no longer has, say):
// the client sent no body.previous, so they are named previous and say
// whose plan it is.
func previousPlanErrors(errs []apiError, jobID string) []apiError {
	for i, e := range errs {
		if e.Field == "body.previous" || strings.HasPrefix(e.Field, "body.previous.") || strings.HasPrefix(e.Field, "body.previous[") {
			errs[i].Field = strings.TrimPrefix(e.Field, "body.")
			errs[i].Description = "In the plan of job " + quote(jobID) + ", the re-plan's previous plan: " + e.Description
		}
	}
	return errs
}

// replanRequest is the engine request of a re-plan: the members of body,
// a JSON object, in their order and as sent, then "previous" with plan
// (a JSON object) as its value. A "previous" member of the body is left
// out (sentPrevious reports it). err when the body is not one JSON
// object; the engine's reader checks everything else, in the request it
// will plan.
func replanRequest(body, plan []byte) (request []byte, sentPrevious bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, false, fmt.Errorf("it starts with %s", quote(tokenText(tok)))
	}
	out := make([]byte, 0, len(body)+len(plan)+len(`,"previous":}`))
	out = append(out, '{')
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, false, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false, err
		}
		if name, _ := tok.(string); name == "previous" {
			sentPrevious = true
			continue
		}
		// Between the end of one value and the next name there are only
		// blanks and the comma.
		member := bytes.TrimLeft(body[start:dec.InputOffset()], " \t\r\n,")
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, member...)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, false, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, errors.New("something follows the object")
	}
	if len(out) > 1 {
		out = append(out, ',')
	}
	out = append(out, `"previous":`...)
	out = append(out, plan...)
	return append(out, '}'), sentPrevious, nil
}
