package delivery

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseTimestamp(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-22T10:00:00.000Z", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), true},
		{"2026-11-22T23:59:59.999Z", time.Date(2026, 11, 22, 23, 59, 59, 999e6, time.UTC), true},
		{"2028-02-29T00:00:00.000Z", time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC), true},
		{"0001-01-01T00:00:00.001Z", time.Date(1, 1, 1, 0, 0, 0, 1e6, time.UTC), true},
		{"2027-02-29T00:00:00.000Z", time.Time{}, false},
		{"2026-04-31T00:00:00.000Z", time.Time{}, false},
		{"2026-13-01T00:00:00.000Z", time.Time{}, false},
		{"2026-11-22T10:60:00.000Z", time.Time{}, false},
		{"2026-11-22T10:00:60.000Z", time.Time{}, false},
		{"2026-11-22T10:00:00.00Z", time.Time{}, false},
		{"2026-11-22T10:00:00.0000Z", time.Time{}, false},
		{"2026-11-22T10:00:00.000z", time.Time{}, false},
		{"2026-11-22 10:00:00.000Z", time.Time{}, false},
		{"2026-11-22T10:00:00.000", time.Time{}, false},
		{"+026-11-22T10:00:00.000Z", time.Time{}, false},
		{"0000-11-22T10:00:00.000Z", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, c := range cases {
		got, ok := parseTimestamp([]byte(c.in))
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("%q: got %v %v", c.in, got, ok)
		}
		if ok && got.Format(timestampLayout) != c.in {
			t.Errorf("%q prints back as %q", c.in, got.Format(timestampLayout))
		}
	}
}

func TestValidEmail(t *testing.T) {
	good := []string{"a@b.co", "ada.lovelace@example.com", "x+y@sub.example.org", "o'neil@example.ie", "a_b-c@e-x.am"}
	bad := []string{"", "a", "@b.co", "a@", "a@b", "a@b.c", "a@@b.co", "a@b@c.co", ".a@b.co", "a.@b.co", "a..b@c.co",
		"a b@c.co", "a@-b.co", "a@b-.co", "a@b..co", "a@b.c0", "a@.b.co", "ä@b.co", "a@b.co.", strings.Repeat("a", 65) + "@b.co"}
	for _, e := range good {
		if !validEmail(e) {
			t.Errorf("%q refused", e)
		}
	}
	for _, e := range bad {
		if validEmail(e) {
			t.Errorf("%q accepted", e)
		}
	}
}

func TestNumbersKeepValue(t *testing.T) {
	d := booked(t)
	n, err := Apply(d, upd(`"deliveryDetails":{"latLong":{"lat":-0.000001,"lng":1e2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ll := n.DeliveryDetails.LatLong; ll.Lat != -0.000001 || ll.Lng != 100 || math.Signbit(ll.Lng) {
		t.Fatalf("%+v", *ll)
	}
}
