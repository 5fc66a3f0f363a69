package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestSecurityHeaders: every JSON answer, success or error, tells browsers
// not to sniff its type; the report's page may not be framed by another
// site nor have its links redirected by a <base> element.
func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	job := e.submit(a)
	e.complete(job)
	checks := []struct {
		name   string
		method string
		path   string
		tn     *tenant
		status int
	}{
		{"job details", http.MethodGet, "/v1/job/" + job, &a, http.StatusOK},
		{"unknown job", http.MethodGet, "/v1/job/nope", &a, http.StatusNotFound},
		{"no token", http.MethodGet, "/v1/job/" + job, nil, http.StatusUnauthorized},
		{"unknown path", http.MethodGet, "/nowhere", nil, http.StatusNotFound},
		{"OpenAPI document", http.MethodGet, "/openapi.json", nil, http.StatusOK},
	}
	for _, c := range checks {
		var resp *http.Response
		var body []byte
		if c.tn != nil {
			resp, body = e.as(*c.tn, c.method, c.path, "")
		} else {
			resp, body = e.do(c.method, c.path, nil, "")
		}
		want(t, resp, body, c.status)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Content-Type %q, X-Content-Type-Options %q; want JSON and nosniff", c.name,
				resp.Header.Get("Content-Type"), resp.Header.Get("X-Content-Type-Options"))
		}
	}

	resp, body := e.as(a, http.MethodGet, "/v1/job/"+job+"/report", "")
	want(t, resp, body, http.StatusOK)
	csp := map[string]bool{}
	for d := range strings.SplitSeq(resp.Header.Get("Content-Security-Policy"), ";") {
		csp[strings.TrimSpace(d)] = true
	}
	for _, d := range []string{"default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"} {
		if !csp[d] {
			t.Errorf("the report's Content-Security-Policy %q lacks %q", resp.Header.Get("Content-Security-Policy"), d)
		}
	}
}
