package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// maxChangeAttempts bounds the optimistic-concurrency loop of a delivery
// change: read, apply the rule to the fresh delivery, write if the version
// did not move. Changes from this process are serialised per delivery
// (deliveryLocks), so a conflict needs another process writing the same
// delivery at the same moment; after a lost race the next attempt waits a
// random moment (up to conflictBackoff, doubling), so that two processes
// writing one delivery in bursts take turns; 16 lost races in a row are
// answered 409 CONCURRENT_UPDATE.
const (
	maxChangeAttempts = 16
	conflictBackoff   = time.Millisecond
	maxBackoff        = 32 * time.Millisecond
)

// decodeStored turns a stored row (json.Marshal of a delivery.Delivery:
// deliveryId and status first, then the payload members) back into a
// Delivery through the delivery package's own reader: the payload members
// are a booking body, and the status comes from the row. Only the two
// leading members are tokenised here; the rest goes to delivery.Book as it
// is, so a delivery is read once, not decoded and re-encoded first.
func decodeStored(row store.Delivery) (delivery.Delivery, error) {
	members, err := payloadMembers(row.Body)
	if err != nil {
		return delivery.Delivery{}, fmt.Errorf("api: delivery %s: stored body: %w", row.ID, err)
	}
	body := make([]byte, 0, len(members)+20)
	body = append(body, `{"deliveries":{`...)
	body = append(body, members...)
	body = append(body, "}}"...)
	d, err := delivery.Book(row.ID, body)
	if err != nil {
		return delivery.Delivery{}, fmt.Errorf("api: delivery %s: stored body does not read back: %w", row.ID, err)
	}
	d.Status = delivery.Status(row.Status)
	if !d.Status.Valid() {
		return delivery.Delivery{}, fmt.Errorf("api: delivery %s: stored status %q is unknown", row.ID, row.Status)
	}
	return d, nil
}

// payloadMembers returns the members of a stored delivery object after its
// leading deliveryId and status, without the closing brace.
func payloadMembers(obj []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for {
		at := dec.InputOffset()
		if !dec.More() {
			return nil, nil // an object with no payload member
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if tok != "deliveryId" && tok != "status" {
			rest := bytes.TrimSpace(obj[at:])
			rest = bytes.TrimPrefix(rest, []byte(","))
			rest = bytes.TrimSpace(rest)
			if len(rest) == 0 || rest[len(rest)-1] != '}' {
				return nil, errors.New("the object does not end with '}'")
			}
			return rest[:len(rest)-1], nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
}

// errRule wraps the delivery package's refusal of a change, so that the
// caller answers 400 with its violations rather than 500.
type errRule struct{ err error }

func (e errRule) Error() string { return e.err.Error() }
func (e errRule) Unwrap() error { return e.err }

// errUnchanged: the change function found nothing to do (an idempotent
// repeat); the delivery is answered as it is, with no history entry.
var errUnchanged = errors.New("api: delivery unchanged")

// errOrderTaken: the change would give the delivery an order id another
// of the tenant's deliveries holds.
type errOrderTaken struct{ order string }

func (e errOrderTaken) Error() string { return "api: the order " + e.order + " is booked already" }

// errContended: every attempt lost the race to another writer.
var errContended = errors.New("api: delivery changed concurrently on every attempt")

// change applies fn to the current delivery and stores the result as the
// next version with a history entry of kind and request, retrying on
// store.ErrConflict with the delivery read afresh, so that a concurrent
// change is never overwritten. fn returns errRule for a refused change
// (nothing is written), errUnchanged for nothing to write.
func (s *server) change(ctx context.Context, tenant, id, kind string, request []byte, fn func(delivery.Delivery) (delivery.Delivery, error)) (delivery.Delivery, error) {
	unlock := s.locks.lock(tenant, id)
	defer unlock()
	backoff := conflictBackoff
	for attempt := range maxChangeAttempts {
		if attempt > 0 {
			if err := sleep(ctx, rand.N(backoff)); err != nil {
				return delivery.Delivery{}, err
			}
			backoff = min(2*backoff, maxBackoff)
		}
		row, err := s.st.Delivery(ctx, tenant, id)
		if err != nil {
			return delivery.Delivery{}, err
		}
		cur, err := decodeStored(row)
		if err != nil {
			return delivery.Delivery{}, err
		}
		next, err := fn(cur)
		if errors.Is(err, errUnchanged) {
			return cur, err
		}
		if err != nil {
			return delivery.Delivery{}, errRule{err}
		}
		body, err := next.MarshalJSON() // directly: json.Marshal would re-validate the output
		if err != nil {
			return delivery.Delivery{}, err
		}
		now := s.now().UTC()
		upd := store.Delivery{ID: row.ID, TenantID: row.TenantID, ExternalOrderID: next.ExternalOrderID,
			Status: string(next.Status), Body: body, Version: row.Version + 1, Created: row.Created, Updated: now}
		err = s.st.UpdateDelivery(ctx, upd, store.Change{DeliveryID: row.ID, Version: upd.Version, Kind: kind, Request: request, At: now})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if errors.Is(err, store.ErrDuplicate) {
			return delivery.Delivery{}, errOrderTaken{next.ExternalOrderID}
		}
		if err != nil {
			return delivery.Delivery{}, err
		}
		return next, nil
	}
	return delivery.Delivery{}, errContended
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// deliveryLocks serialises the changes this process makes to one delivery
// (striped by a hash of tenant and id), so that concurrent requests for
// one delivery queue here instead of losing optimistic races in the store.
type deliveryLocks struct {
	seed    maphash.Seed
	once    sync.Once
	stripes [256]sync.Mutex
}

func (l *deliveryLocks) lock(tenant, id string) (unlock func()) {
	l.once.Do(func() { l.seed = maphash.MakeSeed() })
	var h maphash.Hash
	h.SetSeed(l.seed)
	h.WriteString(tenant)
	h.WriteByte(0)
	h.WriteString(id)
	m := &l.stripes[h.Sum64()%uint64(len(l.stripes))]
	m.Lock()
	return m.Unlock
}
