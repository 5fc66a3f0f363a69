package store

import (
	"context"
	"fmt"
)

// StorageUsed sums the tenant's count of bytes, which the triggers of
// migration 3 keep in the transaction of every write of a job's request
// or plan, a delivery's body or a change's request: a read of at most 16
// rows (PostgreSQL's shards), whatever the tenant stores.
func (s *dbStore) StorageUsed(ctx context.Context, tenantID string) (int64, error) {
	var n int64
	if err := s.b.reader().queryRow(ctx, `SELECT COALESCE(SUM(bytes), 0) FROM tenant_storage WHERE tenant_id = ?`, tenantID).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: storage of tenant %s: %w", tenantID, err)
	}
	return n, nil
}
