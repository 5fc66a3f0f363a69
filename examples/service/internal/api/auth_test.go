package api

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

func basic(id, secret string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id)+":"+url.QueryEscape(secret)))
}

// oauthError reads the RFC 6749 §5.2 error code of a token response.
func oauthError(t *testing.T, body []byte) string {
	t.Helper()
	var b oauthErrorBody
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return b.Error
}

func TestTokenEndpoint(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	form := "application/x-www-form-urlencoded"
	cases := []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		oauth   string // RFC 6749 error, "" for success
	}{
		{"form credentials", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer},
			"grant_type=client_credentials&client_id=" + url.QueryEscape(a.clientID) + "&client_secret=" + url.QueryEscape(a.secret) + "&scope=anything", http.StatusOK, ""},
		{"basic credentials", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=client_credentials", http.StatusOK, ""},
		{"wrong secret", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, b.secret)},
			"grant_type=client_credentials", http.StatusUnauthorized, "invalid_client"},
		{"unknown client", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer},
			"grant_type=client_credentials&client_id=nobody&client_secret=x", http.StatusUnauthorized, "invalid_client"},
		{"no credentials", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer},
			"grant_type=client_credentials", http.StatusUnauthorized, "invalid_client"},
		{"both methods", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=client_credentials&client_id=" + url.QueryEscape(a.clientID) + "&client_secret=" + url.QueryEscape(a.secret), http.StatusBadRequest, "invalid_request"},
		{"other grant", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=password", http.StatusBadRequest, "unsupported_grant_type"},
		{"no grant", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			"", http.StatusBadRequest, "invalid_request"},
		{"grant twice", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=client_credentials&grant_type=client_credentials", http.StatusBadRequest, "invalid_request"},
		{"JSON body", map[string]string{"Content-Type": "application/json", ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)},
			`{"grant_type":"client_credentials"}`, http.StatusUnsupportedMediaType, "invalid_request"},
		{"no consumer id", map[string]string{"Content-Type": form, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=client_credentials", http.StatusBadRequest, "invalid_request"},
		{"another consumer's client", map[string]string{"Content-Type": form, ConsumerHeader: b.consumer, "Authorization": basic(a.clientID, a.secret)},
			"grant_type=client_credentials", http.StatusForbidden, "unauthorized_client"},
		{"bearer instead of client credentials", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer, "Authorization": "Bearer " + a.token},
			"grant_type=client_credentials", http.StatusUnauthorized, "invalid_client"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := e.do(http.MethodPost, "/oauth/v1/token", tc.headers, tc.body)
			want(t, resp, body, tc.status)
			if tc.oauth == "" {
				var tr tokenResponse
				if err := json.Unmarshal(body, &tr); err != nil || tr.TokenType != "Bearer" || len(tr.AccessToken) != 43 || tr.ExpiresIn != 3600 {
					t.Fatalf("token response %+v (%v)", tr, err)
				}
				if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Pragma") != "no-cache" {
					t.Fatalf("caching headers: %v", resp.Header)
				}
				return
			}
			if got := oauthError(t, body); got != tc.oauth {
				t.Fatalf("error %q, want %q: %s", got, tc.oauth, body)
			}
			if tc.status == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic ") {
				t.Fatalf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	// A token is good until it expires.
	resp, body := e.as(a, http.MethodGet, "/v1/job/none", "")
	want(t, resp, body, http.StatusNotFound)
}

// TestUnauthorized: a missing, malformed, unknown or expired token is 401
// with an RFC 6750 §3 challenge; a good token with another consumer id
// 403; no consumer id 400.
func TestUnauthorized(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	challenge := `Bearer realm="haulplan"`
	invalid := `Bearer realm="haulplan", error="invalid_token"`
	cases := []struct {
		name    string
		headers map[string]string
		status  int
		code    string
		www     string
	}{
		{"no token", map[string]string{ConsumerHeader: a.consumer}, http.StatusUnauthorized, codeUnauthorized, challenge},
		{"basic instead of bearer", map[string]string{ConsumerHeader: a.consumer, "Authorization": basic(a.clientID, a.secret)}, http.StatusUnauthorized, codeUnauthorized, challenge},
		{"empty bearer", map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer "}, http.StatusUnauthorized, codeInvalidToken, invalid},
		{"unknown token", map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer " + strings.Repeat("x", 43)}, http.StatusUnauthorized, codeInvalidToken, invalid},
		{"the secret as a token", map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer " + a.secret}, http.StatusUnauthorized, codeInvalidToken, invalid},
		{"lower-case scheme", map[string]string{ConsumerHeader: a.consumer, "Authorization": "bearer " + a.token}, http.StatusNotFound, codeNotFound, ""},
		{"another consumer's token", map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer " + b.token}, http.StatusForbidden, codeForbidden, ""},
		{"no consumer id", map[string]string{"Authorization": "Bearer " + a.token}, http.StatusBadRequest, codeMissingConsumerID, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := e.do(http.MethodGet, "/v1/job/some-job", tc.headers, "")
			want(t, resp, body, tc.status, tc.code)
			if got := resp.Header.Get("WWW-Authenticate"); tc.www != "" && !strings.HasPrefix(got, tc.www) {
				t.Fatalf("WWW-Authenticate %q, want %q...", got, tc.www)
			}
		})
	}

	// Expiry: the cached token stops working at its expiry, and so does
	// one only the store knows (a fresh process).
	e.clock.advance(DefaultTokenLifetime + time.Second)
	resp, body := e.as(a, http.MethodGet, "/v1/job/some-job", "")
	want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	fresh := newEnvOn(t, e.st, e.clock)
	resp, body = fresh.as(b, http.MethodGet, "/v1/job/some-job", "")
	want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
}

// TestTokenFromStore: a token issued by one process works in another that
// shares the store (and is then cached there).
func TestTokenFromStore(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	other := newEnvOn(t, e.st, e.clock)
	for range 2 {
		resp, body := other.as(a, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}
}

// newEnvOn is a second service process on the same store and clock.
func newEnvOn(t *testing.T, st store.Store, clock *testClock) *testEnv {
	t.Helper()
	e := newEnv(t, envOptions{store: st})
	e.clock.set(clock.now())
	return e
}

// TestTokenCacheSweep: expired tokens leave the cache, read or not.
func TestTokenCacheSweep(t *testing.T) {
	var tc tokenCache
	now := time.Now()
	tc.put([32]byte{1}, "live", now.Add(time.Hour), now)
	for i := range sweepEvery - 2 {
		tc.put([32]byte{2, byte(i), byte(i >> 8)}, "old", now.Add(time.Minute), now)
	}
	later := now.Add(2 * time.Minute)
	if _, ok := tc.get([32]byte{2, 0, 0}, later); ok {
		t.Fatal("an expired token was served from the cache")
	}
	tc.put([32]byte{3}, "new", later.Add(time.Hour), later) // the sweepEvery-th insert
	n := 0
	tc.m.Range(func(any, any) bool { n++; return true })
	if n != 2 {
		t.Fatalf("%d tokens cached after the sweep, want 2 (live, new)", n)
	}
	if tenant, ok := tc.get([32]byte{1}, later); !ok || tenant != "live" {
		t.Fatalf("the live token: %q %v", tenant, ok)
	}
}
