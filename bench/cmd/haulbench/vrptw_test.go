package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const tinyVRPTW = `TINY

VEHICLE
NUMBER     CAPACITY
  3          20

CUSTOMER
CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME

    0      0          0          0          0        200          0
    1      3          4          5          0         50         10
    2      6          8          5         20         80         10
    3     -3          4         10          0        100         10
    4      0         10          8         30         60          5
    5      1          1          4          0        190          0
`

func TestVRPTWCommand(t *testing.T) {
	dir := t.TempDir()
	inst := filepath.Join(dir, "tiny.txt")
	if err := os.WriteFile(inst, []byte(tinyVRPTW), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref.csv")
	if err := os.WriteFile(ref, []byte("instance,vehicles,distance\nTINY,2,50.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	solDir := filepath.Join(dir, "sol")
	var out, errs bytes.Buffer
	args := []string{"vrptw", "-time", "100ms", "-objective", "distance", "-sol", solDir, "-ref", ref, inst}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != "instance,vehicles,distance,seconds" || !strings.HasPrefix(lines[1], "tiny,") {
		t.Fatalf("stdout:\n%s", out.String())
	}
	if !strings.Contains(errs.String(), "scored 1 instances") {
		t.Errorf("no summary on stderr:\n%s", errs.String())
	}
	sol, err := os.ReadFile(filepath.Join(solDir, "tiny.sol"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(sol), "Route #1:") || !strings.Contains(string(sol), "\nCost ") {
		t.Errorf("sol file:\n%s", sol)
	}
	// The row's distance is the .sol file's cost.
	fields := strings.Split(lines[1], ",")
	if !strings.Contains(string(sol), "Cost "+fields[2]+"\n") {
		t.Errorf("row %q and sol file disagree:\n%s", lines[1], sol)
	}
}

func TestVRPTWCommandErrors(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"vrptw", "-objective", "fast", "x.txt"}, &out, &errs); code == 0 {
		t.Error("accepted an unknown objective")
	}
	if code := run([]string{"vrptw"}, &out, &errs); code == 0 {
		t.Error("accepted no files")
	}
	if code := run([]string{"vrptw", "-time", "10ms", filepath.Join(t.TempDir(), "missing.txt")}, &out, &errs); code == 0 {
		t.Error("accepted a missing file")
	}
}
