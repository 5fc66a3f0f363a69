package api

import (
	"log/slog"
	"net/http"
)

// codeQuotaExceeded is the error code of a request refused for the
// tenant's storage quota.
const codeQuotaExceeded = "STORAGE_QUOTA_EXCEEDED"

// withinQuota reports whether the tenant may store size more bytes, and
// when not, answers 507 Insufficient Storage (RFC 4918 §11.5) itself: the
// request is well formed and not too large (not 413), and waiting does
// not help until the retention removes some of the tenant's data (not
// 429, which a client retries after Retry-After); as Dropbox and Box
// answer for a full quota. The count read is the store's running total
// (store.StorageUsed), not a scan. Writes of the tenant under way at once
// each see the total before the others: together they may pass the quota
// by their own sizes.
func (s *server) withinQuota(w http.ResponseWriter, r *http.Request, c *call, size int64) bool {
	if s.quota <= 0 {
		return true
	}
	used, err := s.st.StorageUsed(r.Context(), c.tenant)
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
