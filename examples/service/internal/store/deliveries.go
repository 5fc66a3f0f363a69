package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

const deliveryColumns = `id, tenant_id, external_order_id, status, body, version, created, updated`

func scanDelivery(r row) (Delivery, error) {
	var d Delivery
	var created, updated int64
	if err := r.Scan(&d.ID, &d.TenantID, &d.ExternalOrderID, &d.Status, &d.Body, &d.Version, &created, &updated); err != nil {
		return Delivery{}, err
	}
	d.Created, d.Updated = fromMicros(created), fromMicros(updated)
	return d, nil
}

func checkDelivery(what string, d Delivery, c Change) error {
	p := problems{what: what}
	p.require("delivery.id", d.ID)
	p.require("delivery.tenantId", d.TenantID)
	p.require("delivery.status", d.Status)
	if len(d.Body) == 0 {
		p.add("delivery.body", "must not be empty")
	}
	p.require("change.kind", c.Kind)
	if c.DeliveryID != "" && c.DeliveryID != d.ID {
		p.add("change.deliveryId", fmt.Sprintf("must be the delivery's id %q or empty, not %q", d.ID, c.DeliveryID))
	}
	if c.Version != 0 && c.Version != d.Version {
		p.add("change.version", fmt.Sprintf("must be the delivery's version %d or 0, not %d", d.Version, c.Version))
	}
	return p.err()
}

// CreateDelivery books d at version 1 (d.Version must be 0 or 1) with c as
// the first entry of its history.
func (s *dbStore) CreateDelivery(ctx context.Context, d Delivery, c Change) error {
	if d.Version == 0 {
		d.Version = 1
	}
	if err := checkDelivery("delivery", d, c); err != nil {
		return err
	}
	if d.Version != 1 {
		return fmt.Errorf("%w: delivery: delivery.version: a booked delivery is version 1, not %d", ErrInvalid, d.Version)
	}
	now := time.Now()
	if d.Created.IsZero() {
		d.Created = now
	}
	if d.Updated.IsZero() {
		d.Updated = d.Created
	}
	if c.At.IsZero() {
		c.At = d.Created
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if _, err := tx.exec(ctx, `INSERT INTO deliveries (`+deliveryColumns+`) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
			d.ID, d.TenantID, d.ExternalOrderID, d.Status, d.Body, micros(d.Created), micros(d.Updated)); err != nil {
			return fmt.Errorf("store: delivery %s: %w", d.ID, err)
		}
		return insertChange(ctx, tx, d, c)
	})
}

func insertChange(ctx context.Context, tx txn, d Delivery, c Change) error {
	if _, err := tx.exec(ctx, `INSERT INTO delivery_changes (delivery_id, version, kind, request, at) VALUES (?, ?, ?, ?, ?)`,
		d.ID, d.Version, c.Kind, blob(c.Request), micros(c.At)); err != nil {
		return fmt.Errorf("store: change %d of delivery %s: %w", d.Version, d.ID, err)
	}
	return nil
}

func (s *dbStore) Delivery(ctx context.Context, tenantID, deliveryID string) (Delivery, error) {
	d, err := scanDelivery(s.b.reader().queryRow(ctx, `SELECT `+deliveryColumns+` FROM deliveries WHERE id = ? AND tenant_id = ?`,
		deliveryID, tenantID))
	return d, notFound(err)
}

// UpdateDelivery stores d as the delivery's version d.Version. d.Updated
// and c.At are the caller's clock when set (now when zero).
func (s *dbStore) UpdateDelivery(ctx context.Context, d Delivery, c Change) error {
	if err := checkDelivery("delivery update", d, c); err != nil {
		return err
	}
	if d.Version < 2 {
		return fmt.Errorf("%w: delivery update: delivery.version: must be the new version, at least 2, not %d", ErrInvalid, d.Version)
	}
	now := time.Now()
	if d.Updated.IsZero() {
		d.Updated = now
	}
	if c.At.IsZero() {
		c.At = d.Updated
	}
	if s.autocommit != nil {
		return s.updateDeliveryAtOnce(ctx, d, c)
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		n, err := tx.exec(ctx, `UPDATE deliveries SET external_order_id = ?, status = ?, body = ?, version = ?, updated = ?
WHERE id = ? AND tenant_id = ? AND version = ?`,
			d.ExternalOrderID, d.Status, d.Body, d.Version, micros(d.Updated), d.ID, d.TenantID, d.Version-1)
		if err != nil {
			return fmt.Errorf("store: update delivery %s: %w", d.ID, err)
		}
		if n == 0 {
			var stored int64
			err := tx.queryRow(ctx, `SELECT version FROM deliveries WHERE id = ? AND tenant_id = ?`, d.ID, d.TenantID).Scan(&stored)
			if errors.Is(err, errNoRow) {
				return fmt.Errorf("%w: delivery %s", ErrNotFound, d.ID)
			}
			if err != nil {
				return err
			}
			return fmt.Errorf("%w: delivery %s is at version %d, the update was made on version %d", ErrConflict, d.ID, stored, d.Version-1)
		}
		return insertChange(ctx, tx, d, c)
	})
}

// updateDeliveryAtOnce is UpdateDelivery in one statement, committed on
// its own (PostgreSQL): one round trip instead of four (begin, update,
// insert, commit). The conditional UPDATE and the INSERT of its change
// are one atomic statement; a concurrent update of the same version
// makes the UPDATE match no row once the other commits.
func (s *dbStore) updateDeliveryAtOnce(ctx context.Context, d Delivery, c Change) error {
	var changed int64
	var stored *int64
	err := s.autocommit.queryRow(ctx, `WITH updated AS (
	UPDATE deliveries SET external_order_id = ?, status = ?, body = ?, version = ?, updated = ?
	WHERE id = ? AND tenant_id = ? AND version = ?
	RETURNING id, version
), change AS (
	INSERT INTO delivery_changes (delivery_id, version, kind, request, at)
	SELECT id, version, ?::text, ?::bytea, ?::bigint FROM updated
	RETURNING version
)
SELECT (SELECT COUNT(*) FROM change), (SELECT version FROM deliveries WHERE id = ? AND tenant_id = ?)`,
		d.ExternalOrderID, d.Status, d.Body, d.Version, micros(d.Updated), d.ID, d.TenantID, d.Version-1,
		c.Kind, blob(c.Request), micros(c.At), d.ID, d.TenantID).Scan(&changed, &stored)
	switch {
	case err != nil:
		return fmt.Errorf("store: update delivery %s: %w", d.ID, err)
	case changed == 1:
		return nil
	case stored == nil:
		return fmt.Errorf("%w: delivery %s", ErrNotFound, d.ID)
	default:
		return fmt.Errorf("%w: delivery %s is at version %d, the update was made on version %d", ErrConflict, d.ID, *stored, d.Version-1)
	}
}

// History lists the changes of a delivery, oldest first.
func (s *dbStore) History(ctx context.Context, tenantID, deliveryID string) ([]Change, error) {
	rs, err := s.b.reader().query(ctx, `SELECT c.version, c.kind, c.request, c.at FROM delivery_changes c
JOIN deliveries d ON d.id = c.delivery_id WHERE d.id = ? AND d.tenant_id = ? ORDER BY c.version`, deliveryID, tenantID)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	var out []Change
	for rs.Next() {
		c := Change{DeliveryID: deliveryID}
		var at int64
		if err := rs.Scan(&c.Version, &c.Kind, &c.Request, &at); err != nil {
			return nil, err
		}
		c.At = fromMicros(at)
		out = append(out, c)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 { // every delivery has its booking in its history
		return nil, fmt.Errorf("%w: delivery %s", ErrNotFound, deliveryID)
	}
	return out, nil
}

// DeliveryByOrder reads the delivery the unique index deliveries_open_order
// holds for the order: not cancelled, and not one of the repeated
// bookings made before the index existed (duplicate_of names the
// delivery they repeat).
func (s *dbStore) DeliveryByOrder(ctx context.Context, tenantID, externalOrderID string) (Delivery, error) {
	d, err := scanDelivery(s.b.reader().queryRow(ctx, `SELECT `+deliveryColumns+` FROM deliveries
WHERE tenant_id = ? AND external_order_id = ? AND status <> 'CANCELLED' AND duplicate_of = ''`, tenantID, externalOrderID))
	return d, notFound(err)
}
