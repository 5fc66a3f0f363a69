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

// readAny reads one value with the lexer into what encoding/json produces
// (last duplicate wins, numbers as float64); ok is false for numbers beyond
// float64, which encoding/json refuses and the decoder reports itself.
func readAny(lx *lexer) (v any, ok bool) {
	ok = true
	switch lx.peek() {
	case kNull:
		lx.null()
		return nil, true
	case kBool:
		return lx.boolean(), true
	case kNumber:
		f, err := strconv.ParseFloat(string(lx.number()), 64)
		return f, err == nil
	case kString:
		return lx.stringValue(), true
	case kArray:
		out := []any{}
		lx.enter()
		for first := true; lx.element(first); first = false {
			e, eok := readAny(lx)
			ok = ok && eok
			out = append(out, e)
		}
		return out, ok
	case kObject:
		out := map[string]any{}
		lx.enter()
		for first := true; ; first = false {
			k, more := lx.member(first)
			if !more {
				break
			}
			e, eok := readAny(lx)
			ok = ok && eok
			out[strings.Clone(k)] = e
		}
		return out, ok
	}
	return nil, false
}

func parseAny(in []byte) (any, bool, error) {
	lx := lexer{data: in}
	v, ok := readAny(&lx)
	lx.end()
	if lx.err != nil {
		return nil, false, lx.err
	}
	return v, ok, nil
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

// checkParser compares the lexer with encoding/json on one input, and
// checks that skip accepts exactly what the full read accepts.
func checkParser(t *testing.T, in []byte) {
	got, ok, err := parseAny(in)
	valid := json.Valid(in)
	if err == nil && !valid {
		t.Fatalf("accepted invalid JSON %q", in)
	}
	skipper := lexer{data: in}
	skipper.skip()
	skipper.end()
	if (skipper.err == nil) != (err == nil) {
		t.Fatalf("%q: skip says %v, read says %v", in, skipper.err, err)
	}
	if err != nil {
		if valid && utf8.Valid(in) && depth(in) <= maxDepth {
			t.Fatalf("refused valid JSON %q: %v", in, err)
		}
		return
	}
	var want any
	if json.Unmarshal(in, &want) != nil || !ok {
		return // numbers beyond float64
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: got %#v want %#v", in, got, want)
	}
}

var parserSeeds = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `-12E+2`, `"a"`, `""`,
	`{"a":[1,2,{"b":null}],"c":"\u00e9\n\t\"\\\/"}`, `"\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00x"`,
	` { "a" : 1 , "a" : 2 } `, `[1,]`, `{"a":1,}`, `01`, `1.`, `.1`, `-`, `1e`, `tru`, `nul`, `"\x"`, "\"\x01\"",
	`{"a"}`, `{1:2}`, `[`, `"abc`, `{"a":1}}`, `[1 2]`, `{"a":1 "b":2}`, `{,}`, `[,1]`, `{"a":1,"b"}`, `"\u12"`, `"\u12G4"`, "\"\xff\"", `1e400`, strings.Repeat("[", 40) + strings.Repeat("]", 40),
}

func TestLexerAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range parserSeeds {
		checkParser(t, []byte(s))
	}
	checkParser(t, []byte(bookingJSON))
}

// FuzzParseJSON compares the lexer with encoding/json on arbitrary input.
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
