package constraints

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrInvalid is the sentinel that every Violations error matches with
// errors.Is: the input or plan broke at least one rule.
var ErrInvalid = errors.New("constraints: invalid")

// Codes that the checks of every package share.
const (
	// CodeRequired: a value that must be given is absent. In Go, a zero
	// value that no real input has (a pallet of 0 kg, a trailer without
	// tare) counts as absent.
	CodeRequired = "REQUIRED"
	// CodeInvalidValue: a value outside what the field allows.
	CodeInvalidValue = "INVALID_VALUE"
)

// Violation is one broken rule: a stable machine-readable Code, the JSON
// field Path it concerns (for example "pallets[3].weightKg" or
// "routes[0].stops[2].arrival"), and a human-readable Message.
type Violation struct {
	Code    string `json:"code"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Error formats the violation as "path: message [code]".
func (v Violation) Error() string {
	if v.Path == "" {
		return fmt.Sprintf("%s [%s]", v.Message, v.Code)
	}
	return fmt.Sprintf("%s: %s [%s]", v.Path, v.Message, v.Code)
}

// Violations is an error that lists every violation found, not just the
// first. A nil or empty Violations is not an error; use Err to turn a list
// into an error value that is nil when the list is empty.
type Violations []Violation

// Error lists all violations, one per line after a count.
func (vs Violations) Error() string {
	var b strings.Builder
	if len(vs) == 1 {
		b.WriteString("1 violation:")
	} else {
		fmt.Fprintf(&b, "%d violations:", len(vs))
	}
	for _, v := range vs {
		b.WriteString("\n  ")
		b.WriteString(v.Error())
	}
	return b.String()
}

// Is reports that a Violations error matches ErrInvalid.
func (vs Violations) Is(target error) bool { return target == ErrInvalid }

// Err returns vs as an error, or nil when vs is empty.
func (vs Violations) Err() error {
	if len(vs) == 0 {
		return nil
	}
	return vs
}

// Add appends a violation built from a code, a path and a formatted message.
func (vs *Violations) Add(code, path, format string, args ...any) {
	*vs = append(*vs, Violation{Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

// Has reports whether any violation carries the given code.
func (vs Violations) Has(code string) bool {
	for _, v := range vs {
		if v.Code == code {
			return true
		}
	}
	return false
}

// Sorted returns a copy ordered by path, then code, then message, so that
// reports are stable however the checks ran.
func (vs Violations) Sorted() Violations {
	out := append(Violations(nil), vs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		if out[i].Code != out[j].Code {
			return out[i].Code < out[j].Code
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// AsViolations extracts the Violations from err (directly or wrapped). It
// returns nil when err carries none.
func AsViolations(err error) Violations {
	var vs Violations
	if errors.As(err, &vs) {
		return vs
	}
	return nil
}

// Path helpers build JSON field paths without fmt at every call site.

// Field joins a parent path and a member name: Field("dc", "location") is
// "dc.location"; an empty parent gives the member alone.
func Field(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// Index appends an array index: Index("stores", 3) is "stores[3]".
func Index(parent string, i int) string {
	return fmt.Sprintf("%s[%d]", parent, i)
}
