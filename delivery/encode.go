package delivery

import (
	"github.com/haulplan/haulplan/internal/jsonwire"
)

// Encoding follows the payload schema (schema.go): empty strings, zero
// times, nil objects and empty arrays are left out, so that feeding the
// output back to Book gives the same delivery. Numbers and strings are
// written as encoding/json writes them.

// MarshalJSON encodes d as one object with deliveryId, status and the
// members of section 2.2, timestamps in the document's format. It is the
// delivery as a service would show it.
func (d Delivery) MarshalJSON() ([]byte, error) {
	var e jsonwire.Encoder
	e.BeginObject()
	if d.DeliveryID != "" {
		e.Name("deliveryId")
		e.String(d.DeliveryID)
	}
	if d.Status != "" {
		e.Name("status")
		e.String(string(d.Status))
	}
	deliverySchema.writeMembers(&e, &d)
	e.EndObject()
	return e.Bytes()
}

// BookingBody encodes d as a booking (or full update) body,
// {"deliveries": {...}}, without deliveryId and status. Book of that body
// gives d back (with the id passed to Book and status DELIVERY_REQUESTED).
func BookingBody(d Delivery) ([]byte, error) {
	var e jsonwire.Encoder
	e.BeginObject()
	e.Name("deliveries")
	deliverySchema.write(&e, &d)
	e.EndObject()
	return e.Bytes()
}

// Receipt is the response body of a successful update (section 4.2):
// {"deliveries":{"deliveryId","externalOrderId"}}.
type Receipt struct {
	Deliveries ReceiptDelivery `json:"deliveries"`
}

// ReceiptDelivery is the content of a Receipt.
type ReceiptDelivery struct {
	DeliveryID      string `json:"deliveryId"`
	ExternalOrderID string `json:"externalOrderId"`
}

// NewReceipt returns the response body for d.
func NewReceipt(d Delivery) Receipt {
	return Receipt{Deliveries: ReceiptDelivery{DeliveryID: d.DeliveryID, ExternalOrderID: d.ExternalOrderID}}
}
