package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// CreateTenant creates a tenant named name with one client credential, for
// the "tenant create" command. The consumer id and client id are random
// UUIDs and the secret 256 random bits; the store keeps only the secret's
// SHA-256, so the secret returned here is its only copy.
func CreateTenant(ctx context.Context, st store.Store, name string) (consumerID, clientID, clientSecret string, err error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", "", "", fmt.Errorf("api: a tenant needs a name")
	}
	if len(name) > 200 {
		return "", "", "", fmt.Errorf("api: a tenant's name has at most 200 bytes, not %d", len(name))
	}
	secret, err := randomSecret()
	if err != nil {
		return "", "", "", err
	}
	consumerID, clientID = newUUID(), newUUID()
	hash := sha256.Sum256([]byte(secret))
	now := time.Now().UTC()
	t := store.Tenant{ID: consumerID, Name: name, Created: now}
	c := store.Client{ID: clientID, TenantID: consumerID, SecretHash: hash[:], Created: now}
	if err := st.CreateTenant(ctx, t, c); err != nil {
		return "", "", "", fmt.Errorf("api: creating tenant %q: %w", name, err)
	}
	return consumerID, clientID, secret, nil
}

// RotateSecret gives the client of the tenant named by ref (its consumer
// id or its name) a new secret, for the "tenant rotate-secret" command:
// the old secret stops working at once, in every process. Tokens issued
// with the old secret stay valid until they expire; RevokeTokens ends
// them too. The secret returned here is its only copy.
func RotateSecret(ctx context.Context, st store.Store, ref string) (consumerID, clientID, clientSecret string, err error) {
	t, err := findTenant(ctx, st, ref)
	if err != nil {
		return "", "", "", err
	}
	secret, err := randomSecret()
	if err != nil {
		return "", "", "", err
	}
	hash := sha256.Sum256([]byte(secret))
	c, err := st.RotateSecret(ctx, t.ID, hash[:])
	if err != nil {
		return "", "", "", fmt.Errorf("api: rotating the secret of tenant %q: %w", t.Name, err)
	}
	return t.ID, c.ID, secret, nil
}

// RevokeTokens ends every access token issued so far to the tenant named
// by ref (its consumer id or its name), for the "tenant revoke-tokens"
// command, and returns how many the store forgot. A process that verified
// one of them stops accepting it within tokenRecheck (5 s), whichever
// process runs this.
func RevokeTokens(ctx context.Context, st store.Store, ref string) (consumerID string, revoked int, err error) {
	t, err := findTenant(ctx, st, ref)
	if err != nil {
		return "", 0, err
	}
	n, err := st.RevokeTokens(ctx, t.ID)
	if err != nil {
		return "", 0, fmt.Errorf("api: revoking the tokens of tenant %q: %w", t.Name, err)
	}
	return t.ID, n, nil
}

// findTenant is the tenant whose consumer id or name is ref. A name that
// several tenants share is refused with their consumer ids, so that the
// operator names one.
func findTenant(ctx context.Context, st store.Store, ref string) (store.Tenant, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return store.Tenant{}, fmt.Errorf("api: name a tenant by its name or consumer id")
	}
	ts, err := st.Tenants(ctx, ref)
	if err != nil {
		return store.Tenant{}, err
	}
	for _, t := range ts {
		if t.ID == ref {
			return t, nil
		}
	}
	switch len(ts) {
	case 0:
		return store.Tenant{}, fmt.Errorf("api: no tenant has the name or consumer id %q", ref)
	case 1:
		return ts[0], nil
	}
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	return store.Tenant{}, fmt.Errorf("api: %d tenants are named %q (consumer ids %s): name one by its consumer id", len(ts), ref, strings.Join(ids, ", "))
}

// randomSecret returns 256 random bits, base64url without padding: an
// access token or a client secret.
func randomSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil { // never fails on supported systems
		return "", fmt.Errorf("api: reading random bytes: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
