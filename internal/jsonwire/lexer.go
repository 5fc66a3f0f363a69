package jsonwire

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A document must tell an absent member from a null one and have every
// problem reported with its path, which encoding/json cannot do in one
// pass; so the Decoder reads it with this small lexer, member by member,
// against the descriptions of its objects, without building a tree. The
// lexer accepts strict RFC 8259 JSON and also refuses invalid UTF-8.
//
// Errors are sticky: the first syntax error is kept, the position jumps to
// the end, and every later call returns at once with a zero value, so the
// Decoder needs no error checks of its own; its findings are discarded
// when the document turns out malformed.

// Kind is the JSON type of a value.
type Kind uint8

// The kinds of JSON values; Invalid is what Peek reports at a syntax error.
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindObject
	KindArray
	KindInvalid
)

// String names the kind as messages do: "null", "a boolean", "a number",
// "a string", "an object", "an array".
func (k Kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an object", "an array", "invalid JSON"}[k]
}

// MaxDepth bounds nesting so that hostile input cannot exhaust the stack;
// the library's deepest documents nest 7 levels.
const MaxDepth = 32

// SyntaxError is a document that is not JSON: what is wrong and where, as
// a byte offset and as a line and a column (both from 1; the column counts
// characters).
type SyntaxError struct {
	Offset       int
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return e.Msg + " at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
}

// position returns the line and column of byte offset off in data.
func position(data []byte, off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(data); i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, utf8.RuneCount(data[start:min(off, len(data))]) + 1
}

type lexer struct {
	data  []byte
	pos   int
	depth int
	err   *SyntaxError
}

func (lx *lexer) fail(msg string) {
	if lx.err == nil {
		line, col := position(lx.data, lx.pos)
		lx.err = &SyntaxError{Offset: lx.pos, Line: line, Column: col, Msg: msg}
	}
	lx.pos = len(lx.data)
}

func (lx *lexer) ws() {
	for lx.pos < len(lx.data) {
		switch lx.data[lx.pos] {
		case ' ', '\t', '\n', '\r':
			lx.pos++
		default:
			return
		}
	}
}

// end checks that nothing but white space follows the top-level value.
func (lx *lexer) end() {
	lx.ws()
	if lx.pos != len(lx.data) {
		lx.fail("unexpected data after the JSON value")
	}
}

// peek returns the kind of the next value without consuming it.
func (lx *lexer) peek() Kind {
	lx.ws()
	if lx.pos >= len(lx.data) {
		if lx.err == nil {
			lx.fail("unexpected end of input")
		}
		return KindInvalid
	}
	switch c := lx.data[lx.pos]; {
	case c == '{':
		return KindObject
	case c == '[':
		return KindArray
	case c == '"':
		return KindString
	case c == 't' || c == 'f':
		return KindBool
	case c == 'n':
		return KindNull
	case c == '-' || (c >= '0' && c <= '9'):
		return KindNumber
	default:
		lx.fail("invalid character " + strconv.QuoteRune(rune(c)))
		return KindInvalid
	}
}

func (lx *lexer) lit(w string) bool {
	if len(lx.data)-lx.pos < len(w) || string(lx.data[lx.pos:lx.pos+len(w)]) != w {
		lx.fail("invalid literal")
		return false
	}
	lx.pos += len(w)
	return true
}

// null consumes a null.
func (lx *lexer) null() { lx.lit("null") }

// boolean consumes true or false.
func (lx *lexer) boolean() bool {
	if lx.pos < len(lx.data) && lx.data[lx.pos] == 't' {
		return lx.lit("true")
	}
	lx.lit("false")
	return false
}

// number consumes a number and returns its literal, a slice of the body:
// callers parse it and copy it into messages, never keep it.
func (lx *lexer) number() []byte {
	d := lx.data
	start := lx.pos
	if lx.pos < len(d) && d[lx.pos] == '-' {
		lx.pos++
	}
	digits := func() int {
		s := lx.pos
		for lx.pos < len(d) && d[lx.pos] >= '0' && d[lx.pos] <= '9' {
			lx.pos++
		}
		return lx.pos - s
	}
	if lx.pos < len(d) && d[lx.pos] == '0' {
		lx.pos++
	} else if digits() == 0 {
		lx.fail("invalid number")
		return nil
	}
	if lx.pos < len(d) && d[lx.pos] == '.' {
		lx.pos++
		if digits() == 0 {
			lx.fail("invalid number")
			return nil
		}
	}
	if lx.pos < len(d) && (d[lx.pos] == 'e' || d[lx.pos] == 'E') {
		lx.pos++
		if lx.pos < len(d) && (d[lx.pos] == '+' || d[lx.pos] == '-') {
			lx.pos++
		}
		if digits() == 0 {
			lx.fail("invalid number")
			return nil
		}
	}
	return d[start:lx.pos]
}

// scanString validates the string starting at the opening quote, moves
// past it and returns the raw content and whether it holds escapes.
func (lx *lexer) scanString() (raw []byte, escaped, ok bool) {
	d := lx.data
	lx.pos++
	start := lx.pos
	for lx.pos < len(d) {
		c := d[lx.pos]
		switch {
		case c == '"':
			raw = d[start:lx.pos]
			lx.pos++
			return raw, escaped, true
		case c == '\\':
			escaped = true
			lx.pos++
			if lx.pos >= len(d) {
				break
			}
			switch d[lx.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				lx.pos++
			case 'u':
				if len(d)-lx.pos < 5 || !isHex(d[lx.pos+1]) || !isHex(d[lx.pos+2]) || !isHex(d[lx.pos+3]) || !isHex(d[lx.pos+4]) {
					lx.fail("invalid \\u escape")
					return nil, false, false
				}
				lx.pos += 5
			default:
				lx.fail("invalid escape")
				return nil, false, false
			}
		case c < 0x20:
			lx.fail("control character in string")
			return nil, false, false
		case c < utf8.RuneSelf:
			lx.pos++
		default:
			r, size := utf8.DecodeRune(d[lx.pos:])
			if r == utf8.RuneError && size == 1 {
				lx.fail("invalid UTF-8 in string")
				return nil, false, false
			}
			lx.pos += size
		}
	}
	lx.fail("unterminated string")
	return nil, false, false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// unescape decodes the content of a string already validated by
// scanString into a new slice. A lone UTF-16 surrogate becomes U+FFFD, as
// in encoding/json.
func unescape(raw []byte) []byte {
	buf := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			buf = append(buf, c)
			i++
			continue
		}
		e := raw[i+1]
		i += 2
		switch e {
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r := hexVal(raw[i : i+4])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					r2 = hexVal(raw[i+2 : i+6])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, r)
		default: // '"', '\\', '/'
			buf = append(buf, e)
		}
	}
	return buf
}

// stringValue consumes a string and returns a copy the caller may keep.
func (lx *lexer) stringValue() string {
	raw, esc, ok := lx.scanString()
	switch {
	case !ok:
		return ""
	case esc:
		return string(unescape(raw))
	}
	return string(raw)
}

// key consumes a member name and returns it unescaped. Without escapes it
// is a slice of the document: callers compare it with the names they
// know, which costs no allocation, and copy it only to report it.
func (lx *lexer) key() []byte {
	raw, esc, ok := lx.scanString()
	switch {
	case !ok:
		return nil
	case esc:
		raw = unescape(raw)
	}
	return raw
}

// enter consumes the opening '{' or '[' of a value peek has reported.
func (lx *lexer) enter() {
	lx.depth++
	if lx.depth > MaxDepth {
		lx.fail("nesting too deep")
		return
	}
	lx.pos++
}

// member moves to the next member of the object entered last and returns
// its name, or ok false after the closing brace (or on error). first is
// true on the first call for an object.
func (lx *lexer) member(first bool) (name []byte, ok bool) {
	lx.ws()
	if lx.pos >= len(lx.data) {
		if lx.err == nil {
			lx.fail("unexpected end of input in object")
		}
		return nil, false
	}
	c := lx.data[lx.pos]
	switch {
	case c == '}':
		lx.pos++
		lx.depth--
		return nil, false
	case !first && c == ',':
		lx.pos++
		lx.ws()
	case !first:
		lx.fail("expected ',' or '}'")
		return nil, false
	}
	if lx.pos >= len(lx.data) || lx.data[lx.pos] != '"' {
		lx.fail("expected a member name")
		return nil, false
	}
	name = lx.key()
	lx.ws()
	if lx.pos >= len(lx.data) || lx.data[lx.pos] != ':' {
		lx.fail("expected ':'")
		return nil, false
	}
	lx.pos++
	return name, lx.err == nil
}

// element moves to the next element of the array entered last, reporting
// false after the closing bracket (or on error).
func (lx *lexer) element(first bool) bool {
	lx.ws()
	if lx.pos >= len(lx.data) {
		if lx.err == nil {
			lx.fail("unexpected end of input in array")
		}
		return false
	}
	switch c := lx.data[lx.pos]; {
	case c == ']' && first:
		lx.pos++
		lx.depth--
		return false
	case first:
		return true
	case c == ']':
		lx.pos++
		lx.depth--
		return false
	case c == ',':
		lx.pos++
		lx.ws()
		if lx.pos < len(lx.data) && lx.data[lx.pos] == ']' {
			lx.fail("expected a value")
			return false
		}
		return true
	default:
		lx.fail("expected ',' or ']'")
		return false
	}
}

// skip consumes one value of any kind, checking its syntax.
func (lx *lexer) skip() {
	switch lx.peek() {
	case KindNull:
		lx.null()
	case KindBool:
		lx.boolean()
	case KindNumber:
		lx.number()
	case KindString:
		lx.scanString()
	case KindObject:
		lx.enter()
		for first := true; ; first = false {
			if _, ok := lx.member(first); !ok {
				return
			}
			lx.skip()
		}
	case KindArray:
		lx.enter()
		for first := true; lx.element(first); first = false {
			lx.skip()
		}
	}
}
