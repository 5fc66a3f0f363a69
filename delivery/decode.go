package delivery

import (
	"math"
	"strconv"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/internal/jsonwire"
)

// lockClass says which condition of section 3 freezes a field.
type lockClass uint8

const (
	lockInherit  lockClass = iota // the lock of the enclosing member
	lockNone                      // never frozen
	lockDriver                    // frozen once a driver is assigned
	lockPinDrop                   // frozen once a driver is assigned, if the coordinates are a customer pin-drop
	lockDispatch                  // frozen once the order is dispatched
)

// change is one sent member whose value differs from the current one and
// that the current status may lock; the others are only counted, because
// most changes are never reported.
type change struct {
	path string
	lock lockClass
}

// merger reads a body against the payload schema (schema.go) and writes
// every sent member into a delivery (a deep copy owned by the caller):
// objects member by member, arrays as a whole. The decoder records the
// problems; the merger records the members whose value changed.
//
// A null member takes the "not set" value of the model: "" for strings,
// false for booleans, the zero time, nil for optional objects and arrays.
// A null for an object that is not optional in the model means "every
// member null". A null number inside an object is refused (REQUIRED):
// send null for the whole object instead.
type merger struct {
	d        jsonwire.Decoder
	vs       constraints.Violations
	status   Status    // the current delivery's, whose locks apply
	changes  []change  // the changes status may lock
	nchanges int       // every change
	suppress int       // >0 while building a new object: its creation is the change
	lock     lockClass // the lock of the member being read
	skip     bool      // read the deliveries member without merging it
}

// codeOf maps the decoder's reasons onto the violation codes.
var codeOf = [...]string{
	jsonwire.Syntax:     CodeMalformedJSON,
	jsonwire.WrongType:  CodeInvalidType,
	jsonwire.Unknown:    CodeUnknownMember,
	jsonwire.Duplicate:  CodeDuplicateMember,
	jsonwire.BadValue:   CodeInvalidFormat,
	jsonwire.OutOfRange: CodeOutOfRange,
	jsonwire.NotWhole:   CodeNotInteger,
	jsonwire.NullValue:  CodeRequired,
	jsonwire.Missing:    CodeRequired,
	jsonwire.More:       CodeMalformedJSON, // unreachable: the body's size bounds the list, not a count
}

func join(parent, name string) string { return jsonwire.Join(parent, name) }

func index(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

func short(s string) string { return jsonwire.Short(s) }

// read decodes body into d (nil: check the body's shape only) and leaves
// the problems found in m.vs, in document order.
func (m *merger) read(body []byte, d *Delivery) {
	m.d.MaxErrors = -1 // MaxBodyBytes bounds the list
	m.d.Reset(body)
	m.skip = d == nil
	if d == nil {
		d = new(Delivery)
	}
	m.lock = lockNone
	seen, isObject := bodySchema.obj.Read(&m.d, m, d)
	m.d.End()
	if isObject && seen&1 == 0 && m.d.Syntax() == nil { // no deliveries member
		m.d.ReportAt("deliveries", jsonwire.Missing, "is required")
	}
	for _, e := range m.d.Errors() {
		m.vs = append(m.vs, constraints.Violation{Code: codeOf[e.Reason], Path: e.Path, Message: e.Message})
	}
}

// enter makes lock the lock of the members read next (lockInherit keeps
// the current one) and returns the lock to restore.
func (m *merger) enter(lock lockClass) (saved lockClass) {
	saved = m.lock
	if lock != lockInherit {
		m.lock = lock
	}
	return saved
}

// changed records a change of the member being read, locked by lock
// (lockInherit: the enclosing member's).
func (m *merger) changed(lock lockClass) {
	if m.suppress > 0 {
		return
	}
	m.nchanges++
	if lock == lockInherit {
		lock = m.lock
	}
	switch lock {
	case lockDriver, lockPinDrop:
		if !m.status.DriverAssigned() {
			return
		}
	case lockDispatch:
		if !m.status.Dispatched() {
			return
		}
	default:
		return
	}
	m.changes = append(m.changes, change{m.d.Path(), lock})
}

func (m *merger) str(dst *string, lock lockClass) {
	var v string
	switch k := m.d.Peek(); k {
	case jsonwire.KindString:
		v, _ = m.d.String("")
	case jsonwire.KindNull:
		m.d.Null()
	default:
		m.d.WrongType("a string", k)
		return
	}
	if *dst != v {
		*dst = v
		m.changed(lock)
	}
}

func (m *merger) boolean(dst *bool, lock lockClass) {
	var v bool
	switch k := m.d.Peek(); k {
	case jsonwire.KindBool:
		v, _ = m.d.Bool("")
	case jsonwire.KindNull:
		m.d.Null()
	default:
		m.d.WrongType("a boolean", k)
		return
	}
	if *dst != v {
		*dst = v
		m.changed(lock)
	}
}

func (m *merger) timestamp(dst *time.Time, lock lockClass) {
	var v time.Time
	switch k := m.d.Peek(); k {
	case jsonwire.KindString:
		raw, ok := m.d.RawString("")
		if !ok {
			return
		}
		t, ok := parseTimestamp(raw)
		if !ok {
			m.d.Reportf(jsonwire.BadValue,
				"must be an ISO 8601 UTC timestamp with milliseconds like 2026-11-22T10:00:00.000Z, not %q", short(string(raw)))
			// A value that does not parse differs from any stored one: it
			// counts as a change, so a locked member is reported as such.
			m.changed(lock)
			return
		}
		v = t
	case jsonwire.KindNull:
		m.d.Null()
	default:
		m.d.WrongType("a string", k)
		return
	}
	if !dst.Equal(v) {
		*dst = v
		m.changed(lock)
	}
}

// number reads a number; ok is false (and a problem recorded) for null,
// other types and numbers beyond float64. lit is a slice of the body: copy
// it before keeping it. A null or a number beyond float64 differs from any
// stored value, so it counts as a change (for the lock check).
func (m *merger) number(lock lockClass) (f float64, lit []byte, ok bool) {
	switch k := m.d.Peek(); k {
	case jsonwire.KindNumber:
		lit, ok = m.d.NumberLiteral("")
		if !ok {
			return 0, nil, false
		}
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil {
			m.d.Reportf(jsonwire.OutOfRange, "number %s is too large", short(string(lit)))
			m.changed(lock)
			return 0, nil, false
		}
		return f, lit, true
	case jsonwire.KindNull:
		m.d.Null()
		m.d.Report(jsonwire.NullValue, "must not be null (send null for the enclosing object to remove it)")
		m.changed(lock)
	default:
		m.d.WrongType("a number", k)
	}
	return 0, nil, false
}

func (m *merger) float(dst *float64, lock lockClass) {
	f, _, ok := m.number(lock)
	if ok && *dst != f {
		*dst = f
		m.changed(lock)
	}
}

// maxExactInt bounds integers to those a float64 (and so any JSON reader)
// holds exactly.
const maxExactInt = 1 << 53

func (m *merger) integer(dst *int, lock lockClass) {
	f, lit, ok := m.number(lock)
	if !ok {
		return
	}
	if f != math.Trunc(f) {
		m.d.Reportf(jsonwire.NotWhole, "must be an integer, not %s", short(string(lit)))
		m.changed(lock)
		return
	}
	if math.Abs(f) > maxExactInt {
		m.d.Reportf(jsonwire.OutOfRange, "integer %s is too large", short(string(lit)))
		m.changed(lock)
		return
	}
	if v := int(f); *dst != v {
		*dst = v
		m.changed(lock)
	}
}

// parseTimestamp accepts exactly the document's format,
// YYYY-MM-DDTHH:MM:SS.mmmZ: UTC, milliseconds, nothing else, so that every
// accepted value prints back identically.
func parseTimestamp(s []byte) (time.Time, bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
		s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	ok := true
	num := func(a, b int) int {
		v := 0
		for i := a; i < b; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				ok = false
				return 0
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d := num(0, 4), num(5, 7), num(8, 10)
	h, mi, sec, ms := num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	if !ok || y < 1 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC)
	if t.Day() != d { // 31 April and 29 February of common years roll over
		return time.Time{}, false
	}
	return t, true
}

// timestampLayout prints a time in the document's format.
const timestampLayout = "2006-01-02T15:04:05.000Z"
