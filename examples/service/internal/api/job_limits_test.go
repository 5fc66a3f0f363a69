package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// requestWith is the small request with its options.streams set and, when
// badWeight, a pallet whose weight the engine refuses.
func requestWith(t *testing.T, streams int, badWeight bool) string {
	t.Helper()
	var req map[string]any
	if err := json.Unmarshal([]byte(readTestdata(t, "small-request.json")), &req); err != nil {
		t.Fatal(err)
	}
	opts, _ := req["options"].(map[string]any)
	if opts == nil {
		opts = map[string]any{}
		req["options"] = opts
	}
	opts["streams"] = streams
	if badWeight {
		req["pallets"].([]any)[0].(map[string]any)["weightKg"] = -5
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCreateRoutesRefusesMoreStreamsThanTheServiceRuns(t *testing.T) {
	e := newEnv(t, envOptions{maxStreams: 8})
	a := e.newTenant("Acme")
	resp, body := e.as(a, http.MethodPost, "/v1/routes", requestWith(t, 8, false))
	want(t, resp, body, http.StatusAccepted)

	resp, body = e.as(a, http.MethodPost, "/v1/routes", requestWith(t, 9, false))
	want(t, resp, body, http.StatusBadRequest, "INVALID_VALUE")
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		t.Fatal(err)
	}
	if len(eb.Errors) != 1 || eb.Errors[0].Field != "body.options.streams" || !strings.Contains(eb.Errors[0].Description, "at most 8") {
		t.Errorf("errors %+v, want one at body.options.streams saying at most 8", eb.Errors)
	}

	// Listed with the request's other violations.
	resp, body = e.as(a, http.MethodPost, "/v1/routes", requestWith(t, 256, true))
	want(t, resp, body, http.StatusBadRequest)
	eb = errorBody{}
	if err := json.Unmarshal(body, &eb); err != nil {
		t.Fatal(err)
	}
	fields := map[string]bool{}
	for _, er := range eb.Errors {
		fields[er.Field] = true
	}
	if !fields["body.options.streams"] || !fields["body.pallets[0].weightKg"] {
		t.Errorf("fields %v, want body.options.streams and body.pallets[0].weightKg", fields)
	}
}

func TestCreateRoutesHoldsATenantToItsQueue(t *testing.T) {
	e := newEnv(t, envOptions{tenantQueuedJobs: 2, tenantRunningJobs: 1})
	a := e.newTenant("Acme")
	b := e.newTenant("Bolt")
	first := e.submit(a)
	e.submit(a)
	resp, body := e.as(a, http.MethodPost, "/v1/routes", readTestdata(t, "small-request.json"))
	want(t, resp, body, http.StatusTooManyRequests, codeQueueFull)
	if got := resp.Header.Get("Retry-After"); got != "30" {
		t.Errorf("Retry-After %q, want 30", got)
	}
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		t.Fatal(err)
	}
	if d := eb.Errors[0].Description; !strings.Contains(d, "2 planning jobs queued") || !strings.Contains(d, "1 planning job at a time") ||
		eb.Errors[0].Category != categoryLimit {
		t.Errorf("error %+v, want the queue's limit of 2 and the 1 running at a time named, category LIMIT", eb.Errors[0])
	}
	// Another tenant's queue is its own.
	e.submit(b)
	// Once a job has started, its place in the queue is free.
	if _, err := e.st.ClaimJob(t.Context(), first, "test-worker", time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	e.submit(a)
}

func TestOpenAPIStatesTheJobLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		opts envOptions
		want []string
	}{
		{"defaults", envOptions{}, []string{"options.streams is at most 4 (", "may have 10 planning jobs waiting"}},
		{"configured", envOptions{maxStreams: 16, tenantQueuedJobs: 1, tenantRunningJobs: 2},
			[]string{"options.streams is at most 16 (", "may have 1 planning job waiting", "at most 2 of them run at once"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newEnv(t, c.opts).openAPIDescription(t, c.want...)
		})
	}
}
