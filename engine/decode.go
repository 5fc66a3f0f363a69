package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/internal/jsonwire"
	"github.com/haulplan/haulplan/internal/numtext"
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

	CodeRequired     = constraints.CodeRequired     // a required member is absent, or in Go holds a zero that no real input has
	CodeInvalidValue = constraints.CodeInvalidValue // also a value of the right JSON type that does not read: an unknown enumeration name, a duration, an instant
	CodeDuplicateID  = "DUPLICATE_ID"
	CodeUnknownRef   = "UNKNOWN_REFERENCE"
)

// MaxViolations bounds the entries DecodeRequest and DecodePlan list, a
// problem repeated over a list counting once (see constraints.Grouper);
// one more entry (TOO_MANY_VIOLATIONS) counts the violations left out.
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
// repeated member is an error, and so are a required member that is
// absent (REQUIRED; the types' doc comments say which are), a value of the
// wrong type and one that does not read (an unknown temperature class, a
// duration or instant that does not parse). Durations are Go duration
// strings ("90s") or numbers of seconds, instants RFC 3339.
//
// On any problem it returns a constraints.Violations that lists every
// problem once, each with its full path ("pallets[3].temperature"), a code
// and a message: those of the JSON form and those of Request.Check on
// everything that did read (a Check finding about a value that did not
// read is left out: it would restate the problem). A problem repeated over
// a list is one entry whose path gives the indices and whose message the
// count: "pallets[0..399].weightkg: is not a member of a pallet; did you
// mean "weightKg"? (400 times)" (see constraints.Grouper). A document
// that is not JSON gives one INVALID_JSON violation with the line and
// column. At most MaxViolations entries are listed, then one
// TOO_MANY_VIOLATIONS entry counts the violations left out.
func DecodeRequest(r io.Reader) (Request, error) {
	data, err := readAll(r)
	if err != nil {
		return Request{}, constraints.Violations{{Code: CodeInvalidJSON, Message: "reading the request: " + err.Error()}}
	}
	var req Request
	decoded, syntax := decode(data, func(d dec) { requestObject.Read(d, d, &req) })
	if syntax != nil {
		return Request{}, syntax
	}
	// A finding of Check at, inside or above the path of a decoding
	// problem restates it (a member that did not read is zero, so Check
	// finds it missing). While the stores hold a decoding problem, a
	// pallet's store that names no store is not reported either: the
	// store may be the one that did not read.
	storesBroken := decoded.Covers("stores")
	checked := constraints.Grouper{Max: MaxViolations}
	req.check(func(v constraints.Violation) {
		if (v.Code == CodeUnknownRef && storesBroken) || decoded.Covers(v.Path) {
			return
		}
		checked.Add(v)
	})
	if vs := listed(decoded, &checked); len(vs) > 0 {
		return Request{}, vs
	}
	return req, nil
}

// readAll reads r to its end into one slice of the size r says it has
// (a file's, a bytes.Reader's), so that a request of hundreds of
// megabytes (a road matrix of thousands of stores) is not copied over and
// over as the slice grows; a reader of unknown size is read as io.ReadAll
// does.
func readAll(r io.Reader) ([]byte, error) {
	size := int64(-1)
	switch v := r.(type) {
	case interface{ Len() int }:
		size = int64(v.Len())
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	if size < 0 || size > 1<<40 {
		return io.ReadAll(r)
	}
	// One byte more than expected, so that reading to the end does not
	// grow a full slice just to find io.EOF.
	buf := make([]byte, 0, size+1)
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		case len(buf) == cap(buf): // more than r said: room for the rest
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// UnmarshalJSON reads a request from its JSON form, as DecodeRequest does
// but without Check, so that encoding/json can read requests too.
func (r *Request) UnmarshalJSON(b []byte) error {
	var req Request
	decoded, syntax := decode(b, func(d dec) { requestObject.Read(d, d, &req) })
	if syntax != nil {
		return syntax
	}
	if vs := listed(decoded, nil); len(vs) > 0 {
		return vs
	}
	*r = req
	return nil
}

// decode reads data with read and returns its problems grouped, or the
// one INVALID_JSON violation of a document that is not JSON.
func decode(data []byte, read func(d dec)) (*constraints.Grouper, constraints.Violations) {
	g := &constraints.Grouper{Max: MaxViolations}
	d := jsonwire.Decoder{Sink: func(e jsonwire.Error) {
		g.Add(constraints.Violation{Code: codeOf[e.Reason], Path: e.Path, Message: e.Message})
	}}
	d.Reset(data)
	read(&d)
	d.End()
	if d.Syntax() != nil {
		e := d.Errors()[0]
		return nil, constraints.Violations{{Code: codeOf[e.Reason], Path: e.Path, Message: e.Message}}
	}
	return g, nil
}

// listed lists the entries of decoded, then those of checked (nil: none),
// at most MaxViolations of them, and then one entry that counts the
// violations left out.
func listed(decoded, checked *constraints.Grouper) constraints.Violations {
	vs, dropped := decoded.Violations(), decoded.Dropped()
	if checked != nil {
		for i, v := range checked.Violations() {
			if len(vs) < MaxViolations {
				vs = append(vs, v)
			} else {
				dropped += checked.Count(i)
			}
		}
		dropped += checked.Dropped()
	}
	if dropped > 0 {
		vs = append(vs, constraints.Violation{Code: CodeTooManyViolations,
			Message: fmt.Sprintf("and %s more violations not listed", numtext.Int(dropped))})
	}
	return vs
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
	decoded, syntax := decode(b, func(d dec) { resultObject.Read(d, d, &res) })
	if syntax != nil {
		return syntax
	}
	if vs := listed(decoded, nil); len(vs) > 0 {
		return vs
	}
	*p = res
	return nil
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
