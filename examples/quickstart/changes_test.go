package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// -compare prints no store against the plan the same run made, and the
// stores that differ against the plan of another seed; a bad plan file is
// refused before planning, with the path of each bad member.
func TestQuickstartCompare(t *testing.T) {
	dir := t.TempDir()
	prev := filepath.Join(dir, "plan.json")
	var out, errs bytes.Buffer
	args := []string{"-iterations", "20", "-time", "60s", "-quiet"}
	if err := run(append(args, "-json"), &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	if err := os.WriteFile(prev, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(append(args, "-compare", prev), &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	_, same, _ := strings.Cut(out.String(), "\nChanges against "+prev)
	if !strings.Contains(same, "\n  0 of 48 stores both plans deliver moved or retimed (0.0 %): 0 moved, 0 retimed; 0 added, 0 removed, 0 with another pallet count; 0 routes whose paperwork changed\n") ||
		regexp.MustCompile(`\(S\d+\) +(MOVED|RETIMED|ADDED|REMOVED|PALLETS)`).MatchString(same) {
		t.Fatalf("against the same plan:\n%s", same)
	}
	out.Reset()
	if err := run(append(args, "-seed", "9", "-compare", prev), &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	_, other, _ := strings.Cut(out.String(), "\nChanges against "+prev)
	lines := regexp.MustCompile(`\(S\d+\) +(MOVED|RETIMED)[^\n]* → [^\n]*; arrival [^\n]*; pallets \d+ → \d+\n`).FindAllString(other, -1)
	m := regexp.MustCompile(`\n  (\d+) of 48 stores both plans deliver moved or retimed`).FindStringSubmatch(other)
	if len(lines) == 0 || m == nil || m[1] == "0" {
		t.Fatalf("against another seed's plan:\n%s", other)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"routes":[{"trip":"one","stops":[{"arrival":"soon"}]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := run(append(args, "-compare", bad), &out, &errs)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "routes[0].trip") || !strings.Contains(err.Error(), "routes[0].stops[0].arrival") {
		t.Fatalf("a bad previous plan: %v", err)
	}
}
