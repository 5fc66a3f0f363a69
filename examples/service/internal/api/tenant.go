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
