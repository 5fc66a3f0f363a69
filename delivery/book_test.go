package delivery

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBook(t *testing.T) {
	d := booked(t)
	if d.DeliveryID != "DLV-1" || d.Status != StatusRequested {
		t.Fatalf("identity %q %q", d.DeliveryID, d.Status)
	}
	if want := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC); !d.RequestedMinDeliverySlotTime.Equal(want) {
		t.Fatalf("slot start %v", d.RequestedMinDeliverySlotTime)
	}
	if len(d.OrderManifest.ItemDetails) != 2 || d.OrderManifest.Summary.TotalItems != 3 || d.DeliveryDetails.LatLong.Lat != 36.3729 {
		t.Fatalf("manifest %+v", d.OrderManifest)
	}
	if err := Check(d); err != nil {
		t.Fatal(err)
	}
}

func TestBookRequiredMembers(t *testing.T) {
	_, err := Book("D", []byte(`{"deliveries":{}}`))
	want := []string{
		"REQUIRED@deliveries.clientId", "REQUIRED@deliveries.externalOrderId", "REQUIRED@deliveries.deliveryMethod",
		"REQUIRED@deliveries.orderPickupReadyTime", "REQUIRED@deliveries.requestedMinDeliverySlotTime", "REQUIRED@deliveries.requestedMaxDeliverySlotTime",
		"REQUIRED@deliveries.customer.firstName", "REQUIRED@deliveries.customer.lastName",
		"REQUIRED@deliveries.customer.phone.countryCode", "REQUIRED@deliveries.customer.phone.number",
		"REQUIRED@deliveries.pickupDetails.pickupPointId",
		"REQUIRED@" + pAddr + ".line1", "REQUIRED@" + pAddr + ".city", "REQUIRED@" + pAddr + ".state",
		"REQUIRED@" + pAddr + ".zipCode", "REQUIRED@" + pAddr + ".countryCode",
		"REQUIRED@deliveries.orderManifest.itemDetails",
	}
	got := codes(err)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	if !errors.Is(err, ErrInvalidValue) {
		t.Fatal("not ErrInvalidValue")
	}
	if _, err := Book("", []byte(bookingJSON)); !slices.Equal(codes(err), []string{"REQUIRED@deliveries.deliveryId"}) {
		t.Fatalf("empty id: %v", codes(err))
	}
	if _, err := Book("D", []byte(`{"deliveries":{"clientId":5}}`)); !errors.Is(err, ErrMalformed) || errors.Is(err, ErrInvalidValue) {
		t.Fatalf("type error: %v", err)
	}
}

func TestBookingRoundTrip(t *testing.T) {
	d := booked(t)
	body, err := BookingBody(d)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Book("DLV-1", body)
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	if !back.Equal(d) {
		t.Fatalf("round trip differs:\n%s", body)
	}
	if _, err := Apply(d, body); !errors.Is(err, ErrNoChange) {
		t.Fatalf("full body of the same delivery: %v", err)
	}
}

func TestMarshalJSON(t *testing.T) {
	out, err := json.Marshal(booked(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"deliveryId":"DLV-1"`, `"status":"DELIVERY_REQUESTED"`, `"requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z"`, `"locationPreference":"FRONT_DOOR"`} {
		if !strings.Contains(string(out), s) {
			t.Errorf("missing %s in %s", s, out)
		}
	}
	r, _ := json.Marshal(NewReceipt(booked(t)))
	if string(r) != `{"deliveries":{"deliveryId":"DLV-1","externalOrderId":"ORD-1001"}}` {
		t.Errorf("receipt %s", r)
	}
}

func TestCloneIsDeep(t *testing.T) {
	d := booked(t)
	c := d.Clone()
	c.Instructions[0].InstructionText = "x"
	c.DeliveryDetails.LatLong.Lat = 0
	c.ScanDetails[0].ScanDetail[0].ScanID = "x"
	c.OrderManifest.Summary.Dimensions[0].Length = 99
	c.OrderManifest.Summary.TotalValueOfItems.CurrencyAmount = 1
	c.OrderManifest.Summary.TotalOrderWeight.MeasurementValue = 1
	c.OrderManifest.ItemDetails[0].Dimensions.Length = 99
	c.OrderManifest.ItemDetails[0].ItemWeight.MeasurementValue = 99
	c.OrderManifest.ItemDetails[0].ItemTotal.CurrencyAmount = 99
	if !d.Equal(booked(t)) {
		t.Fatal("changing the clone changed the original")
	}
	if d.Equal(c) {
		t.Fatal("Equal misses differences")
	}
}

// TestApplySharesNothing: the result of Apply owns all its memory.
func TestApplySharesNothing(t *testing.T) {
	d := booked(t)
	n, err := Apply(d, upd(`"customer":{"email":"new@example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	n.OrderManifest.ItemDetails[0].ItemTotal.CurrencyAmount = 0
	n.DeliveryDetails.LatLong.Lat = 0
	n.Instructions[0].InstructionText = "changed"
	if !d.Equal(booked(t)) {
		t.Fatal("result shares memory with the input")
	}
}

func TestCheckGoBuiltDelivery(t *testing.T) {
	d := booked(t)
	d.OrderPickupReadyTime = d.OrderPickupReadyTime.Add(time.Microsecond)
	d.DeliveryDetails.LatLong.Lat = math.NaN()
	err := Check(d)
	got := codes(err)
	want := []string{"OUT_OF_RANGE@" + pLL + ".lat", "INVALID_FORMAT@deliveries.orderPickupReadyTime"} // sorted by path
	if !slices.Equal(got, want) {
		t.Fatalf("got %v", got)
	}
}
