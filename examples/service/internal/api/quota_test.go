package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// TestStorageQuota: a consumer whose stored bytes and a new body would
// pass its quota gets 507 STORAGE_QUOTA_EXCEEDED for a planning job, a
// booking and a delivery update, and nothing is stored; a status change
// or a cancel (no new data of the client's) still goes through, another
// consumer is not held back, and a keyed request refused so may be sent
// again with its key.
func TestStorageQuota(t *testing.T) {
	booking := readTestdata(t, "booking.json")
	// What two bookings store (their bodies as sent, in the history, and
	// as kept), measured without a quota: the quota leaves room for them,
	// not for a third body.
	probe := newEnv(t, envOptions{})
	p := probe.newTenant("Probe")
	probe.bookOrder(p, "ORD-1111")
	probe.bookOrder(p, "ORD-2222")
	two, err := probe.st.StorageUsed(context.Background(), p.consumer)
	if err != nil || two < int64(2*len(booking)) {
		t.Fatalf("two bookings store %d bytes (%v), want at least their bodies, %d", two, err, 2*len(booking))
	}

	e := newEnv(t, envOptions{storageQuota: two + int64(len(booking)) - 1})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	first := e.bookOrder(a, "ORD-1111")
	e.bookOrder(a, "ORD-2222")
	e.clock.advance(usageMaxAge) // the count is read again

	resp, body := e.as(a, http.MethodPost, "/deliveries", bookingOf(t, "ORD-3333"))
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)
	if en := errorEntry(t, body); en.Category != categoryLimit || !strings.Contains(en.Description, "Nothing was stored") {
		t.Errorf("the refusal = %+v", en)
	}
	if _, err := e.st.DeliveryByOrder(context.Background(), a.consumer, "ORD-3333"); err == nil {
		t.Error("the refused booking was stored")
	}
	pad := strings.Repeat(" ", len(booking)) // JSON's white space: as large as a booking
	resp, body = e.as(a, http.MethodPost, "/v1/routes", readTestdata(t, "small-request.json")+pad)
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)
	resp, body = e.update(a, first, `"customer":{"firstName":"Augusta"}`+pad)
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)
	if h := e.history(a, first); len(h) != 1 {
		t.Errorf("the refused update is in the history: %d entries", len(h))
	}
	resp, body = e.withKey(a, "k", http.MethodPost, "/deliveries", bookingOf(t, "ORD-3333"))
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)

	e.setStatus(a, first, delivery.StatusDriverAssigned)
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+first+"/cancel", `{"reason":"over quota, still cancelled"}`)
	want(t, resp, body, http.StatusOK)
	e.bookOrder(b, "ORD-1111")

	if !strings.Contains(e.logs.String(), `"msg":"storage quota exceeded"`) || strings.Contains(e.logs.String(), `"level":"ERROR"`) {
		t.Errorf("want a warning per refusal and no error line:\n%s", e.logs.String())
	}
}

// usageReads counts the store's reads of a tenant's stored bytes.
type usageReads struct {
	store.Store
	reads atomic.Int32
}

func (u *usageReads) StorageUsed(ctx context.Context, tenantID string) (int64, error) {
	u.reads.Add(1)
	return u.Store.StorageUsed(ctx, tenantID)
}

// TestStorageQuotaReadsTheCountOnceASecond: a busy tenant's writes cost
// one read of its count a second, not one each; meanwhile the bodies let
// through are counted on, so that the quota still holds within the
// second.
func TestStorageQuotaReadsTheCountOnceASecond(t *testing.T) {
	st := &usageReads{Store: newTestStore(t)}
	n := 0
	update := func(pad string) string { // a change each time
		n++
		return fmt.Sprintf(`{"deliveries":{"customer":{"firstName":"Ann %d"}}}%s`, n, pad)
	}
	e := newEnv(t, envOptions{store: st, storageQuota: 1 << 20})
	a := e.newTenant("Acme")
	id := e.book(a)
	e.clock.advance(usageMaxAge)
	before := st.reads.Load()
	for range 10 {
		resp, body := e.as(a, http.MethodPut, "/deliveries/"+id+"/update", update(""))
		want(t, resp, body, http.StatusOK)
	}
	if got := st.reads.Load() - before; got != 1 {
		t.Errorf("10 updates in one second read the count %d times, want once", got)
	}
	e.clock.advance(usageMaxAge)
	resp, body := e.as(a, http.MethodPut, "/deliveries/"+id+"/update", update(""))
	want(t, resp, body, http.StatusOK)
	if got := st.reads.Load() - before; got != 2 {
		t.Errorf("a second later: %d reads, want 2", got)
	}

	// Within one second, bodies counted on reach the quota.
	used, err := st.StorageUsed(context.Background(), a.consumer)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat(" ", 200<<10)
	fits := (1<<20 - used) / int64(len(update(pad)))
	e.clock.advance(usageMaxAge)
	for range fits {
		resp, body := e.as(a, http.MethodPut, "/deliveries/"+id+"/update", update(pad))
		want(t, resp, body, http.StatusOK)
	}
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/update", update(pad))
	want(t, resp, body, http.StatusInsufficientStorage, codeQuotaExceeded)
}
