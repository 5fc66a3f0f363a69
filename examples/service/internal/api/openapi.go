package api

import (
	_ "embed"
	"net/http"
)

// openAPIDocument is the OpenAPI 3.1 document of every operation and
// response of this package; the tests validate each response they receive
// against it.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPI returns the OpenAPI 3.1 document served at /openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPIDocument...) }

// openAPI is GET /openapi.json: public, no token and no consumer id needed.
func (s *server) openAPI(w http.ResponseWriter, r *http.Request, c *call) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(openAPIDocument)
}
