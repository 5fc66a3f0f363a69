package api

import (
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// authenticate checks the bearer token and the consumer id of a request:
// 401 with an RFC 6750 §3 challenge for a missing, unknown or expired
// token, 400 for a missing consumer id, and 403 for a token used with
// another tenant's consumer id. It records the tenant on the call.
func (s *server) authenticate(w http.ResponseWriter, r *http.Request, c *call) bool {
	token, ok := bearerToken(r)
	if !ok {
		// No credentials at all: the challenge carries no error code
		// (RFC 6750 §3.1).
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`"`)
		s.fail(w, c, http.StatusUnauthorized, apiError{Code: codeUnauthorized, Field: "Authorization",
			Description: "This operation needs an access token: Authorization: Bearer <token> (POST /oauth/v1/token issues one).",
			Category:    categorySecurity})
		return false
	}
	tenant, err := s.verifyToken(r, token)
	if err != nil {
		if !errors.Is(err, errBadToken) {
			s.internal(w, c, err)
			return false
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`", error="invalid_token", error_description="The access token is unknown or has expired"`)
		s.fail(w, c, http.StatusUnauthorized, apiError{Code: codeInvalidToken, Field: "Authorization",
			Description: "The access token is unknown or has expired; request a new one from POST /oauth/v1/token.",
			Category:    categorySecurity})
		return false
	}
	consumer := r.Header.Get(ConsumerHeader)
	if consumer == "" {
		s.fail(w, c, http.StatusBadRequest, apiError{Code: codeMissingConsumerID, Field: ConsumerHeader,
			Description: "Every request carries the header " + ConsumerHeader + " with the tenant's consumer id.",
			Category:    categorySecurity})
		return false
	}
	if consumer != tenant {
		// The token is good but not for this consumer (RFC 6750 §3.1's
		// insufficient_scope is the nearest code).
		w.Header().Set("WWW-Authenticate", `Bearer realm="`+realm+`", error="insufficient_scope", error_description="The access token belongs to another consumer"`)
		s.fail(w, c, http.StatusForbidden, apiError{Code: codeForbidden, Field: ConsumerHeader,
			Description: "The access token was not issued to the consumer named in " + ConsumerHeader + ".",
			Category:    categorySecurity})
		return false
	}
	s.setTenant(r, c, tenant)
	return true
}

// errBadToken: the token is unknown or expired.
var errBadToken = errors.New("api: unknown or expired token")

// bearerToken returns the token of an "Authorization: Bearer" header (the
// scheme is case-insensitive, RFC 9110 §11.1); ok is false when there is
// none. A Bearer header whose token is empty or not b64token syntax is
// returned as is, to fail verification.
func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if strings.EqualFold(h, "Bearer") { // "Bearer " with its blank trimmed away
		return "", true
	}
	scheme, token, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(token, " "), true
}

// verifyToken returns the tenant of a valid token: from the cache when it
// was verified before (no database round trip), else from the store.
func (s *server) verifyToken(r *http.Request, token string) (string, error) {
	if token == "" || len(token) > 512 {
		return "", errBadToken
	}
	hash := sha256.Sum256([]byte(token))
	now := s.now()
	if t, ok := s.tokens.get(hash, now); ok {
		return t, nil
	}
	t, err := s.st.Token(r.Context(), hash[:])
	if errors.Is(err, store.ErrNotFound) {
		return "", errBadToken
	}
	if err != nil {
		return "", err
	}
	if !now.Before(t.Expires) {
		return "", errBadToken
	}
	s.tokens.put(hash, t.TenantID, t.Expires, now)
	return t.TenantID, nil
}

// tokenCache holds verified tokens by hash until they expire, so that
// verifying a token costs a hash and a map read. Entries are swept on
// every sweepEvery-th insert.
type tokenCache struct {
	m       sync.Map // [32]byte → cachedToken
	inserts atomic.Int64
}

type cachedToken struct {
	tenant  string
	expires time.Time
}

const sweepEvery = 1024

func (tc *tokenCache) get(hash [32]byte, now time.Time) (string, bool) {
	v, ok := tc.m.Load(hash)
	if !ok {
		return "", false
	}
	t := v.(cachedToken)
	if !now.Before(t.expires) {
		tc.m.Delete(hash)
		return "", false
	}
	return t.tenant, true
}

func (tc *tokenCache) put(hash [32]byte, tenant string, expires, now time.Time) {
	tc.m.Store(hash, cachedToken{tenant: tenant, expires: expires})
	if tc.inserts.Add(1)%sweepEvery == 0 {
		tc.m.Range(func(k, v any) bool {
			if !now.Before(v.(cachedToken).expires) {
				tc.m.Delete(k)
			}
			return true
		})
	}
}
