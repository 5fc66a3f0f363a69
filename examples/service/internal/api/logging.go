package api

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// recorder remembers the status and size of a response for the access log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// newRequestID is the service's own id of a request: 16 random bytes in
// hex. A client's X-Request-Id is logged beside it (clientRequestID), never
// used as it: a client could otherwise make its requests' lines look like
// another's.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// maxLoggedBytes bounds each value a client chooses (path, method, its
// request id) in a log line, so that a request of a megabyte cannot add a
// megabyte to the logs.
const maxLoggedBytes = 256

// clip is a client's value as logged: as it is up to maxLoggedBytes,
// else its first maxLoggedBytes (cut on a character boundary) followed by
// a marker with the value's full length, "...[truncated, 921600 bytes]".
func clip(s string) string {
	if len(s) <= maxLoggedBytes {
		return s
	}
	cut := maxLoggedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...[truncated, " + strconv.Itoa(len(s)) + " bytes]"
}
