package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

func TestQuickstartSummary(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run([]string{"-time", "1s", "-seed", "2"}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	s := out.String()
	for _, want := range []string{"48 stores, 400 pallets", "R1 ", "Totals:", "Validate: OK",
		"load Tue 24 Nov ", "window ", " of 11,300 kg (", " ambient", "on duty "} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	// stderr is no terminal here: progress comes as plain lines, one per
	// phase at least, from the orders to the finished plan.
	lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "ORDERS") || !strings.Contains(lines[len(lines)-1], "DONE") ||
		!strings.Contains(errs.String(), "ROUTING 1") || strings.Contains(errs.String(), "\r") {
		t.Errorf("progress on stderr:\n%s", errs.String())
	}
	// The last line reports the finished plan: its delivered pallets are
	// those of the summary's totals (all 400 unless the machine is so busy
	// that the search ends early).
	m := regexp.MustCompile(`(\d+) pallets delivered`).FindStringSubmatch(s)
	if m == nil || !strings.Contains(lines[len(lines)-1], " "+m[1]+" pallets delivered") {
		t.Errorf("the last progress line does not report the plan's delivered pallets (%v): %s", m, lines[len(lines)-1])
	}
}

func TestQuickstartJSONIsAValidPlan(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run([]string{"-time", "1s", "-json"}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	plan, err := engine.DecodePlan(&out)
	if err != nil {
		t.Fatal(err)
	}
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Validate(req, plan); err != nil {
		t.Fatal(err)
	}
}

func TestQuickstartReportsBadInput(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(f, []byte(`{"dc":{"id":"","location":{"lat":95,"lng":0}},"stores":[],"pallets":[],"fleet":[],"shifts":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := run([]string{"-in", f}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "dc.id") || !strings.Contains(err.Error(), "dc.location.lat") {
		t.Fatalf("want both bad fields named, got %v", err)
	}
}
