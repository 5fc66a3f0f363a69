package main

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestHeaderLimit: the service's HTTP server, on a real socket, answers
// 431 to a request whose headers, or whose line (a 900 KB path), pass
// maxHeaderBytes, before any handler runs; ordinary headers pass.
func TestHeaderLimit(t *testing.T) {
	var handled atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handled.Add(1)
		w.WriteHeader(http.StatusNoContent)
	})
	srv := newHTTPServer(h, defaultWriteTimeout, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	send := func(path string, header string) int {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang, never reached
		go func() {
			// Written from another goroutine: the server may answer and
			// close before it has read all of a request it refuses.
			io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: localhost\r\n"+header+"Connection: close\r\n\r\n")
		}()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		name, path, header string
		want               int
	}{
		{"ordinary", "/openapi.json", "Authorization: Bearer " + strings.Repeat("t", 43) + "\r\n", http.StatusNoContent},
		{"16 KB of headers", "/openapi.json", "X-Pad: " + strings.Repeat("p", 16<<10) + "\r\n", http.StatusNoContent},
		{"80 KB of headers", "/openapi.json", "X-Pad: " + strings.Repeat("p", 80<<10) + "\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"900 KB path", "/" + strings.Repeat("a", 900<<10), "", http.StatusRequestHeaderFieldsTooLarge},
	} {
		if got := send(c.path, c.header); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	if n := handled.Load(); n != 2 {
		t.Errorf("the handler ran %d times, want 2 (the refused requests never reach it)", n)
	}
}

// TestAuthFailureFlags: the served process limits failed authentications
// as its flags say, per client address read through its trusted proxy.
// One failure a minute: the second request would pass only if it came a
// minute after the first.
func TestAuthFailureFlags(t *testing.T) {
	p := start(t, "-db", filepath.Join(t.TempDir(), "haulplan.db"), "-auth-failures-per-minute", "1", "-trusted-proxies", "127.0.0.1")
	get := func(forwardedFor string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, p.base+"/v1/job/none", nil)
		req.Header.Set("SVC_CONSUMER.ID", "someone")
		req.Header.Set("Authorization", "Bearer "+strings.Repeat("x", 43))
		req.Header.Set("X-Forwarded-For", forwardedFor)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, want := range []int{http.StatusUnauthorized, http.StatusTooManyRequests} {
		if got := get("192.0.2.1"); got != want {
			t.Fatalf("request %d from 192.0.2.1: %d, want %d", i+1, got, want)
		}
	}
	if got := get("192.0.2.2"); got != http.StatusUnauthorized {
		t.Fatalf("another client behind the proxy: %d, want 401", got)
	}
}
