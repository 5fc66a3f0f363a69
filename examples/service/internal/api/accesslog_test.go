package api

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestClientValuesLoggedShort: a path of 900 KB (what net/http lets
// through below its own header limit) and a long client request id add a
// line of about a kilobyte to the log, not the megabyte sent; the line
// says how long each value was.
func TestClientValuesLoggedShort(t *testing.T) {
	e := newEnv(t, envOptions{})
	path := "/" + strings.Repeat("a", 900<<10-1)
	clientID := strings.Repeat("r", 10_000)
	resp, body := e.do(http.MethodGet, path, map[string]string{RequestIDHeader: clientID}, "")
	want(t, resp, body, http.StatusNotFound, codeNotFound)

	logs := e.logs.String()
	if len(logs) > 4<<10 {
		t.Fatalf("a request with a 900 KB path added %d bytes to the log", len(logs))
	}
	var line map[string]any
	sc := bufio.NewScanner(strings.NewReader(logs))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a log line is not JSON: %s", sc.Text())
		}
		if m["msg"] == "request" {
			line = m
		}
	}
	if line == nil {
		t.Fatalf("no access log line:\n%s", logs)
	}
	for key, full := range map[string]string{"path": path, "client_request_id": clientID} {
		got, _ := line[key].(string)
		wantPrefix := full[:maxLoggedBytes]
		wantMarker := "...[truncated, " + itoa(len(full)) + " bytes]"
		if got != wantPrefix+wantMarker {
			t.Errorf("%s logged as %.80q... (%d bytes), want its first %d bytes and %q", key, got, len(got), maxLoggedBytes, wantMarker)
		}
	}
}

// TestClipKeepsCharacters: a value is cut on a character boundary, so the
// logged prefix is valid UTF-8, and a short value is logged as it is.
func TestClipKeepsCharacters(t *testing.T) {
	if got := clip("/v1/job/abc"); got != "/v1/job/abc" {
		t.Fatalf("a short value changed: %q", got)
	}
	s := "/" + strings.Repeat("é", 300) // 2 bytes each: byte 256 is inside one
	got := clip(s)
	prefix, _, ok := strings.Cut(got, "...[truncated, 601 bytes]")
	if !ok || len(prefix) != 255 || !strings.HasPrefix(s, prefix) || !json.Valid([]byte(`"`+prefix+`"`)) {
		t.Fatalf("clip = %q", got)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
