package delivery

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
)

// fieldInfo is what TestSchemaCoversModel needs of a field of any schema.
type fieldInfo struct {
	name, goName string
	sub          any
	offset       uintptr // of the field addr points at
	required     bool
}

// describer is a *schema[T] of any T.
type describer interface {
	describe() (reflect.Type, []fieldInfo)
}

func (s *schema[T]) describe() (reflect.Type, []fieldInfo) {
	var zero T
	base := reflect.ValueOf(&zero).Pointer()
	var out []fieldInfo
	for _, f := range s.fields {
		out = append(out, fieldInfo{name: f.name, goName: f.goName, sub: f.sub, required: f.required,
			offset: reflect.ValueOf(f.addr(&zero)).Pointer() - base})
	}
	return reflect.TypeFor[T](), out
}

// TestSchemaCoversModel walks the model's fields, from Delivery down, and
// the payload schema side by side: every field of every model struct is a
// member, in the same order, the member's accessor reaches that very
// field, every nested struct has a schema of its own type, the JSON name
// is the Go name in lower camel case (but for the ID suffix), and only
// numbers are required. A member added to the model alone fails here.
func TestSchemaCoversModel(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(s describer, skip map[string]bool)
	walk = func(s describer, skip map[string]bool) {
		typ, fields := s.describe()
		if seen[typ] {
			return
		}
		seen[typ] = true
		var model []reflect.StructField
		for f := range typ.Fields() {
			if !skip[f.Name] {
				model = append(model, f)
			}
		}
		if len(model) != len(fields) {
			t.Errorf("%v has %d fields, its schema %d members", typ, len(model), len(fields))
			return
		}
		for i, mf := range model {
			f := fields[i]
			if f.goName != mf.Name || f.offset != mf.Offset {
				t.Errorf("%v member %q: describes %s at offset %d, the model's field %d is %s at %d",
					typ, f.name, f.goName, f.offset, i, mf.Name, mf.Offset)
			}
			if want := jsonName(mf.Name); f.name != want {
				t.Errorf("%v.%s: JSON name %q, want %q", typ, mf.Name, f.name, want)
			}
			elem := mf.Type
			for elem.Kind() == reflect.Pointer || elem.Kind() == reflect.Slice {
				elem = elem.Elem()
			}
			if f.required != (elem.Kind() == reflect.Float64 || elem.Kind() == reflect.Int) {
				t.Errorf("%v.%s: required is %v", typ, mf.Name, f.required)
			}
			if elem.Kind() != reflect.Struct || elem == reflect.TypeFor[time.Time]() {
				if f.sub != nil {
					t.Errorf("%v.%s: a scalar with a nested schema", typ, mf.Name)
				}
				continue
			}
			sub, ok := f.sub.(describer)
			if !ok {
				t.Errorf("%v.%s: no schema for %v", typ, mf.Name, elem)
				continue
			}
			if st, _ := sub.describe(); st != elem {
				t.Errorf("%v.%s: schema of %v for a field of %v", typ, mf.Name, st, elem)
			}
			walk(sub, nil)
		}
	}
	walk(deliverySchema, map[string]bool{"DeliveryID": true, "Status": true})
	if len(seen) < 18 {
		t.Fatalf("only %d model types walked", len(seen))
	}
}

// jsonName is the payload's spelling of a Go field name: lower camel case,
// with "ID" written "Id".
func jsonName(goName string) string {
	s := strings.ReplaceAll(goName, "ID", "Id")
	if goName == "IsDropOffOTPRequired" {
		return "isDropOffOTPRequired"
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// TestEncodingFollowsSchema: a delivery with every member set is written
// with every member of the schema, and reads back equal.
func TestEncodingFollowsSchema(t *testing.T) {
	d := booked(t)
	out, err := d.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"deliveryId":"DLV-1"`, `"status":"DELIVERY_REQUESTED"`, `"isDropOffOTPRequired":false`,
		`"latLong":{"type":"CUSTOMER_PINDROP","lat":36.3729,"lng":-94.2088}`, `"quantity":2`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
	if _, err := (Delivery{DeliveryDetails: DeliveryDetails{LatLong: &LatLong{Lat: math.NaN()}}}).MarshalJSON(); err == nil {
		t.Error("NaN written")
	}
}
