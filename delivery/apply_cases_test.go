package delivery

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/internal/jsonwire"
)

// TestValueErrorsReportedWithLocksAndConstraints: a value that does not
// decode does not hide the locked fields and the other broken constraints
// of the same body, and is not re-reported by the checks of the result.
func TestValueErrorsReportedWithLocksAndConstraints(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "bad timestamp beside a locked change", status: StatusDispatched,
			body: `"customer":{"firstName":"X"},"orderPickupReadyTime":"bad"`,
			want: []string{"FIELD_LOCKED@" + pCust + ".firstName", "INVALID_FORMAT@deliveries.orderPickupReadyTime"}},
		{name: "bad timestamp beside a bad e-mail", body: `"customer":{"email":"bad"},"orderPickupReadyTime":"bad"`,
			want: []string{"INVALID_FORMAT@" + pCust + ".email", "INVALID_FORMAT@deliveries.orderPickupReadyTime"}},
		{name: "bad value of a locked member is a change", status: StatusDispatched,
			body: `"requestedMinDeliverySlotTime":"2026-11-22T10:00:00Z"`,
			want: []string{"FIELD_LOCKED@deliveries.requestedMinDeliverySlotTime", "INVALID_FORMAT@deliveries.requestedMinDeliverySlotTime"}},
		{name: "bad value alone is not a no-op", body: `"orderPickupReadyTime":"2026-11-22"`,
			want: []string{"INVALID_FORMAT@deliveries.orderPickupReadyTime"}},
		{name: "null coordinate of a locked pin-drop", status: StatusDriverAssigned,
			body: `"deliveryDetails":{"latLong":{"lat":null}}`,
			want: []string{"FIELD_LOCKED@" + pLL + ".lat", "REQUIRED@" + pLL + ".lat"}},
		{name: "fractional quantity: no restated or cross-member finding", body: `"orderManifest":{"itemDetails":[{"itemId":"A","quantity":1.5}]}`,
			want: []string{"NOT_INTEGER@" + pMan + ".itemDetails[0].quantity"}},
		{name: "item without quantity beside a bad order size", body: `"orderManifest":{"summary":{"orderSize":"XXL"},"itemDetails":[{"itemId":"A"}]}`,
			want: []string{"REQUIRED@" + pMan + ".itemDetails[0].quantity", "INVALID_ENUM@" + pSum + ".orderSize"}},
		{name: "new box without sizes or unit", body: `"orderManifest":{"summary":{"dimensions":[{"length":10}]}}`,
			want: []string{"REQUIRED@" + pSum + ".dimensions[0].width", "REQUIRED@" + pSum + ".dimensions[0].height", "REQUIRED@" + pSum + ".dimensions[0].unitOfMeasure"}},
		{name: "out-of-range number beside a locked change", status: StatusDispatched,
			body: `"customer":{"lastName":"K"},"orderManifest":{"summary":{"totalOrderWeight":{"measurementValue":1e999}}}`,
			want: []string{"FIELD_LOCKED@" + pCust + ".lastName", "OUT_OF_RANGE@" + pSum + ".totalOrderWeight.measurementValue"}},
		{name: "out-of-range coordinate of a locked pin-drop", status: StatusDriverAssigned,
			body: `"deliveryDetails":{"latLong":{"lng":-1e999}}`,
			want: []string{"FIELD_LOCKED@" + pLL + ".lng", "OUT_OF_RANGE@" + pLL + ".lng"}},
		{name: "bad coordinate beside a broken slot", body: `"deliveryDetails":{"latLong":{"lat":null}},"requestedMaxDeliverySlotTime":"2026-11-22T09:00:00.000Z"`,
			want: []string{"REQUIRED@" + pLL + ".lat", "SLOT_ORDER@deliveries.requestedMaxDeliverySlotTime", "PICKUP_AFTER_SLOT_END@deliveries.orderPickupReadyTime"}},
		{name: "bad slot start hides the slot comparison", body: `"requestedMinDeliverySlotTime":"x","requestedMaxDeliverySlotTime":"2026-11-22T09:59:00.000Z"`,
			want: []string{"INVALID_FORMAT@deliveries.requestedMinDeliverySlotTime"}},
		{name: "bad item beside a broken total", body: `"orderManifest":{"summary":{"totalItems":4},"itemDetails":[{"itemId":"A","quantity":1.5}]}`,
			want: []string{"NOT_INTEGER@" + pMan + ".itemDetails[0].quantity"}},
		{name: "a body that does not fit the payload still fails alone", status: StatusDispatched,
			body: `"customer":{"firstName":5,"lastName":"K","email":"bad"}`,
			want: []string{"INVALID_TYPE@" + pCust + ".firstName"}},
	})
	// Book: a bad timestamp and a missing member are reported together,
	// the timestamp once.
	body := replaceOnce(t, bookingJSON, `"clientId":"client-1",`, ``)
	body = replaceOnce(t, body, `"orderPickupReadyTime":"2026-11-22T09:30:00.000Z"`, `"orderPickupReadyTime":"soon"`)
	_, err := Book("D", []byte(body))
	if got := codes(err); !slices.Equal(got, []string{"REQUIRED@deliveries.clientId", "INVALID_FORMAT@deliveries.orderPickupReadyTime"}) {
		t.Fatalf("Book: %v", got)
	}
}

// TestWholeBodyInEveryStatus sends the whole current delivery back: every
// locked member carries its current value, which is not a change, so the
// body alone is a no-op and, with one free member changed, succeeds.
func TestWholeBodyInEveryStatus(t *testing.T) {
	for _, s := range Statuses() {
		if s.Terminal() {
			continue
		}
		t.Run(string(s), func(t *testing.T) {
			d := inStatus(t, s)
			body, err := BookingBody(d)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(d, body); !slices.Equal(codes(err), []string{"NO_CHANGE@deliveries"}) {
				t.Fatalf("whole body: %v", err)
			}
			changed := bytes.Replace(body, []byte(`"ada@example.com"`), []byte(`"ada@example.org"`), 1)
			got, err := Apply(d, changed)
			if err != nil {
				t.Fatalf("whole body with a new e-mail: %v", err)
			}
			want := d.Clone()
			want.Customer.Email = "ada@example.org"
			if !got.Equal(want) {
				t.Fatalf("got %+v", got)
			}
		})
	}
}

// TestArraysReplacedWhole: an array is the new value as sent; its elements
// are never merged with the old elements at the same index.
func TestArraysReplacedWhole(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "instructions element not merged", body: `"instructions":[{"instructionText":"Ring twice"}]`,
			want: []string{"REQUIRED@deliveries.instructions[0].instructionType"}},
		{name: "scan groups and scan ids", body: `"scanDetails":[{"scanDetail":[{"scanId":"N"}],"scanType":"CODE128"}]`,
			check: func(t *testing.T, b, a Delivery) {
				if !scansEqual(a.ScanDetails, []Scan{{ScanDetail: []ScanDetail{{"N"}}, ScanType: "CODE128"}}) {
					t.Fatalf("scans %+v", a.ScanDetails)
				}
			}},
		{name: "scan group without type not merged", body: `"scanDetails":[{"scanDetail":[{"scanId":"SCAN-1"}]}]`,
			want: []string{"REQUIRED@deliveries.scanDetails[0].scanType"}},
		{name: "items", body: `"orderManifest":{"summary":null,"itemDetails":[{"itemId":"ITEM-1","quantity":2}]}`,
			check: func(t *testing.T, b, a Delivery) {
				if !itemsEqual(a.OrderManifest.ItemDetails, []Item{{ItemID: "ITEM-1", Quantity: 2}}) {
					t.Fatalf("items %+v", a.OrderManifest.ItemDetails)
				}
			}},
		{name: "summary dimensions", body: `"orderManifest":{"summary":{"dimensions":[{"length":1,"width":2,"height":3,"unitOfMeasure":"CM"},{"length":0,"width":0,"height":0,"unitOfMeasure":"IN"}]}}`,
			check: func(t *testing.T, b, a Delivery) {
				want := []Dimensions{{1, 2, 3, "CM"}, {0, 0, 0, "IN"}}
				if s := a.OrderManifest.Summary; !slices.Equal(s.Dimensions, want) || s.TotalItems != 3 || s.OrderSize != "S" {
					t.Fatalf("summary %+v", *s)
				}
			}},
	})
}

// TestPresenceByKind: for each kind of member, absent leaves the value,
// a value replaces it, null clears it (or is refused where the model has
// no "not set" value).
func TestPresenceByKind(t *testing.T) {
	const other = `"clientId":"client-9"` // a change elsewhere, so that absent is tested on a success
	type kindCase struct {
		kind     string
		value    string // members that set the field
		null     string // members that send null
		get      func(d Delivery) any
		want     any // after value
		nullWant any // after null; ignored when nullErr is set
		nullErr  string
	}
	cases := []kindCase{
		{kind: "string", value: `"customer":{"email":"x@y.zz"}`, null: `"customer":{"email":null}`,
			get: func(d Delivery) any { return d.Customer.Email }, want: "x@y.zz", nullWant: ""},
		{kind: "boolean", value: `"addOnServices":{"attendedDelivery":false}`, null: `"addOnServices":{"attendedDelivery":null}`,
			get: func(d Delivery) any { return d.AddOnServices.AttendedDelivery }, want: false, nullWant: false},
		{kind: "timestamp", value: `"orderPickupReadyTime":"2026-11-22T08:00:00.000Z"`, null: `"orderPickupReadyTime":null`,
			get: func(d Delivery) any { return d.OrderPickupReadyTime.UTC().Format(timestampLayout) }, want: "2026-11-22T08:00:00.000Z",
			nullErr: "REQUIRED@deliveries.orderPickupReadyTime"},
		{kind: "number", value: `"deliveryDetails":{"latLong":{"lng":-94.5}}`, null: `"deliveryDetails":{"latLong":{"lng":null}}`,
			get: func(d Delivery) any { return d.DeliveryDetails.LatLong.Lng }, want: -94.5, nullErr: "REQUIRED@" + pLL + ".lng"},
		{kind: "integer", value: `"orderManifest":{"summary":{"totalItems":3}}`, null: `"orderManifest":{"summary":{"totalItems":null}}`,
			get: func(d Delivery) any { return d.OrderManifest.Summary.TotalItems }, want: 3, nullErr: "REQUIRED@" + pSum + ".totalItems"},
		{kind: "object", value: `"deliveryDetails":{"propertyDetails":{"gateCode":"77"}}`, null: `"deliveryDetails":{"propertyDetails":null}`,
			get: func(d Delivery) any { return d.DeliveryDetails.PropertyDetails }, want: PropertyDetails{"77", "HOUSE", "FRONT_DOOR"}, nullWant: PropertyDetails{}},
		{kind: "optional object", value: `"deliveryDetails":{"latLong":{"type":"GEOCODED"}}`, null: `"deliveryDetails":{"latLong":null}`,
			get: func(d Delivery) any {
				if d.DeliveryDetails.LatLong == nil {
					return nil
				}
				return *d.DeliveryDetails.LatLong
			}, want: LatLong{"GEOCODED", 36.3729, -94.2088}, nullWant: nil},
		{kind: "array", value: `"instructions":[{"instructionText":"Dog","instructionType":"CUSTOMER"}]`, null: `"instructions":null`,
			get: func(d Delivery) any { return len(d.Instructions) }, want: 1, nullWant: 0},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			d := booked(t)
			before := c.get(d)
			absent, err := Apply(d, upd(other))
			if err != nil || !equalAny(c.get(absent), before) {
				t.Fatalf("absent: %v, %v → %v", err, before, c.get(absent))
			}
			val, err := Apply(d, upd(c.value+`,"clientId":"client-8"`))
			if err != nil || !equalAny(c.get(val), c.want) {
				t.Fatalf("value: %v, got %v want %v", err, c.get(val), c.want)
			}
			null, err := Apply(d, upd(c.null+`,"clientId":"client-7"`))
			if c.nullErr != "" {
				if !slices.Contains(codes(err), c.nullErr) {
					t.Fatalf("null: %v", err)
				}
				return
			}
			if err != nil || !equalAny(c.get(null), c.nullWant) {
				t.Fatalf("null: %v, got %v want %v", err, c.get(null), c.nullWant)
			}
		})
	}
}

func equalAny(a, b any) bool { return a == b }

// TestPinDropLocks covers every way of touching customer pin-drop
// coordinates once a driver is assigned.
func TestPinDropLocks(t *testing.T) {
	lk := func(p string) []string { return []string{"FIELD_LOCKED@" + p} }
	runCases(t, []ruleCase{
		{name: "lng", status: StatusDriverAssigned, body: `"deliveryDetails":{"latLong":{"lng":-94.3}}`, want: lk(pLL + ".lng")},
		{name: "retyped away from a pin-drop", status: StatusEnrouteToPickup, body: `"deliveryDetails":{"latLong":{"type":"GEOCODED"}}`, want: lk(pLL + ".type")},
		{name: "pin-drop created", status: StatusDriverAssigned, prep: `"deliveryDetails":{"latLong":null}`,
			body: `"deliveryDetails":{"latLong":{"type":"CUSTOMER_PINDROP","lat":1,"lng":2}}`, want: lk(pLL)},
		{name: "geocoded created", status: StatusDriverAssigned, prep: `"deliveryDetails":{"latLong":null}`,
			body: `"deliveryDetails":{"latLong":{"type":"GEOCODED","lat":1,"lng":2}}`},
		{name: "same pin-drop sent whole", status: StatusDispatched,
			body: `"deliveryDetails":{"latLong":{"type":"CUSTOMER_PINDROP","lat":36.3729,"lng":-94.2088}},"customer":{"email":"q@r.st"}`},
		{name: "deliveryDetails null", status: StatusDispatched, body: `"deliveryDetails":null`,
			want: []string{"FIELD_LOCKED@" + pAddr + ".line1", "FIELD_LOCKED@" + pAddr + ".line2", "FIELD_LOCKED@" + pAddr + ".city",
				"FIELD_LOCKED@" + pAddr + ".state", "FIELD_LOCKED@" + pAddr + ".zipCode", "FIELD_LOCKED@" + pAddr + ".countryCode",
				"FIELD_LOCKED@" + pLL, "FIELD_LOCKED@" + pProp + ".gateCode", "FIELD_LOCKED@" + pProp + ".propertyType",
				"FIELD_LOCKED@" + pProp + ".locationPreference",
				"REQUIRED@" + pAddr + ".line1", "REQUIRED@" + pAddr + ".city", "REQUIRED@" + pAddr + ".state",
				"REQUIRED@" + pAddr + ".zipCode", "REQUIRED@" + pAddr + ".countryCode"}},
	})
}

func TestCoordinateRanges(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "latitude too low", body: `"deliveryDetails":{"latLong":{"lat":-90.0001}}`, want: []string{"OUT_OF_RANGE@" + pLL + ".lat"}},
		{name: "latitude at the north pole", body: `"deliveryDetails":{"latLong":{"lat":90}}`},
		{name: "longitude too high", body: `"deliveryDetails":{"latLong":{"lng":180.0001}}`, want: []string{"OUT_OF_RANGE@" + pLL + ".lng"}},
		{name: "longitude at the antimeridian", body: `"deliveryDetails":{"latLong":{"lng":180}}`},
		{name: "longitude at the other side", body: `"deliveryDetails":{"latLong":{"lng":-180}}`},
	})
}

// TestNestingBound: hostile nesting is refused as malformed, without
// running the stack deep, however deep it goes.
func TestNestingBound(t *testing.T) {
	d := booked(t)
	for _, n := range []int{jsonwire.MaxDepth, jsonwire.MaxDepth + 1, 100000} {
		nest := strings.Repeat("[", n) + strings.Repeat("]", n)
		_, err := Apply(d, upd(`"x":`+nest))
		got := codes(err)
		// {"deliveries":{"x": ... adds two levels.
		want := "UNKNOWN_MEMBER@deliveries.x"
		if n+2 > jsonwire.MaxDepth {
			want = "MALFORMED_JSON@"
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("depth %d: %v", n, got)
		}
	}
}

// TestNothingAliasesTheBody: after Book or Apply the caller may overwrite
// the body; the returned delivery and the error must not change.
func TestNothingAliasesTheBody(t *testing.T) {
	scribble := func(b []byte) {
		for i := range b {
			b[i] = 'X'
		}
	}
	body := []byte(bookingJSON)
	d, err := Book("D", body)
	if err != nil {
		t.Fatal(err)
	}
	keep := d.Clone()
	scribble(body)
	if !d.Equal(keep) {
		t.Fatal("Book result aliases the body")
	}
	for _, s := range []string{
		`{"deliveries":{"customer":{"middleName":"B","first\u004eame":"Zed"},"extraMember":1}}`,
		`{"unknownTop":1,"deliveries":{"clientId":"c","clientId":"d"}}`,
		`{"deliveries":{"orderPickupReadyTime":"2026-11-22T10:00:00Z","deliveryDetails":{"latLong":{"lat":1e999}},"orderManifest":{"itemDetails":[{"itemId":"A","quantity":2.5}]}}}`,
		`{"deliveries":{"customer":{"firstName":"Zed","lastName":"Q","email":"bad"}}}`,
	} {
		for _, st := range []Status{StatusRequested, StatusDispatched} {
			cur := inStatus(t, st)
			body := []byte(s)
			got, err := Apply(cur, body)
			keep, msg := got.Clone(), ""
			if err != nil {
				msg = err.Error()
			}
			var e *Error
			errors.As(err, &e)
			var vs []string
			if e != nil {
				for _, v := range e.Violations {
					vs = append(vs, v.Code+v.Path+v.Message)
				}
			}
			scribble(body)
			if !got.Equal(keep) {
				t.Fatalf("%s: result aliases the body", s)
			}
			if err != nil && err.Error() != msg {
				t.Fatalf("%s: error aliases the body:\n%s\n%s", s, msg, err)
			}
			for i, v := range e.Violations {
				if v.Code+v.Path+v.Message != vs[i] {
					t.Fatalf("%s: violation aliases the body", s)
				}
			}
		}
	}
}

// TestTimestampsAreUTC: a delivery built in code with another zone is
// compared and printed as the same instant.
func TestTimestampsAreUTC(t *testing.T) {
	d := booked(t)
	d.RequestedMinDeliverySlotTime = d.RequestedMinDeliverySlotTime.In(time.FixedZone("X", 3600))
	if _, err := Apply(d, upd(`"requestedMinDeliverySlotTime":"2026-11-22T10:00:00.000Z"`)); !errors.Is(err, ErrNoChange) {
		t.Fatalf("same instant in another zone: %v", err)
	}
}

// TestMatrixTypeChangedPreferenceKept: the matrix is checked on the merged
// result, so a new propertyType is judged against the stored preference.
func TestMatrixTypeChangedPreferenceKept(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "apartment under a back door", prep: `"deliveryDetails":{"propertyDetails":{"locationPreference":"BACK_DOOR"}}`,
			body: `"deliveryDetails":{"propertyDetails":{"propertyType":"APARTMENT"}}`,
			want: []string{"DISALLOWED_COMBINATION@" + pathLocationPreference}},
		{name: "other under a back door", prep: `"deliveryDetails":{"propertyDetails":{"locationPreference":"BACK_DOOR"}}`,
			body: `"deliveryDetails":{"propertyDetails":{"propertyType":"OTHER"}}`},
		{name: "house to business at the front door", body: `"deliveryDetails":{"propertyDetails":{"propertyType":"BUSINESS"}}`},
	})
}

// TestOddCurrentDeliveries: Apply on deliveries built in code, even broken
// ones, neither panics nor changes them, and accepts only valid results.
func TestOddCurrentDeliveries(t *testing.T) {
	odd := []Delivery{
		{}, {Status: StatusRequested}, {Status: StatusDispatched}, {Status: "SHIPPED"},
		{Status: StatusDriverAssigned,
			DeliveryDetails: DeliveryDetails{LatLong: &LatLong{Type: LatLongCustomerPinDrop, Lat: 1000, Lng: math.Inf(1)}},
			OrderManifest:   OrderManifest{Summary: &Summary{}, ItemDetails: []Item{{}}}, ScanDetails: []Scan{{}}},
	}
	bodies := append([]string{bookingJSON}, updateSeeds...)
	for _, d := range odd {
		for _, b := range bodies {
			snapshot := d.Clone()
			got, err := Apply(d, []byte(b))
			if !d.Equal(snapshot) {
				t.Fatalf("%+v changed", d)
			}
			if err == nil {
				if verr := Check(got); verr != nil {
					t.Fatalf("accepted an invalid result: %v", verr)
				}
			} else if len(codes(err)) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
		}
	}
}

// wideBody is an update whose deliveries object holds n distinct unknown
// member names after a repeated known one.
func wideBody(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"deliveries":{"clientId":"a","clientId":"b"`)
	for i := range n {
		b.WriteString(`,"m`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`":0`)
	}
	b.WriteString(`,"clientId":"c"}}`)
	return []byte(b.String())
}

// TestWideObject: an object with many names is reported in full (every
// unknown name, the repeats of a known one) by a linear pass; see
// BenchmarkApplyWideObject for the cost of a body of maximum size.
func TestWideObject(t *testing.T) {
	_, err := Apply(booked(t), wideBody(1000))
	got := codes(err)
	dups, unknown := 0, 0
	for _, c := range got {
		switch c {
		case "DUPLICATE_MEMBER@deliveries.clientId":
			dups++
		default:
			if strings.HasPrefix(c, "UNKNOWN_MEMBER@deliveries.m") {
				unknown++
			}
		}
	}
	if dups != 2 || unknown != 1000 || len(got) != 1002 {
		t.Fatalf("%d duplicates, %d unknown, %d in all", dups, unknown, len(got))
	}
}

// BenchmarkApplyWideObject: a 1 MiB body of distinct member names must
// cost time linear in its size (a quadratic search for repeats took 38 s).
func BenchmarkApplyWideObject(b *testing.B) {
	d := booked(b)
	body := wideBody(80000)
	if len(body) > MaxBodyBytes {
		b.Fatalf("%d bytes", len(body))
	}
	for b.Loop() {
		if _, err := Apply(d, body); err == nil {
			b.Fatal("accepted")
		}
	}
}
