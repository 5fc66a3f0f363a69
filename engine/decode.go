package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/haulplan/haulplan/constraints"
)

// Codes of request violations.
const (
	CodeInvalidJSON  = "INVALID_JSON"
	CodeRequired     = "REQUIRED"
	CodeInvalidValue = "INVALID_VALUE"
	CodeDuplicateID  = "DUPLICATE_ID"
	CodeUnknownRef   = "UNKNOWN_REFERENCE"
)

// DecodeRequest reads a request from its JSON form and checks it. Unknown
// members are errors (a misspelt option must not be ignored silently). On
// any problem it returns a constraints.Violations: a malformed document
// gives one INVALID_JSON violation at the offending member, a well-formed
// one every violation Request.Check finds.
func DecodeRequest(r io.Reader) (Request, error) {
	var req Request
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return Request{}, jsonViolation(err)
	}
	if dec.More() {
		return Request{}, constraints.Violations{{Code: CodeInvalidJSON, Message: "unexpected data after the request object"}}
	}
	if err := req.Check(); err != nil {
		return Request{}, err
	}
	return req, nil
}

// DecodePlan reads a plan from its JSON form (for example to validate a
// plan made elsewhere). It does not check the plan: Validate does.
func DecodePlan(r io.Reader) (Result, error) {
	var p Result
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Result{}, jsonViolation(err)
	}
	return p, nil
}

// jsonViolation turns a decoding error into a violation with the best path
// encoding/json tells.
func jsonViolation(err error) constraints.Violations {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return constraints.Violations{{Code: CodeInvalidJSON, Message: fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)}}
	case errors.As(err, &te):
		return constraints.Violations{{Code: CodeInvalidJSON, Path: te.Field, Message: fmt.Sprintf("want a JSON %s, got %s", te.Type, te.Value)}}
	case errors.Is(err, io.EOF):
		return constraints.Violations{{Code: CodeInvalidJSON, Message: "empty document"}}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return constraints.Violations{{Code: CodeInvalidJSON, Message: "document ends early"}}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	path := ""
	if rest, ok := strings.CutPrefix(msg, "unknown field "); ok {
		path = strings.Trim(rest, `"`)
		msg = "unknown member " + rest
	}
	return constraints.Violations{{Code: CodeInvalidJSON, Path: path, Message: msg}}
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
