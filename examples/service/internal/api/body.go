package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
)

// bodyRefusal is a request body readBody refuses: the status to answer
// and the error entry.
type bodyRefusal struct {
	status int
	entry  apiError
}

// readBody reads a request body of the given media type, at most limit
// bytes (the handler's limit when limit is 0 or more than it). A wrong or
// missing Content-Type is refused with 415 (RFC 9110 §15.5.16), a body
// over the limit with 413 Content Too Large (§15.5.14), whether its
// Content-Length says so or its bytes do, and one that cannot be read
// with 400.
func (s *server) readBody(r *http.Request, mediaType string, limit int64) ([]byte, *bodyRefusal) {
	if body, ok := r.Context().Value(bodyKey{}).([]byte); ok {
		return body, nil // read and checked already, by storing
	}
	if limit <= 0 || limit > s.maxBody {
		limit = s.maxBody
	}
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != mediaType {
		return nil, &bodyRefusal{http.StatusUnsupportedMediaType, apiError{Code: codeMediaType, Field: "Content-Type",
			Description: "The body must be " + mediaType + ", not " + quote(ct) + "."}}
	}
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		return nil, &bodyRefusal{http.StatusBadRequest, apiError{Code: codeMalformedJSON, Field: "body",
			Description: "The body could not be read: " + err.Error() + "."}}
	}
	return body, nil
}

// bodyKey keys, in a request's context, its body as storing read it.
type bodyKey struct{}

// withBody is r carrying its body, read: the handler's readBody returns
// it rather than reading again.
func withBody(r *http.Request, body []byte) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), bodyKey{}, body))
}

func tooLarge(limit int64) *bodyRefusal {
	return &bodyRefusal{http.StatusRequestEntityTooLarge, apiError{Code: codeBodyTooLarge, Field: "body",
		Description: "The body is larger than the limit of " + strconv.FormatInt(limit, 10) + " bytes."}}
}

// refuseBody answers a body readBody refused.
func (s *server) refuseBody(w http.ResponseWriter, c *call, b *bodyRefusal) {
	s.fail(w, c, b.status, b.entry)
}

// emptyBody reports whether the request has no body at all.
func emptyBody(r *http.Request) bool {
	return r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody
}

// decodeStringObject reads a JSON object whose members are all strings,
// strictly: the members named in fields only, each at most once, of type
// string (or null, read as absent); required members must be present. It
// lists every problem, each with its path under prefix.
func decodeStringObject(body []byte, prefix string, fields map[string]*string, required ...string) []apiError {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	malformed := func(msg string) []apiError {
		return []apiError{{Code: codeMalformedJSON, Field: prefix, Description: "The body is not a JSON object: " + msg + "."}}
	}
	tok, err := dec.Token()
	if err != nil {
		return malformed(err.Error())
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return malformed("it starts with " + quote(tokenText(tok)))
	}
	var errs []apiError
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return malformed(err.Error())
		}
		name, _ := tok.(string)
		path := prefix + "." + name
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return malformed(err.Error())
		}
		dst, known := fields[name]
		switch {
		case seen[name]:
			errs = append(errs, apiError{Code: codeDuplicateMember, Field: path, Description: "The member " + quote(name) + " is sent more than once."})
			continue
		case !known:
			errs = append(errs, apiError{Code: codeUnknownMember, Field: path, Description: "The object has no member " + quote(name) + "."})
			continue
		}
		seen[name] = true
		if string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			errs = append(errs, apiError{Code: codeInvalidType, Field: path, Description: "The member " + quote(name) + " must be a string."})
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return malformed(err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return malformed("something follows the object")
	}
	for _, name := range required {
		if *fields[name] == "" && !hasPath(errs, prefix+"."+name) {
			errs = append(errs, apiError{Code: codeRequired, Field: prefix + "." + name, Description: "The member " + quote(name) + " is required."})
		}
	}
	return errs
}

func hasPath(errs []apiError, path string) bool {
	for _, e := range errs {
		if e.Field == path {
			return true
		}
	}
	return false
}

func tokenText(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return t.String()
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		return strconv.FormatBool(t)
	case nil:
		return "null"
	}
	return "?"
}
