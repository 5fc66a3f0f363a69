package api

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// Kinds of history entries.
const (
	changeBook   = "BOOK"
	changeUpdate = "UPDATE"
	changeStatus = "STATUS"
	changeCancel = "CANCEL"
)

// bookDelivery is POST /deliveries: delivery.Book with a new id, stored as
// version 1 with its booking in the history. 201 Created, Location the
// delivery's address, body the receipt {"deliveries":{"deliveryId","externalOrderId"}}.
func (s *server) bookDelivery(w http.ResponseWriter, r *http.Request, c *call) {
	body, berr := s.readBody(r, "application/json", delivery.MaxBodyBytes)
	if berr != nil {
		s.refuseBody(w, c, berr)
		return
	}
	d, err := delivery.Book(s.newID(), body)
	if err != nil {
		s.deliveryFailure(w, c, err)
		return
	}
	stored, err := d.MarshalJSON()
	if err != nil {
		s.internal(w, c, err)
		return
	}
	now := s.now().UTC()
	row := store.Delivery{ID: d.DeliveryID, TenantID: c.tenant, ExternalOrderID: d.ExternalOrderID,
		Status: string(d.Status), Body: stored, Version: 1, Created: now, Updated: now}
	err = s.st.CreateDelivery(r.Context(), row, store.Change{DeliveryID: d.DeliveryID, Version: 1, Kind: changeBook, Request: body, At: now})
	if errors.Is(err, store.ErrDuplicate) {
		s.duplicateOrder(w, r, c, d.ExternalOrderID, "; a booking is not repeated. Cancel it to book the order again.")
		return
	}
	if err != nil {
		s.internal(w, c, err)
		return
	}
	c.log.InfoContext(r.Context(), "delivery booked", "delivery_id", d.DeliveryID)
	w.Header().Set("Location", "/deliveries/"+d.DeliveryID)
	writeJSON(w, http.StatusCreated, delivery.NewReceipt(d))
}

// getDelivery is GET /deliveries/{deliveryId}: {"deliveries": the
// delivery with its deliveryId and status}, its version in the ETag.
func (s *server) getDelivery(w http.ResponseWriter, r *http.Request, c *call) {
	id := r.PathValue("deliveryId")
	row, err := s.st.Delivery(r.Context(), c.tenant, id)
	if errors.Is(err, store.ErrNotFound) {
		s.notFound(w, c, "deliveryId", "delivery", id)
		return
	}
	if err != nil {
		s.internal(w, c, err)
		return
	}
	w.Header().Set("ETag", `"`+strconv.FormatInt(row.Version, 10)+`"`)
	writeRaw(w, http.StatusOK, wrapDelivery(row.Body))
}

// wrapDelivery is {"deliveries": body}.
func wrapDelivery(body []byte) []byte {
	out := make([]byte, 0, len(body)+16)
	out = append(out, `{"deliveries":`...)
	out = append(out, body...)
	return append(out, '}')
}

// updateDelivery is PUT /deliveries/{deliveryId}/update: delivery.Apply on
// the current delivery, every rule of section 4.2 the package's; a refused
// update changes nothing and answers 400 with every violation.
func (s *server) updateDelivery(w http.ResponseWriter, r *http.Request, c *call) {
	body, berr := s.readBody(r, "application/json", delivery.MaxBodyBytes)
	if berr != nil {
		s.refuseBody(w, c, berr)
		return
	}
	d, err := s.change(r.Context(), c.tenant, r.PathValue("deliveryId"), changeUpdate, body, func(cur delivery.Delivery) (delivery.Delivery, error) {
		return delivery.Apply(cur, body)
	})
	if !s.changed(w, r, c, err) {
		return
	}
	writeJSON(w, http.StatusOK, delivery.NewReceipt(d))
}

// cancelDelivery is PUT /deliveries/{deliveryId}/cancel: the lifecycle's
// move to CANCELLED (delivery.Transition). Cancelling a cancelled delivery
// again answers it as it is (PUT is idempotent); a delivered or returned
// one is refused (DELIVERY_CLOSED). The body is empty or {"reason": "..."},
// kept in the history.
func (s *server) cancelDelivery(w http.ResponseWriter, r *http.Request, c *call) {
	var body []byte
	if !emptyBody(r) {
		var berr *bodyRefusal
		if body, berr = s.readBody(r, "application/json", 16<<10); berr != nil {
			s.refuseBody(w, c, berr)
			return
		}
		var reason string
		if errs := decodeStringObject(body, "body", map[string]*string{"reason": &reason}); len(errs) > 0 {
			s.fail(w, c, http.StatusBadRequest, errs...)
			return
		}
	}
	d, err := s.change(r.Context(), c.tenant, r.PathValue("deliveryId"), changeCancel, body, func(cur delivery.Delivery) (delivery.Delivery, error) {
		if cur.Status == delivery.StatusCancelled {
			return cur, errUnchanged
		}
		return delivery.Transition(cur, delivery.StatusCancelled)
	})
	if !s.changed(w, r, c, err) {
		return
	}
	s.writeDelivery(w, c, d)
}

// changeDeliveryStatus is PUT /deliveries/{deliveryId}/status with
// {"status": "DRIVER_ASSIGNED"}: the carrier's lifecycle change
// (delivery.Transition); an illegal transition is 400 ILLEGAL_TRANSITION.
func (s *server) changeDeliveryStatus(w http.ResponseWriter, r *http.Request, c *call) {
	body, berr := s.readBody(r, "application/json", 16<<10)
	if berr != nil {
		s.refuseBody(w, c, berr)
		return
	}
	to, errs := decodeStatusBody(body)
	if len(errs) > 0 {
		s.fail(w, c, http.StatusBadRequest, errs...)
		return
	}
	d, err := s.change(r.Context(), c.tenant, r.PathValue("deliveryId"), changeStatus, body, func(cur delivery.Delivery) (delivery.Delivery, error) {
		return delivery.Transition(cur, to)
	})
	if !s.changed(w, r, c, err) {
		return
	}
	s.writeDelivery(w, c, d)
}

// decodeStatusBody reads {"status": "..."} strictly; the status must be
// one of delivery.Statuses.
func decodeStatusBody(body []byte) (delivery.Status, []apiError) {
	var status string
	if errs := decodeStringObject(body, "body", map[string]*string{"status": &status}, "status"); len(errs) > 0 {
		return "", errs
	}
	to := delivery.Status(status)
	if !to.Valid() {
		names := make([]string, 0, 10)
		for _, st := range delivery.Statuses() {
			names = append(names, string(st))
		}
		return "", []apiError{{Code: delivery.CodeInvalidStatus, Field: "body.status", Category: categoryData,
			Description: "The status " + quote(status) + " is not one of " + strings.Join(names, ", ") + "."}}
	}
	return to, nil
}

// changed answers a failed change (404, 400 with the rule's violations,
// 409 for an order id another delivery has or after every retry lost,
// 500) and reports whether the change went
// through (or was an idempotent repeat).
func (s *server) changed(w http.ResponseWriter, r *http.Request, c *call, err error) bool {
	var rule errRule
	var dup errOrderTaken
	switch {
	case err == nil, errors.Is(err, errUnchanged):
		return true
	case errors.Is(err, store.ErrNotFound):
		id := r.PathValue("deliveryId")
		s.notFound(w, c, "deliveryId", "delivery", id)
	case errors.As(err, &rule):
		s.deliveryFailure(w, c, rule.err)
	case errors.As(err, &dup):
		s.duplicateOrder(w, r, c, dup.order, "; another delivery may not take its order id.")
	case errors.Is(err, errContended):
		s.fail(w, c, http.StatusConflict, apiError{Code: codeConcurrentUpdate, Field: "deliveryId",
			Description: "The delivery kept changing while this change was applied; nothing was changed, send it again.",
			Category:    categoryApplication})
	default:
		s.internal(w, c, err)
	}
	return false
}

// duplicateOrder answers 409 DUPLICATE for an order the tenant has booked
// already, naming the booking (its deliveryId in the entry's info and the
// description), then why; the booking is read afresh, so that a client
// learns which delivery holds the order.
func (s *server) duplicateOrder(w http.ResponseWriter, r *http.Request, c *call, order, why string) {
	e := apiError{Code: codeDuplicate, Field: "deliveries.externalOrderId", Category: categoryApplication,
		Description: "The order " + quote(order) + " is booked already" + why}
	switch held, err := s.st.DeliveryByOrder(r.Context(), c.tenant, order); {
	case err == nil:
		e.Info = held.ID
		e.Description = "The order " + quote(order) + " is booked already, as delivery " + quote(held.ID) + why
	case !errors.Is(err, store.ErrNotFound): // cancelled meanwhile: the entry without its id
		s.internal(w, c, err)
		return
	}
	s.fail(w, c, http.StatusConflict, e)
}

// writeDelivery answers {"deliveries": the delivery}.
func (s *server) writeDelivery(w http.ResponseWriter, c *call, d delivery.Delivery) {
	b, err := d.MarshalJSON()
	if err != nil {
		s.internal(w, c, err)
		return
	}
	writeRaw(w, http.StatusOK, wrapDelivery(b))
}
