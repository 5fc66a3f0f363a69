package api

import (
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// TestOpenAPIStatesTheStorageLimits: the served document's description
// states the quota and the retention the handler is configured with, and
// how an Idempotency-Key behaves.
func TestOpenAPIStatesTheStorageLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		opts envOptions
		want []string
	}{
		{"configured", envOptions{storageQuota: 2 << 30, retention: store.Retention{Jobs: 720 * time.Hour, Deliveries: 36 * time.Hour}}, []string{
			"Each consumer may store 2 GiB of job requests and plans,",
			"gets 507 STORAGE_QUOTA_EXCEEDED",
			"A finished job (COMPLETED, FAILED or CANCELLED) is removed 30 days after its end, a closed delivery (DELIVERED, RETURNED or CANCELLED) and its history 36 hours after its last change; then they are not found (404).",
			"the key with another body is 422 IDEMPOTENCY_KEY_REUSED",
		}},
		{"none", envOptions{}, []string{
			"Storage per consumer is not limited.",
			"A finished job (COMPLETED, FAILED or CANCELLED) is kept until an operator removes it, a closed delivery",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			desc := newEnv(t, c.opts).openAPIDescription(t, c.want...)
			if strings.Contains(desc, storageLimitsPlaceholder) {
				t.Errorf("the placeholder is left:\n%s", desc)
			}
		})
	}
}
