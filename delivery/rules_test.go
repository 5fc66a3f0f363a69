package delivery

import (
	"slices"
	"strings"
	"testing"
)

type ruleCase struct {
	name   string
	prep   string // members applied in DELIVERY_REQUESTED before moving to status
	status Status
	body   string // members of the update
	want   []string
	check  func(t *testing.T, before, after Delivery)
}

// run applies c and checks the violations (exactly want, order aside) or,
// for a success, the check; it also checks that the input is untouched.
func (c ruleCase) run(t *testing.T) {
	t.Helper()
	d := booked(t)
	if c.prep != "" {
		var err error
		if d, err = Apply(d, upd(c.prep)); err != nil {
			t.Fatalf("prep: %v", err)
		}
	}
	d = moveTo(t, d, c.status)
	snapshot := d.Clone()
	got, err := Apply(d, upd(c.body))
	if !d.Equal(snapshot) {
		t.Fatalf("Apply changed its input")
	}
	if c.want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		if got.Equal(d) {
			t.Fatalf("success but nothing changed")
		}
		if c.check != nil {
			c.check(t, d, got)
		}
		return
	}
	if err == nil {
		t.Fatalf("want %v, got success", c.want)
	}
	if !got.Equal(d) {
		t.Fatalf("failed update returned a changed delivery")
	}
	gotCodes, want := codes(err), slices.Clone(c.want)
	slices.Sort(gotCodes)
	slices.Sort(want)
	if !slices.Equal(gotCodes, want) {
		t.Fatalf("violations\n got  %v\n want %v\n err %v", gotCodes, want, err)
	}
}

// moveTo moves d along the main lifecycle to s.
func moveTo(t *testing.T, d Delivery, s Status) Delivery {
	t.Helper()
	if s == "" || s == d.Status {
		return d
	}
	steps := map[Status][]Status{
		StatusDriverAssigned:   {StatusDriverAssigned},
		StatusEnrouteToPickup:  {StatusDriverAssigned, StatusEnrouteToPickup},
		StatusArrivedAtPickup:  {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup},
		StatusDispatched:       {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched},
		StatusEnrouteToDropoff: {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff},
		StatusFailed:           {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed},
		StatusDelivered:        {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusDelivered},
		StatusReturned:         {StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed, StatusReturned},
		StatusCancelled:        {StatusCancelled},
	}[s]
	for _, to := range steps {
		var err error
		if d, err = Transition(d, to); err != nil {
			t.Fatalf("Transition to %s: %v", to, err)
		}
	}
	return d
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

const (
	pD    = "deliveries"
	pCust = "deliveries.customer"
	pAddr = "deliveries.deliveryDetails.address"
	pLL   = "deliveries.deliveryDetails.latLong"
	pProp = "deliveries.deliveryDetails.propertyDetails"
	pMan  = "deliveries.orderManifest"
	pSum  = "deliveries.orderManifest.summary"
)

func TestPresenceAndMerge(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "absent members stay", body: `"customer":{"email":"ada@lovelace.org"}`,
			check: func(t *testing.T, b, a Delivery) {
				want := b.Clone()
				want.Customer.Email = "ada@lovelace.org"
				if !a.Equal(want) {
					t.Fatalf("got %+v", a)
				}
			}},
		{name: "value replaces", body: `"customer":{"firstName":"Augusta"}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.Customer.FirstName != "Augusta" || a.Customer.LastName != "Lovelace" {
					t.Fatalf("got %+v", a.Customer)
				}
			}},
		{name: "null clears an optional string", body: `"customer":{"email":null}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.Customer.Email != "" {
					t.Fatalf("email %q", a.Customer.Email)
				}
			}},
		{name: "null on a required string", body: `"clientId":null`, want: []string{"REQUIRED@deliveries.clientId"}},
		{name: "empty string on a required string", body: `"externalOrderId":""`, want: []string{"REQUIRED@deliveries.externalOrderId"}},
		{name: "nested object merges by member", body: `"customer":{"phone":{"number":"5559876543"}}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.Customer.Phone != (Phone{"+1", "5559876543"}) {
					t.Fatalf("phone %+v", a.Customer.Phone)
				}
			}},
		{name: "array replaced whole", body: `"instructions":[{"instructionText":"Leave at door","instructionType":"CUSTOMER"},{"instructionText":"Dog","instructionType":"CUSTOMER"}]`,
			check: func(t *testing.T, b, a Delivery) {
				if len(a.Instructions) != 2 || a.Instructions[0].InstructionText != "Leave at door" {
					t.Fatalf("instructions %+v", a.Instructions)
				}
			}},
		{name: "null array clears", body: `"instructions":null`,
			check: func(t *testing.T, b, a Delivery) {
				if a.Instructions != nil {
					t.Fatalf("instructions %+v", a.Instructions)
				}
			}},
		{name: "null optional object removes it", body: `"deliveryDetails":{"latLong":null}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.DeliveryDetails.LatLong != nil {
					t.Fatal("latLong kept")
				}
			}},
		{name: "null object clears every member", body: `"deliveryDetails":{"propertyDetails":null}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.DeliveryDetails.PropertyDetails != (PropertyDetails{}) {
					t.Fatalf("property %+v", a.DeliveryDetails.PropertyDetails)
				}
			}},
		{name: "null required object", body: `"customer":null`,
			want: []string{"REQUIRED@deliveries.customer.firstName", "REQUIRED@deliveries.customer.lastName",
				"REQUIRED@deliveries.customer.phone.countryCode", "REQUIRED@deliveries.customer.phone.number"}},
		{name: "null number inside an object", body: `"deliveryDetails":{"latLong":{"lat":null}}`,
			want: []string{"REQUIRED@" + pLL + ".lat"}},
		{name: "new optional object needs its numbers", prep: `"deliveryDetails":{"latLong":null}`,
			body: `"deliveryDetails":{"latLong":{"type":"GEOCODED","lat":1}}`,
			want: []string{"REQUIRED@" + pLL + ".lng"}},
		{name: "new optional object complete", prep: `"deliveryDetails":{"latLong":null}`,
			body: `"deliveryDetails":{"latLong":{"type":"GEOCODED","lat":0,"lng":0}}`,
			check: func(t *testing.T, b, a Delivery) {
				if *a.DeliveryDetails.LatLong != (LatLong{Type: "GEOCODED"}) {
					t.Fatalf("latLong %+v", *a.DeliveryDetails.LatLong)
				}
			}},
		{name: "new optional object without its string", prep: `"deliveryDetails":{"latLong":null}`,
			body: `"deliveryDetails":{"latLong":{"lat":1,"lng":2}}`,
			want: []string{"REQUIRED@" + pLL + ".type"}},
		{name: "item needs quantity", body: `"orderManifest":{"itemDetails":[{"itemId":"X"}]}`,
			want: []string{"REQUIRED@" + pMan + ".itemDetails[0].quantity"}},
		{name: "summary removed then totals unchecked", body: `"orderManifest":{"summary":null}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.OrderManifest.Summary != nil {
					t.Fatal("summary kept")
				}
			}},
		{name: "boolean null is false", prep: `"addOnServices":{"returnable":true}`, body: `"addOnServices":{"returnable":null}`,
			check: func(t *testing.T, b, a Delivery) {
				if a.AddOnServices.Returnable {
					t.Fatal("returnable kept")
				}
			}},
	})
}

func TestNoChange(t *testing.T) {
	nc := []string{"NO_CHANGE@deliveries"}
	runCases(t, []ruleCase{
		{name: "empty deliveries", body: ``, want: nc},
		{name: "same string", body: `"customer":{"firstName":"Ada"}`, want: nc},
		{name: "same timestamp", body: `"requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z"`, want: nc},
		{name: "same number", body: `"deliveryDetails":{"latLong":{"lat":36.3729}}`, want: nc},
		{name: "same number other spelling", body: `"deliveryDetails":{"latLong":{"lat":3.63729e1}}`, want: nc},
		{name: "same array", body: `"instructions":[{"instructionText":"Ring twice","instructionType":"CUSTOMER"}]`, want: nc},
		{name: "null on an unset member", body: `"addOnServices":{"returnable":null}`, want: nc},
		{name: "empty object", body: `"customer":{},"deliveryDetails":{"latLong":{}}`, want: nc},
		{name: "locked member with its current value", status: StatusDispatched,
			body: `"customer":{"firstName":"Ada","phone":{"number":"5551234567"}}`, want: nc},
		{name: "locked current value beside a real change", status: StatusDispatched,
			body: `"customer":{"firstName":"Ada","email":"a@b.co"}`},
		{name: "no change is checked before constraints", prep: ``, body: `"clientId":"client-1"`, want: nc},
	})
}

func TestLockedOnceDriverAssigned(t *testing.T) {
	lk := func(p string) []string { return []string{"FIELD_LOCKED@" + p} }
	var cases []ruleCase
	for _, s := range []Status{StatusDriverAssigned, StatusEnrouteToPickup, StatusArrivedAtPickup, StatusDispatched, StatusEnrouteToDropoff, StatusFailed} {
		cases = append(cases,
			ruleCase{name: string(s) + "/pickup point", status: s, body: `"pickupDetails":{"pickupPointId":"STORE-7"}`, want: lk("deliveries.pickupDetails.pickupPointId")},
			ruleCase{name: string(s) + "/external pickup point", status: s, body: `"pickupDetails":{"externalPickupPointId":null}`, want: lk("deliveries.pickupDetails.externalPickupPointId")},
			ruleCase{name: string(s) + "/drop-off address", status: s, body: `"deliveryDetails":{"address":{"line1":"2 Main St"}}`, want: lk(pAddr + ".line1")},
			ruleCase{name: string(s) + "/pin-drop lat", status: s, body: `"deliveryDetails":{"latLong":{"lat":36.4}}`, want: lk(pLL + ".lat")},
			ruleCase{name: string(s) + "/pin-drop removed", status: s, body: `"deliveryDetails":{"latLong":null}`, want: lk(pLL)},
			ruleCase{name: string(s) + "/phone", status: s, body: `"customer":{"phone":{"countryCode":"44"}}`, want: lk(pCust + ".phone.countryCode")},
			ruleCase{name: string(s) + "/geocoded coordinates stay free", status: s, prep: `"deliveryDetails":{"latLong":{"type":"GEOCODED"}}`,
				body: `"deliveryDetails":{"latLong":{"lat":36.4}}`},
			ruleCase{name: string(s) + "/becoming a pin-drop is locked", status: s, prep: `"deliveryDetails":{"latLong":{"type":"GEOCODED"}}`,
				body: `"deliveryDetails":{"latLong":{"type":"CUSTOMER_PINDROP"}}`, want: lk(pLL + ".type")},
			ruleCase{name: string(s) + "/e-mail stays free", status: s, body: `"customer":{"email":"ada@example.org"}`},
			ruleCase{name: string(s) + "/add-on services stay free", status: s, body: `"addOnServices":{"returnable":true}`},
		)
	}
	cases = append(cases,
		ruleCase{name: "requested/pickup point free", body: `"pickupDetails":{"pickupPointId":"STORE-7"}`},
		ruleCase{name: "requested/pin-drop free", body: `"deliveryDetails":{"latLong":{"lat":36.4}}`},
		ruleCase{name: "requested/address null reports constraints", body: `"deliveryDetails":{"address":null}`,
			want: []string{"REQUIRED@" + pAddr + ".line1", "REQUIRED@" + pAddr + ".city", "REQUIRED@" + pAddr + ".state",
				"REQUIRED@" + pAddr + ".zipCode", "REQUIRED@" + pAddr + ".countryCode"}},
		ruleCase{name: "assigned/address null reports each locked member and constraints", status: StatusDriverAssigned, body: `"deliveryDetails":{"address":null}`,
			want: []string{"FIELD_LOCKED@" + pAddr + ".line1", "FIELD_LOCKED@" + pAddr + ".line2", "FIELD_LOCKED@" + pAddr + ".city", "FIELD_LOCKED@" + pAddr + ".state",
				"FIELD_LOCKED@" + pAddr + ".zipCode", "FIELD_LOCKED@" + pAddr + ".countryCode",
				"REQUIRED@" + pAddr + ".line1", "REQUIRED@" + pAddr + ".city", "REQUIRED@" + pAddr + ".state",
				"REQUIRED@" + pAddr + ".zipCode", "REQUIRED@" + pAddr + ".countryCode"}},
		ruleCase{name: "assigned/name and slot still free", status: StatusArrivedAtPickup,
			body: `"customer":{"lastName":"King"},"requestedMaxDeliverySlotTime":"2026-11-22T13:00:00.000Z"`},
	)
	runCases(t, cases)
}

func TestLockedOnceDispatched(t *testing.T) {
	lk := func(p string) []string { return []string{"FIELD_LOCKED@" + p} }
	var cases []ruleCase
	for _, s := range []Status{StatusDispatched, StatusEnrouteToDropoff, StatusFailed} {
		cases = append(cases,
			ruleCase{name: string(s) + "/slot start", status: s, body: `"requestedMinDeliverySlotTime":"2026-11-22T09:45:00.000Z"`, want: lk("deliveries.requestedMinDeliverySlotTime")},
			ruleCase{name: string(s) + "/slot end", status: s, body: `"requestedMaxDeliverySlotTime":"2026-11-22T13:00:00.000Z"`, want: lk("deliveries.requestedMaxDeliverySlotTime")},
			ruleCase{name: string(s) + "/line items", status: s, body: `"orderManifest":{"itemDetails":[{"itemId":"ITEM-1","quantity":3}]}`,
				want: []string{"FIELD_LOCKED@" + pMan + ".itemDetails"}},
			ruleCase{name: string(s) + "/scan details", status: s, body: `"scanDetails":null`, want: lk("deliveries.scanDetails")},
			ruleCase{name: string(s) + "/first name", status: s, body: `"customer":{"firstName":"Augusta"}`, want: lk(pCust + ".firstName")},
			ruleCase{name: string(s) + "/last name", status: s, body: `"customer":{"lastName":"King"}`, want: lk(pCust + ".lastName")},
			ruleCase{name: string(s) + "/instructions", status: s, body: `"instructions":[]`, want: lk("deliveries.instructions")},
			ruleCase{name: string(s) + "/property type", status: s, body: `"deliveryDetails":{"propertyDetails":{"propertyType":"OTHER"}}`, want: lk(pProp + ".propertyType")},
			ruleCase{name: string(s) + "/location preference", status: s, body: `"deliveryDetails":{"propertyDetails":{"locationPreference":"BACK_DOOR"}}`, want: lk(pProp + ".locationPreference")},
			ruleCase{name: string(s) + "/gate code", status: s, body: `"deliveryDetails":{"propertyDetails":{"gateCode":"9"}}`, want: lk(pProp + ".gateCode")},
			ruleCase{name: string(s) + "/pickup ready time stays free", status: s, body: `"orderPickupReadyTime":"2026-11-22T09:00:00.000Z"`},
			ruleCase{name: string(s) + "/summary stays free", status: s, body: `"orderManifest":{"summary":{"orderSize":"M"}}`},
		)
	}
	cases = append(cases,
		ruleCase{name: "every locked member is reported", status: StatusDispatched,
			body: `"customer":{"firstName":"A","lastName":"B","phone":{"number":"5550000000"}},"deliveryDetails":{"propertyDetails":{"gateCode":"9"}}`,
			want: []string{"FIELD_LOCKED@" + pCust + ".firstName", "FIELD_LOCKED@" + pCust + ".lastName",
				"FIELD_LOCKED@" + pCust + ".phone.number", "FIELD_LOCKED@" + pProp + ".gateCode"}},
		ruleCase{name: "locks and constraints together", status: StatusDispatched,
			body: `"customer":{"firstName":"A","email":"bad"}`,
			want: []string{"FIELD_LOCKED@" + pCust + ".firstName", "INVALID_FORMAT@" + pCust + ".email"}},
		ruleCase{name: "before dispatch items free", status: StatusArrivedAtPickup,
			body: `"orderManifest":{"summary":null,"itemDetails":[{"itemId":"ITEM-1","quantity":3}]}`},
	)
	runCases(t, cases)
}

func TestClosedDeliveries(t *testing.T) {
	for _, s := range []Status{StatusDelivered, StatusReturned, StatusCancelled} {
		ruleCase{name: string(s), status: s, body: `"customer":{"email":"x@y.zz"}`, want: []string{"DELIVERY_CLOSED@deliveries"}}.run(t)
		ruleCase{name: string(s) + " no change", status: s, body: ``, want: []string{"DELIVERY_CLOSED@deliveries"}}.run(t)
	}
}

func TestBookingConstraintsOnUpdate(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) }
	runCases(t, []ruleCase{
		{name: "timestamp without millis", body: `"orderPickupReadyTime":"2026-11-22T09:00:00Z"`, want: []string{"INVALID_FORMAT@deliveries.orderPickupReadyTime"}},
		{name: "timestamp with offset", body: `"orderPickupReadyTime":"2026-11-22T09:00:00.000+01:00"`, want: []string{"INVALID_FORMAT@deliveries.orderPickupReadyTime"}},
		{name: "timestamp impossible date", body: `"requestedMinDeliverySlotTime":"2026-02-29T10:00:00.000Z"`, want: []string{"INVALID_FORMAT@deliveries.requestedMinDeliverySlotTime"}},
		{name: "timestamp hour 24", body: `"requestedMinDeliverySlotTime":"2026-11-22T24:00:00.000Z"`, want: []string{"INVALID_FORMAT@deliveries.requestedMinDeliverySlotTime"}},
		{name: "timestamp null", body: `"orderPickupReadyTime":null`, want: []string{"REQUIRED@deliveries.orderPickupReadyTime"}},
		{name: "slot start equals end", body: `"requestedMinDeliverySlotTime":"2026-11-22T12:00:00.000Z"`, want: []string{"SLOT_ORDER@deliveries.requestedMaxDeliverySlotTime"}},
		{name: "slot start after end", body: `"requestedMaxDeliverySlotTime":"2026-11-22T09:59:59.999Z"`,
			want: []string{"SLOT_ORDER@deliveries.requestedMaxDeliverySlotTime"}},
		{name: "slot end before pickup ready", body: `"requestedMaxDeliverySlotTime":"2026-11-22T09:00:00.000Z"`,
			want: []string{"SLOT_ORDER@deliveries.requestedMaxDeliverySlotTime", "PICKUP_AFTER_SLOT_END@deliveries.orderPickupReadyTime"}},
		{name: "slot one millisecond", body: `"requestedMaxDeliverySlotTime":"2026-11-22T10:00:00.001Z"`},
		{name: "pickup ready after slot end", body: `"orderPickupReadyTime":"2026-11-22T12:00:00.001Z"`, want: []string{"PICKUP_AFTER_SLOT_END@deliveries.orderPickupReadyTime"}},
		{name: "pickup ready at slot end", body: `"orderPickupReadyTime":"2026-11-22T12:00:00.000Z"`},
		{name: "email without at", body: `"customer":{"email":"ada.example.com"}`, want: []string{"INVALID_FORMAT@" + pCust + ".email"}},
		{name: "email double dot", body: `"customer":{"email":"ada..l@example.com"}`, want: []string{"INVALID_FORMAT@" + pCust + ".email"}},
		{name: "email no tld", body: `"customer":{"email":"ada@localhost"}`, want: []string{"INVALID_FORMAT@" + pCust + ".email"}},
		{name: "email plus tag", body: `"customer":{"email":"ada+orders@mail.example.co.uk"}`},
		{name: "email too long", body: `"customer":{"email":"` + strings.Repeat("a", 60) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63) + `.com"}`,
			want: []string{"TOO_LONG@" + pCust + ".email"}},
		{name: "country code zero", body: `"customer":{"phone":{"countryCode":"0"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.countryCode"}},
		{name: "country code four digits", body: `"customer":{"phone":{"countryCode":"1234"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.countryCode"}},
		{name: "country code letters", body: `"customer":{"phone":{"countryCode":"+a"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.countryCode"}},
		{name: "country code without plus", body: `"customer":{"phone":{"countryCode":"44","number":"2071234567"}}`},
		{name: "number with dashes", body: `"customer":{"phone":{"number":"555-123-4567"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.number"}},
		{name: "number too short", body: `"customer":{"phone":{"number":"555"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.number"}},
		{name: "number too long for E.164", body: `"customer":{"phone":{"number":"555123456789012"}}`, want: []string{"INVALID_FORMAT@" + pCust + ".phone.number"}},
		{name: "latitude too high", body: `"deliveryDetails":{"latLong":{"lat":90.0001}}`, want: []string{"OUT_OF_RANGE@" + pLL + ".lat"}},
		{name: "latitude at the pole", body: `"deliveryDetails":{"latLong":{"lat":-90}}`},
		{name: "longitude too low", body: `"deliveryDetails":{"latLong":{"lng":-180.5}}`, want: []string{"OUT_OF_RANGE@" + pLL + ".lng"}},
		{name: "latLong type unknown", body: `"deliveryDetails":{"latLong":{"type":"GPS"}}`, want: []string{"INVALID_ENUM@" + pLL + ".type"}},
		{name: "delivery method unknown", body: `"deliveryMethod":"EXPRESS"`, want: []string{"INVALID_ENUM@deliveries.deliveryMethod"}},
		{name: "property type unknown", body: `"deliveryDetails":{"propertyDetails":{"propertyType":"CASTLE"}}`, want: []string{"INVALID_ENUM@" + pProp + ".propertyType"}},
		{name: "location preference unknown", body: `"deliveryDetails":{"propertyDetails":{"locationPreference":"ROOF"}}`, want: []string{"INVALID_ENUM@" + pProp + ".locationPreference"}},
		{name: "scan type unknown", body: `"scanDetails":[{"scanDetail":[{"scanId":"S"}],"scanType":"QR"}]`, want: []string{"INVALID_ENUM@deliveries.scanDetails[0].scanType"}},
		{name: "scan without ids", body: `"scanDetails":[{"scanDetail":[],"scanType":"CODE128"}]`, want: []string{"REQUIRED@deliveries.scanDetails[0].scanDetail"}},
		{name: "instruction type unknown", body: `"instructions":[{"instructionText":"x","instructionType":"DRIVER"}]`, want: []string{"INVALID_ENUM@deliveries.instructions[0].instructionType"}},
		{name: "order size unknown", body: `"orderManifest":{"summary":{"orderSize":"XXL"}}`, want: []string{"INVALID_ENUM@" + pSum + ".orderSize"}},
		{name: "length unit unknown", body: `"orderManifest":{"summary":{"dimensions":[{"length":1,"width":1,"height":1,"unitOfMeasure":"FT"}]}}`, want: []string{"INVALID_ENUM@" + pSum + ".dimensions[0].unitOfMeasure"}},
		{name: "weight unit unknown", body: `"orderManifest":{"summary":{"totalOrderWeight":{"unitOfMeasure":"STONE"}}}`, want: []string{"INVALID_ENUM@" + pSum + ".totalOrderWeight.unitOfMeasure"}},
		{name: "currency malformed", body: `"orderManifest":{"summary":{"totalValueOfItems":{"currencyUnit":"usd"}}}`,
			want: []string{"INVALID_FORMAT@" + pSum + ".totalValueOfItems.currencyUnit", "CURRENCY_MISMATCH@" + pMan + ".itemDetails[0].itemTotal.currencyUnit", "CURRENCY_MISMATCH@" + pMan + ".itemDetails[1].itemTotal.currencyUnit"}},
		{name: "negative dimension", body: `"orderManifest":{"summary":{"dimensions":[{"length":-1,"width":1,"height":1,"unitOfMeasure":"IN"}]}}`, want: []string{"NEGATIVE@" + pSum + ".dimensions[0].length"}},
		{name: "zero dimension", body: `"orderManifest":{"summary":{"dimensions":[{"length":0,"width":0,"height":0,"unitOfMeasure":"CM"}]}}`},
		{name: "negative weight", body: `"orderManifest":{"summary":{"totalOrderWeight":{"measurementValue":-0.5}}}`,
			want: []string{"NEGATIVE@" + pSum + ".totalOrderWeight.measurementValue", "TOTAL_MISMATCH@" + pSum + ".totalOrderWeight.measurementValue"}},
		{name: "negative amount", body: `"orderManifest":{"summary":{"totalValueOfItems":{"currencyAmount":-1}}}`,
			want: []string{"NEGATIVE@" + pSum + ".totalValueOfItems.currencyAmount", "TOTAL_MISMATCH@" + pSum + ".totalValueOfItems.currencyAmount"}},
		{name: "zero quantity", body: `"orderManifest":{"summary":null,"itemDetails":[{"itemId":"A","quantity":0}]}`, want: []string{"NOT_POSITIVE@" + pMan + ".itemDetails[0].quantity"}},
		{name: "fractional quantity", body: `"orderManifest":{"itemDetails":[{"itemId":"A","quantity":1.5}]}`, want: []string{"NOT_INTEGER@" + pMan + ".itemDetails[0].quantity"}},
		{name: "integral quantity written as float", body: `"orderManifest":{"summary":null,"itemDetails":[{"itemId":"A","quantity":2.0}]}`},
		{name: "huge quantity", body: `"orderManifest":{"itemDetails":[{"itemId":"A","quantity":1e300}]}`, want: []string{"OUT_OF_RANGE@" + pMan + ".itemDetails[0].quantity"}},
		{name: "number beyond float64", body: `"deliveryDetails":{"latLong":{"lat":1e400}}`, want: []string{"OUT_OF_RANGE@" + pLL + ".lat"}},
		{name: "zero total items", body: `"orderManifest":{"summary":{"totalItems":0}}`, want: []string{"NOT_POSITIVE@" + pSum + ".totalItems"}},
		{name: "total items mismatch", body: `"orderManifest":{"summary":{"totalItems":4}}`, want: []string{"TOTAL_MISMATCH@" + pSum + ".totalItems"}},
		{name: "items changed without total", body: `"orderManifest":{"itemDetails":[{"itemId":"A","quantity":1}]}`, want: []string{"TOTAL_MISMATCH@" + pSum + ".totalItems"}},
		{name: "items and totals changed together", body: `"orderManifest":{"summary":{"totalItems":1,"totalValueOfItems":{"currencyAmount":3.1},"totalOrderWeight":{"measurementValue":0.1,"unitOfMeasure":"KG"}},` +
			`"itemDetails":[{"itemId":"A","quantity":1,"itemTotal":{"currencyAmount":3.1,"currencyUnit":"USD"},"itemWeight":{"measurementValue":100,"unitOfMeasure":"G"}}]}`},
		{name: "value total mismatch", body: `"orderManifest":{"summary":{"totalValueOfItems":{"currencyAmount":25.51}}}`, want: []string{"TOTAL_MISMATCH@" + pSum + ".totalValueOfItems.currencyAmount"}},
		{name: "value total within a cent rounding", body: `"orderManifest":{"summary":{"totalValueOfItems":{"currencyAmount":25.504}}}`},
		{name: "currency mismatch", body: `"orderManifest":{"summary":{"totalValueOfItems":{"currencyUnit":"EUR"}}}`,
			want: []string{"CURRENCY_MISMATCH@" + pMan + ".itemDetails[0].itemTotal.currencyUnit", "CURRENCY_MISMATCH@" + pMan + ".itemDetails[1].itemTotal.currencyUnit"}},
		{name: "value total unchecked when an item has none", body: `"orderManifest":{"itemDetails":[{"itemId":"A","quantity":2,"itemTotal":{"currencyAmount":1,"currencyUnit":"USD"}},{"itemId":"B","quantity":1}]}`},
		{name: "weight total below items", body: `"orderManifest":{"summary":{"totalOrderWeight":{"measurementValue":31.9}}}`, want: []string{"TOTAL_MISMATCH@" + pSum + ".totalOrderWeight.measurementValue"}},
		{name: "weight total converted", body: `"orderManifest":{"summary":{"totalOrderWeight":{"measurementValue":2,"unitOfMeasure":"LB"}}}`},
		{name: "weight total converted too low", body: `"orderManifest":{"summary":{"totalOrderWeight":{"measurementValue":0.9,"unitOfMeasure":"KG"}}}`, want: []string{"TOTAL_MISMATCH@" + pSum + ".totalOrderWeight.measurementValue"}},
		{name: "no items", body: `"orderManifest":{"itemDetails":[]}`, want: []string{"REQUIRED@" + pMan + ".itemDetails"}},
		{name: "first name at limit", body: `"customer":{"firstName":"` + long(MaxNameLen) + `"}`},
		{name: "first name too long", body: `"customer":{"firstName":"` + long(MaxNameLen+1) + `"}`, want: []string{"TOO_LONG@" + pCust + ".firstName"}},
		{name: "gate code too long", body: `"deliveryDetails":{"propertyDetails":{"gateCode":"` + strings.Repeat("1", MaxGateCodeLen+1) + `"}}`, want: []string{"TOO_LONG@" + pProp + ".gateCode"}},
		{name: "instruction too long", body: `"instructions":[{"instructionText":"` + long(MaxTextLen+1) + `","instructionType":"CUSTOMER"}]`, want: []string{"TOO_LONG@deliveries.instructions[0].instructionText"}},
		{name: "too many instructions", body: `"instructions":[` + strings.TrimSuffix(strings.Repeat(`{"instructionText":"x","instructionType":"CUSTOMER"},`, MaxInstructions+1), ",") + `]`, want: []string{"TOO_MANY@deliveries.instructions"}},
		{name: "client id too long", body: `"clientId":"` + strings.Repeat("c", MaxIDLen+1) + `"`, want: []string{"TOO_LONG@deliveries.clientId"}},
		{name: "zip code characters", body: `"deliveryDetails":{"address":{"zipCode":"72712;"}}`, want: []string{"INVALID_FORMAT@" + pAddr + ".zipCode"}},
		{name: "country code alpha-3", body: `"deliveryDetails":{"address":{"countryCode":"USA"}}`, want: []string{"INVALID_FORMAT@" + pAddr + ".countryCode"}},
		{name: "many violations at once", body: `"deliveryMethod":"X","customer":{"email":"bad"},"deliveryDetails":{"latLong":{"lat":100,"lng":200}}`,
			want: []string{"INVALID_ENUM@deliveries.deliveryMethod", "INVALID_FORMAT@" + pCust + ".email", "OUT_OF_RANGE@" + pLL + ".lat", "OUT_OF_RANGE@" + pLL + ".lng"}},
	})
}

func TestMalformedBodies(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"not JSON", `{"deliveries":`, []string{"MALFORMED_JSON@"}},
		{"trailing data", `{"deliveries":{}} x`, []string{"MALFORMED_JSON@"}},
		{"invalid UTF-8", "{\"deliveries\":{\"clientId\":\"\xff\"}}", []string{"MALFORMED_JSON@"}},
		{"top level array", `[]`, []string{"INVALID_TYPE@"}},
		{"missing deliveries", `{}`, []string{"REQUIRED@deliveries"}},
		{"deliveries null", `{"deliveries":null}`, []string{"INVALID_TYPE@deliveries"}},
		{"deliveries string", `{"deliveries":"x"}`, []string{"INVALID_TYPE@deliveries"}},
		{"unknown top-level member", `{"deliveries":{},"extra":1}`, []string{"UNKNOWN_MEMBER@extra"}},
		{"only an unknown top-level member", `{"extra":1}`, []string{"UNKNOWN_MEMBER@extra", "REQUIRED@deliveries"}},
		{"top-level and member errors together", `{"extra":1,"deliveries":{"clientId":1}}`, []string{"UNKNOWN_MEMBER@extra", "INVALID_TYPE@deliveries.clientId"}},
		{"syntax error hides other findings", `{"extra":1,"deliveries":{"clientId":1}`, []string{"MALFORMED_JSON@"}},
		{"escaped member names", `{"deliveries":{"customer":{"first\u004eame":"Bo"}}}`, nil},
		{"unknown member", `{"deliveries":{"customer":{"middleName":"B"}}}`, []string{"UNKNOWN_MEMBER@deliveries.customer.middleName"}},
		{"deliveryId is not a payload member", `{"deliveries":{"deliveryId":"X","status":"DELIVERED"}}`, []string{"UNKNOWN_MEMBER@deliveries.deliveryId", "UNKNOWN_MEMBER@deliveries.status"}},
		{"duplicate member", `{"deliveries":{"clientId":"a","clientId":"b"}}`, []string{"DUPLICATE_MEMBER@deliveries.clientId"}},
		{"wrong types listed together", `{"deliveries":{"customer":{"firstName":5},"deliveryDetails":{"latLong":{"lat":"1"}},"instructions":{},"addOnServices":{"returnable":"yes"}}}`,
			[]string{"INVALID_TYPE@deliveries.customer.firstName", "INVALID_TYPE@" + pLL + ".lat", "INVALID_TYPE@deliveries.instructions", "INVALID_TYPE@deliveries.addOnServices.returnable"}},
		{"array element not an object", `{"deliveries":{"scanDetails":[1]}}`, []string{"INVALID_TYPE@deliveries.scanDetails[0]"}},
		{"nested element wrong type", `{"deliveries":{"scanDetails":[{"scanDetail":[{"scanId":1}]}]}}`, []string{"INVALID_TYPE@deliveries.scanDetails[0].scanDetail[0].scanId"}},
		{"too large", `{"deliveries":{"clientId":"` + strings.Repeat("x", MaxBodyBytes) + `"}}`, []string{"BODY_TOO_LARGE@"}},
	}
	d := booked(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := Apply(d, []byte(c.body))
			if c.want == nil {
				if err != nil || n.Customer.FirstName != "Bo" {
					t.Fatalf("got %v %+v", err, n.Customer)
				}
				return
			}
			got := codes(err)
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("got %v want %v (%v)", got, want, err)
			}
		})
	}
}

func TestClosedDeliveryStillReadsTheBody(t *testing.T) {
	d := inStatus(t, StatusDelivered)
	for body, want := range map[string]string{
		`{"deliveries":{"clientId":"x"}`:          "MALFORMED_JSON@",
		`{"deliveries":{"clientId":"x"},"x":1}`:   "UNKNOWN_MEMBER@x",
		`{"deliveries":{"clientId":5}}`:           "DELIVERY_CLOSED@deliveries",
		`{"deliveries":{"customer":{"a":"b"}}}  `: "DELIVERY_CLOSED@deliveries",
	} {
		if got := codes(func() error { _, err := Apply(d, []byte(body)); return err }()); len(got) != 1 || got[0] != want {
			t.Errorf("%s: got %v want %s", body, got, want)
		}
	}
}
