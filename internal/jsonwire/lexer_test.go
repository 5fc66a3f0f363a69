package jsonwire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// readAny reads one value with the lexer into what encoding/json produces
// (last duplicate wins, numbers as float64); ok is false for numbers beyond
// float64, which encoding/json refuses and the decoder reports itself.
func readAny(lx *lexer) (v any, ok bool) {
	ok = true
	switch lx.peek() {
	case KindNull:
		lx.null()
		return nil, true
	case KindBool:
		return lx.boolean(), true
	case KindNumber:
		f, err := strconv.ParseFloat(string(lx.number()), 64)
		return f, err == nil
	case KindString:
		return lx.stringValue(), true
	case KindArray:
		out := []any{}
		lx.enter()
		for first := true; lx.element(first); first = false {
			e, eok := readAny(lx)
			ok = ok && eok
			out = append(out, e)
		}
		return out, ok
	case KindObject:
		out := map[string]any{}
		lx.enter()
		for first := true; ; first = false {
			k, more := lx.member(first)
			if !more {
				break
			}
			e, eok := readAny(lx)
			ok = ok && eok
			out[string(k)] = e
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
		if valid && utf8.Valid(in) && depth(in) <= MaxDepth {
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
	checkParser(t, []byte(`{"deliveries":{"customer":{"firstName":"Ada","phone":{"countryCode":"+1"}},"orderManifest":{"itemDetails":[{"itemId":"A","quantity":2,"dimensions":{"length":1.5e1}}]}}}`))
}

// FuzzParseJSON compares the lexer with encoding/json on arbitrary input.
func FuzzParseJSON(f *testing.F) {
	for _, s := range parserSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkParser(t, in) })
}
