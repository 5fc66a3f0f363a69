package jsonwire

import (
	"fmt"
	"strconv"
	"strings"
)

// Reason classifies a problem; callers map reasons onto their codes.
type Reason uint8

// The reasons of a problem.
const (
	// Syntax: the document is not JSON (reported alone).
	Syntax Reason = iota
	// WrongType: a value of another JSON type than the member takes.
	WrongType
	// Unknown: a member name the object does not have (names match
	// exactly, case included).
	Unknown
	// Duplicate: a member that appears more than once in one object.
	Duplicate
	// BadValue: a value of the right JSON type that does not read, such
	// as a name outside an enumeration, a duration or an instant.
	BadValue
	// OutOfRange: a number beyond what the member can hold.
	OutOfRange
	// NotWhole: a fraction where a whole number is needed.
	NotWhole
	// NullValue: null where the member needs a value.
	NullValue
	// Missing: a member that must be present is not.
	Missing
	// More: the last entry of a list cut at MaxErrors; it counts the
	// problems left out.
	More
)

// DefaultMaxErrors is the number of problems a Decoder lists when
// MaxErrors is zero; one more entry (Reason More) counts the rest.
const DefaultMaxErrors = 100

// Error is one problem of a document: its reason, the path of the value
// ("pallets[3].temperature"; "" for the document itself) and a message
// that completes the path ("must be one of AMBIENT, CHILLED, FROZEN, not
// \"COLD\"").
type Error struct {
	Reason  Reason
	Path    string
	Message string
}

func (e Error) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// segment is one step of the path: a member name, or an array index when
// index >= 0.
type segment struct {
	name  string
	index int
}

// Decoder reads one document. Describe the objects with Object and read
// the top-level value with one of the Read functions; then Errors lists
// every problem found. The zero value is not usable: call Reset.
type Decoder struct {
	lx lexer
	// MaxErrors bounds the problems listed; 0 means DefaultMaxErrors, a
	// negative value means no bound (for documents bounded in size).
	MaxErrors int
	// Sink, when set, receives every problem but a syntax error as it is
	// found, and Errors lists none of them: for a caller that keeps them
	// its own way (grouping repeats, say). Syntax still reports a syntax
	// error, after which what was found means nothing.
	Sink    func(Error)
	path    []segment
	errs    []Error
	dropped int
	nulls   int // >0 while reading an object sent as null member by member
	// cached is the path of the first cachedN steps, kept while they stay
	// on the stack: the members of one object share their parent's path.
	cached  string
	cachedN int
	pathBuf [6]segment
}

// Reset starts reading data, forgetting everything found before; MaxErrors
// is kept. The Decoder keeps data and reads it in place: do not change it
// before the reading is done.
func (d *Decoder) Reset(data []byte) {
	// Field by field: a Decoder often lives on the heap, and assigning a
	// whole new one costs write barriers over every field.
	d.lx = lexer{data: data}
	d.path = d.pathBuf[:0]
	d.errs = d.errs[:0]
	d.dropped, d.nulls = 0, 0
	d.cached, d.cachedN = "", 0
}

// Remaining returns the number of bytes of the document not read yet: a
// bound on what the rest can hold, for a caller that sizes a slice from a
// count the document claims.
func (d *Decoder) Remaining() int { return len(d.lx.data) - d.lx.pos }

// Syntax returns the document's syntax error, or nil.
func (d *Decoder) Syntax() *SyntaxError { return d.lx.err }

// End checks that nothing but white space follows the value read.
func (d *Decoder) End() { d.lx.end() }

// Errors returns the problems found, in document order, with at most
// MaxErrors of them followed by one entry of Reason More that counts the
// others. A syntax error replaces everything else.
func (d *Decoder) Errors() []Error {
	if e := d.lx.err; e != nil {
		return []Error{{Reason: Syntax, Message: "not valid JSON: " + e.Error()}}
	}
	if d.dropped == 0 {
		return d.errs
	}
	out := append(d.errs[:len(d.errs):len(d.errs)], Error{Reason: More,
		Message: fmt.Sprintf("and %d more problems not listed", d.dropped)})
	return out
}

// Dropped returns the number of problems left out of Errors' list (and
// counted by its last entry).
func (d *Decoder) Dropped() int {
	if d.lx.err != nil {
		return 0
	}
	return d.dropped
}

func (d *Decoder) limit() int {
	switch {
	case d.MaxErrors == 0:
		return DefaultMaxErrors
	case d.MaxErrors < 0:
		return int(^uint(0) >> 1)
	}
	return d.MaxErrors
}

// ReportAt records a problem at path.
func (d *Decoder) ReportAt(path string, r Reason, msg string) {
	if d.Sink != nil {
		if d.lx.err == nil {
			d.Sink(Error{Reason: r, Path: path, Message: msg})
		}
		return
	}
	if len(d.errs) >= d.limit() {
		d.dropped++
		return
	}
	d.errs = append(d.errs, Error{Reason: r, Path: path, Message: msg})
}

// Report records a problem at the path of the value being read.
func (d *Decoder) Report(r Reason, msg string) { d.ReportAt(d.Path(), r, msg) }

// Reportf is Report with a formatted message.
func (d *Decoder) Reportf(r Reason, format string, args ...any) {
	d.Report(r, fmt.Sprintf(format, args...))
}

// push enters the member name (a string the caller keeps, not a slice of
// the document) for the value read next; pop leaves it.
func (d *Decoder) push(name string) { d.path = append(d.path, segment{name: name, index: -1}) }

// pushIndex enters array element i.
func (d *Decoder) pushIndex(i int) { d.path = append(d.path, segment{index: i}) }

// pop leaves the last step entered.
func (d *Decoder) pop() {
	d.path = d.path[:len(d.path)-1]
	if len(d.path) < d.cachedN {
		d.cachedN, d.cached = 0, ""
	}
}

// Path returns the path of the value being read, such as
// "pallets[3].temperature".
func (d *Decoder) Path() string { return d.pathTo(len(d.path)) }

// Join joins a parent path and a member name as Path does.
func Join(parent, name string) string {
	switch {
	case name == "":
		return parent
	case parent == "":
		return name
	}
	return parent + "." + name
}

func (d *Decoder) pathTo(n int) string {
	if n == d.cachedN {
		return d.cached
	}
	start, p := 0, ""
	if d.cachedN < n {
		start, p = d.cachedN, d.cached
	}
	for _, s := range d.path[start:n] {
		if s.index >= 0 {
			p += "[" + strconv.Itoa(s.index) + "]"
		} else {
			p = Join(p, s.name)
		}
	}
	d.cached, d.cachedN = p, n
	return p
}

// Peek returns the kind of the next value without consuming it. While an
// object sent as null is read member by member (see Object.ReadNull),
// every member is null.
func (d *Decoder) Peek() Kind {
	if d.nulls > 0 {
		return KindNull
	}
	return d.lx.peek()
}

// Null consumes a null.
func (d *Decoder) Null() {
	if d.nulls == 0 {
		d.lx.null()
	}
}

// Skip consumes the next value, whatever it is.
func (d *Decoder) Skip() {
	if d.nulls == 0 {
		d.lx.skip()
	}
}

// describe names the next value for a message and skips it: a string or
// number by its text (shortened), other kinds by their JSON type.
func (d *Decoder) describe(k Kind) string {
	switch {
	case d.nulls > 0:
		return "null"
	case k == KindString:
		raw, esc, ok := d.lx.scanString()
		if !ok {
			return ""
		}
		if esc {
			raw = unescape(raw)
		}
		return strconv.Quote(Short(string(raw)))
	case k == KindNumber:
		return Short(string(d.lx.number()))
	case k == KindBool:
		return strconv.FormatBool(d.lx.boolean())
	}
	d.lx.skip()
	return k.String()
}

// WrongType reports that the next value, of kind k, is not what the member
// takes (want, such as "a number of kilograms"), and skips it.
func (d *Decoder) WrongType(want string, k Kind) {
	got := d.describe(k)
	if d.lx.err == nil {
		d.Report(WrongType, "must be "+want+", not "+got)
	}
}

// Short shortens s for a message.
func Short(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	for i := range s {
		if i >= max {
			return s[:i] + "…"
		}
	}
	return s
}

// String reads a string; a value of another kind is reported as not want
// ("a string" when empty) and skipped.
func (d *Decoder) String(want string) (string, bool) {
	if k := d.Peek(); k != KindString {
		d.WrongType(or(want, "a string"), k)
		return "", false
	}
	return d.lx.stringValue(), true
}

// RawString reads a string without copying it when it holds no escapes:
// the bytes may be a slice of the document, to be parsed, not kept.
func (d *Decoder) RawString(want string) ([]byte, bool) {
	if k := d.Peek(); k != KindString {
		d.WrongType(or(want, "a string"), k)
		return nil, false
	}
	raw, esc, ok := d.lx.scanString()
	if esc {
		raw = unescape(raw)
	}
	return raw, ok
}

// Bool reads true or false.
func (d *Decoder) Bool(want string) (bool, bool) {
	if k := d.Peek(); k != KindBool {
		d.WrongType(or(want, "true or false"), k)
		return false, false
	}
	return d.lx.boolean(), true
}

// NumberLiteral reads a number and returns its text, a slice of the
// document to be parsed, not kept.
func (d *Decoder) NumberLiteral(want string) ([]byte, bool) {
	if k := d.Peek(); k != KindNumber {
		d.WrongType(or(want, "a number"), k)
		return nil, false
	}
	lit := d.lx.number()
	return lit, d.lx.err == nil
}

// Float reads a number that a float64 holds.
func (d *Decoder) Float(want string) (float64, bool) {
	lit, ok := d.NumberLiteral(want)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		d.Reportf(OutOfRange, "must be %s; %s is out of range", or(want, "a number"), Short(string(lit)))
		return 0, false
	}
	return f, true
}

// Int reads a whole number between lo and hi. A number written with a
// fraction or an exponent is accepted when its value is whole.
func (d *Decoder) Int(want string, lo, hi int64) (int64, bool) {
	want = or(want, "a whole number")
	lit, ok := d.NumberLiteral(want)
	if !ok {
		return 0, false
	}
	s := string(lit)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		switch {
		case ferr == nil && f != float64(int64(f)) && (f > -1<<63 && f < 1<<63):
			d.Reportf(NotWhole, "must be %s, not %s", want, Short(s))
			return 0, false
		case ferr != nil || f < -1<<63 || f >= 1<<63:
			d.Reportf(OutOfRange, "must be %s; %s is out of range", want, Short(s))
			return 0, false
		}
		v = int64(f)
	}
	if v < lo || v > hi {
		d.Reportf(OutOfRange, "must be %s; %s is out of range", want, Short(s))
		return 0, false
	}
	return v, true
}

// Enum reads one of names and returns its index.
func (d *Decoder) Enum(names []string) (int, bool) {
	want := "one of " + strings.Join(names, ", ")
	raw, ok := d.RawString(want)
	if !ok {
		return 0, false
	}
	for i, n := range names {
		if string(raw) == n {
			return i, true
		}
	}
	d.Reportf(BadValue, "must be %s, not %q", want, Short(string(raw)))
	return 0, false
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
