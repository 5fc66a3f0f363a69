package delivery_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/haulplan/haulplan/delivery"
)

const booking = `{"deliveries":{
 "clientId":"client-1","externalOrderId":"ORD-7","deliveryMethod":"SCHEDULED_DELIVERY",
 "orderPickupReadyTime":"2026-11-22T09:30:00.000Z",
 "requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z",
 "requestedMaxDeliverySlotTime":"2026-11-22T12:00:00.000Z",
 "customer":{"firstName":"Ada","lastName":"Lovelace","phone":{"countryCode":"+1","number":"5551234567"}},
 "pickupDetails":{"pickupPointId":"STORE-42"},
 "deliveryDetails":{
  "address":{"line1":"1 Main St","city":"Bentonville","state":"AR","zipCode":"72712","countryCode":"US"},
  "latLong":{"type":"CUSTOMER_PINDROP","lat":36.3729,"lng":-94.2088},
  "propertyDetails":{"propertyType":"HOUSE","locationPreference":"FRONT_DOOR"}},
 "orderManifest":{"itemDetails":[{"itemId":"ITEM-1","quantity":2}]}
}}`

func ExampleBook() {
	d, err := delivery.Book("DLV-7", []byte(booking))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.DeliveryID, d.Status, d.RequestedMinDeliverySlotTime.Format("15:04"))
	// Output: DLV-7 DELIVERY_REQUESTED 10:00
}

func ExampleApply() {
	d, _ := delivery.Book("DLV-7", []byte(booking))
	next, err := delivery.Apply(d, []byte(`{"deliveries":{"deliveryDetails":{"propertyDetails":{"locationPreference":"BACK_DOOR"}}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.DeliveryDetails.PropertyDetails.LocationPreference, "→", next.DeliveryDetails.PropertyDetails.LocationPreference)
	json.NewEncoder(os.Stdout).Encode(delivery.NewReceipt(next))
	// Output:
	// FRONT_DOOR → BACK_DOOR
	// {"deliveries":{"deliveryId":"DLV-7","externalOrderId":"ORD-7"}}
}

func ExampleApply_noChange() {
	d, _ := delivery.Book("DLV-7", []byte(booking))
	_, err := delivery.Apply(d, []byte(`{"deliveries":{"customer":{"firstName":"Ada"}}}`))
	fmt.Println(errors.Is(err, delivery.ErrNoChange))
	// Output: true
}

func ExampleApply_locked() {
	d, _ := delivery.Book("DLV-7", []byte(booking))
	for _, s := range []delivery.Status{delivery.StatusDriverAssigned, delivery.StatusEnrouteToPickup,
		delivery.StatusArrivedAtPickup, delivery.StatusDispatched} {
		d, _ = delivery.Transition(d, s)
	}
	_, err := delivery.Apply(d, []byte(`{"deliveries":{"customer":{"firstName":"Augusta","phone":{"number":"5550000000"}}}}`))
	fmt.Println(errors.Is(err, delivery.ErrLockedField))
	fmt.Println(err)
	// Output:
	// true
	// delivery: 2 violations:
	//   deliveries.customer.firstName: cannot be changed once the order is dispatched (status DISPATCHED) [FIELD_LOCKED]
	//   deliveries.customer.phone.number: cannot be changed once a driver is assigned (status DISPATCHED) [FIELD_LOCKED]
}

func ExampleProviderErrors() {
	d, _ := delivery.Book("DLV-7", []byte(booking))
	_, err := delivery.Apply(d, []byte(`{"deliveries":{"deliveryDetails":{"propertyDetails":{"propertyType":"APARTMENT","locationPreference":"GARAGE_DOOR"}}}}`))
	out, _ := json.MarshalIndent(delivery.ProviderErrors(err), "", "  ")
	fmt.Println(string(out))
	// Output:
	// {
	//   "errors": [
	//     {
	//       "code": "DISALLOWED_COMBINATION",
	//       "field": "deliveries.deliveryDetails.propertyDetails.locationPreference",
	//       "description": "GARAGE_DOOR is not allowed for propertyType APARTMENT",
	//       "info": "This propertyType and locationPreference combination is not allowed.",
	//       "severity": "ERROR",
	//       "category": "DATA"
	//     }
	//   ]
	// }
}

func ExampleTransition() {
	d, _ := delivery.Book("DLV-7", []byte(booking))
	_, err := delivery.Transition(d, delivery.StatusDelivered)
	fmt.Println(errors.Is(err, delivery.ErrIllegalTransition))
	d, _ = delivery.Transition(d, delivery.StatusDriverAssigned)
	fmt.Println(d.Status, d.Status.DriverAssigned(), d.Status.Dispatched(), d.Status.Next())
	// Output:
	// true
	// DRIVER_ASSIGNED true false [ENROUTE_TO_PICKUP DELIVERY_REQUESTED CANCELLED]
}

func ExampleAllowed() {
	fmt.Println(delivery.Allowed("APARTMENT", "MAILROOM_OR_PROPERTY_STAFF"))
	fmt.Println(delivery.Allowed("APARTMENT", "BACK_DOOR"))
	fmt.Println(delivery.Allowed("", "FRONT_DOOR")) // null propertyType
	// Output:
	// true
	// false
	// false
}
