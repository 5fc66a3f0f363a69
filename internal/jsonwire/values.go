package jsonwire

import (
	"math"
	"strconv"
	"time"
)

// Readers of the values the library's documents hold, in the documents'
// terms. Each reads the next value into *dst and leaves *dst alone when
// the value is reported.

// DurationWant is how messages name a duration.
const DurationWant = `a Go duration such as "90s" or a number of seconds`

// TimeWant is how messages name an instant.
const TimeWant = `an RFC 3339 instant such as "2026-11-23T04:00:00-06:00"`

// maxSeconds bounds a duration given in seconds to what time.Duration
// holds (about 292 years), with a margin for rounding.
const maxSeconds = 9.2e9

// ReadString reads a string into dst.
func (d *Decoder) ReadString(dst *string) {
	if v, ok := d.String(""); ok {
		*dst = v
	}
}

// ReadBool reads true or false into dst.
func (d *Decoder) ReadBool(dst *bool) {
	if v, ok := d.Bool(""); ok {
		*dst = v
	}
}

// ReadFloat reads a number into dst; want names it ("a number of
// kilograms").
func (d *Decoder) ReadFloat(dst *float64, want string) {
	if v, ok := d.Float(want); ok {
		*dst = v
	}
}

// ReadInt reads a whole number that an int holds into dst.
func (d *Decoder) ReadInt(dst *int, want string) {
	if v, ok := d.Int(want, math.MinInt, math.MaxInt); ok {
		*dst = int(v)
	}
}

// ReadInt64 reads a whole number into dst.
func (d *Decoder) ReadInt64(dst *int64, want string) {
	if v, ok := d.Int(want, math.MinInt64, math.MaxInt64); ok {
		*dst = v
	}
}

// ReadDuration reads a Go duration string ("1h30m") or a number of
// seconds into dst.
func (d *Decoder) ReadDuration(dst *time.Duration) {
	switch k := d.Peek(); k {
	case KindString:
		raw, _ := d.RawString("")
		v, err := time.ParseDuration(string(raw))
		if err != nil {
			d.Reportf(BadValue, "must be %s, not %q", DurationWant, Short(string(raw)))
			return
		}
		*dst = v
	case KindNumber:
		lit, _ := d.NumberLiteral("")
		f, err := strconv.ParseFloat(string(lit), 64)
		if err != nil || f > maxSeconds || f < -maxSeconds {
			d.Reportf(OutOfRange, "must be %s; %s seconds is out of range", DurationWant, Short(string(lit)))
			return
		}
		*dst = time.Duration(math.Round(f * 1e9))
	default:
		d.WrongType(DurationWant, k)
	}
}

// ReadTime reads an RFC 3339 instant into dst.
func (d *Decoder) ReadTime(dst *time.Time) {
	raw, ok := d.RawString(TimeWant)
	if !ok {
		return
	}
	// The layout encoding/json reads: a zone is required, fractions of a
	// second optional.
	t, err := time.Parse(time.RFC3339Nano, string(raw))
	if err != nil {
		d.Reportf(BadValue, "must be %s, not %q", TimeWant, Short(string(raw)))
		return
	}
	*dst = t
}

// ReadEnum reads one of names into dst, as the index of the name.
func ReadEnum[E ~int](d *Decoder, dst *E, names []string) {
	if i, ok := d.Enum(names); ok {
		*dst = E(i)
	}
}
