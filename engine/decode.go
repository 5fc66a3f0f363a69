package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/internal/jsonwire"
)

// Codes of request violations. Check reports REQUIRED, INVALID_VALUE,
// DUPLICATE_ID and UNKNOWN_REFERENCE (and the codes of constraints and
// geo); DecodeRequest and DecodePlan add the codes of the JSON form.
const (
	// CodeInvalidJSON: the document is not JSON; the message gives the
	// line and column. It is reported alone.
	CodeInvalidJSON = "INVALID_JSON"
	// CodeUnknownMember: a member name the object does not have. Names
	// match exactly, case included; the message suggests the member meant.
	CodeUnknownMember = "UNKNOWN_MEMBER"
	// CodeDuplicateMember: a member given twice in one object.
	CodeDuplicateMember = "DUPLICATE_MEMBER"
	// CodeInvalidType: a value of the wrong JSON type (a string for a
	// number of kilograms, null for an object).
	CodeInvalidType = "INVALID_TYPE"
	// CodeTooManyViolations: the last entry of a list cut at
	// MaxViolations; its message counts the violations left out.
	CodeTooManyViolations = "TOO_MANY_VIOLATIONS"

	CodeRequired     = "REQUIRED"
	CodeInvalidValue = "INVALID_VALUE" // also a value of the right JSON type that does not read: an unknown enumeration name, a duration, an instant
	CodeDuplicateID  = "DUPLICATE_ID"
	CodeUnknownRef   = "UNKNOWN_REFERENCE"
)

// MaxViolations bounds the violations DecodeRequest and DecodePlan list;
// one more entry (TOO_MANY_VIOLATIONS) counts the others.
const MaxViolations = jsonwire.DefaultMaxErrors

// codeOf maps the JSON layer's reasons onto the codes.
var codeOf = [...]string{
	jsonwire.Syntax:     CodeInvalidJSON,
	jsonwire.WrongType:  CodeInvalidType,
	jsonwire.Unknown:    CodeUnknownMember,
	jsonwire.Duplicate:  CodeDuplicateMember,
	jsonwire.BadValue:   CodeInvalidValue,
	jsonwire.OutOfRange: CodeInvalidValue,
	jsonwire.NotWhole:   CodeInvalidValue,
	jsonwire.NullValue:  CodeRequired,
	jsonwire.Missing:    CodeRequired,
	jsonwire.More:       CodeTooManyViolations,
}

// DecodeRequest reads a request from its JSON form and checks it. The JSON
// is strict: member names match exactly (case included), an unknown or
// repeated member is an error, and so is a value of the wrong type or one
// that does not read (an unknown temperature class, a duration or instant
// that does not parse). Durations are Go duration strings ("90s") or
// numbers of seconds, instants RFC 3339.
//
// On any problem it returns a constraints.Violations that lists every
// problem once, each with its full path ("pallets[3].temperature"), a code
// and a message: those of the JSON form and those of Request.Check on
// everything that did read (a Check finding about a value that did not
// read is left out: it would restate the problem). A document that is not
// JSON gives one INVALID_JSON violation with the line and column. At most
// MaxViolations are listed, then one TOO_MANY_VIOLATIONS entry counts the
// rest.
func DecodeRequest(r io.Reader) (Request, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Request{}, constraints.Violations{{Code: CodeInvalidJSON, Message: "reading the request: " + err.Error()}}
	}
	req, vs, dropped := decodeRequest(data)
	if len(vs) == 1 && vs[0].Code == CodeInvalidJSON {
		return Request{}, vs
	}
	vs = merge(vs, constraints.AsViolations(req.Check()))
	if vs = capped(vs, dropped); len(vs) > 0 {
		return Request{}, vs
	}
	return req, nil
}

// UnmarshalJSON reads a request from its JSON form, as DecodeRequest does
// but without Check, so that encoding/json can read requests too.
func (r *Request) UnmarshalJSON(b []byte) error {
	req, vs, dropped := decodeRequest(b)
	if vs = capped(vs, dropped); len(vs) > 0 {
		return vs
	}
	*r = req
	return nil
}

func decodeRequest(data []byte) (Request, constraints.Violations, int) {
	var req Request
	var d jsonwire.Decoder
	d.Reset(data)
	requestObject.Read(&d, &d, &req)
	d.End()
	return req, violations(&d), d.Dropped()
}

// DecodePlan reads a plan from its JSON form (for example to validate a
// plan made elsewhere), as strictly as DecodeRequest reads a request. It
// does not check the plan: Validate does.
func DecodePlan(r io.Reader) (Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Result{}, constraints.Violations{{Code: CodeInvalidJSON, Message: "reading the plan: " + err.Error()}}
	}
	var p Result
	if err := p.UnmarshalJSON(data); err != nil {
		return Result{}, err
	}
	return p, nil
}

// UnmarshalJSON reads a plan from its JSON form (see DecodePlan).
func (p *Result) UnmarshalJSON(b []byte) error {
	var res Result
	var d jsonwire.Decoder
	d.Reset(b)
	resultObject.Read(&d, &d, &res)
	d.End()
	if vs := capped(violations(&d), d.Dropped()); len(vs) > 0 {
		return vs
	}
	*p = res
	return nil
}

// violations converts the decoder's problems, leaving out the entry that
// counts those not listed (capped adds it back).
func violations(d *jsonwire.Decoder) constraints.Violations {
	var vs constraints.Violations
	for _, e := range d.Errors() {
		if e.Reason != jsonwire.More {
			vs = append(vs, constraints.Violation{Code: codeOf[e.Reason], Path: e.Path, Message: e.Message})
		}
	}
	return vs
}

// merge appends to decoded the findings of Check that are not about a
// value that failed to read: a finding at, inside or above the path of a
// decoding problem restates it (a member that did not read is zero, so
// Check finds it missing). While the stores hold a decoding problem, a
// pallet's store that names no store is not reported either: the store may
// be the one that did not read.
func merge(decoded, checked constraints.Violations) constraints.Violations {
	storesBroken := false
	for _, v := range decoded {
		if under(v.Path, "stores") || v.Path == "" {
			storesBroken = true
		}
	}
next:
	for _, c := range checked {
		if c.Code == CodeUnknownRef && storesBroken {
			continue
		}
		for _, v := range decoded {
			if under(c.Path, v.Path) || under(v.Path, c.Path) {
				continue next
			}
		}
		decoded = append(decoded, c)
	}
	return decoded
}

// under reports whether path is base or lies inside it.
func under(path, base string) bool {
	if base == "" || path == base {
		return true
	}
	return strings.HasPrefix(path, base) && (path[len(base)] == '.' || path[len(base)] == '[')
}

// capped cuts vs at MaxViolations and appends the count of the violations
// left out, dropped of them already by the decoder.
func capped(vs constraints.Violations, dropped int) constraints.Violations {
	if len(vs) > MaxViolations {
		dropped += len(vs) - MaxViolations
		vs = vs[:MaxViolations]
	}
	if dropped > 0 {
		vs = append(vs, constraints.Violation{Code: CodeTooManyViolations,
			Message: fmt.Sprintf("and %d more violations not listed", dropped)})
	}
	return vs
}

// MarshalIndent is the plan's or request's JSON form, indented for people.
func MarshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
