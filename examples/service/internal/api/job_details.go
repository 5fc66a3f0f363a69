package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Plan states in job details: which plan "routes", "unassigned" and
// "metrics" show.
const (
	planNone      = "NONE"        // no plan yet: routes and unassigned empty, metrics null
	planBestSoFar = "BEST_SO_FAR" // the best plan found so far by a running (or cancelled) search
	planFinal     = "FINAL"       // the completed job's plan
)

// jobHeader is the part of job details that is not the plan.
type jobHeader struct {
	JobID    string `json:"jobId"`
	Status   string `json:"status"`
	Released bool   `json:"released"`
	// ReplanOf is the job this one re-plans (null: planned from
	// scratch); Replans the jobs that re-plan this one, oldest first.
	ReplanOf  *string      `json:"replanOf"`
	Replans   []string     `json:"replans"`
	PlanState string       `json:"planState"`
	Progress  *jobProgress `json:"progress"`
	Error     *string      `json:"error"`
	Attempt   int          `json:"attempt"`
	Created   *time.Time   `json:"created"`
	Started   *time.Time   `json:"started"`
	Finished  *time.Time   `json:"finished"`
}

// jobProgress is the latest progress report, durations as Go duration
// strings like the engine's JSON.
type jobProgress struct {
	Phase      string    `json:"phase"`
	Round      int       `json:"round"`
	Elapsed    string    `json:"elapsed"`
	Limit      string    `json:"limit"`
	Routes     int       `json:"routes"`
	Delivered  int       `json:"delivered"`
	Unassigned int       `json:"unassigned"`
	Cost       float64   `json:"cost"`
	Updated    time.Time `json:"updated"`
}

// jobDetails encodes a job's details: the header members, then the plan's
// own members (routes, each with its stops, load and metrics; unassigned;
// metrics of the job) spliced in from the stored plan JSON as they are,
// without decoding it: a large plan costs a copy, not a parse, on every
// GET.
func jobDetails(j store.Job) ([]byte, error) {
	h := jobHeader{JobID: j.ID, Status: string(j.Status), Released: j.Status == store.JobCompleted && j.Released,
		Replans: j.Replans, PlanState: planNone, Attempt: j.Attempt,
		Created: instant(j.Created), Started: instant(j.Started), Finished: instant(j.Finished)}
	plan := bytes.TrimSpace(j.Plan)
	if len(plan) > 0 {
		h.PlanState = planBestSoFar
		if j.Status == store.JobCompleted {
			h.PlanState = planFinal
		}
	}
	if h.Replans == nil {
		h.Replans = []string{}
	}
	if j.ReplanOf != "" {
		of := j.ReplanOf
		h.ReplanOf = &of
	}
	if j.Error != "" {
		e := j.Error
		h.Error = &e
	}
	if p := j.Progress; p.Phase != "" || !p.Updated.IsZero() {
		h.Progress = &jobProgress{Phase: p.Phase, Round: p.Round, Elapsed: p.Elapsed.String(), Limit: p.Limit.String(),
			Routes: p.Routes, Delivered: p.Delivered, Unassigned: p.Unassigned, Cost: p.Cost, Updated: p.Updated.UTC()}
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if len(plan) == 0 {
		out := head[: len(head)-1 : len(head)-1]
		return append(out, `,"routes":[],"unassigned":[],"metrics":null}`...), nil
	}
	if plan[0] != '{' || plan[len(plan)-1] != '}' {
		return nil, fmt.Errorf("api: job %s: the stored plan is not a JSON object", j.ID)
	}
	members := bytes.TrimSpace(plan[1 : len(plan)-1])
	// The engine writes routes and unassigned as arrays, empty ones too
	// (engine/result_assembly.go), so the members need no rewriting.
	out := make([]byte, 0, len(head)+len(members)+2)
	out = append(out, head[:len(head)-1]...)
	if len(members) > 0 {
		out = append(out, ',')
		out = append(out, members...)
	}
	return append(out, '}'), nil
}

// instant is nil for a zero time (JSON null), else the time in UTC.
func instant(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
