package api

import (
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// storageLimitsPlaceholder stands in the OpenAPI document's description
// for the sentences of withStorageLimits.
const storageLimitsPlaceholder = "{{storageLimits}}"

// withStorageLimits fills the document's sentences on storage with the
// handler's quota and the store's retention: how much a consumer may
// store, how long what it stores is kept, and how long an
// Idempotency-Key is.
func withStorageLimits(doc []byte, quota int64, r store.Retention) []byte {
	var b strings.Builder
	if quota > 0 {
		b.WriteString("Each consumer may store " + byteSize(quota) +
			" of job requests and plans, delivery bodies and the request bodies in their history; a request whose body would pass that gets 507 STORAGE_QUOTA_EXCEEDED (RFC 4918 §11.5) and stores nothing (the count is read at most once a second, so writes at once may pass the quota by their own sizes). ")
	} else {
		b.WriteString("Storage per consumer is not limited. ")
	}
	b.WriteString(retentionSentence(r) + " ")
	b.WriteString("createRoutes, replanJob and bookDelivery take an Idempotency-Key header: a repeat with the key and the same body (and, for replanJob, the same job) gets the first answer again (same status and body, Idempotent-Replayed: true) as long as what it created is kept; the key with another body is 422 IDEMPOTENCY_KEY_REUSED, a repeat while the first is under way 409 IDEMPOTENCY_KEY_IN_USE. Only a success is kept: after an error the key may be sent again.")
	return []byte(strings.Replace(string(doc), storageLimitsPlaceholder, jsonText(b.String()), 1))
}

// retentionSentence says when a job or a delivery is removed, and so
// frees its tenant's storage.
func retentionSentence(r store.Retention) string {
	jobs := "A finished job (COMPLETED, FAILED or CANCELLED) is kept until an operator removes it"
	if r.Jobs > 0 {
		jobs = "A finished job (COMPLETED, FAILED or CANCELLED) is removed " + duration(r.Jobs) + " after its end"
	}
	deliveries := "a closed delivery (DELIVERED, RETURNED or CANCELLED) and its history until an operator removes them"
	if r.Deliveries > 0 {
		deliveries = "a closed delivery (DELIVERED, RETURNED or CANCELLED) and its history " + duration(r.Deliveries) + " after its last change"
	}
	return jobs + ", " + deliveries + "; then they are not found (404)."
}

// duration is a retention as a person writes it: "30 days", "36 hours",
// "90 minutes", or Go's form when it is no whole number of those.
func duration(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return thousands(n) + " " + one + "s"
	}
	switch {
	case d%(24*time.Hour) == 0:
		return unit(int64(d/(24*time.Hour)), "day")
	case d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	}
	return strconv.Quote(d.String())
}
