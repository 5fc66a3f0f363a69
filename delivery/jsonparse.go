package delivery

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The update needs to tell an absent member from a null one and must report
// every type error with its path, which encoding/json cannot do in one
// pass; so bodies are parsed into this small tree first and then walked
// against the schema (decode.go). The parser is strict RFC 8259 JSON and
// also rejects invalid UTF-8.

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kObject
	kArray
)

func (k kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// node is one JSON value. Objects and arrays both keep their children in
// members (array elements with an empty key), which keeps the node small.
type node struct {
	kind    kind
	b       bool
	s       string // string value, or the literal of a number
	members []member
}

type member struct {
	key string
	val node
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack;
// the deepest legal payload nests 6 levels.
const maxDepth = 32

type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg + " at byte offset " + strconv.Itoa(e.off) }

// parser keeps the members and elements of unfinished objects and arrays
// on stacks and moves each finished one into an arena, so a body costs a
// few allocations instead of one growing slice per object.
type parser struct {
	data   []byte
	pos    int
	depth  int
	mstack []member
	marena []member
}

func parseJSON(data []byte) (node, error) {
	p := parser{data: data, mstack: make([]member, 0, 8)}
	p.ws()
	n, err := p.value()
	if err != nil {
		return node{}, err
	}
	p.ws()
	if p.pos != len(p.data) {
		return node{}, p.fail("unexpected data after the JSON value")
	}
	return n, nil
}

func (p *parser) fail(msg string) error { return &syntaxError{off: p.pos, msg: msg} }

func (p *parser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (node, error) {
	if p.pos >= len(p.data) {
		return node{}, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		return node{kind: kString, s: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return node{kind: kBool, b: true}, p.lit("true")
	case c == 'f':
		return node{kind: kBool}, p.lit("false")
	case c == 'n':
		return node{kind: kNull}, p.lit("null")
	default:
		return node{}, p.fail("invalid character " + strconv.QuoteRune(rune(c)))
	}
}

func (p *parser) lit(w string) error {
	if len(p.data)-p.pos < len(w) || string(p.data[p.pos:p.pos+len(w)]) != w {
		return p.fail("invalid literal")
	}
	p.pos += len(w)
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.fail("nesting too deep")
	}
	p.pos++
	p.ws()
	return nil
}

func (p *parser) object() (node, error) {
	if err := p.enter(); err != nil {
		return node{}, err
	}
	n := node{kind: kObject}
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return n, nil
	}
	start := len(p.mstack)
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return node{}, p.fail("expected a member name")
		}
		k, err := p.key()
		if err != nil {
			return node{}, err
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return node{}, p.fail("expected ':'")
		}
		p.pos++
		p.ws()
		v, err := p.value()
		if err != nil {
			return node{}, err
		}
		p.mstack = append(p.mstack, member{key: k, val: v})
		p.ws()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of input in object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case '}':
			p.pos++
			p.depth--
			n.members = takeFrom(&p.mstack, &p.marena, start)
			return n, nil
		default:
			return node{}, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array() (node, error) {
	if err := p.enter(); err != nil {
		return node{}, err
	}
	n := node{kind: kArray, members: []member{}}
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return n, nil
	}
	start := len(p.mstack)
	for {
		v, err := p.value()
		if err != nil {
			return node{}, err
		}
		p.mstack = append(p.mstack, member{val: v})
		p.ws()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of input in array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.ws()
		case ']':
			p.pos++
			p.depth--
			n.members = takeFrom(&p.mstack, &p.marena, start)
			return n, nil
		default:
			return node{}, p.fail("expected ',' or ']'")
		}
	}
}

// takeFrom moves (*stack)[start:] to the arena and returns it there. An
// arena that fills up is replaced, not grown: slices already handed out
// keep pointing into the old one.
func takeFrom[T any](stack, arena *[]T, start int) []T {
	items := (*stack)[start:]
	if cap(*arena)-len(*arena) < len(items) {
		*arena = make([]T, 0, max(2*cap(*arena), len(items), 8))
	}
	a := len(*arena)
	*arena = append(*arena, items...)
	clear(items) // drop references held by the stack
	*stack = (*stack)[:start]
	return (*arena)[a:len(*arena):len(*arena)]
}

// key parses a member name. Names without escapes are views of the body,
// not copies: they are only compared with the schema's names, and every
// path that reports one is built by concatenation (join), which copies.
// The caller's body outlives the parse, so the views stay valid.
func (p *parser) key() (string, error) {
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		c := p.data[i]
		if c == '"' {
			p.pos = i + 1
			if i == start {
				return "", nil
			}
			return unsafe.String(&p.data[start], i-start), nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	return p.str()
}

func (p *parser) number() (node, error) {
	start := p.pos
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		s := p.pos
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - s
	}
	if p.pos < len(d) && d[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return node{}, p.fail("invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return node{}, p.fail("invalid number")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return node{}, p.fail("invalid number")
		}
	}
	return node{kind: kNumber, s: string(d[start:p.pos])}, nil
}

// str parses a string starting at the opening quote. Strings without
// escapes, the usual case, are sliced without a builder.
func (p *parser) str() (string, error) {
	p.pos++
	start := p.pos
	d := p.data
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			s := string(d[start:p.pos])
			p.pos++
			return s, nil
		case c == '\\':
			return p.strSlow(start)
		case c < 0x20:
			return "", p.fail("control character in string")
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("invalid UTF-8 in string")
			}
			p.pos += size
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) strSlow(start int) (string, error) {
	d := p.data
	buf := append([]byte(nil), d[start:p.pos]...)
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c == '\\':
			p.pos++
			if p.pos >= len(d) {
				return "", p.fail("unterminated string")
			}
			e := d[p.pos]
			p.pos++
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
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
				r, ok := p.hex4()
				if !ok {
					return "", p.fail("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) {
					// A high surrogate must be followed by an escaped low one;
					// a lone half becomes U+FFFD, as encoding/json does.
					r2 := utf8.RuneError
					save := p.pos
					if p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
						p.pos += 2
						if lo, ok := p.hex4(); ok {
							r2 = lo
						} else {
							return "", p.fail("invalid \\u escape")
						}
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						r = utf8.RuneError
						p.pos = save
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", p.fail("invalid escape")
			}
		case c < 0x20:
			return "", p.fail("control character in string")
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail("invalid UTF-8 in string")
			}
			buf = append(buf, d[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}
