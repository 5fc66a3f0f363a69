package api

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/haulplan/haulplan/delivery"
)

// openAPITemplate is the OpenAPI 3.1 document of every operation and
// response of this package, with the limits a handler is configured with
// left as placeholders (see renderOpenAPI); the tests validate each
// response they receive against it.
//
//go:embed openapi.json
var openAPITemplate []byte

// The placeholders of openAPITemplate, each standing for sentences of
// its info.description.
const (
	rateLimitsPlaceholder = "{{rateLimits}}"
	bodyLimitsPlaceholder = "{{bodyLimits}}"
)

// renderOpenAPI is the document a handler serves: the template with the
// sentences that state its rate limits (perMinute for the planning
// operations and the token, deliveryPerMinute for the delivery
// operations, 0 or less for none) and its body limit, so that the document
// says what this handler does, whatever its flags.
func renderOpenAPI(perMinute, deliveryPerMinute int, maxBody int64) []byte {
	deliveries := "the delivery operations (bookDelivery, getDelivery, updateDelivery, cancelDelivery, changeDeliveryStatus) "
	if deliveryPerMinute > 0 {
		deliveries += requestsPerMinute(deliveryPerMinute)
	} else {
		deliveries += "have no limit"
	}
	rates := "Rate limits, per consumer and per operation: the planning operations (createRoutes, replanJob, getJobDetails, cancelRelease, downloadDispatchSummary, getJobReport) and createAccessToken " +
		requestsPerMinute(perMinute) + "; " + deliveries +
		". A request over its limit gets 429 with Retry-After, the seconds until one is allowed again."
	deliveryBody := min(maxBody, int64(delivery.MaxBodyBytes))
	bodies := "Request bodies are strict JSON (application/json; another Content-Type gets 415) of at most " +
		byteSize(maxBody) + "; a delivery booking or update at most " + byteSize(deliveryBody) +
		", the other small bodies less. A larger body gets 413 BODY_TOO_LARGE (RFC 9110 §15.5.14), whether its Content-Length says so or its bytes do." +
		" A planning request with a road matrix (travel.matrix) is about 15 bytes a leg larger: 384 MB for 5,000 stores, which takes a service started with -max-body 512MiB or more."
	return []byte(strings.NewReplacer(rateLimitsPlaceholder, jsonText(rates), bodyLimitsPlaceholder, jsonText(bodies)).
		Replace(string(openAPITemplate)))
}

// requestsPerMinute is "10 requests a minute", "6,000 requests a minute".
func requestsPerMinute(n int) string {
	word := " requests a minute"
	if n == 1 {
		word = " request a minute"
	}
	return thousands(int64(n)) + word
}

// byteSize is a size as a person writes it: "1 GiB", "32 MiB", "512
// KiB", or "1,500 bytes" when it is no whole number of any.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return thousands(n>>30) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return thousands(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return thousands(n>>10) + " KiB"
	}
	return thousands(n) + " bytes"
}

// thousands writes n (not negative) with a comma between groups of three
// digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// jsonText is s as it goes between the quotes of a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b[1 : len(b)-1])
}

// openAPI is GET /openapi.json: public, no token and no consumer id needed.
func (s *server) openAPI(w http.ResponseWriter, r *http.Request, c *call) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.openAPIDoc)
}
