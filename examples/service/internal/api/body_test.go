package api

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBodyOverTheLimitIs413: a body over its operation's limit is 413
// Content Too Large (RFC 9110 §15.5.14) with BODY_TOO_LARGE, whether its
// Content-Length announces it or the bytes sent without one (chunked)
// run past the limit, and the token endpoint's too, with RFC 6749's
// invalid_request beside it.
func TestBodyOverTheLimitIs413(t *testing.T) {
	e := newEnv(t, envOptions{maxBody: 64 << 10})
	a := e.newTenant("Acme")
	del := e.book(a)
	big := `{"dc":"` + strings.Repeat("x", 70<<10) + `"}`
	send := func(method, path, contentType, body string, chunked bool) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if chunked { // a reader of unknown length: no Content-Length
			req.Body = io.NopCloser(io.MultiReader(strings.NewReader(body)))
			req.ContentLength = -1
		}
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Authorization", "Bearer "+a.token)
		req.Header[ConsumerHeader] = []string{a.consumer}
		resp, err := e.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		validateResponse(t, req, resp, b)
		return resp, b
	}
	for _, chunked := range []bool{false, true} {
		name := "Content-Length"
		if chunked {
			name = "chunked"
		}
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct{ method, path, body string }{
				{http.MethodPost, "/v1/routes", big},
				{http.MethodPost, "/deliveries", `{"deliveries":{"clientId":"` + strings.Repeat("x", 70<<10) + `"}}`},
				{http.MethodPut, "/deliveries/" + del + "/update", `{"deliveries":{"clientId":"` + strings.Repeat("x", 70<<10) + `"}}`},
				{http.MethodPut, "/deliveries/" + del + "/cancel", `{"reason":"` + strings.Repeat("x", 20<<10) + `"}`},
				{http.MethodPut, "/v1/job/none/cancel", `{"reason":"` + strings.Repeat("x", 20<<10) + `"}`},
			} {
				resp, body := send(c.method, c.path, "application/json", c.body, chunked)
				want(t, resp, body, http.StatusRequestEntityTooLarge, codeBodyTooLarge)
			}
			resp, body := send(http.MethodPost, "/oauth/v1/token", "application/x-www-form-urlencoded",
				"grant_type=client_credentials&client_id="+strings.Repeat("x", 70<<10), chunked)
			want(t, resp, body, http.StatusRequestEntityTooLarge, codeBodyTooLarge)
			if !strings.Contains(string(body), `"error":"invalid_request"`) {
				t.Errorf("the token's 413 lacks RFC 6749's invalid_request: %s", body)
			}
		})
	}
	if h := e.history(a, del); len(h) != 1 {
		t.Fatalf("a refused body changed the delivery: %d changes", len(h))
	}
}
