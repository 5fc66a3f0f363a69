package api

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// codeQuotaExceeded is the error code of a request refused for the
// tenant's storage quota.
const codeQuotaExceeded = "STORAGE_QUOTA_EXCEEDED"

// withinQuota reports whether the tenant may store size more bytes, and
// when not, answers 507 Insufficient Storage (RFC 4918 §11.5) itself: the
// request is well formed and not too large (not 413), and waiting does
// not help until the retention removes some of the tenant's data (not
// 429, which a client retries after Retry-After); as Dropbox and Box
// answer for a full quota. The count is the store's running total
// (store.StorageUsed), read at most once in usageMaxAge per tenant and
// counted on here with each body let through: the tenant's writes through
// other processes in the meantime, and writes under way at once, may
// pass the quota by their own sizes.
func (s *server) withinQuota(w http.ResponseWriter, r *http.Request, c *call, size int64) bool {
	if s.quota <= 0 {
		return true
	}
	used, err := s.usage.take(r.Context(), s.st, c.tenant, size, s.quota, s.now())
	if err != nil {
		s.internal(w, c, err)
		return false
	}
	if used+size <= s.quota {
		return true
	}
	// The tenant's limit, not a failure of the service: a warning, not
	// fail's error line.
	c.log.LogAttrs(r.Context(), slog.LevelWarn, "storage quota exceeded", slog.Int64("used", used),
		slog.Int64("quota", s.quota), slog.Int64("body", size))
	writeJSON(w, http.StatusInsufficientStorage, errorBody{Errors: []apiError{{Code: codeQuotaExceeded, Field: "body",
		Description: "This consumer stores " + byteSize(used) + " of job requests, plans and deliveries with their history, and may store " +
			byteSize(s.quota) + "; this body of " + byteSize(size) + " would pass that. Nothing was stored. " + retentionSentence(s.retention),
		Severity: severityError, Category: categoryLimit}}})
	return false
}

// usageMaxAge is how long a tenant's count of stored bytes is used
// before it is read again: one read a second, however busy the tenant.
const usageMaxAge = time.Second

// usageCache keeps each tenant's count of stored bytes as last read, plus
// the bodies let through since.
type usageCache struct {
	mu sync.Mutex
	m  map[string]usageEntry
}

type usageEntry struct {
	used int64
	read time.Time
}

// take returns the tenant's stored bytes before this body, read afresh
// when the last read is usageMaxAge old, and counts the body on when it
// fits the quota.
func (u *usageCache) take(ctx context.Context, st store.Store, tenant string, size, quota int64, now time.Time) (int64, error) {
	u.mu.Lock()
	e, ok := u.m[tenant]
	u.mu.Unlock()
	if !ok || now.Sub(e.read) >= usageMaxAge || now.Before(e.read) {
		used, err := st.StorageUsed(ctx, tenant)
		if err != nil {
			return 0, err
		}
		u.mu.Lock()
		if u.m == nil {
			u.m = map[string]usageEntry{}
		}
		u.m[tenant] = usageEntry{used: used, read: now}
		u.mu.Unlock()
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	e = u.m[tenant]
	before := e.used
	if before+size <= quota {
		e.used += size
		u.m[tenant] = e
	}
	return before, nil
}
