package routeplan

import (
	"reflect"
	"testing"
)

// TestSameRoutesCoversEveryField: changing any field of a vehicle type
// but its ID, count and resources makes it evaluate routes differently, so
// sameRoutes must tell the two apart; a field added to VehicleType fails
// here until sameRoutes knows whether it matters.
func TestSameRoutesCoversEveryField(t *testing.T) {
	base := VehicleType{Capacity: []float64{1}, StartServicePerUnit: []float64{1}, StartWindows: []Window{{0, 1}}}
	rt := reflect.TypeOf(base)
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		b := base
		b.Capacity = []float64{1}
		b.StartServicePerUnit = []float64{1}
		b.StartWindows = []Window{{0, 1}}
		v := reflect.ValueOf(&b).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Int:
			v.SetInt(7)
		case reflect.Float64:
			v.SetFloat(7)
		case reflect.Slice:
			switch s := v.Interface().(type) {
			case []float64:
				s[0] = 7
			case []Window:
				s[0].End = 7
			case []int:
				v.Set(reflect.ValueOf([]int{7}))
			default:
				t.Fatalf("field %s: unhandled slice type %T", f.Name, s)
			}
		case reflect.Pointer:
			if _, ok := v.Interface().(*TripLoading); ok {
				v.Set(reflect.ValueOf(&TripLoading{Fixed: 7}))
				// And one loading against another: each field tells.
				for _, o := range []TripLoading{{Fixed: 1}, {Staging: 1}, {PerUnit: []float64{1}}} {
					c := base
					c.Loading = &TripLoading{}
					d := c
					d.Loading = &o
					if sameRoutes(&c, &d) {
						t.Errorf("loadings %+v and %+v: sameRoutes", *c.Loading, o)
					}
				}
				break
			}
			t.Fatalf("field %s: unhandled pointer type %s", f.Name, v.Type())
		default:
			t.Fatalf("field %s: unhandled kind %s", f.Name, v.Kind())
		}
		ignored := f.Name == "ID" || f.Name == "Count" || f.Name == "Resources"
		if same := sameRoutes(&base, &b); same != ignored {
			t.Errorf("field %s changed: sameRoutes = %v", f.Name, same)
		}
	}
}
