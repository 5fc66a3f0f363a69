package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/examples/service/internal/api"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// runCommand runs the service's command line in this process and returns
// its exit code, stdout and stderr.
func runCommand(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestTenantCommands: rotate-secret prints a new secret once and the old
// one stops working; revoke-tokens ends every token issued so far, and a
// new one works. Each command names the tenant by name or consumer id, as
// an operator does, on the database a serving process shares.
func TestTenantCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "haulplan.db")
	code, out, errs := runCommand(t, "-db", db, "-log-level", "warn", "tenant", "create", "acme")
	if code != 0 {
		t.Fatalf("tenant create: exit %d: %s", code, errs)
	}
	var created tenant
	if err := json.Unmarshal([]byte(out), &created); err != nil {
		t.Fatal(err)
	}
	srv := serveStore(t, db)
	old := srv.token(t, created, created.ClientSecret)
	if old.status != http.StatusOK {
		t.Fatalf("a token with the first secret: %d", old.status)
	}

	code, out, errs = runCommand(t, "-db", db, "-log-level", "warn", "tenant", "rotate-secret", "acme")
	if code != 0 {
		t.Fatalf("tenant rotate-secret: exit %d: %s", code, errs)
	}
	var rotated tenant
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rotated); err != nil || dec.More() {
		t.Fatalf("rotate-secret printed %q (%v), want one JSON object", out, err)
	}
	if rotated.ConsumerID != created.ConsumerID || rotated.ClientID != created.ClientID || rotated.ClientSecret == "" || rotated.ClientSecret == created.ClientSecret {
		t.Fatalf("rotate-secret printed %+v after %+v", rotated, created)
	}
	if got := srv.token(t, created, created.ClientSecret); got.status != http.StatusUnauthorized {
		t.Fatalf("the old secret after rotation: %d, want 401", got.status)
	}
	fresh := srv.token(t, created, rotated.ClientSecret)
	if fresh.status != http.StatusOK {
		t.Fatalf("the new secret: %d, want 200", fresh.status)
	}

	code, out, errs = runCommand(t, "-db", db, "-log-level", "warn", "tenant", "revoke-tokens", created.ConsumerID)
	if code != 0 {
		t.Fatalf("tenant revoke-tokens: exit %d: %s", code, errs)
	}
	var revoked struct {
		ConsumerID    string `json:"consumerId"`
		RevokedTokens int    `json:"revokedTokens"`
	}
	if err := json.Unmarshal([]byte(out), &revoked); err != nil || revoked.ConsumerID != created.ConsumerID || revoked.RevokedTokens != 2 {
		t.Fatalf("revoke-tokens printed %q (%v), want the consumer id and 2 tokens", out, err)
	}
	// A process that has not cached them (the cached case is bounded by
	// the api package's TestRevokedTokensStopInAnotherProcess).
	other := serveStore(t, db)
	for _, tok := range []string{old.accessToken, fresh.accessToken} {
		if got := other.get(t, created, tok); got != http.StatusUnauthorized {
			t.Fatalf("a revoked token: %d, want 401", got)
		}
	}
	next := other.token(t, created, rotated.ClientSecret)
	if got := other.get(t, created, next.accessToken); next.status != http.StatusOK || got != http.StatusNotFound {
		t.Fatalf("a token after the revocation: %d, then %d; want 200, then 404 for an unknown job", next.status, got)
	}

	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"tenant", "rotate-secret", "nobody"}, 1, `no tenant has the name or consumer id "nobody"`},
		{[]string{"tenant", "revoke-tokens", "nobody"}, 1, `no tenant has the name or consumer id "nobody"`},
		{[]string{"tenant", "revoke-tokens"}, 2, "unknown command"},
	} {
		code, _, errs := runCommand(t, append([]string{"-db", db, "-log-level", "warn"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.says) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.says)
		}
	}
}

// storeServer is the HTTP interface on a database, as a serving process
// has it.
type storeServer struct{ *httptest.Server }

func serveStore(t *testing.T, db string) storeServer {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	st, err := store.OpenSQLite(context.Background(), db, store.Config{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv := httptest.NewServer(api.New(api.Config{Store: st, Logger: log}))
	t.Cleanup(srv.Close)
	return storeServer{srv}
}

type tokenAnswer struct {
	status      int
	accessToken string
}

func (s storeServer) token(t *testing.T, tn tenant, secret string) tokenAnswer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/oauth/v1/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("SVC_CONSUMER.ID", tn.ConsumerID)
	req.SetBasicAuth(url.QueryEscape(tn.ClientID), url.QueryEscape(secret))
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return tokenAnswer{resp.StatusCode, body.AccessToken}
}

// get asks for a job that does not exist: 404 with a good token.
func (s storeServer) get(t *testing.T, tn tenant, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/v1/job/none", nil)
	req.Header.Set("SVC_CONSUMER.ID", tn.ConsumerID)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
