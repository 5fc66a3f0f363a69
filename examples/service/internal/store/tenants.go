package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

func (s *dbStore) CreateTenant(ctx context.Context, t Tenant, c Client) error {
	p := problems{what: "tenant"}
	p.require("tenant.id", t.ID)
	p.require("tenant.name", t.Name)
	p.require("client.id", c.ID)
	if len(c.SecretHash) == 0 {
		p.add("client.secretHash", "must not be empty")
	}
	if c.TenantID != "" && c.TenantID != t.ID {
		p.add("client.tenantId", fmt.Sprintf("must be the tenant's id %q or empty, not %q", t.ID, c.TenantID))
	}
	if err := p.err(); err != nil {
		return err
	}
	now := time.Now()
	if t.Created.IsZero() {
		t.Created = now
	}
	if c.Created.IsZero() {
		c.Created = now
	}
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if _, err := tx.exec(ctx, `INSERT INTO tenants (id, name, created) VALUES (?, ?, ?)`,
			t.ID, t.Name, micros(t.Created)); err != nil {
			return fmt.Errorf("store: tenant %s: %w", t.ID, err)
		}
		if _, err := tx.exec(ctx, `INSERT INTO clients (id, tenant_id, secret_hash, created) VALUES (?, ?, ?, ?)`,
			c.ID, t.ID, c.SecretHash, micros(c.Created)); err != nil {
			return fmt.Errorf("store: client %s: %w", c.ID, err)
		}
		return nil
	})
}

func (s *dbStore) Client(ctx context.Context, clientID string) (Client, error) {
	var c Client
	var created int64
	err := s.b.reader().queryRow(ctx, `SELECT id, tenant_id, secret_hash, created FROM clients WHERE id = ?`, clientID).
		Scan(&c.ID, &c.TenantID, &c.SecretHash, &created)
	if err != nil {
		return Client{}, notFound(err)
	}
	c.Created = fromMicros(created)
	return c, nil
}

// PutToken stores t and, in the same transaction, forgets every expired
// token, so the table holds only live ones. The client must belong to the
// token's tenant (ErrNotFound otherwise).
func (s *dbStore) PutToken(ctx context.Context, t Token) error {
	p := problems{what: "token"}
	if len(t.Hash) == 0 {
		p.add("hash", "must not be empty")
	}
	p.require("tenantId", t.TenantID)
	p.require("clientId", t.ClientID)
	if t.Expires.IsZero() {
		p.add("expires", "must be set")
	}
	if err := p.err(); err != nil {
		return err
	}
	now := micros(time.Now())
	return s.b.write(ctx, func(ctx context.Context, tx txn) error {
		if _, err := tx.exec(ctx, `DELETE FROM tokens WHERE expires <= ?`, now); err != nil {
			return fmt.Errorf("store: expired tokens: %w", err)
		}
		n, err := tx.exec(ctx, `INSERT INTO tokens (hash, tenant_id, client_id, expires)
SELECT ?, tenant_id, id, ? FROM clients WHERE id = ? AND tenant_id = ?`,
			t.Hash, micros(t.Expires), t.ClientID, t.TenantID)
		if err != nil {
			return fmt.Errorf("store: token: %w", err)
		}
		if n == 0 {
			return fmt.Errorf("%w: client %s of tenant %s", ErrNotFound, t.ClientID, t.TenantID)
		}
		return nil
	})
}

func (s *dbStore) Token(ctx context.Context, hash []byte) (Token, error) {
	t := Token{Hash: hash}
	var expires int64
	err := s.b.reader().queryRow(ctx, `SELECT tenant_id, client_id, expires FROM tokens WHERE hash = ? AND expires > ?`,
		hash, micros(time.Now())).Scan(&t.TenantID, &t.ClientID, &expires)
	if err != nil {
		return Token{}, notFound(err)
	}
	t.Expires = fromMicros(expires)
	return t, nil
}

func (s *dbStore) Tenants(ctx context.Context, ref string) ([]Tenant, error) {
	rs, err := s.b.reader().query(ctx, `SELECT id, name, created FROM tenants WHERE id = ? OR name = ? ORDER BY created, id`, ref, ref)
	if err != nil {
		return nil, fmt.Errorf("store: tenants: %w", err)
	}
	defer rs.Close()
	var out []Tenant
	for rs.Next() {
		var t Tenant
		var created int64
		if err := rs.Scan(&t.ID, &t.Name, &created); err != nil {
			return nil, fmt.Errorf("store: tenants: %w", err)
		}
		t.Created = fromMicros(created)
		out = append(out, t)
	}
	return out, rs.Err()
}

func (s *dbStore) RotateSecret(ctx context.Context, tenantID string, secretHash []byte) (Client, error) {
	p := problems{what: "rotate secret"}
	p.require("tenantId", tenantID)
	if len(secretHash) == 0 {
		p.add("secretHash", "must not be empty")
	}
	if err := p.err(); err != nil {
		return Client{}, err
	}
	var c Client
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		rs, err := tx.query(ctx, `SELECT id, created FROM clients WHERE tenant_id = ? ORDER BY id`, tenantID)
		if err != nil {
			return fmt.Errorf("store: clients of tenant %s: %w", tenantID, err)
		}
		var ids []string
		var created int64
		for rs.Next() {
			var id string
			if err := rs.Scan(&id, &created); err != nil {
				rs.Close()
				return fmt.Errorf("store: clients of tenant %s: %w", tenantID, err)
			}
			ids = append(ids, id)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return fmt.Errorf("store: clients of tenant %s: %w", tenantID, err)
		}
		switch len(ids) {
		case 0:
			return fmt.Errorf("%w: a client of tenant %s", ErrNotFound, tenantID)
		case 1:
		default:
			return fmt.Errorf("store: tenant %s has %d clients (%s); which one's secret to rotate is not said", tenantID, len(ids), strings.Join(ids, ", "))
		}
		if _, err := tx.exec(ctx, `UPDATE clients SET secret_hash = ? WHERE id = ?`, secretHash, ids[0]); err != nil {
			return fmt.Errorf("store: client %s: %w", ids[0], err)
		}
		c = Client{ID: ids[0], TenantID: tenantID, SecretHash: secretHash, Created: fromMicros(created)}
		return nil
	})
	return c, err
}

// RevokeTokens deletes the tenant's tokens: Token finds none of them
// afterwards, in any process.
func (s *dbStore) RevokeTokens(ctx context.Context, tenantID string) (int, error) {
	p := problems{what: "revoke tokens"}
	p.require("tenantId", tenantID)
	if err := p.err(); err != nil {
		return 0, err
	}
	var n int64
	err := s.b.write(ctx, func(ctx context.Context, tx txn) error {
		var err error
		n, err = tx.exec(ctx, `DELETE FROM tokens WHERE tenant_id = ?`, tenantID)
		if err != nil {
			return fmt.Errorf("store: tokens of tenant %s: %w", tenantID, err)
		}
		return nil
	})
	return int(n), err
}
