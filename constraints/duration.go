package constraints

import (
	"encoding/json"
	"fmt"
	"time"
)

// Duration is a time.Duration whose JSON form is a Go duration string such
// as "90s", "1h30m" or "10s". A JSON number is read as whole seconds, so
// requests written by hand stay short.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats the duration like time.Duration.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a duration string ("1h30m") or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("invalid duration %q: want a Go duration such as \"90s\" or \"1h30m\"", s)
		}
		*d = Duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("invalid duration %s: want a string such as \"90s\" or a number of seconds", b)
	}
	if f != f || f > float64(1<<62)/1e9 || f < -float64(1<<62)/1e9 {
		return fmt.Errorf("invalid duration %s: out of range", b)
	}
	*d = Duration(time.Duration(f * float64(time.Second)))
	return nil
}
