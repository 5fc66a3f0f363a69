package api

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// RateLimiter decides whether one more request under key (a tenant and an
// operation) is allowed now, and if not, how long until one is.
type RateLimiter interface {
	Allow(ctx context.Context, key string, now time.Time) (ok bool, retryAfter time.Duration, err error)
}

// NewLocalRateLimiter limits each key to perMinute requests a minute in this
// process: a token bucket (golang.org/x/time/rate) of perMinute tokens
// refilled evenly over the minute, so a burst of perMinute passes and then
// one request every minute/perMinute.
func NewLocalRateLimiter(perMinute int) RateLimiter {
	if perMinute <= 0 {
		perMinute = DefaultRatePerMinute
	}
	return &localLimiter{per: perMinute}
}

type localLimiter struct {
	per     int
	buckets sync.Map // key → *rate.Limiter
}

func (l *localLimiter) Allow(_ context.Context, key string, now time.Time) (bool, time.Duration, error) {
	v, ok := l.buckets.Load(key)
	if !ok {
		v, _ = l.buckets.LoadOrStore(key, rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.per)), l.per))
	}
	lim := v.(*rate.Limiter)
	res := lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now) // a refused request takes no token
		return false, d, nil
	}
	return true, 0, nil
}

// NewStoreRateLimiter limits each key to perMinute requests a minute across
// every process that shares st (store.Store.Allow: PostgreSQL in the
// multi-process deployment).
func NewStoreRateLimiter(st store.Store, perMinute int) RateLimiter {
	if perMinute <= 0 {
		perMinute = DefaultRatePerMinute
	}
	return storeLimiter{st: st, per: perMinute}
}

type storeLimiter struct {
	st  store.Store
	per int
}

func (l storeLimiter) Allow(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	return l.st.Allow(ctx, key, l.per, time.Minute, now)
}

// allow applies limiter to the call's tenant and operation: 429 with
// Retry-After (whole seconds, rounded up) when the limit is reached, 503
// when the limiter cannot answer (the limit is not skipped silently). A
// nil limiter allows every call.
func (s *server) allow(w http.ResponseWriter, ctx context.Context, c *call, limiter RateLimiter) bool {
	if limiter == nil {
		return true
	}
	ok, wait, err := limiter.Allow(ctx, c.tenant+"|"+c.op, s.now())
	if err != nil {
		c.log.ErrorContext(ctx, "rate limiter failed", "error", err.Error())
		w.Header().Set("Retry-After", "1")
		s.fail(w, c, http.StatusServiceUnavailable, apiError{Code: codeUnavailable,
			Description: "The rate limiter could not be reached; retry in a second.", Category: categorySystem})
		return false
	}
	if ok {
		return true
	}
	secs := int64((wait + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	s.fail(w, c, http.StatusTooManyRequests, apiError{Code: codeRateLimited, Field: c.op,
		Description: "The rate limit of this operation is reached; retry after " + strconv.FormatInt(secs, 10) + " s.",
		Category:    categoryLimit})
	return false
}
