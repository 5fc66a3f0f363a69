package store

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTenantsClientsTokens(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		tn, c := newTenant(t, s)
		other, otherClient := newTenant(t, s)

		got, err := s.Client(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.TenantID != tn.ID || !bytes.Equal(got.SecretHash, c.SecretHash) || got.Created.IsZero() {
			t.Errorf("Client = %+v, want tenant %s and the stored hash", got, tn.ID)
		}
		if _, err := s.Client(ctx, "no-such-client"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown client: err = %v, want ErrNotFound", err)
		}
		if err := s.CreateTenant(ctx, tn, Client{ID: newID("client"), SecretHash: []byte("x")}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("tenant again: err = %v, want ErrDuplicate", err)
		}
		if err := s.CreateTenant(ctx, Tenant{ID: newID("tenant"), Name: "n"}, Client{ID: c.ID, SecretHash: []byte("x")}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("client id again: err = %v, want ErrDuplicate", err)
		}

		live := Token{Hash: []byte("live"), TenantID: tn.ID, ClientID: c.ID, Expires: time.Now().Add(time.Hour)}
		expired := Token{Hash: []byte("expired"), TenantID: tn.ID, ClientID: c.ID, Expires: time.Now().Add(-time.Second)}
		for _, tok := range []Token{expired, live} {
			if err := s.PutToken(ctx, tok); err != nil {
				t.Fatalf("PutToken(%s): %v", tok.Hash, err)
			}
		}
		tok, err := s.Token(ctx, []byte("live"))
		if err != nil {
			t.Fatal(err)
		}
		if tok.TenantID != tn.ID || tok.ClientID != c.ID || !tok.Expires.Equal(live.Expires.Truncate(time.Microsecond)) {
			t.Errorf("Token = %+v, want %+v", tok, live)
		}
		for _, hash := range []string{"expired", "unknown"} {
			if _, err := s.Token(ctx, []byte(hash)); !errors.Is(err, ErrNotFound) {
				t.Errorf("Token(%s): err = %v, want ErrNotFound", hash, err)
			}
		}
		// A token names a client of its own tenant.
		cross := Token{Hash: []byte("cross"), TenantID: other.ID, ClientID: c.ID, Expires: time.Now().Add(time.Hour)}
		if err := s.PutToken(ctx, cross); !errors.Is(err, ErrNotFound) {
			t.Errorf("token of another tenant's client: err = %v, want ErrNotFound", err)
		}
		if err := s.PutToken(ctx, Token{Hash: []byte("live"), TenantID: other.ID, ClientID: otherClient.ID, Expires: time.Now().Add(time.Hour)}); !errors.Is(err, ErrDuplicate) {
			t.Errorf("token hash again: err = %v, want ErrDuplicate", err)
		}
	})
}

// TestTenantsByNameOrID: a tenant is found by its consumer id or its
// name, and every tenant of a shared name is returned.
func TestTenantsByNameOrID(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, _ := newTenant(t, s)
		twin := Tenant{ID: newID("tenant"), Name: a.Name}
		if err := s.CreateTenant(ctx, twin, Client{ID: newID("client"), SecretHash: []byte("x")}); err != nil {
			t.Fatal(err)
		}
		other, _ := newTenant(t, s)
		for _, c := range []struct {
			ref  string
			want []string
		}{
			{a.ID, []string{a.ID}},
			{a.Name, []string{a.ID, twin.ID}},
			{other.Name, []string{other.ID}},
			{"nobody", nil},
		} {
			got, err := s.Tenants(ctx, c.ref)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, tn := range got {
				ids = append(ids, tn.ID)
			}
			if strings.Join(ids, ",") != strings.Join(c.want, ",") {
				t.Errorf("Tenants(%q) = %v, want %v", c.ref, ids, c.want)
			}
		}
	})
}

// TestRotateSecretAndRevokeTokens: a rotated secret replaces the client's
// hash, and a revocation forgets the tenant's tokens, only its own.
func TestRotateSecretAndRevokeTokens(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		a, ac := newTenant(t, s)
		b, bc := newTenant(t, s)
		c, err := s.RotateSecret(ctx, a.ID, []byte("new hash"))
		if err != nil {
			t.Fatal(err)
		}
		if c.ID != ac.ID || c.TenantID != a.ID {
			t.Fatalf("RotateSecret = %+v, want client %s", c, ac.ID)
		}
		if got, err := s.Client(ctx, ac.ID); err != nil || string(got.SecretHash) != "new hash" {
			t.Fatalf("after rotation: %+v %v", got, err)
		}
		if got, _ := s.Client(ctx, bc.ID); !bytes.Equal(got.SecretHash, bc.SecretHash) {
			t.Fatalf("another tenant's secret changed: %q", got.SecretHash)
		}
		if _, err := s.RotateSecret(ctx, "no-such-tenant", []byte("x")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown tenant: err = %v, want ErrNotFound", err)
		}

		expires := time.Now().Add(time.Hour)
		for i, tok := range []Token{
			{Hash: []byte("a1"), TenantID: a.ID, ClientID: ac.ID, Expires: expires},
			{Hash: []byte("a2"), TenantID: a.ID, ClientID: ac.ID, Expires: expires},
			{Hash: []byte("b1"), TenantID: b.ID, ClientID: bc.ID, Expires: expires},
		} {
			if err := s.PutToken(ctx, tok); err != nil {
				t.Fatalf("token %d: %v", i, err)
			}
		}
		n, err := s.RevokeTokens(ctx, a.ID)
		if err != nil || n != 2 {
			t.Fatalf("RevokeTokens = %d, %v; want 2", n, err)
		}
		for _, hash := range []string{"a1", "a2"} {
			if _, err := s.Token(ctx, []byte(hash)); !errors.Is(err, ErrNotFound) {
				t.Errorf("revoked token %s: err = %v, want ErrNotFound", hash, err)
			}
		}
		if _, err := s.Token(ctx, []byte("b1")); err != nil {
			t.Errorf("another tenant's token: %v", err)
		}
		if n, err := s.RevokeTokens(ctx, a.ID); err != nil || n != 0 {
			t.Errorf("revoking again = %d, %v; want 0", n, err)
		}
	})
}

// second is the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

func TestInvalidInputListsEveryField(t *testing.T) {
	eachStore(t, func(t *testing.T, h harness, s Store) {
		ctx := context.Background()
		for _, c := range []struct {
			name   string
			err    error
			fields []string
		}{
			{"tenant", s.CreateTenant(ctx, Tenant{}, Client{TenantID: "x"}),
				[]string{"tenant.id", "tenant.name", "client.id", "client.secretHash", "client.tenantId"}},
			{"token", s.PutToken(ctx, Token{}), []string{"hash", "tenantId", "clientId", "expires"}},
			{"rotate secret", second(s.RotateSecret(ctx, "", nil)), []string{"tenantId", "secretHash"}},
			{"revoke tokens", second(s.RevokeTokens(ctx, "")), []string{"tenantId"}},
			{"job", s.CreateJob(ctx, Job{Status: JobRunning}, 0), []string{"id", "tenantId", "request", "status"}},
			{"delivery", s.CreateDelivery(ctx, Delivery{}, Change{}),
				[]string{"delivery.id", "delivery.tenantId", "delivery.status", "delivery.body", "change.kind"}},
			{"update", s.UpdateDelivery(ctx, Delivery{ID: "d", TenantID: "t", Status: "s", Body: []byte("{}"), Version: 3},
				Change{Kind: "UPDATE", DeliveryID: "e", Version: 2}), []string{"change.deliveryId", "change.version"}},
		} {
			if !errors.Is(c.err, ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", c.name, c.err)
				continue
			}
			for _, f := range c.fields {
				if !strings.Contains(c.err.Error(), f+":") {
					t.Errorf("%s: %q does not name %s", c.name, c.err, f)
				}
			}
		}
		_, err := s.ClaimJob(ctx, "", "", time.Time{})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "owner:") || !strings.Contains(err.Error(), "leaseUntil:") {
			t.Errorf("ClaimJob: err = %v, want ErrInvalid naming jobId, owner and leaseUntil", err)
		}
		if _, _, err := s.Allow(ctx, "", 0, 0, time.Now()); !errors.Is(err, ErrInvalid) {
			t.Errorf("Allow: err = %v, want ErrInvalid", err)
		}
		if _, _, err := s.RecoverJobs(ctx, time.Now(), 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("RecoverJobs: err = %v, want ErrInvalid", err)
		}
		if err := s.FinishJob(ctx, "j", "o", JobCancelled, nil, ""); !errors.Is(err, ErrInvalid) {
			t.Errorf("FinishJob(CANCELLED): err = %v, want ErrInvalid", err)
		}
	})
}

func TestConfigChecked(t *testing.T) {
	bad := Config{ReadConns: -1, MaxConns: -1, MaxBatch: -1, PollInterval: time.Millisecond, Schema: "Bad-Schema"}
	_, err := OpenSQLite(context.Background(), t.TempDir()+"/x.db", bad)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	for _, f := range []string{"ReadConns", "MaxConns", "MaxBatch", "PollInterval", "Schema"} {
		if !strings.Contains(err.Error(), f+":") {
			t.Errorf("%q does not name %s", err, f)
		}
	}
	if _, err := OpenSQLite(context.Background(), "a?b.db", Config{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("path with ?: err = %v, want ErrInvalid", err)
	}
	_, err = OpenPostgres(context.Background(), "postgres://user:secret@[::1", Config{})
	if !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "secret") {
		t.Errorf("bad URL: err = %v, want ErrInvalid without the password", err)
	}
}
