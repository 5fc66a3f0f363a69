package api

import (
	"crypto/sha256"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// authenticate checks the bearer token and the consumer id of a request:
// 401 with an RFC 6750 §3 challenge for a missing, unknown or expired
// token, 429 while the client's address has had too many of those, 400
// for a missing consumer id, and 403 for a token used with another
// tenant's consumer id. It records the tenant on the call.
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
		var throttled *authThrottled
		if errors.As(err, &throttled) {
			s.refuseThrottled(w, c, throttled)
			return false
		}
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

// authThrottled: a client id or address has no failed authentication
// left; wait is how long until it has one.
type authThrottled struct {
	field, what string
	wait        time.Duration
}

func (e *authThrottled) Error() string { return "api: too many failed authentications of " + e.what }

// throttled is the authThrottled of key when it is blocked at now, else nil.
func (s *server) throttled(key, field, what string, now time.Time) *authThrottled {
	if wait, blocked := s.authFailures.blocked(key, now); blocked {
		return &authThrottled{field: field, what: what, wait: wait}
	}
	return nil
}

// refuseThrottled answers 429 with Retry-After (whole seconds, rounded
// up) for a client id or address with no failed authentication left.
func (s *server) refuseThrottled(w http.ResponseWriter, c *call, e *authThrottled) {
	secs := max(1, int64((e.wait+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	s.fail(w, c, http.StatusTooManyRequests, apiError{Code: codeAuthThrottled, Field: e.field,
		Description: "Too many failed authentications of " + e.what + "; retry after " + strconv.FormatInt(secs, 10) + " s.",
		Category:    categorySecurity})
}

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

// verifyToken returns the tenant of a valid token. A token verified within
// the last tokenRecheck is taken from the cache (no database round trip),
// and so is one found unknown within the last badTokenMemory; any other
// is looked up in the store, unless the client's address has no failed
// authentication left (authThrottled). Unknown and expired tokens count
// as failures of the address.
func (s *server) verifyToken(r *http.Request, token string) (string, error) {
	hash := sha256.Sum256([]byte(token))
	now := s.now()
	tenant, known := s.tokens.get(hash, now)
	if tenant != "" {
		return tenant, nil
	}
	addr := addressKey(s.clientAddress(r))
	if e := s.throttled(addr, "Authorization", "this address", now); e != nil {
		return "", e
	}
	if !known && token != "" && len(token) <= 512 {
		t, err := s.st.Token(r.Context(), hash[:])
		switch {
		case err == nil && now.Before(t.Expires):
			s.tokens.put(hash, t.TenantID, recheckAt(t.Expires, now), now)
			return t.TenantID, nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return "", err
		}
		s.tokens.put(hash, "", now.Add(badTokenMemory), now)
	}
	s.authFailures.fail(now, addr)
	return "", errBadToken
}

// tokenRecheck is how long a verified token is taken from the cache before
// the store is asked again: the bound on how long a revoked token (tenant
// revoke-tokens, run by any process on the database) still works here.
const tokenRecheck = 5 * time.Second

// recheckAt is when a token verified at now, valid until expires, is
// looked up in the store again.
func recheckAt(expires, now time.Time) time.Time {
	if recheck := now.Add(tokenRecheck); recheck.Before(expires) {
		return recheck
	}
	return expires
}

// badTokenMemory is how long a token the store did not know is refused
// from the cache: a client retrying a stale token costs a database read
// once in that time, not on every request. No token is issued under a
// hash the store did not know a moment before (tokens are 256 random
// bits), so the memory refuses nothing that works.
const badTokenMemory = 5 * time.Second

// tokenCache holds the verdicts on tokens by hash: the tenant of a valid
// one, or "" for one the store did not know, each until a time after which
// the store is asked again, so that verifying a token costs a hash and a
// map read. Entries are swept on every sweepEvery-th insert.
type tokenCache struct {
	m       sync.Map // [32]byte → cachedToken
	inserts atomic.Int64
}

type cachedToken struct {
	tenant string // "": the token is not valid
	until  time.Time
}

const sweepEvery = 1024

// get returns the cached verdict on a token: known is false when there is
// none at now, else tenant is its tenant ("" for a token not valid).
func (tc *tokenCache) get(hash [32]byte, now time.Time) (tenant string, known bool) {
	v, ok := tc.m.Load(hash)
	if !ok {
		return "", false
	}
	t := v.(cachedToken)
	if !now.Before(t.until) {
		tc.m.Delete(hash)
		return "", false
	}
	return t.tenant, true
}

// put caches a verdict on a token until until.
func (tc *tokenCache) put(hash [32]byte, tenant string, until, now time.Time) {
	tc.m.Store(hash, cachedToken{tenant: tenant, until: until})
	if tc.inserts.Add(1)%sweepEvery == 0 {
		tc.m.Range(func(k, v any) bool {
			if !now.Before(v.(cachedToken).until) {
				tc.m.Delete(k)
			}
			return true
		})
	}
}
