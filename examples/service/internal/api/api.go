package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Defaults of Config's zero fields.
const (
	// DefaultRatePerMinute is the interface document's limit of the
	// planning operations, per endpoint.
	DefaultRatePerMinute = 10
	// DefaultDeliveryRatePerMinute bounds the delivery operations, which
	// the interface document does not limit: a hundred a second per
	// operation, more than a busy tenant sends, enough to stop a runaway
	// client.
	DefaultDeliveryRatePerMinute = 6000
	DefaultTokenLifetime         = time.Hour
	// DefaultMaxBodyBytes fits a day of 5,000 stores and 60,000 pallets
	// (about 12 MB) with room to spare, and a road matrix (travel.matrix,
	// about 15 bytes a leg) of up to some 1,400 stores. A matrix of 5,000
	// stores makes the body 384 MB: a service meant to take one is
	// started with a larger -max-body (512MiB), and is given the memory:
	// the body, its stored copy and the decoded matrices (200 MB) per
	// planning job. The default stays small so that one client cannot
	// make a shared service hold gigabytes.
	DefaultMaxBodyBytes = 32 << 20
	// DefaultAuthFailuresPerMinute is how many failed authentications a
	// client id, and a client address, may have a minute before it gets
	// 429 (a burst of this many, then one every minute/this).
	DefaultAuthFailuresPerMinute = 10
)

// NoRateLimit as Config.DeliveryRatePerMinute turns the delivery
// operations' limit off.
const NoRateLimit = -1

// Header names of the interface.
const (
	// ConsumerHeader carries the tenant's consumer id on every request.
	ConsumerHeader = "SVC_CONSUMER.ID"
	// RequestIDHeader carries the service's own id of a request on every
	// answer; a client's own X-Request-Id is logged beside it
	// (client_request_id), shortened when long.
	RequestIDHeader = "X-Request-Id"
)

// realm is the protection space named in WWW-Authenticate challenges.
const realm = "haulplan"

// Canceller reaches the planning job runner: Cancel is called after
// store.CancelJob has moved a queued or running job to CANCELLED, so that
// a search running in this process stops at once (the store's own cancel
// reaches workers in other processes through the queue).
type Canceller interface {
	Cancel(jobID string)
}

// Config configures the handler. Zero fields mean the documented defaults;
// Store is required.
type Config struct {
	Store store.Store
	// Canceller, when not nil, is told about every cancelled job.
	Canceller Canceller
	// Logger receives one JSON line per request and one per failure, each
	// with the request id and the tenant. Nil: JSON lines on stderr.
	Logger *slog.Logger
	// RatePerMinute limits each tenant's planning operations and token
	// requests, per operation (0: DefaultRatePerMinute). RateLimiter,
	// when set, replaces the in-process limiter built from it
	// (NewStoreRateLimiter shares the limit between processes through the
	// database).
	RatePerMinute int
	RateLimiter   RateLimiter
	// DeliveryRatePerMinute limits each tenant's delivery operations
	// (book, get, update, cancel, status), per operation (0:
	// DefaultDeliveryRatePerMinute; NoRateLimit: none).
	// DeliveryRateLimiter, when set, replaces the in-process limiter built
	// from it.
	DeliveryRatePerMinute int
	DeliveryRateLimiter   RateLimiter
	// TokenLifetime is how long an access token lasts (0: DefaultTokenLifetime).
	TokenLifetime time.Duration
	// AuthFailuresPerMinute bounds the failed authentications (a wrong
	// client secret, an unknown or expired token) of each client id and
	// of each client address (0: DefaultAuthFailuresPerMinute;
	// NoRateLimit: none). Past it, authentication answers 429 with
	// Retry-After before it checks anything. Counted in this process.
	AuthFailuresPerMinute int
	// TrustedProxies are the addresses of the proxies in front of the
	// service. A request from one of them is counted against the address
	// that X-Forwarded-For names, the rightmost that is not a trusted
	// proxy; any other request against its peer address.
	TrustedProxies []netip.Prefix
	// MaxBodyBytes bounds every request body (0: DefaultMaxBodyBytes);
	// a larger body gets 413 BODY_TOO_LARGE. Delivery bodies are bounded
	// by delivery.MaxBodyBytes too, and the small bodies (a token
	// request, a cancel, a status) lower still.
	MaxBodyBytes int64
	// MaxStreams caps a planning request's options.streams (0:
	// engine.DefaultStreams); a request asking more gets 400.
	MaxStreams int
	// TenantQueuedJobs caps how many planning jobs of a tenant may be
	// QUEUED (0: DefaultTenantQueuedJobs); one more gets 429
	// TOO_MANY_QUEUED_JOBS. TenantRunningJobs is how many of them the job
	// runner runs at once, which the OpenAPI document states (0: it does
	// not); the runner enforces it.
	TenantQueuedJobs  int
	TenantRunningJobs int
	// TenantStorageQuota bounds the bytes a tenant's stored job requests
	// and plans, delivery bodies and their history may take
	// (store.StorageUsed); a request whose body would pass it gets 507
	// STORAGE_QUOTA_EXCEEDED. 0: no quota.
	TenantStorageQuota int64
	// Retention is how long the store keeps finished jobs and closed
	// deliveries, as the OpenAPI document says, and an Idempotency-Key:
	// as long as what its request created.
	Retention store.Retention
	// Now is the clock (nil: time.Now); NewID makes job and delivery ids
	// (nil: random UUIDs from crypto/rand).
	Now   func() time.Time
	NewID func() string
}

// server holds one handler's state.
type server struct {
	st        store.Store
	canceller Canceller
	log       *slog.Logger
	limiter   RateLimiter
	// deliveryLimiter limits the delivery operations; nil: no limit.
	deliveryLimiter RateLimiter
	lifetime        time.Duration
	maxBody         int64
	limits          jobLimits
	quota           int64
	usage           usageCache
	retention       store.Retention
	now             func() time.Time
	newID           func() string
	// authFailures counts failed authentications per client id and
	// client address; nil: not limited.
	authFailures   *failureLimiter
	trustedProxies []netip.Prefix

	tokens tokenCache
	locks  deliveryLocks
	mux    *http.ServeMux
	// openAPIDoc is the OpenAPI document as served: the limits it
	// states are this handler's.
	openAPIDoc []byte
}

// New returns the HTTP handler of the service. It panics when cfg.Store is
// nil, a programmer's error.
func New(cfg Config) http.Handler {
	if cfg.Store == nil {
		panic("api: Config.Store is nil")
	}
	s := &server{
		st:        cfg.Store,
		canceller: cfg.Canceller,
		log:       cfg.Logger,
		limiter:   cfg.RateLimiter,
		lifetime:  cfg.TokenLifetime,
		maxBody:   cfg.MaxBodyBytes,
		quota:     cfg.TenantStorageQuota,
		retention: cfg.Retention,
		now:       cfg.Now,
		newID:     cfg.NewID,

		trustedProxies: cfg.TrustedProxies,
	}
	if s.log == nil {
		s.log = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	per := cfg.RatePerMinute
	if per <= 0 {
		per = DefaultRatePerMinute
	}
	if s.limiter == nil {
		s.limiter = NewLocalRateLimiter(per)
	}
	deliveryPer := cfg.DeliveryRatePerMinute
	if deliveryPer == 0 {
		deliveryPer = DefaultDeliveryRatePerMinute
	}
	switch {
	case cfg.DeliveryRateLimiter != nil:
		s.deliveryLimiter = cfg.DeliveryRateLimiter
	case deliveryPer > 0:
		s.deliveryLimiter = NewLocalRateLimiter(deliveryPer)
	}
	if s.lifetime <= 0 {
		s.lifetime = DefaultTokenLifetime
	}
	switch {
	case cfg.AuthFailuresPerMinute == 0:
		s.authFailures = newFailureLimiter(DefaultAuthFailuresPerMinute)
	case cfg.AuthFailuresPerMinute > 0:
		s.authFailures = newFailureLimiter(cfg.AuthFailuresPerMinute)
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newID == nil {
		s.newID = newUUID
	}
	s.limits = jobLimits{maxStreams: cfg.MaxStreams, queued: cfg.TenantQueuedJobs, running: max(0, cfg.TenantRunningJobs)}
	if s.limits.maxStreams <= 0 {
		s.limits.maxStreams = engine.DefaultStreams
	}
	if s.limits.queued <= 0 {
		s.limits.queued = DefaultTenantQueuedJobs
	}
	s.openAPIDoc = withStorageLimits(withJobLimits(renderOpenAPI(per, deliveryPer, s.maxBody), s.limits), s.quota, s.retention)
	s.mux = http.NewServeMux()
	s.routes()
	return s
}

// operation is one operation of the interface: its OpenAPI operationId
// (also its rate-limit key), whether it needs a bearer token, which rate
// limit it counts against, and its handler.
type operation struct {
	method   string
	id       string
	public   bool // the token endpoint authenticates the client itself
	delivery bool // a delivery operation: the delivery limit, not the planning one
	handle   func(w http.ResponseWriter, r *http.Request, c *call)
}

// call is what the handlers know about the request being served.
type call struct {
	requestID string
	// clientRequestID is the client's X-Request-Id as logged: clipped,
	// empty when it sent none.
	clientRequestID string
	op              string
	tenant          string // the authenticated tenant's consumer id
	log             *slog.Logger
}

// routes registers every path. A path is registered without a method so
// that a wrong method gets the service's own 405 (with Allow and an error
// body) and an unknown path its 404, not net/http's plain-text ones.
func (s *server) routes() {
	s.resource("/oauth/v1/token", operation{method: http.MethodPost, id: "createAccessToken", public: true, handle: s.createToken})
	s.resource("/v1/routes", operation{method: http.MethodPost, id: "createRoutes", handle: s.storing(s.createRoutes, 0, true)})
	s.resource("/v1/job/{jobId}", operation{method: http.MethodGet, id: "getJobDetails", handle: s.getJob})
	s.resource("/v1/job/{jobId}/replan", operation{method: http.MethodPost, id: "replanJob", handle: s.storing(s.replanJob, 0, true)})
	s.resource("/v1/job/{jobId}/cancel", operation{method: http.MethodPut, id: "cancelRelease", handle: s.cancelJob})
	s.resource("/v1/job/{jobId}/dispatchSummary", operation{method: http.MethodGet, id: "downloadDispatchSummary", handle: s.dispatchSummary})
	s.resource("/v1/job/{jobId}/report", operation{method: http.MethodGet, id: "getJobReport", handle: s.jobReport})
	s.resource("/deliveries", operation{method: http.MethodPost, id: "bookDelivery", delivery: true, handle: s.storing(s.bookDelivery, delivery.MaxBodyBytes, true)})
	s.resource("/deliveries/{deliveryId}", operation{method: http.MethodGet, id: "getDelivery", delivery: true, handle: s.getDelivery})
	s.resource("/deliveries/{deliveryId}/update", operation{method: http.MethodPut, id: "updateDelivery", delivery: true, handle: s.storing(s.updateDelivery, delivery.MaxBodyBytes, false)})
	s.resource("/deliveries/{deliveryId}/cancel", operation{method: http.MethodPut, id: "cancelDelivery", delivery: true, handle: s.cancelDelivery})
	s.resource("/deliveries/{deliveryId}/status", operation{method: http.MethodPut, id: "changeDeliveryStatus", delivery: true, handle: s.changeDeliveryStatus})
	s.resource("/openapi.json", operation{method: http.MethodGet, id: "getOpenAPI", public: true, handle: s.openAPI})
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c := s.begin(w, r, "")
		s.fail(w, c, http.StatusNotFound, apiError{Code: codeNotFound, Field: "path",
			Description: "No operation has the path " + quote(r.URL.Path) + ".", Category: categoryRequest})
	})
}

// resource registers the operations of one path.
func (s *server) resource(path string, ops ...operation) {
	allow := make([]string, 0, len(ops))
	for _, op := range ops {
		allow = append(allow, op.method)
	}
	allowed := strings.Join(allow, ", ")
	s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		for _, op := range ops {
			if r.Method == op.method {
				s.serve(w, r, op)
				return
			}
		}
		c := s.begin(w, r, "")
		w.Header().Set("Allow", allowed)
		s.fail(w, c, http.StatusMethodNotAllowed, apiError{Code: codeMethodNotAllowed, Field: "method",
			Description: "The path " + quote(r.URL.Path) + " takes " + allowed + ", not " + quote(r.Method) + ".",
			Category:    categoryRequest})
	})
}

// serve runs one operation: authentication (unless public), the consumer
// id, the rate limit of its kind, then the handler.
func (s *server) serve(w http.ResponseWriter, r *http.Request, op operation) {
	c := s.begin(w, r, op.id)
	if op.public {
		op.handle(w, r, c)
		return
	}
	if !s.authenticate(w, r, c) {
		return
	}
	limiter := s.limiter
	if op.delivery {
		limiter = s.deliveryLimiter
	}
	if !s.allow(w, r.Context(), c, limiter) {
		return
	}
	op.handle(w, r, c)
}

// ServeHTTP logs every request with its id (and the client's own, when it
// sent one), tenant, status and duration. Every answer carries the request
// id and X-Content-Type-Options: nosniff, so that no browser reads a JSON
// answer as anything else.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	state := &requestState{id: newRequestID(), clientID: clip(r.Header.Get(RequestIDHeader))}
	h := rec.Header()
	h.Set(RequestIDHeader, state.id)
	h.Set("X-Content-Type-Options", "nosniff")
	ctx := context.WithValue(r.Context(), requestKey{}, state)
	r = r.WithContext(ctx)
	s.mux.ServeHTTP(rec, r)
	attrs := make([]slog.Attr, 0, 9)
	attrs = append(attrs, slog.String("request_id", state.id))
	if state.clientID != "" {
		attrs = append(attrs, slog.String("client_request_id", state.clientID))
	}
	attrs = append(attrs, slog.String("tenant", state.tenant),
		slog.String("method", clip(r.Method)), slog.String("path", clip(r.URL.Path)),
		slog.String("operation", state.op), slog.Int("status", rec.status),
		slog.Int64("bytes", rec.bytes), slog.Duration("duration", time.Since(start)))
	s.log.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
}

// requestKey keys the requestState in a request's context.
type requestKey struct{}

// requestState carries the request's ids to the handler and what the
// access log line needs back from it: the operation and the authenticated
// tenant.
type requestState struct {
	id, clientID, op, tenant string
}

// begin starts a call: its logger carries the request ids and, once
// known, the tenant.
func (s *server) begin(w http.ResponseWriter, r *http.Request, op string) *call {
	st, _ := r.Context().Value(requestKey{}).(*requestState)
	if st == nil { // served without ServeHTTP: cannot happen through New
		st = &requestState{id: newRequestID(), clientID: clip(r.Header.Get(RequestIDHeader))}
	}
	st.op = op
	c := &call{requestID: st.id, clientRequestID: st.clientID, op: op}
	c.log = s.callLogger(c)
	return c
}

// callLogger is the logger of a call's lines: its request ids and tenant.
func (s *server) callLogger(c *call) *slog.Logger {
	if c.clientRequestID != "" {
		return s.log.With(slog.String("request_id", c.requestID), slog.String("client_request_id", c.clientRequestID), slog.String("tenant", c.tenant))
	}
	return s.log.With(slog.String("request_id", c.requestID), slog.String("tenant", c.tenant))
}

// setTenant records the authenticated tenant on the call and its log lines.
func (s *server) setTenant(r *http.Request, c *call, tenant string) {
	c.tenant = tenant
	c.log = s.callLogger(c)
	if st, _ := r.Context().Value(requestKey{}).(*requestState); st != nil {
		st.tenant = tenant
	}
}
