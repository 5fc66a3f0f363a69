package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// book books testdata/booking.json (order ORD-1001) for tn and returns
// the delivery id.
func (e *testEnv) book(tn tenant) string {
	e.t.Helper()
	return e.bookOrder(tn, "ORD-1001")
}

// bookingOf is testdata/booking.json for another order.
func bookingOf(t testing.TB, order string) string {
	t.Helper()
	b := readTestdata(t, "booking.json")
	if !strings.Contains(b, `"externalOrderId":"ORD-1001"`) {
		t.Fatal(`testdata/booking.json lacks "externalOrderId":"ORD-1001"`)
	}
	return strings.Replace(b, `"externalOrderId":"ORD-1001"`, `"externalOrderId":"`+order+`"`, 1)
}

// bookOrder books testdata/booking.json as order for tn and returns the
// delivery id.
func (e *testEnv) bookOrder(tn tenant, order string) string {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodPost, "/deliveries", bookingOf(e.t, order))
	want(e.t, resp, body, http.StatusCreated)
	var rc delivery.Receipt
	if err := json.Unmarshal(body, &rc); err != nil {
		e.t.Fatal(err)
	}
	if rc.Deliveries.DeliveryID == "" || rc.Deliveries.ExternalOrderID != order || resp.Header.Get("Location") != "/deliveries/"+rc.Deliveries.DeliveryID {
		e.t.Fatalf("receipt %+v, Location %q", rc, resp.Header.Get("Location"))
	}
	return rc.Deliveries.DeliveryID
}

// delivery reads a delivery through GET and decodes it with the
// delivery package.
func (e *testEnv) delivery(tn tenant, id string) delivery.Delivery {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodGet, "/deliveries/"+id, "")
	want(e.t, resp, body, http.StatusOK)
	var wrapped struct {
		Deliveries json.RawMessage `json:"deliveries"`
	}
	if err := json.Unmarshal(body, &wrapped); err != nil {
		e.t.Fatal(err)
	}
	d, err := decodeStored(store.Delivery{ID: id, Body: wrapped.Deliveries, Status: statusOf(e.t, wrapped.Deliveries)})
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func statusOf(t testing.TB, b []byte) string {
	var s struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.Status
}

func (e *testEnv) update(tn tenant, id, members string) (*http.Response, []byte) {
	e.t.Helper()
	return e.as(tn, http.MethodPut, "/deliveries/"+id+"/update", `{"deliveries":{`+members+`}}`)
}

func (e *testEnv) setStatus(tn tenant, id string, s delivery.Status) {
	e.t.Helper()
	resp, body := e.as(tn, http.MethodPut, "/deliveries/"+id+"/status", `{"status":"`+string(s)+`"}`)
	want(e.t, resp, body, http.StatusOK)
	if got := statusOf(e.t, []byte(strings.TrimSuffix(strings.TrimPrefix(string(body), `{"deliveries":`), "}"))); got != string(s) {
		e.t.Fatalf("status %q after the change to %s", got, s)
	}
}

func (e *testEnv) history(tn tenant, id string) []store.Change {
	e.t.Helper()
	h, err := e.st.History(context.Background(), tn.consumer, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// TestDeliveryRules drives every update rule through HTTP: a change, no
// change, a disallowed combination, a booking constraint, the locks after
// DRIVER_ASSIGNED and after DISPATCHED, illegal transitions, cancel, and
// a closed delivery; a refused update changes nothing.
func TestDeliveryRules(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	id := e.book(a)
	if d := e.delivery(a, id); d.Status != delivery.StatusRequested || d.Customer.FirstName != "Ada" {
		t.Fatalf("booked: %+v", d)
	}

	resp, body := e.update(a, id, `"customer":{"email":"grace@example.com"}`)
	want(t, resp, body, http.StatusOK)
	var rc delivery.Receipt
	if err := json.Unmarshal(body, &rc); err != nil || rc.Deliveries.DeliveryID != id || rc.Deliveries.ExternalOrderID != "ORD-1001" {
		t.Fatalf("receipt %s (%v)", body, err)
	}
	if d := e.delivery(a, id); d.Customer.Email != "grace@example.com" || d.Customer.FirstName != "Ada" {
		t.Fatalf("after the update: %+v", d.Customer)
	}

	refused := []struct {
		name, members, code string
	}{
		{"no change", `"customer":{"email":"grace@example.com"}`, delivery.CodeNoChange},
		{"disallowed combination", `"deliveryDetails":{"propertyDetails":{"locationPreference":"MAILROOM_OR_PROPERTY_STAFF"}}`, delivery.CodeDisallowedCombination},
		{"bad e-mail", `"customer":{"email":"not an address"}`, delivery.CodeInvalidFormat},
		{"unknown member", `"customer":{"mail":"x@example.com"}`, delivery.CodeUnknownMember},
		{"wrong type", `"customer":{"email":7}`, delivery.CodeInvalidType},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			before := len(e.history(a, id))
			resp, body := e.update(a, id, tc.members)
			want(t, resp, body, http.StatusBadRequest, tc.code)
			if after := len(e.history(a, id)); after != before {
				t.Fatalf("a refused update was recorded: %d → %d changes", before, after)
			}
		})
	}
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/update", `{"deliveries":`)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeMalformedJSON)

	// Driver assigned: pickup, address, pin-drop coordinates and phone lock.
	e.setStatus(a, id, delivery.StatusDriverAssigned)
	for _, m := range []string{
		`"customer":{"phone":{"number":"5559876543"}}`,
		`"deliveryDetails":{"address":{"line1":"2 Main St"}}`,
		`"pickupDetails":{"pickupPointId":"STORE-43"}`,
		`"deliveryDetails":{"latLong":{"lat":36.1}}`,
	} {
		resp, body := e.update(a, id, m)
		want(t, resp, body, http.StatusBadRequest, delivery.CodeLocked)
	}
	resp, body = e.update(a, id, `"customer":{"firstName":"Grace"},"deliveryDetails":{"propertyDetails":{"gateCode":"9999"}}`)
	want(t, resp, body, http.StatusOK)

	// Dispatched: slot, items, scans, names, instructions, property lock too.
	e.setStatus(a, id, delivery.StatusEnrouteToPickup)
	e.setStatus(a, id, delivery.StatusArrivedAtPickup)
	e.setStatus(a, id, delivery.StatusDispatched)
	for _, m := range []string{
		`"customer":{"lastName":"Hopper"}`,
		`"requestedMaxDeliverySlotTime":"2026-11-22T13:00:00.000Z"`,
		`"deliveryDetails":{"propertyDetails":{"gateCode":"0000"}}`,
		`"instructions":[{"instructionText":"Knock","instructionType":"CUSTOMER"}]`,
		`"scanDetails":[{"scanDetail":[{"scanId":"SCAN-9"}],"scanType":"CODE128"}]`,
		`"customer":{"phone":{"number":"5559876543"}}`,
	} {
		resp, body := e.update(a, id, m)
		want(t, resp, body, http.StatusBadRequest, delivery.CodeLocked)
	}
	resp, body = e.update(a, id, `"customer":{"email":"ada@example.org"}`)
	want(t, resp, body, http.StatusOK)

	// The lifecycle: no going back, no unknown status, no stray members.
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/status", `{"status":"DRIVER_ASSIGNED"}`)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeIllegalTransition)
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/status", `{"status":"LOST"}`)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeInvalidStatus)
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/status", `{"status":"DELIVERED","by":"x"}`)
	want(t, resp, body, http.StatusBadRequest, codeUnknownMember)
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/status", `{}`)
	want(t, resp, body, http.StatusBadRequest, codeRequired)

	e.setStatus(a, id, delivery.StatusEnrouteToDropoff)
	e.setStatus(a, id, delivery.StatusDelivered)
	resp, body = e.update(a, id, `"customer":{"email":"late@example.com"}`)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeClosed)
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/cancel", "")
	want(t, resp, body, http.StatusBadRequest, delivery.CodeClosed)

	// Every accepted change is in the history, versions 1, 2, ... in order.
	h := e.history(a, id)
	var kinds []string
	for i, c := range h {
		if c.Version != int64(i+1) {
			t.Fatalf("history %d has version %d", i, c.Version)
		}
		kinds = append(kinds, c.Kind)
	}
	wantKinds := []string{"BOOK", "UPDATE", "STATUS", "UPDATE", "STATUS", "STATUS", "STATUS", "UPDATE", "STATUS", "STATUS"}
	if !slices.Equal(kinds, wantKinds) {
		t.Fatalf("history %v, want %v", kinds, wantKinds)
	}
}

// TestCancelDelivery: cancel, cancel again (the same answer, no new
// history entry), and no update afterwards.
func TestCancelDelivery(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	id := e.book(a)
	resp, body := e.as(a, http.MethodPut, "/deliveries/"+id+"/cancel", `{"reason":"customer asked"}`)
	want(t, resp, body, http.StatusOK)
	if d := e.delivery(a, id); d.Status != delivery.StatusCancelled {
		t.Fatalf("status %s", d.Status)
	}
	resp, body = e.as(a, http.MethodPut, "/deliveries/"+id+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	if h := e.history(a, id); len(h) != 2 || h[1].Kind != "CANCEL" || string(h[1].Request) != `{"reason":"customer asked"}` {
		t.Fatalf("history %+v", h)
	}
	resp, body = e.update(a, id, `"customer":{"email":"x@example.com"}`)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeClosed)
}

// TestBookDeliveryViolations: a booking is checked by delivery.Book, every
// violation listed.
func TestBookDeliveryViolations(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	bad := strings.Replace(readTestdata(t, "booking.json"), `"countryCode":"US"`, `"countryCode":"USA"`, 1)
	bad = strings.Replace(bad, `"propertyType":"HOUSE"`, `"propertyType":"CASTLE"`, 1)
	resp, body := e.as(a, http.MethodPost, "/deliveries", bad)
	want(t, resp, body, http.StatusBadRequest, delivery.CodeInvalidFormat, delivery.CodeInvalidEnum)
}

// TestConcurrentUpdates: 32 clients update one delivery at once, each a
// different change; none is lost and the history holds each once.
func TestConcurrentUpdates(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	id := e.book(a)
	// Distinct fields for the first ones (a lost update would undo one of
	// them); the rest all set the last name, each to its own value.
	distinct := []string{
		`"addOnServices":{"returnable":true}`, `"addOnServices":{"capturePhotoProof":true}`,
		`"addOnServices":{"isDropOffOTPRequired":true}`, `"addOnServices":{"captureSignatureProof":true}`,
		`"addOnServices":{"chainOfCustody":true}`, `"customer":{"email":"c@example.com"}`,
		`"deliveryDetails":{"propertyDetails":{"gateCode":"7777"}}`, `"deliveryDetails":{"address":{"line2":"Suite 9"}}`,
		`"pickupDetails":{"externalPickupPointId":"EXT-9"}`, `"customer":{"firstName":"Grace"}`,
		`"clientId":"client-9"`,
	}
	const clients = 32
	bodies := make([]string, clients)
	for i := range clients {
		if i < len(distinct) {
			bodies[i] = `{"deliveries":{` + distinct[i] + `}}`
		} else {
			bodies[i] = fmt.Sprintf(`{"deliveries":{"customer":{"lastName":"Name%02d"}}}`, i)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPut, e.srv.URL+"/deliveries/"+id+"/update", strings.NewReader(bodies[i]))
			req.Header.Set("Authorization", "Bearer "+a.token)
			req.Header.Set(ConsumerHeader, a.consumer)
			req.Header.Set("Content-Type", "application/json")
			resp, err := e.srv.Client().Do(req)
			if err != nil {
				errs <- err
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("client %d: status %d", i, resp.StatusCode)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	d := e.delivery(a, id)
	ao := d.AddOnServices
	if !ao.Returnable || !ao.CapturePhotoProof || !ao.IsDropOffOTPRequired || !ao.CaptureSignatureProof || !ao.ChainOfCustody ||
		d.Customer.Email != "c@example.com" || d.DeliveryDetails.PropertyDetails.GateCode != "7777" ||
		d.DeliveryDetails.Address.Line2 != "Suite 9" || d.PickupDetails.ExternalPickupPointID != "EXT-9" ||
		d.Customer.FirstName != "Grace" || d.ClientID != "client-9" {
		t.Fatalf("a concurrent change was lost: %+v", d)
	}
	h := e.history(a, id)
	if len(h) != clients+1 {
		t.Fatalf("%d history entries, want %d", len(h), clients+1)
	}
	seen := map[string]int{}
	lastName := ""
	for i, c := range h {
		if c.Version != int64(i+1) {
			t.Fatalf("history %d has version %d", i, c.Version)
		}
		if i > 0 {
			seen[string(c.Request)]++
			if strings.Contains(string(c.Request), "lastName") {
				lastName = string(c.Request)
			}
		}
	}
	for i, b := range bodies {
		if seen[b] != 1 {
			t.Fatalf("client %d's change is in the history %d times", i, seen[b])
		}
	}
	if !strings.Contains(lastName, `"`+d.Customer.LastName+`"`) {
		t.Fatalf("last name %q is not the last one written (%s)", d.Customer.LastName, lastName)
	}
}

// conflictingStore plays another process: before the first UpdateDelivery
// of each of the next n calls, it writes its own change to the delivery, so
// the service's write meets ErrConflict and must re-apply on the fresh one.
type conflictingStore struct {
	store.Store
	mu    sync.Mutex
	n     int
	apply func(delivery.Delivery) (delivery.Delivery, error)
}

func (c *conflictingStore) UpdateDelivery(ctx context.Context, d store.Delivery, ch store.Change) error {
	c.mu.Lock()
	interfere := c.n > 0
	if interfere {
		c.n--
	}
	c.mu.Unlock()
	if interfere {
		cur, err := c.Store.Delivery(ctx, d.TenantID, d.ID)
		if err != nil {
			return err
		}
		dd, err := decodeStored(cur)
		if err != nil {
			return err
		}
		next, err := c.apply(dd)
		if err != nil {
			return err
		}
		b, _ := json.Marshal(next)
		other := cur
		other.Body, other.Version, other.Status = b, cur.Version+1, string(next.Status)
		if err := c.Store.UpdateDelivery(ctx, other, store.Change{DeliveryID: d.ID, Version: other.Version, Kind: "UPDATE", Request: []byte("other process")}); err != nil {
			return err
		}
	}
	return c.Store.UpdateDelivery(ctx, d, ch)
}

// TestUpdateRetriesOnConflict: another process's change between the read
// and the write is kept, and this one applied on top of it; when every
// attempt loses, 409 CONCURRENT_UPDATE and nothing of this change is
// written.
func TestUpdateRetriesOnConflict(t *testing.T) {
	cs := &conflictingStore{Store: newTestStore(t)}
	e := newEnv(t, envOptions{store: cs})
	a := e.newTenant("Acme")
	id := e.book(a)
	n := 0
	cs.apply = func(d delivery.Delivery) (delivery.Delivery, error) {
		n++
		return delivery.Apply(d, []byte(fmt.Sprintf(`{"deliveries":{"customer":{"lastName":"Other%d"}}}`, n)))
	}
	cs.n = 2
	resp, body := e.update(a, id, `"customer":{"email":"mine@example.com"}`)
	want(t, resp, body, http.StatusOK)
	d := e.delivery(a, id)
	if d.Customer.Email != "mine@example.com" || d.Customer.LastName != "Other2" {
		t.Fatalf("after two conflicts: %+v", d.Customer)
	}
	if h := e.history(a, id); len(h) != 4 {
		t.Fatalf("history has %d entries, want 4 (book, two others, mine)", len(h))
	}

	cs.n = maxChangeAttempts
	resp, body = e.update(a, id, `"customer":{"email":"lost@example.com"}`)
	want(t, resp, body, http.StatusConflict, codeConcurrentUpdate)
	if d := e.delivery(a, id); d.Customer.Email != "mine@example.com" {
		t.Fatalf("a refused change was written: %+v", d.Customer)
	}
}

// TestDecodeStoredRoundTrip: a stored delivery reads back equal, in every
// status and with an id that needs escaping.
func TestDecodeStoredRoundTrip(t *testing.T) {
	d, err := delivery.Book(`id-"quoted"\`, []byte(readTestdata(t, "booking.json")))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range delivery.Statuses() {
		d.Status = s
		b, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeStored(store.Delivery{ID: d.DeliveryID, Status: string(s), Body: b})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !got.Equal(d) {
			t.Fatalf("%s: read back %+v, want %+v", s, got, d)
		}
	}
	for _, bad := range []string{``, `[]`, `{"deliveryId":"x"`, `{"deliveryId":"x","status":"DELIVERED"}`, `{"status":"DELIVERED","clientId":1}`} {
		if _, err := decodeStored(store.Delivery{ID: "x", Status: "DELIVERED", Body: []byte(bad)}); err == nil {
			t.Fatalf("%q read as a delivery", bad)
		}
	}
}

// errorEntry is the first entry of an error body.
func errorEntry(t testing.TB, body []byte) apiError {
	t.Helper()
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil || len(eb.Errors) == 0 {
		t.Fatalf("error body: %v: %s", err, body)
	}
	return eb.Errors[0]
}

// TestDuplicateBooking: the same booking posted twice books once: the
// repeat is 409 DUPLICATE naming the delivery that holds the order (in
// info and the description); an update may not give another delivery the
// order's id; once the booking is cancelled, the order books again.
// Another consumer's order of the same id is its own.
func TestDuplicateBooking(t *testing.T) {
	e := newEnv(t, envOptions{})
	a := e.newTenant("Acme")
	b := e.newTenant("Beta")
	first := e.book(a)
	resp, body := e.as(a, http.MethodPost, "/deliveries", readTestdata(t, "booking.json"))
	want(t, resp, body, http.StatusConflict, codeDuplicate)
	if en := errorEntry(t, body); en.Info != first || en.Field != "deliveries.externalOrderId" || !strings.Contains(en.Description, first) {
		t.Errorf("the repeat's error = %+v, want it to name delivery %s", en, first)
	}
	e.book(b)

	second := e.bookOrder(a, "ORD-2002")
	resp, body = e.update(a, second, `"externalOrderId":"ORD-1001"`)
	want(t, resp, body, http.StatusConflict, codeDuplicate)
	if en := errorEntry(t, body); en.Info != first {
		t.Errorf("the update's error = %+v, want it to name delivery %s", en, first)
	}
	if got := e.delivery(a, second); got.ExternalOrderID != "ORD-2002" || len(e.history(a, second)) != 1 {
		t.Errorf("the refused update changed the delivery: order %s", got.ExternalOrderID)
	}

	resp, body = e.as(a, http.MethodPut, "/deliveries/"+first+"/cancel", "")
	want(t, resp, body, http.StatusOK)
	again := e.book(a)
	if again == first {
		t.Fatal("the rebooking has the cancelled delivery's id")
	}
}
