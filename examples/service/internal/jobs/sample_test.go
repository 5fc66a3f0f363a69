package jobs

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// sampleRequest is the quickstart's sample request (48 stores, 400
// pallets) cut down to its first stores stores (all when stores is 0) and
// their pallets, with the search time limit, as the JSON the API stores.
func sampleRequest(t *testing.T, stores int, limit time.Duration) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "quickstart", "sample.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	req, err := engine.DecodeRequest(f)
	if err != nil {
		t.Fatal(err)
	}
	if stores > 0 && stores < len(req.Stores) {
		req.Stores = req.Stores[:stores]
		keep := map[string]bool{}
		for _, s := range req.Stores {
			keep[s.ID] = true
		}
		var pallets []engine.Pallet
		for _, p := range req.Pallets {
			if keep[p.Store] {
				pallets = append(pallets, p)
			}
		}
		req.Pallets = pallets
	}
	req.Options.TimeLimit = limit
	if err := req.Check(); err != nil {
		t.Fatalf("the cut-down sample: %v", err)
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkPlan fails t unless body is a plan of request reqJSON that
// engine.Validate accepts, and returns it.
func checkPlan(t *testing.T, reqJSON, body []byte) engine.Result {
	t.Helper()
	req, err := engine.DecodeRequest(bytes.NewReader(reqJSON))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := engine.DecodePlan(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the stored plan does not read: %v", err)
	}
	if err := engine.Validate(req, plan); err != nil {
		t.Fatalf("engine.Validate rejects the stored plan: %v", err)
	}
	return plan
}

// testLogger writes the runner's log lines to the test's output.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// waitFor polls cond every 20 ms until it holds. It sets no time limit of
// its own: a slow or loaded machine makes a test slower, never failing
// it. Only when go test's -timeout is about to end the run does it give
// up, saying what it waited for.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	giveUp, bounded := t.Deadline()
	giveUp = giveUp.Add(-10 * time.Second) // time left to report and clean up
	for !cond() {
		if bounded && time.Now().After(giveUp) {
			t.Fatalf("%s: not before go test's -timeout", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
