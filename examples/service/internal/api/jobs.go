package api

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// jobCreated is the answer to POST /v1/routes.
type jobCreated struct {
	JobID  string          `json:"jobId"`
	Status store.JobStatus `json:"status"`
}

// createRoutes is POST /v1/routes: the engine request is read and checked
// by the engine (every violation with its path) and against the service's
// own limits (options.streams), recorded as a QUEUED job and queued in one
// transaction. 202 Accepted with the job's address in Location: planning
// happens later. A tenant with a full queue gets 429.
func (s *server) createRoutes(w http.ResponseWriter, r *http.Request, c *call) {
	body, berr := s.readBody(r, "application/json", 0)
	if berr != nil {
		s.refuseBody(w, c, berr)
		return
	}
	req, errs, err := s.decodePlanningRequest(body)
	if err != nil {
		s.internal(w, c, err)
		return
	}
	if e, over := s.limits.streamsViolation(req); over {
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		s.fail(w, c, http.StatusBadRequest, errs...)
		return
	}
	j := store.Job{ID: s.newID(), TenantID: c.tenant, Status: store.JobQueued, Request: body, Created: s.now().UTC()}
	switch err := s.st.CreateJob(r.Context(), j, s.limits.queued); {
	case errors.Is(err, store.ErrQueueFull):
		s.queueFull(w, c)
		return
	case err != nil:
		s.internal(w, c, err)
		return
	}
	c.log.InfoContext(r.Context(), "job created", "job_id", j.ID)
	w.Header().Set("Location", "/v1/job/"+j.ID)
	writeJSON(w, http.StatusAccepted, jobCreated{JobID: j.ID, Status: j.Status})
}

// decodePlanningRequest reads a planning request as the engine does,
// every violation an entry with its path under body. err is a failure
// that is no violation (the engine's own).
func (s *server) decodePlanningRequest(body []byte) (engine.Request, []apiError, error) {
	req, err := engine.DecodeRequest(bytes.NewReader(body))
	if err == nil {
		return req, nil, nil
	}
	errs := violationErrors(err, "body")
	if len(errs) == 0 {
		return engine.Request{}, nil, err
	}
	// The request's other values still read when only the engine's
	// checks failed: its streams are listed with the rest.
	req = engine.Request{}
	_ = req.UnmarshalJSON(body)
	return req, errs, nil
}

// job reads the path's job of the call's tenant, answering 404 (another
// tenant's job included) or 500 itself when it cannot. withRequest reads
// the request too (the reports need it; job details do not).
func (s *server) job(w http.ResponseWriter, r *http.Request, c *call, withRequest bool) (store.Job, bool) {
	id := r.PathValue("jobId")
	read := s.st.JobOverview
	if withRequest {
		read = s.st.Job
	}
	j, err := read(r.Context(), c.tenant, id)
	if errors.Is(err, store.ErrNotFound) {
		s.notFound(w, c, "jobId", "job", id)
		return store.Job{}, false
	}
	if err != nil {
		s.internal(w, c, err)
		return store.Job{}, false
	}
	return j, true
}

// getJob is GET /v1/job/{jobId}: status, progress, and the plan (the best
// so far while RUNNING) with its route and job metrics.
func (s *server) getJob(w http.ResponseWriter, r *http.Request, c *call) {
	j, ok := s.job(w, r, c, false)
	if !ok {
		return
	}
	b, err := jobDetails(j)
	if err != nil {
		s.internal(w, c, err)
		return
	}
	writeRaw(w, http.StatusOK, b)
}

// cancelJob is PUT /v1/job/{jobId}/cancel. A QUEUED or RUNNING job becomes
// CANCELLED (the runner is told at once); a COMPLETED job's release is
// withdrawn (released false, its plan kept). Cancelling again is not an
// error: the job comes back as it is (PUT is idempotent). A FAILED job has
// nothing to cancel: 409 JOB_FAILED. The body is empty, or a JSON object
// with an optional "reason".
func (s *server) cancelJob(w http.ResponseWriter, r *http.Request, c *call) {
	reason := "cancelled by the client"
	if !emptyBody(r) {
		body, berr := s.readBody(r, "application/json", 16<<10)
		if berr != nil {
			s.refuseBody(w, c, berr)
			return
		}
		var given string
		if errs := decodeStringObject(body, "body", map[string]*string{"reason": &given}); len(errs) > 0 {
			s.fail(w, c, http.StatusBadRequest, errs...)
			return
		}
		if given != "" {
			reason = given
		}
	}
	id := r.PathValue("jobId")
	j, err := s.st.CancelJob(r.Context(), c.tenant, id, reason)
	if errors.Is(err, store.ErrNotFound) {
		s.notFound(w, c, "jobId", "job", id)
		return
	}
	if err != nil {
		s.internal(w, c, err)
		return
	}
	if j.Status == store.JobFailed {
		s.fail(w, c, http.StatusConflict, apiError{Code: codeJobFailed, Field: "jobId",
			Description: "The job failed (" + j.Error + "); there is nothing to cancel.", Category: categoryApplication})
		return
	}
	if j.Status == store.JobCancelled && s.canceller != nil {
		s.canceller.Cancel(j.ID)
	}
	c.log.InfoContext(r.Context(), "job cancelled", "job_id", j.ID, "status", string(j.Status), "released", j.Released)
	b, err := jobDetails(j)
	if err != nil {
		s.internal(w, c, err)
		return
	}
	writeRaw(w, http.StatusOK, b)
}
