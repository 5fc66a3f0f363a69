package store

import (
	"context"
	"fmt"
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
