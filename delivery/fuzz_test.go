package delivery

import (
	"encoding/json"
	"errors"
	"testing"
)

var updateSeeds = []string{
	`{"deliveries":{}}`,
	`{"deliveries":{"customer":{"email":"ada@example.org"}}}`,
	`{"deliveries":{"customer":null}}`,
	`{"deliveries":{"deliveryDetails":{"propertyDetails":{"propertyType":null,"locationPreference":"BACK_DOOR"}}}}`,
	`{"deliveries":{"deliveryDetails":{"latLong":null}}}`,
	`{"deliveries":{"deliveryDetails":{"latLong":{"type":"GEOCODED","lat":1}}}}`,
	`{"deliveries":{"orderManifest":{"summary":null,"itemDetails":[{"itemId":"A","quantity":1,"dimensions":{"length":1,"width":2,"height":3,"unitOfMeasure":"CM"}}]}}}`,
	`{"deliveries":{"orderManifest":{"summary":{"totalItems":3,"dimensions":[{"length":1,"width":1,"height":1,"unitOfMeasure":"IN"}],"specialHandlingAttributes":null}}}}`,
	`{"deliveries":{"scanDetails":[{"scanDetail":[{"scanId":"X"}],"scanType":"CODE128"}],"instructions":null}}`,
	`{"deliveries":{"requestedMinDeliverySlotTime":"2026-11-22T11:00:00.000Z","requestedMaxDeliverySlotTime":"2026-11-22T13:00:00.000Z"}}`,
	`{"deliveries":{"addOnServices":{"returnable":true,"chainOfCustody":null},"pickupDetails":{"pickupPointId":"S"}}}`,
	`{"deliveries":{"clientId":"a","clientId":"b"}}`,
	`{"deliveries":{"orderManifest":{"itemDetails":[{"itemId":"A","quantity":1.5}]}}}`,
	`{"deliveries":{"deliveryDetails":{"address":{"zipCode":"1"},"propertyDetails":{"gateCode":"\u0000"}}}}`,
	`{"deliveries":[]}`, `{`, `null`,
}

// FuzzBook: Book never panics, never accepts what encoding/json rejects as
// syntax, and what it accepts is valid and survives an encode/decode round
// trip.
func FuzzBook(f *testing.F) {
	f.Add([]byte(bookingJSON))
	for _, s := range updateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d, err := Book("D", body)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Violations) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("booked from invalid JSON %q", body)
		}
		if err := Check(d); err != nil {
			t.Fatalf("booked an invalid delivery: %v", err)
		}
		enc, err := BookingBody(d)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Book("D", enc)
		if err != nil || !back.Equal(d) {
			t.Fatalf("round trip: %v\n%s", err, enc)
		}
	})
}

// FuzzApply: Apply never panics, never changes its input and never accepts
// what encoding/json rejects as syntax; a failure
// returns the input; a success is a valid, different delivery with the same
// identity, and the same body applied again changes nothing.
func FuzzApply(f *testing.F) {
	for i, s := range updateSeeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Add(uint8(4), []byte(bookingJSON))
	base := map[Status]Delivery{}
	f.Fuzz(func(t *testing.T, st uint8, body []byte) {
		s := Statuses()[int(st)%len(Statuses())]
		cur, ok := base[s]
		if !ok {
			cur = inStatus(t, s)
			base[s] = cur
		}
		snapshot := cur.Clone()
		got, err := Apply(cur, body)
		if !cur.Equal(snapshot) {
			t.Fatal("Apply changed its input")
		}
		if err != nil {
			if !got.Equal(snapshot) {
				t.Fatal("failed Apply returned a changed delivery")
			}
			if len(codes(err)) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
			for _, pe := range ProviderErrors(err).Errors {
				if _, known := codeTable[pe.Code]; !known || pe.Info == "" || pe.Description == "" || pe.Severity != "ERROR" {
					t.Fatalf("provider entry %+v", pe)
				}
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("applied invalid JSON %q", body)
		}
		if got.Equal(cur) || got.DeliveryID != cur.DeliveryID || got.Status != cur.Status {
			t.Fatal("success without change, or identity changed")
		}
		if err := Check(got); err != nil {
			t.Fatalf("accepted an invalid result: %v", err)
		}
		if _, err := Apply(got, body); !errors.Is(err, ErrNoChange) {
			t.Fatalf("second application: %v", err)
		}
	})
}
