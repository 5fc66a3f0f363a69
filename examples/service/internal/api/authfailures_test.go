package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// TestFailedTokensThrottlePerAddress: ten unknown tokens from one address
// are answered 401, the eleventh 429 with Retry-After (a failure comes
// back every 6 s at ten a minute), without a database read; another
// address is not affected, nor a token this process verified before.
func TestFailedTokensThrottlePerAddress(t *testing.T) {
	counted := &tokenReads{Store: newTestStore(t)}
	e := newEnv(t, envOptions{store: counted, authFailuresPerMinute: 10,
		trustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	a := e.newTenant("Acme")
	from := func(addr, token string) (*http.Response, []byte) {
		return e.do(http.MethodGet, "/v1/job/none", map[string]string{
			ConsumerHeader: a.consumer, "Authorization": "Bearer " + token, "X-Forwarded-For": addr}, "")
	}
	for i := range 10 {
		resp, body := from("203.0.113.5", "guess-"+itoa(i))
		want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	}
	reads := counted.n.Load()
	resp, body := from("203.0.113.5", "guess-10")
	want(t, resp, body, http.StatusTooManyRequests, codeAuthThrottled)
	if got := resp.Header.Get("Retry-After"); got != "6" {
		t.Fatalf("Retry-After %q, want 6", got)
	}
	if counted.n.Load() != reads {
		t.Fatal("a throttled token was looked up in the store")
	}
	// Another address has failures of its own left.
	resp, body = from("198.51.100.7", "guess-11")
	want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	// The tenant's own token, verified here before, still works.
	resp, body = from("203.0.113.5", a.token)
	want(t, resp, body, http.StatusNotFound, codeNotFound)
	// After 6 s the address may fail once more, then waits again.
	e.clock.advance(6 * time.Second)
	resp, body = from("203.0.113.5", "guess-12")
	want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	resp, body = from("203.0.113.5", "guess-13")
	want(t, resp, body, http.StatusTooManyRequests, codeAuthThrottled)
}

// TestFailedSecretsThrottlePerClientID: ten wrong secrets for one client
// id, each from another address, leave that client id no failure: the
// eleventh request is 429 whatever secret it carries (the right one
// included) until a failure comes back; other client ids are not affected.
func TestFailedSecretsThrottlePerClientID(t *testing.T) {
	e := newEnv(t, envOptions{authFailuresPerMinute: 10,
		trustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	token := func(tn tenant, secret, addr string) (*http.Response, []byte) {
		return e.do(http.MethodPost, "/oauth/v1/token", map[string]string{
			"Content-Type": "application/x-www-form-urlencoded", ConsumerHeader: tn.consumer,
			"Authorization": basic(tn.clientID, secret), "X-Forwarded-For": addr}, "grant_type=client_credentials")
	}
	for i := range 10 {
		resp, body := token(a, "wrong", "192.0.2."+itoa(i+1))
		want(t, resp, body, http.StatusUnauthorized, "INVALID_CLIENT")
	}
	resp, body := token(a, a.secret, "192.0.2.100")
	want(t, resp, body, http.StatusTooManyRequests, codeAuthThrottled)
	if resp.Header.Get("Retry-After") != "6" {
		t.Fatalf("Retry-After %q, want 6", resp.Header.Get("Retry-After"))
	}
	resp, body = token(b, b.secret, "192.0.2.100")
	want(t, resp, body, http.StatusOK)
	e.clock.advance(6 * time.Second)
	resp, body = token(a, a.secret, "192.0.2.100")
	want(t, resp, body, http.StatusOK)
}

// TestFailedSecretsThrottlePerAddress: ten wrong client credentials from
// one address, each for another client id, leave that address no failure:
// its next token request is 429 even with good credentials, another
// address's is not.
func TestFailedSecretsThrottlePerAddress(t *testing.T) {
	e := newEnv(t, envOptions{authFailuresPerMinute: 10,
		trustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	a := e.newTenant("Acme")
	token := func(id, secret, addr string) (*http.Response, []byte) {
		return e.do(http.MethodPost, "/oauth/v1/token", map[string]string{
			"Content-Type": "application/x-www-form-urlencoded", ConsumerHeader: a.consumer,
			"Authorization": basic(id, secret), "X-Forwarded-For": addr}, "grant_type=client_credentials")
	}
	for i := range 10 {
		resp, body := token("client-"+itoa(i), "wrong", "198.51.100.20")
		want(t, resp, body, http.StatusUnauthorized, "INVALID_CLIENT")
	}
	resp, body := token(a.clientID, a.secret, "198.51.100.20")
	want(t, resp, body, http.StatusTooManyRequests, codeAuthThrottled)
	resp, body = token(a.clientID, a.secret, "198.51.100.21")
	want(t, resp, body, http.StatusOK)
}

// TestForwardedForIgnoredUnlessTrusted: without trusted proxies a client
// cannot escape its address's limit by naming another in X-Forwarded-For.
func TestForwardedForIgnoredUnlessTrusted(t *testing.T) {
	e := newEnv(t, envOptions{authFailuresPerMinute: 3})
	a := e.newTenant("Acme")
	for i := range 4 {
		resp, body := e.do(http.MethodGet, "/v1/job/none", map[string]string{ConsumerHeader: a.consumer,
			"Authorization": "Bearer guess-" + itoa(i), "X-Forwarded-For": "192.0.2." + itoa(i+1)}, "")
		status, code := http.StatusUnauthorized, codeInvalidToken
		if i == 3 {
			status, code = http.StatusTooManyRequests, codeAuthThrottled
		}
		want(t, resp, body, status, code)
	}
}

// TestClientAddress: the address failures count against.
func TestClientAddress(t *testing.T) {
	s := &server{trustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}}
	for _, c := range []struct {
		remote, forwarded, want string
	}{
		{"192.0.2.1:5000", "", "192.0.2.1"},
		{"192.0.2.1:5000", "198.51.100.1", "192.0.2.1"}, // not from a trusted proxy
		{"10.1.2.3:5000", "198.51.100.1", "198.51.100.1"},
		{"10.1.2.3:5000", "203.0.113.9, 198.51.100.1, 10.9.9.9", "198.51.100.1"}, // the rightmost untrusted hop
		{"10.1.2.3:5000", "", "10.1.2.3"},
		{"10.1.2.3:5000", "garbage, 10.9.9.9", "10.9.9.9"},
		{"[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:443", "", "2001:db8:1:2::/64"},
		{"[::1]:443", "2001:db8:9::1", "2001:db8:9::/64"},
		{"[::ffff:192.0.2.7]:80", "", "192.0.2.7"},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = c.remote
		if c.forwarded != "" {
			r.Header.Set("X-Forwarded-For", c.forwarded)
		}
		if got := s.clientAddress(r); got != c.want {
			t.Errorf("%s forwarded for %q: %q, want %q", c.remote, c.forwarded, got, c.want)
		}
	}
}

// TestUnknownTokenReadOnce: a client retrying a token the store does not
// know costs one database read in badTokenMemory, not one a request.
func TestUnknownTokenReadOnce(t *testing.T) {
	counted := &tokenReads{Store: newTestStore(t)}
	e := newEnv(t, envOptions{store: counted})
	a := e.newTenant("Acme")
	stale := map[string]string{ConsumerHeader: a.consumer, "Authorization": "Bearer " + strings.Repeat("s", 43)}
	for range 5 {
		resp, body := e.do(http.MethodGet, "/v1/job/none", stale, "")
		want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	}
	if n := counted.n.Load(); n != 1 {
		t.Fatalf("5 requests with one unknown token read the store %d times, want 1", n)
	}
	e.clock.advance(badTokenMemory)
	resp, body := e.do(http.MethodGet, "/v1/job/none", stale, "")
	want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	if n := counted.n.Load(); n != 2 {
		t.Fatalf("after %v the store was read %d times in all, want 2", badTokenMemory, n)
	}
}

// tokenReads counts the store's token lookups.
type tokenReads struct {
	store.Store
	n atomic.Int64
}

func (s *tokenReads) Token(ctx context.Context, hash []byte) (store.Token, error) {
	s.n.Add(1)
	return s.Store.Token(ctx, hash)
}
