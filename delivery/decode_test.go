package delivery

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
		got, ok := parseTimestamp(c.in)
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

// toAny converts a parsed tree to what encoding/json produces (last
// duplicate wins, numbers as float64).
func toAny(n node) (any, bool) {
	switch n.kind {
	case kNull:
		return nil, true
	case kBool:
		return n.b, true
	case kNumber:
		f, err := strconv.ParseFloat(n.s, 64)
		return f, err == nil
	case kString:
		return n.s, true
	case kArray:
		out := make([]any, len(n.members))
		for i, e := range n.members {
			v, ok := toAny(e.val)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	default:
		out := map[string]any{}
		for _, m := range n.members {
			v, ok := toAny(m.val)
			if !ok {
				return nil, false
			}
			out[m.key] = v
		}
		return out, true
	}
}

func depth(b []byte) int {
	d, max, inStr, esc := 0, 0, false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '{' || c == '['):
			d++
			if d > max {
				max = d
			}
		case !inStr && (c == '}' || c == ']'):
			d--
		}
	}
	return max
}

// checkParser compares parseJSON with encoding/json on one input.
func checkParser(t *testing.T, in []byte) {
	n, err := parseJSON(in)
	valid := json.Valid(in)
	if err == nil && !valid {
		t.Fatalf("accepted invalid JSON %q", in)
	}
	if err != nil {
		if valid && utf8.Valid(in) && depth(in) <= maxDepth {
			t.Fatalf("refused valid JSON %q: %v", in, err)
		}
		return
	}
	got, ok := toAny(n)
	var want any
	if json.Unmarshal(in, &want) != nil || !ok {
		return // numbers beyond float64: encoding/json refuses, parseJSON defers to the schema walk
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: got %#v want %#v", in, got, want)
	}
}

var parserSeeds = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `-12E+2`, `"a"`, `""`,
	`{"a":[1,2,{"b":null}],"c":"\u00e9\n\t\"\\\/"}`, `"\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00x"`,
	` { "a" : 1 , "a" : 2 } `, `[1,]`, `{"a":1,}`, `01`, `1.`, `.1`, `-`, `1e`, `tru`, `nul`, `"\x"`, "\"\x01\"",
	`{"a"}`, `{1:2}`, `[`, `"abc`, `{"a":1}}`, "\"\xff\"", `1e400`, strings.Repeat("[", 40) + strings.Repeat("]", 40),
}

func TestParserAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range parserSeeds {
		checkParser(t, []byte(s))
	}
	checkParser(t, []byte(bookingJSON))
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range parserSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkParser(t, in) })
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
