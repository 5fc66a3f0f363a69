package delivery

import (
	"errors"
	"testing"
)

// TestMatrix checks every cell of section 2.3 through Apply, spelled out
// from the document rather than from the package's table.
func TestMatrix(t *testing.T) {
	const o, x = true, false // Optional, Not Allowed
	cells := []struct {
		pref                              string
		house, apartment, business, other bool
	}{
		{"FRONT_DOOR", o, o, o, o},
		{"BACK_DOOR", o, x, x, o},
		{"SIDE_PORCH", o, x, x, o},
		{"BUILDING_RECEPTION", x, o, o, o},
		{"MAILROOM_OR_PROPERTY_STAFF", x, o, o, o},
		{"GARAGE_DOOR", o, x, x, o},
		{"NO_PREFERENCE", o, o, o, o},
	}
	d := booked(t) // HOUSE, FRONT_DOOR, gate code 1234
	n := 0
	for _, c := range cells {
		for _, pt := range []struct {
			typ string
			ok  bool
		}{{"HOUSE", c.house}, {"APARTMENT", c.apartment}, {"BUSINESS", c.business}, {"OTHER", c.other}} {
			n++
			t.Run(pt.typ+"/"+c.pref, func(t *testing.T) {
				if Allowed(pt.typ, c.pref) != pt.ok {
					t.Fatalf("Allowed(%s, %s) = %v", pt.typ, c.pref, !pt.ok)
				}
				// The gate code makes every body a change, so the cell alone decides.
				body := upd(`"deliveryDetails":{"propertyDetails":{"gateCode":"9","propertyType":"` + pt.typ + `","locationPreference":"` + c.pref + `"}}`)
				got, err := Apply(d, body)
				if pt.ok {
					if err != nil {
						t.Fatalf("want allowed, got %v", err)
					}
					if pd := got.DeliveryDetails.PropertyDetails; pd.PropertyType != pt.typ || pd.LocationPreference != c.pref {
						t.Fatalf("not applied: %+v", pd)
					}
					return
				}
				if !errors.Is(err, ErrDisallowedCombination) {
					t.Fatalf("want ErrDisallowedCombination, got %v", err)
				}
				if cs := codes(err); len(cs) != 1 || cs[0] != "DISALLOWED_COMBINATION@"+pathLocationPreference {
					t.Fatalf("violations %v", cs)
				}
			})
		}
	}
	if n != 28 {
		t.Fatalf("%d cells", n)
	}
}

// TestMatrixNullPropertyType: a null propertyType is not allowed with any
// locationPreference, whether the null is sent or already there.
func TestMatrixNullPropertyType(t *testing.T) {
	d := booked(t)
	for _, pref := range LocationPreferences() {
		t.Run("sent/"+pref, func(t *testing.T) {
			_, err := Apply(d, upd(`"deliveryDetails":{"propertyDetails":{"propertyType":null,"locationPreference":"`+pref+`"}}`))
			if !errors.Is(err, ErrDisallowedCombination) {
				t.Fatalf("want ErrDisallowedCombination, got %v", err)
			}
		})
		t.Run("kept/"+pref, func(t *testing.T) {
			cur, err := Apply(d, upd(`"deliveryDetails":{"propertyDetails":{"propertyType":null,"locationPreference":null}}`))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Apply(cur, upd(`"deliveryDetails":{"propertyDetails":{"locationPreference":"`+pref+`"}}`))
			if cs := codes(err); len(cs) != 1 || cs[0] != "DISALLOWED_COMBINATION@"+pathLocationPreference {
				t.Fatalf("violations %v", cs)
			}
		})
		if Allowed("", pref) {
			t.Errorf("Allowed(null, %s)", pref)
		}
	}
	t.Run("null with null", func(t *testing.T) {
		if _, err := Apply(d, upd(`"deliveryDetails":{"propertyDetails":{"propertyType":null,"locationPreference":null}}`)); err != nil {
			t.Fatal(err)
		}
		if !Allowed("", "") {
			t.Fatal("Allowed(null, null) = false")
		}
	})
	t.Run("removing the type keeps a preference invalid", func(t *testing.T) {
		_, err := Apply(d, upd(`"deliveryDetails":{"propertyDetails":{"propertyType":null}}`))
		if !errors.Is(err, ErrDisallowedCombination) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("type without preference", func(t *testing.T) {
		for _, pt := range PropertyTypes() {
			if !Allowed(pt, "") {
				t.Errorf("Allowed(%s, null) = false", pt)
			}
		}
		if Allowed("CASTLE", "") || Allowed("HOUSE", "ROOF") {
			t.Error("unknown values allowed")
		}
	})
}

// TestMatrixOnBooking: the matrix holds for bookings too.
func TestMatrixOnBooking(t *testing.T) {
	b := []byte(bookingJSON)
	for _, c := range []struct{ from, to string }{{`"propertyType":"HOUSE","locationPreference":"FRONT_DOOR"`, `"propertyType":"APARTMENT","locationPreference":"GARAGE_DOOR"`}, {`"propertyType":"HOUSE",`, ``}} {
		body := []byte(replaceOnce(t, string(b), c.from, c.to))
		if _, err := Book("D", body); !errors.Is(err, ErrDisallowedCombination) {
			t.Fatalf("%s: got %v", c.to, err)
		}
	}
}
