package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Header names of idempotent requests (the IETF draft "The
// Idempotency-Key HTTP Header Field"; the replay marker as Stripe names
// it).
const (
	IdempotencyKeyHeader = "Idempotency-Key"
	ReplayedHeader       = "Idempotent-Replayed"
)

// Error codes of idempotency keys.
const (
	codeInvalidIdempotencyKey = "INVALID_IDEMPOTENCY_KEY"
	codeIdempotencyKeyReused  = "IDEMPOTENCY_KEY_REUSED"
	codeIdempotencyKeyInUse   = "IDEMPOTENCY_KEY_IN_USE"
)

// maxIdempotencyKey bounds a key's length, as Stripe does.
const maxIdempotencyKey = 255

// idempotencyTakeover is how long a request with a key may be under way
// before another with the key takes it over: twice the longest a request
// may take to be answered (the server's write timeout, 5 min by
// default), so only a request whose process died is taken over.
const idempotencyTakeover = 10 * time.Minute

// storing wraps a handler that stores what the client sends (a planning
// job, a booking, a delivery change): it reads the body once (media type
// and size checked as readBody does; the handler's own readBody then
// returns it), answers a repeat of an earlier request with the same
// Idempotency-Key when idempotent is set, and refuses the body when it
// would take the tenant past its storage quota, before the handler runs.
func (s *server) storing(handle func(http.ResponseWriter, *http.Request, *call), limit int64, idempotent bool) func(http.ResponseWriter, *http.Request, *call) {
	return func(w http.ResponseWriter, r *http.Request, c *call) {
		body, berr := s.readBody(r, "application/json", limit)
		if berr != nil {
			s.refuseBody(w, c, berr)
			return
		}
		r = withBody(r, body)
		if idempotent {
			if _, sent := r.Header[IdempotencyKeyHeader]; sent {
				s.idempotent(w, r, c, body, handle)
				return
			}
		}
		if !s.withinQuota(w, r, c, int64(len(body))) {
			return
		}
		handle(w, r, c)
	}
}

// idempotent runs a request that carries an Idempotency-Key. The first
// request with the key runs, and its answer is kept when it succeeded
// (2xx), as long as what it created (the retention of jobs or of
// deliveries); a repeat with the same body gets that answer again, with
// Idempotent-Replayed: true, whatever has happened since. An answer that
// is not a success is not kept: the key may be sent again, as the
// request may once the cause is gone (a full queue, the quota, a failure
// of the service). As the draft says: the key with another body (or on
// another operation) is 422, and a repeat while the first is still under
// way is 409, with Retry-After.
func (s *server) idempotent(w http.ResponseWriter, r *http.Request, c *call, body []byte, handle func(http.ResponseWriter, *http.Request, *call)) {
	key, ok := parseIdempotencyKey(r.Header.Values(IdempotencyKeyHeader))
	if !ok {
		s.fail(w, c, http.StatusBadRequest, apiError{Code: codeInvalidIdempotencyKey, Field: IdempotencyKeyHeader,
			Description: "The Idempotency-Key header must be sent once, a string of 1 to 255 visible ASCII characters (quoted, as a structured field string, or not)."})
		return
	}
	// The request runs to its end even when its client leaves: a client
	// that timed out sends the key again, and must find the answer.
	ctx := context.WithoutCancel(r.Context())
	r = r.WithContext(ctx)
	now := s.now().UTC()
	req := store.IdempotentRequest{TenantID: c.tenant, Key: key, Operation: c.op, Fingerprint: fingerprint(c.op, r.PathValue("jobId"), body), Created: now}
	if keep := s.keepKey(c.op); keep > 0 {
		req.Expires = now.Add(keep)
	}
	stored, fresh, err := s.st.BeginIdempotent(ctx, req, now.Add(-idempotencyTakeover))
	if err != nil {
		s.internal(w, c, err)
		return
	}
	if !fresh {
		s.repeat(w, c, req, stored)
		return
	}
	if !s.withinQuota(w, r, c, int64(len(body))) {
		s.abandon(ctx, c, req)
		return
	}
	rec := &answerRecorder{ResponseWriter: w}
	answered := false
	defer func() {
		if !answered { // the handler panicked: the key is free again
			s.abandon(ctx, c, req)
		}
	}()
	handle(rec, r, c)
	answered = true
	if rec.status < 200 || rec.status > 299 {
		s.abandon(ctx, c, req)
		return
	}
	req.Status, req.Location, req.Response = rec.status, rec.Header().Get("Location"), rec.body.Bytes()
	if err := s.st.FinishIdempotent(ctx, req); err != nil {
		c.log.WarnContext(ctx, "the answer of an idempotent request is not kept; a repeat of it runs again", "error", err.Error())
	}
}

// repeat answers a request whose key the tenant sent before.
func (s *server) repeat(w http.ResponseWriter, c *call, req, stored store.IdempotentRequest) {
	switch {
	case stored.Operation != req.Operation || !bytes.Equal(stored.Fingerprint, req.Fingerprint):
		where := "with another body"
		if req.Operation == "replanJob" {
			where = "with another body or for another job"
		}
		if stored.Operation != req.Operation {
			where = "to another operation (" + stored.Operation + ")"
		}
		s.fail(w, c, http.StatusUnprocessableEntity, apiError{Code: codeIdempotencyKeyReused, Field: IdempotencyKeyHeader,
			Description: "This Idempotency-Key was sent before " + where + "; a new request needs a new key.",
			Category:    categoryApplication})
	case stored.Status == 0:
		w.Header().Set("Retry-After", "1")
		s.fail(w, c, http.StatusConflict, apiError{Code: codeIdempotencyKeyInUse, Field: IdempotencyKeyHeader,
			Description: "The first request with this Idempotency-Key is still under way; send it again in a moment for its answer.",
			Category:    categoryApplication})
	default:
		h := w.Header()
		if stored.Location != "" {
			h.Set("Location", stored.Location)
		}
		h.Set(ReplayedHeader, "true")
		c.log.Info("idempotent request repeated", "status", stored.Status)
		writeRaw(w, stored.Status, stored.Response)
	}
}

func (s *server) abandon(ctx context.Context, c *call, req store.IdempotentRequest) {
	if err := s.st.AbandonIdempotent(ctx, req); err != nil && !errors.Is(err, store.ErrNotFound) {
		c.log.WarnContext(ctx, "an idempotency key stays under way until it is taken over", "error", err.Error())
	}
}

// keepKey is how long a key of the operation is kept: as long as what
// its request created (0: forever).
func (s *server) keepKey(op string) time.Duration {
	if op == "createRoutes" || op == "replanJob" {
		return s.retention.Jobs
	}
	return s.retention.Deliveries
}

// fingerprint identifies a request's operation, the job it is sent to
// (a re-plan's source; empty for the operations that name none, whose
// fingerprints are then what they were before any did) and its body.
func fingerprint(op, jobID string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(op))
	h.Write([]byte{0})
	if jobID != "" {
		h.Write([]byte(jobID))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum(nil)
}

// parseIdempotencyKey reads the header's one value: a structured field
// string (RFC 8941 §3.3.3: "..." with \" and \\ its only escapes), as
// the draft has it, or the bare key, as many clients send it. Either is
// 1 to 255 visible ASCII characters (spaces inside a quoted key too).
func parseIdempotencyKey(values []string) (string, bool) {
	if len(values) != 1 {
		return "", false
	}
	v := strings.TrimSpace(values[0])
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		var b strings.Builder
		inner := v[1 : len(v)-1]
		for i := 0; i < len(inner); i++ {
			ch := inner[i]
			switch {
			case ch == '\\':
				if i+1 == len(inner) || inner[i+1] != '"' && inner[i+1] != '\\' {
					return "", false
				}
				i++
				ch = inner[i]
			case ch == '"' || ch < 0x20 || ch > 0x7e:
				return "", false
			}
			b.WriteByte(ch)
		}
		v = b.String()
	} else if strings.ContainsAny(v, " \"") {
		return "", false
	}
	if v == "" || len(v) > maxIdempotencyKey {
		return "", false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", false
		}
	}
	return v, true
}

// answerRecorder passes an answer through and keeps its status and body.
type answerRecorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (a *answerRecorder) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
	a.ResponseWriter.WriteHeader(status)
}

func (a *answerRecorder) Write(b []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	a.body.Write(b)
	return a.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (a *answerRecorder) Unwrap() http.ResponseWriter { return a.ResponseWriter }
