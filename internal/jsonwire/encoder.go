package jsonwire

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// Encoder appends a JSON document to a byte slice, writing what
// encoding/json writes for the same values (HTML-safe strings, floats in
// the shortest form, no white space), so that documents read the same
// whichever wrote them. Separators are placed by the Encoder.
type Encoder struct {
	b   []byte
	err error
}

// ErrUnsupportedNumber is the error of an Encoder given NaN or an infinity,
// which JSON cannot hold.
var ErrUnsupportedNumber = errors.New("jsonwire: NaN and infinities have no JSON form")

// Bytes returns the document written and the first error met.
func (e *Encoder) Bytes() ([]byte, error) { return e.b, e.err }

// sep writes the comma that separates a value from the one before it.
func (e *Encoder) sep() {
	if n := len(e.b); n > 0 {
		switch e.b[n-1] {
		case '{', '[', ':':
		default:
			e.b = append(e.b, ',')
		}
	}
}

// BeginObject opens an object.
func (e *Encoder) BeginObject() { e.sep(); e.b = append(e.b, '{') }

// EndObject closes an object.
func (e *Encoder) EndObject() { e.b = append(e.b, '}') }

// BeginArray opens an array.
func (e *Encoder) BeginArray() { e.sep(); e.b = append(e.b, '[') }

// EndArray closes an array.
func (e *Encoder) EndArray() { e.b = append(e.b, ']') }

// Name writes a member name; the member's value follows.
func (e *Encoder) Name(n string) {
	e.sep()
	e.b = AppendString(e.b, n)
	e.b = append(e.b, ':')
}

// String writes a string.
func (e *Encoder) String(s string) { e.sep(); e.b = AppendString(e.b, s) }

// Bool writes true or false.
func (e *Encoder) Bool(v bool) { e.sep(); e.b = strconv.AppendBool(e.b, v) }

// Int writes a whole number.
func (e *Encoder) Int(v int64) { e.sep(); e.b = strconv.AppendInt(e.b, v, 10) }

// Float writes a number; NaN and infinities make the document fail.
func (e *Encoder) Float(f float64) {
	e.sep()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if e.err == nil {
			e.err = ErrUnsupportedNumber
		}
		e.b = append(e.b, '0')
		return
	}
	e.b = AppendFloat(e.b, f)
}

// AppendFloat appends f as encoding/json writes a float64: the shortest
// decimal that reads back as f, with an exponent only for very small or
// large magnitudes. f must be finite.
func AppendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string as encoding/json writes it:
// <, > and & escaped for HTML, invalid UTF-8 as U+FFFD, U+2028 and U+2029
// escaped.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
