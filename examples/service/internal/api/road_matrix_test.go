package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/haulplan/haulplan/engine"
)

// matrixBody is the small request with a road matrix of ids (a leg of
// 1 km and 60 s between any two, 0 to itself), as JSON.
func matrixBody(t *testing.T, ids []string) string {
	t.Helper()
	var req map[string]any
	if err := json.Unmarshal([]byte(readTestdata(t, "small-request.json")), &req); err != nil {
		t.Fatal(err)
	}
	dist, dur := make([][]any, len(ids)), make([][]any, len(ids))
	for i := range ids {
		dist[i], dur[i] = make([]any, len(ids)), make([]any, len(ids))
		for j := range ids {
			dist[i][j], dur[i][j] = 1000, 60
			if i == j {
				dist[i][j], dur[i][j] = 0, 0
			}
		}
	}
	dist[0][1], dur[0][1] = nil, nil // one leg without a route
	req["travel"] = map[string]any{"matrix": map[string]any{"ids": ids, "distancesM": dist, "durationsS": dur}}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A planning request with a road matrix is accepted and matches the
// OpenAPI document's schema; one whose matrix lacks a store is refused
// with the matrix's path.
func TestCreateRoutesWithRoadMatrix(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	body := matrixBody(t, []string{"DC-LANCASTER", "S001", "S002", "S003", "ELSEWHERE"})

	validate := func(body string) error {
		probe, _ := http.NewRequest(http.MethodPost, "http://localhost/v1/routes", bytes.NewReader([]byte(body)))
		probe.Header.Set("Content-Type", "application/json")
		probe.Header.Set("SVC_CONSUMER.ID", "consumer")
		route, params, err := openAPIRouter(t).FindRoute(probe)
		if err != nil {
			t.Fatal(err)
		}
		return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{Request: probe, PathParams: params,
			Route: route, Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}})
	}
	if err := validate(body); err != nil {
		t.Fatalf("the request with a matrix does not match the OpenAPI document: %v", err)
	}
	for _, bad := range []string{`"distancesM":[[-1,null`, `"distancesM":[["x",null`, `"distances":[[0,null`, `"distancesM":[0,null`} {
		if !strings.Contains(body, `"distancesM":[[0,null`) {
			t.Fatalf("the body's matrix is written otherwise: %.300s", body)
		}
		if validate(strings.Replace(body, `"distancesM":[[0,null`, bad, 1)) == nil {
			t.Errorf("the OpenAPI document accepts %s", bad)
		}
	}

	resp, got := e.as(a, http.MethodPost, "/v1/routes", body)
	want(t, resp, got, http.StatusAccepted)

	resp, got = e.as(a, http.MethodPost, "/v1/routes", matrixBody(t, []string{"DC-LANCASTER", "S001", "S002"}))
	want(t, resp, got, http.StatusBadRequest, engine.CodeRequired)
	var eb errorBody
	_ = json.Unmarshal(got, &eb)
	var fields []string
	for _, x := range eb.Errors {
		fields = append(fields, x.Field)
	}
	if !slices.Contains(fields, "body.travel.matrix.ids") {
		t.Errorf("fields %v lack body.travel.matrix.ids", fields)
	}
}
