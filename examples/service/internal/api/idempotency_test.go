package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// withKey sends a request as tn with an Idempotency-Key.
func (e *testEnv) withKey(tn tenant, key, method, path, body string) (*http.Response, []byte) {
	e.t.Helper()
	return e.do(method, path, map[string]string{"Authorization": "Bearer " + tn.token, ConsumerHeader: tn.consumer,
		"Content-Type": "application/json", IdempotencyKeyHeader: key}, body)
}

// TestIdempotencyKeyRepeatsTheAnswer: a booking and a planning job sent
// again with their Idempotency-Key get the first answer, status, body and
// Location, marked Idempotent-Replayed, and create nothing more; the key
// with another body, or on the other operation, is 422; a quoted key is
// the bare one; another consumer's key of the same text is its own.
func TestIdempotencyKeyRepeatsTheAnswer(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	booking := readTestdata(t, "booking.json")
	resp, first := e.withKey(a, "book-1", http.MethodPost, "/deliveries", booking)
	want(t, resp, first, http.StatusCreated)
	location := resp.Header.Get("Location")
	if resp.Header.Get(ReplayedHeader) != "" {
		t.Errorf("the first answer says %s: %q", ReplayedHeader, resp.Header.Get(ReplayedHeader))
	}
	for _, key := range []string{"book-1", `"book-1"`} {
		resp, again := e.withKey(a, key, http.MethodPost, "/deliveries", booking)
		want(t, resp, again, http.StatusCreated)
		if string(again) != string(first) || resp.Header.Get("Location") != location || resp.Header.Get(ReplayedHeader) != "true" {
			t.Errorf("key %s again: %s, Location %q, %s %q; want %s, %q, true", key, again, resp.Header.Get("Location"),
				ReplayedHeader, resp.Header.Get(ReplayedHeader), first, location)
		}
	}
	var rc struct {
		Deliveries struct{ DeliveryID string } `json:"deliveries"`
	}
	if err := json.Unmarshal(first, &rc); err != nil {
		t.Fatal(err)
	}
	if h := e.history(a, rc.Deliveries.DeliveryID); len(h) != 1 {
		t.Errorf("the repeats changed the booking: %d history entries", len(h))
	}
	resp, body := e.withKey(a, "book-1", http.MethodPost, "/deliveries", bookingOf(t, "ORD-2002"))
	want(t, resp, body, http.StatusUnprocessableEntity, codeIdempotencyKeyReused)
	resp, body = e.withKey(a, "book-1", http.MethodPost, "/v1/routes", readTestdata(t, "small-request.json"))
	want(t, resp, body, http.StatusUnprocessableEntity, codeIdempotencyKeyReused)
	resp, body = e.withKey(b, "book-1", http.MethodPost, "/deliveries", booking)
	want(t, resp, body, http.StatusCreated)
	if resp.Header.Get(ReplayedHeader) != "" {
		t.Errorf("another consumer's key of the same text replayed an answer: %s", body)
	}

	request := readTestdata(t, "small-request.json")
	resp, job := e.withKey(a, "plan-1", http.MethodPost, "/v1/routes", request)
	want(t, resp, job, http.StatusAccepted)
	var created jobCreated
	if err := json.Unmarshal(job, &created); err != nil {
		t.Fatal(err)
	}
	e.complete(created.JobID) // what happened since does not change the answer
	resp, again := e.withKey(a, "plan-1", http.MethodPost, "/v1/routes", request)
	want(t, resp, again, http.StatusAccepted)
	if string(again) != string(job) || resp.Header.Get("Location") != "/v1/job/"+created.JobID || resp.Header.Get(ReplayedHeader) != "true" {
		t.Errorf("the job again: %s, Location %q; want %s", again, resp.Header.Get("Location"), job)
	}
	resp, body = e.withKey(a, "plan-1", http.MethodPost, "/v1/routes", strings.Replace(request, "{", "{ ", 1))
	want(t, resp, body, http.StatusUnprocessableEntity, codeIdempotencyKeyReused)
}

// TestIdempotencyKeyAfterAFailure: an answer that is not a success is not
// kept, so the key works again once the request does: a booking refused
// for its body, then sent right with the same key, books.
func TestIdempotencyKeyAfterAFailure(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	bad := strings.Replace(readTestdata(t, "booking.json"), `"countryCode":"US"`, `"countryCode":"USA"`, 1)
	resp, body := e.withKey(a, "k", http.MethodPost, "/deliveries", bad)
	want(t, resp, body, http.StatusBadRequest)
	resp, body = e.withKey(a, "k", http.MethodPost, "/deliveries", readTestdata(t, "booking.json"))
	want(t, resp, body, http.StatusCreated)
	if resp.Header.Get(ReplayedHeader) != "" {
		t.Errorf("the booking after the refusal was a replay: %s", body)
	}
}

// TestIdempotencyKeyWhileUnderWay: a repeat while the first request with
// the key is still being stored is 409 IDEMPOTENCY_KEY_IN_USE with
// Retry-After; once the first is answered, a repeat gets its answer. A
// request under way for longer than a request may take (its process
// died) is taken over by the next with the key.
func TestIdempotencyKeyWhileUnderWay(t *testing.T) {
	held := &holdingStore{Store: newTestStore(t), entered: make(chan struct{}), release: make(chan struct{})}
	e := newEnv(t, envOptions{store: held})
	t.Cleanup(held.free) // before the server's close, which waits for the held request
	a := e.newTenant("Acme")
	booking := readTestdata(t, "booking.json")
	var wg sync.WaitGroup
	var first []byte
	wg.Go(func() {
		resp, body := e.withKey(a, "k", http.MethodPost, "/deliveries", booking)
		if resp.StatusCode != http.StatusCreated {
			t.Errorf("the first request: %d %s", resp.StatusCode, body)
		}
		first = body
	})
	<-held.entered // the first request is storing its booking
	resp, body := e.withKey(a, "k", http.MethodPost, "/deliveries", booking)
	want(t, resp, body, http.StatusConflict, codeIdempotencyKeyInUse)
	if resp.Header.Get("Retry-After") == "" {
		t.Error("the 409 has no Retry-After")
	}
	held.free()
	wg.Wait()
	resp, body = e.withKey(a, "k", http.MethodPost, "/deliveries", booking)
	want(t, resp, body, http.StatusCreated)
	if string(body) != string(first) || resp.Header.Get(ReplayedHeader) != "true" {
		t.Errorf("the repeat once answered: %s, want %s replayed", body, first)
	}

	// A request under way since 11 minutes ago, whose process died.
	dead := store.IdempotentRequest{TenantID: a.consumer, Key: "orphan", Operation: "bookDelivery",
		Fingerprint: fingerprint("bookDelivery", "", []byte(bookingOf(t, "ORD-3003"))), Created: e.clock.now().Add(-11 * time.Minute)}
	if _, fresh, err := e.st.BeginIdempotent(context.Background(), dead, dead.Created); err != nil || !fresh {
		t.Fatal(fresh, err)
	}
	resp, body = e.withKey(a, "orphan", http.MethodPost, "/deliveries", bookingOf(t, "ORD-3003"))
	want(t, resp, body, http.StatusCreated)
	if resp.Header.Get(ReplayedHeader) != "" {
		t.Errorf("the orphaned key replayed: %s", body)
	}
}

// TestIdempotencyKeyExpiresWithTheRetention: a key is kept as long as
// what its request created: the retention of jobs for a job, of
// deliveries for a booking.
func TestIdempotencyKeyExpiresWithTheRetention(t *testing.T) {
	e := newEnv(t, envOptions{retention: store.Retention{Jobs: 48 * time.Hour, Deliveries: 90 * 24 * time.Hour}})
	a := e.newTenant("Acme")
	sent := e.clock.now()
	resp, body := e.withKey(a, "job", http.MethodPost, "/v1/routes", readTestdata(t, "small-request.json"))
	want(t, resp, body, http.StatusAccepted)
	resp, body = e.withKey(a, "booking", http.MethodPost, "/deliveries", readTestdata(t, "booking.json"))
	want(t, resp, body, http.StatusCreated)
	for key, keep := range map[string]time.Duration{"job": 48 * time.Hour, "booking": 90 * 24 * time.Hour} {
		probe := store.IdempotentRequest{TenantID: a.consumer, Key: key, Operation: "probe", Fingerprint: []byte("p"), Created: sent}
		stored, fresh, err := e.st.BeginIdempotent(context.Background(), probe, sent.Add(-time.Hour))
		if err != nil || fresh {
			t.Fatalf("key %s: fresh %v, %v", key, fresh, err)
		}
		if want := sent.Add(keep).Truncate(time.Microsecond); !stored.Expires.Equal(want) {
			t.Errorf("key %s expires %v, want %v", key, stored.Expires, want)
		}
	}
}

// TestIdempotencyKeyInvalid: a key that is empty, longer than 255
// characters, not visible ASCII, a badly quoted string, or sent twice is
// 400 INVALID_IDEMPOTENCY_KEY, and nothing is booked.
func TestIdempotencyKeyInvalid(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	for _, key := range []string{"", `""`, strings.Repeat("k", 256), "schlüssel", `"open`, `"a\nb"`, `"a\x"`, "two words"} {
		resp, body := e.withKey(a, key, http.MethodPost, "/deliveries", readTestdata(t, "booking.json"))
		want(t, resp, body, http.StatusBadRequest, codeInvalidIdempotencyKey)
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/deliveries", strings.NewReader(readTestdata(t, "booking.json")))
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header[ConsumerHeader] = []string{a.consumer}
	req.Header.Set("Content-Type", "application/json")
	req.Header[IdempotencyKeyHeader] = []string{"one", "two"}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("two keys: status %d, want 400", resp.StatusCode)
	}
	e.book(a) // nothing was booked: the order is free
}

// holdingStore holds the first CreateDelivery until free, saying on
// entered that it holds it.
type holdingStore struct {
	store.Store
	held             atomic.Bool
	freed            sync.Once
	entered, release chan struct{}
}

func (h *holdingStore) free() { h.freed.Do(func() { close(h.release) }) }

func (h *holdingStore) CreateDelivery(ctx context.Context, d store.Delivery, c store.Change) error {
	if h.held.CompareAndSwap(false, true) {
		close(h.entered)
		<-h.release
	}
	return h.Store.CreateDelivery(ctx, d, c)
}
