package store

import (
	"context"
	"fmt"
	"time"
)

const idempotentColumns = `tenant_id, idempotency_key, operation, fingerprint, status, location, response, created, expires`

func scanIdempotent(r row) (IdempotentRequest, error) {
	var q IdempotentRequest
	var status, created, expires int64
	if err := r.Scan(&q.TenantID, &q.Key, &q.Operation, &q.Fingerprint, &status, &q.Location, &q.Response, &created, &expires); err != nil {
		return IdempotentRequest{}, err
	}
	q.Status, q.Created, q.Expires = int(status), fromMicros(created), fromMicros(expires)
	return q, nil
}

func checkIdempotent(what string, q IdempotentRequest) error {
	p := problems{what: what}
	p.require("tenantId", q.TenantID)
	p.require("key", q.Key)
	if q.Created.IsZero() {
		p.add("created", "must be set")
	}
	return p.err()
}

// BeginIdempotent inserts req unless the key is taken, takes over a stale
// request under way, or reads what holds the key: one transaction, so
// that of two requests with one key at once exactly one is fresh.
func (s *dbStore) BeginIdempotent(ctx context.Context, req IdempotentRequest, staleBefore time.Time) (IdempotentRequest, bool, error) {
	if err := checkIdempotent("idempotent request", req); err != nil {
		return IdempotentRequest{}, false, err
	}
	p := problems{what: "idempotent request"}
	p.require("operation", req.Operation)
	if len(req.Fingerprint) == 0 {
		p.add("fingerprint", "must not be empty")
	}
	if req.Status != 0 {
		p.add("status", fmt.Sprintf("a request begins under way (0), not %d", req.Status))
	}
	if err := p.err(); err != nil {
		return IdempotentRequest{}, false, err
	}
	var stored IdempotentRequest
	var fresh bool
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		n, err := tx.exec(ctx, `INSERT INTO idempotency_keys (tenant_id, idempotency_key, operation, fingerprint, created, expires)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, idempotency_key) DO NOTHING`,
			req.TenantID, req.Key, req.Operation, req.Fingerprint, micros(req.Created), micros(req.Expires))
		if err != nil {
			return err
		}
		if n == 0 {
			n, err = tx.exec(ctx, `UPDATE idempotency_keys SET operation = ?, fingerprint = ?, created = ?, expires = ?
WHERE tenant_id = ? AND idempotency_key = ? AND status = 0 AND created < ?`,
				req.Operation, req.Fingerprint, micros(req.Created), micros(req.Expires), req.TenantID, req.Key, micros(staleBefore))
			if err != nil {
				return err
			}
		}
		if fresh = n == 1; fresh {
			stored = req
			return nil
		}
		stored, err = scanIdempotent(tx.queryRow(ctx, `SELECT `+idempotentColumns+` FROM idempotency_keys
WHERE tenant_id = ? AND idempotency_key = ?`, req.TenantID, req.Key))
		return err
	})
	if err != nil {
		return IdempotentRequest{}, false, fmt.Errorf("store: idempotency key of tenant %s: %w", req.TenantID, notFound(err))
	}
	return stored, fresh, nil
}

func (s *dbStore) FinishIdempotent(ctx context.Context, req IdempotentRequest) error {
	if err := checkIdempotent("idempotent answer", req); err != nil {
		return err
	}
	if req.Status < 100 || req.Status > 599 {
		return fmt.Errorf("%w: idempotent answer: status: must be an HTTP status, not %d", ErrInvalid, req.Status)
	}
	return s.endIdempotent(ctx, req, `UPDATE idempotency_keys SET status = ?, location = ?, response = ?
WHERE tenant_id = ? AND idempotency_key = ? AND created = ? AND status = 0`,
		req.Status, req.Location, blob(req.Response), req.TenantID, req.Key, micros(req.Created))
}

func (s *dbStore) AbandonIdempotent(ctx context.Context, req IdempotentRequest) error {
	if err := checkIdempotent("idempotent request", req); err != nil {
		return err
	}
	return s.endIdempotent(ctx, req, `DELETE FROM idempotency_keys WHERE tenant_id = ? AND idempotency_key = ? AND created = ? AND status = 0`,
		req.TenantID, req.Key, micros(req.Created))
}

// endIdempotent runs the statement that ends req's time under way; no row
// changed means another request took the key over meanwhile.
func (s *dbStore) endIdempotent(ctx context.Context, req IdempotentRequest, stmt string, args ...any) error {
	var n int64
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		var err error
		n, err = tx.exec(ctx, stmt, args...)
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("store: idempotency key of tenant %s: %w", req.TenantID, err)
	case n == 0:
		return fmt.Errorf("%w: no request under way since %v holds the idempotency key", ErrNotFound, req.Created)
	}
	return nil
}
