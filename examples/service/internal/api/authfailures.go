package api

import (
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// failureLimiter counts failed authentications per key (a client id, a
// client address) in a token bucket of perMinute failures refilled evenly
// over the minute: a key may fail perMinute times at once, then once every
// minute/perMinute. A key with no failure left is refused before anything
// is checked, so that guessing costs the service neither a database read
// nor a log line of its own. Keys whose bucket is full again are swept on
// every sweepEvery-th new key, so the table holds only the keys that
// failed within the last minute.
type failureLimiter struct {
	per     int
	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	added   int
}

func newFailureLimiter(perMinute int) *failureLimiter {
	return &failureLimiter{per: perMinute, buckets: map[string]*rate.Limiter{}}
}

// blocked reports whether key has no failure left at now, and how long
// until it has one. A nil limiter blocks nothing.
func (f *failureLimiter) blocked(key string, now time.Time) (time.Duration, bool) {
	if f == nil {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	lim, ok := f.buckets[key]
	if !ok {
		return 0, false
	}
	tokens := lim.TokensAt(now)
	if tokens >= 1 {
		return 0, false
	}
	return time.Duration((1 - tokens) * float64(time.Minute) / float64(f.per)), true
}

// fail counts one failure of each key at now.
func (f *failureLimiter) fail(now time.Time, keys ...string) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, key := range keys {
		lim, ok := f.buckets[key]
		if !ok {
			lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(f.per)), f.per)
			f.buckets[key] = lim
			if f.added++; f.added%sweepEvery == 0 {
				for k, l := range f.buckets {
					if l.TokensAt(now) >= float64(f.per) {
						delete(f.buckets, k)
					}
				}
			}
		}
		lim.AllowN(now, 1)
	}
}

// addressKey and clientKey name a client address and a client id in a
// failureLimiter.
func addressKey(addr string) string { return "address " + addr }
func clientKey(id string) string    { return "client " + id }

// clientAddress is the address failures of r are counted against: its
// peer's, or, when the peer is a trusted proxy, the rightmost address of
// X-Forwarded-For that is not a trusted proxy. An IPv6 address stands for
// its /64, the block one customer line is given.
func (s *server) clientAddress(r *http.Request) string {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr // not IP (a test's or a unix socket's): as it is
	}
	addr := peer.Addr().Unmap()
	if s.trusted(addr) {
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a forged or garbled entry: trust nothing left of it
			}
			addr = hop.Unmap()
			if !s.trusted(addr) {
				break
			}
		}
	}
	if addr.Is6() {
		p, _ := addr.Prefix(64) // never fails for an IPv6 address
		return p.String()
	}
	return addr.String()
}

func (s *server) trusted(a netip.Addr) bool {
	for _, p := range s.trustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
