package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/delivery"
	"github.com/haulplan/haulplan/engine"
)

// apiError is one entry of the error body, the provider's shape, which the
// delivery package already builds for its rule failures.
type apiError = delivery.ProviderError

// errorBody is every error response's body.
type errorBody = delivery.ProviderErrorBody

// Error codes of the transport (the delivery and engine codes pass through
// as those packages report them).
const (
	codeNotFound          = "NOT_FOUND"
	codeMethodNotAllowed  = "METHOD_NOT_ALLOWED"
	codeUnauthorized      = "UNAUTHORIZED"
	codeInvalidToken      = "INVALID_TOKEN"
	codeForbidden         = "FORBIDDEN"
	codeMissingConsumerID = "MISSING_CONSUMER_ID"
	codeRateLimited       = "RATE_LIMITED"
	codeAuthThrottled     = "TOO_MANY_FAILED_AUTHENTICATIONS"
	codeMalformedJSON     = delivery.CodeMalformedJSON
	codeUnknownMember     = delivery.CodeUnknownMember
	codeDuplicateMember   = delivery.CodeDuplicateMember
	codeInvalidType       = delivery.CodeInvalidType
	codeRequired          = delivery.CodeRequired
	codeBodyTooLarge      = delivery.CodeBodyTooLarge
	codeMediaType         = "UNSUPPORTED_MEDIA_TYPE"
	codePlanNotReady      = "PLAN_NOT_READY"
	codeNoRelease         = "NO_RELEASE"
	codeJobFailed         = "JOB_FAILED"
	codeConcurrentUpdate  = "CONCURRENT_UPDATE"
	codeDuplicate         = "DUPLICATE"
	codeInternal          = "INTERNAL_ERROR"
	codeUnavailable       = "SERVICE_UNAVAILABLE"
)

// Categories: REQUEST (the request itself is wrong), DATA (a value is
// wrong), APPLICATION (the resource's state forbids it) and SYSTEM (the
// service failed) are the delivery package's; SECURITY (credentials) and
// LIMIT (rate) are the transport's.
const (
	categoryRequest     = "REQUEST"
	categoryData        = "DATA"
	categoryApplication = "APPLICATION"
	categorySystem      = "SYSTEM"
	categorySecurity    = "SECURITY"
	categoryLimit       = "LIMIT"
	severityError       = "ERROR"
)

// fail writes an error response. Every entry gets severity ERROR and a
// category REQUEST unless it says otherwise.
func (s *server) fail(w http.ResponseWriter, c *call, status int, errs ...apiError) {
	for i := range errs {
		if errs[i].Severity == "" {
			errs[i].Severity = severityError
		}
		if errs[i].Category == "" {
			errs[i].Category = categoryRequest
		}
	}
	if status >= 500 {
		c.log.LogAttrs(context.Background(), slog.LevelError, "request failed", slog.Int("status", status), slog.String("code", errs[0].Code), slog.String("description", errs[0].Description))
	}
	writeJSON(w, status, errorBody{Errors: errs})
}

// internal answers 500 for an error of the service's own (a store
// failure): the log line holds the error, the client gets none of it.
func (s *server) internal(w http.ResponseWriter, c *call, err error) {
	c.log.LogAttrs(context.Background(), slog.LevelError, "internal error", slog.String("error", err.Error()))
	writeJSON(w, http.StatusInternalServerError, errorBody{Errors: []apiError{{Code: codeInternal,
		Description: "The service failed to answer; the request id in the X-Request-Id header finds it in the logs.",
		Severity:    severityError, Category: categorySystem}}})
}

// notFound answers 404 for a job or delivery that is not the tenant's.
func (s *server) notFound(w http.ResponseWriter, c *call, field, what, id string) {
	s.fail(w, c, http.StatusNotFound, apiError{Code: codeNotFound, Field: field,
		Description: "No " + what + " " + quote(id) + " exists for this consumer."})
}

// violationErrors turns the engine's violations into error entries: what is
// wrong with the JSON itself is REQUEST, a wrong value DATA.
func violationErrors(err error, prefix string) []apiError {
	vs := constraints.AsViolations(err)
	errs := make([]apiError, 0, len(vs))
	for _, v := range vs {
		cat := categoryData
		switch v.Code {
		case engine.CodeInvalidJSON, engine.CodeUnknownMember, engine.CodeDuplicateMember, engine.CodeInvalidType:
			cat = categoryRequest
		}
		field := prefix
		if v.Path != "" {
			field = prefix + "." + v.Path
		}
		errs = append(errs, apiError{Code: v.Code, Field: field, Description: v.Message, Category: cat})
	}
	return errs
}

// deliveryFailure answers a failure of a delivery rule: 400 with the
// delivery package's own error body, or 500 for an error without
// violations (which the package reports as INTERNAL_ERROR).
func (s *server) deliveryFailure(w http.ResponseWriter, c *call, err error) {
	if len(constraints.AsViolations(err)) == 0 {
		s.internal(w, c, err)
		return
	}
	writeJSON(w, http.StatusBadRequest, delivery.ProviderErrors(err))
}

// writeJSON writes v as the JSON body of a response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil { // the service's own types always encode
		status = http.StatusInternalServerError
		b = []byte(`{"errors":[{"code":"INTERNAL_ERROR","field":"","description":"The response could not be encoded.","info":"","severity":"ERROR","category":"SYSTEM"}]}`)
	}
	writeRaw(w, status, b)
}

// writeRaw writes a JSON body that is already encoded.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// quote quotes a client's value for a description, shortened when long.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strconv.Quote(s)
}
