package delivery

import "errors"

// bookingJSON is a complete, valid booking body.
const bookingJSON = `{"deliveries":{
 "clientId":"client-1","externalOrderId":"ORD-1001","deliveryMethod":"SCHEDULED_DELIVERY",
 "orderPickupReadyTime":"2026-11-22T09:30:00.000Z",
 "requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z",
 "requestedMaxDeliverySlotTime":"2026-11-22T12:00:00.000Z",
 "customer":{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phone":{"countryCode":"+1","number":"5551234567"}},
 "addOnServices":{"returnable":false,"attendedDelivery":true,"proofOfDelivery":true,"capturePhotoProof":false,"isDropOffOTPRequired":false,"captureSignatureProof":false,"chainOfCustody":false},
 "pickupDetails":{"pickupPointId":"STORE-42","externalPickupPointId":"EXT-42"},
 "instructions":[{"instructionText":"Ring twice","instructionType":"CUSTOMER"}],
 "deliveryDetails":{
  "address":{"line1":"1 Main St","line2":"Apt 2","city":"Bentonville","state":"AR","zipCode":"72712","countryCode":"US"},
  "latLong":{"type":"CUSTOMER_PINDROP","lat":36.3729,"lng":-94.2088},
  "propertyDetails":{"gateCode":"1234","propertyType":"HOUSE","locationPreference":"FRONT_DOOR"}},
 "scanDetails":[{"scanDetail":[{"scanId":"SCAN-1"},{"scanId":"SCAN-2"}],"scanType":"CODE128"}],
 "orderManifest":{
  "summary":{"totalItems":3,"orderSize":"S",
   "dimensions":[{"length":10,"width":8,"height":4,"unitOfMeasure":"IN"}],
   "totalValueOfItems":{"currencyAmount":25.5,"currencyUnit":"USD"},
   "totalOrderWeight":{"measurementValue":40,"unitOfMeasure":"OZ"},
   "specialHandlingAttributes":{"hasHazmatItems":false,"hasAlcoholItems":false,"hasFragileItems":true,"hasPharmacyItems":false}},
  "itemDetails":[
   {"itemId":"ITEM-1","itemDescription":"Mug","dimensions":{"length":4,"width":4,"height":4,"unitOfMeasure":"IN"},"quantity":2,"itemWeight":{"measurementValue":12,"unitOfMeasure":"OZ"},"itemTotal":{"currencyAmount":15.5,"currencyUnit":"USD"}},
   {"itemId":"ITEM-2","itemDescription":"Tea","quantity":1,"itemWeight":{"measurementValue":8,"unitOfMeasure":"OZ"},"itemTotal":{"currencyAmount":10,"currencyUnit":"USD"}}]}
}}`

// tb is what the helpers need of *testing.T, *testing.B and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func booked(t tb) Delivery {
	t.Helper()
	d, err := Book("DLV-1", []byte(bookingJSON))
	if err != nil {
		t.Fatalf("Book: %v", err)
	}
	return d
}

// inStatus returns the booked fixture moved along the main lifecycle to s.
func inStatus(t tb, s Status) Delivery {
	t.Helper()
	d := booked(t)
	path := map[Status][]Status{
		StatusRequested:        nil,
		StatusDriverAssigned:   {StatusDriverAssigned},
		StatusEnrouteToPickup:  {StatusDriverAssigned, StatusEnrouteToPickup},
		StatusArrivedAtPickup:  {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup},
		StatusDispatched:       {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched},
		StatusEnrouteToDropoff: {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff},
		StatusDelivered:        {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusDelivered},
		StatusFailed:           {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed},
		StatusReturned:         {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed, StatusReturned},
		StatusCancelled:        {StatusCancelled},
	}[s]
	for _, to := range path {
		var err error
		if d, err = Transition(d, to); err != nil {
			t.Fatalf("Transition to %s: %v", to, err)
		}
	}
	return d
}

// upd wraps the members of an update in {"deliveries": ...}.
func upd(members string) []byte { return []byte(`{"deliveries":{` + members + `}}`) }

// codes returns "code@path" of every violation of err.
func codes(err error) []string {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	out := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		out[i] = v.Code + "@" + v.Path
	}
	return out
}
