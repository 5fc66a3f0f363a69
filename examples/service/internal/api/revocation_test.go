package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// twoStoresOnOneFile opens two stores on one SQLite file, as two processes
// sharing a database do.
func twoStoresOnOneFile(t *testing.T) (store.Store, store.Store) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "haulplan.db")
	cfg := store.Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	var sts [2]store.Store
	for i := range sts {
		st, err := store.OpenSQLite(context.Background(), path, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		sts[i] = st
	}
	return sts[0], sts[1]
}

// TestRevokedTokensStopInAnotherProcess: tokens revoked through another
// store on the database stop working here within tokenRecheck, though
// this process verified and cached them (one it issued itself, one it
// looked up in the store); the tenant's next token works.
func TestRevokedTokensStopInAnotherProcess(t *testing.T) {
	here, elsewhere := twoStoresOnOneFile(t)
	e := newEnv(t, envOptions{store: here})
	other := newEnvOn(t, elsewhere, e.clock)
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	fromOther := other.newTenantToken(a)
	for _, tn := range []tenant{a, fromOther} {
		resp, body := e.as(tn, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}

	consumer, n, err := RevokeTokens(context.Background(), elsewhere, "Acme")
	if err != nil || consumer != a.consumer || n != 2 {
		t.Fatalf("RevokeTokens = %q, %d, %v; want %s, 2", consumer, n, err, a.consumer)
	}
	// Within the bound this process still has its verdicts of a moment
	// ago (that is what the cache is for); at the bound it asks again.
	e.clock.advance(tokenRecheck - 1)
	for _, tn := range []tenant{a, fromOther} {
		resp, body := e.as(tn, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusNotFound, codeNotFound)
	}
	e.clock.advance(1)
	for _, tn := range []tenant{a, fromOther} {
		resp, body := e.as(tn, http.MethodGet, "/v1/job/none", "")
		want(t, resp, body, http.StatusUnauthorized, codeInvalidToken)
	}
	// Only a's tokens: b's works, and a new token of a's does.
	resp, body := e.as(b, http.MethodGet, "/v1/job/none", "")
	want(t, resp, body, http.StatusNotFound, codeNotFound)
	a2 := e.newTenantToken(a)
	resp, body = e.as(a2, http.MethodGet, "/v1/job/none", "")
	want(t, resp, body, http.StatusNotFound, codeNotFound)
}

// TestRotatedSecret: after a rotation through another store the old secret
// is refused at once and the new one gets tokens; another tenant's secret
// is untouched.
func TestRotatedSecret(t *testing.T) {
	here, elsewhere := twoStoresOnOneFile(t)
	e := newEnv(t, envOptions{store: here})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	consumer, client, secret, err := RotateSecret(context.Background(), elsewhere, a.consumer)
	if err != nil || consumer != a.consumer || client != a.clientID || secret == a.secret || len(secret) != 43 {
		t.Fatalf("RotateSecret = %q, %q, %d-byte secret, %v", consumer, client, len(secret), err)
	}
	form := "application/x-www-form-urlencoded"
	resp, body := e.do(http.MethodPost, "/oauth/v1/token", map[string]string{"Content-Type": form, ConsumerHeader: a.consumer,
		"Authorization": basic(a.clientID, a.secret)}, "grant_type=client_credentials")
	want(t, resp, body, http.StatusUnauthorized, "INVALID_CLIENT")
	a.secret = secret
	e.newTenantToken(a)
	e.newTenantToken(b)
}

// TestTenantReference: the tenant commands name a tenant by consumer id
// or by a name only it has; an unknown or shared name is refused.
func TestTenantReference(t *testing.T) {
	st := newTestStore(t)
	ctx := context.Background()
	first, _, _, err := CreateTenant(ctx, st, "Twin")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := CreateTenant(ctx, st, "Twin"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := RevokeTokens(ctx, st, "Twin"); err == nil || !contains(err.Error(), "2 tenants are named", first) {
		t.Errorf("a shared name: %v", err)
	}
	if _, _, err := RevokeTokens(ctx, st, first); err != nil {
		t.Errorf("by consumer id: %v", err)
	}
	if _, _, _, err := RotateSecret(ctx, st, "Nobody"); err == nil || !contains(err.Error(), "no tenant has the name or consumer id") {
		t.Errorf("an unknown name: %v", err)
	}
}

// newTenantToken takes a new token with tn's client credentials.
func (e *testEnv) newTenantToken(tn tenant) tenant {
	e.t.Helper()
	resp, body := e.do(http.MethodPost, "/oauth/v1/token", map[string]string{"Content-Type": "application/x-www-form-urlencoded",
		ConsumerHeader: tn.consumer, "Authorization": basic(tn.clientID, tn.secret)}, "grant_type=client_credentials")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("token: %d %s", resp.StatusCode, body)
	}
	var tr tokenResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		e.t.Fatal(err)
	}
	tn.token = tr.AccessToken
	return tn
}

// contains reports whether s contains every one of subs.
func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
