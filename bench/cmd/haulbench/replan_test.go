package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

func TestReplanCommand(t *testing.T) {
	changesFile := filepath.Join(t.TempDir(), "changes.json")
	var out, errs bytes.Buffer
	if code := run([]string{"replan", "-stores", "20", "-iterations", "20", "-streams", "1", "-time", "20s", "-changes", changesFile}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != replanHeader {
		t.Fatalf("output %q", lines)
	}
	names := strings.Split(replanHeader, ",")
	fields := strings.Split(lines[1], ",")
	if len(fields) != len(names) {
		t.Fatalf("row %q has %d fields, the header %d", lines[1], len(fields), len(names))
	}
	row := map[string]int{}
	for i, n := range names[1:] {
		if v, err := strconv.Atoi(fields[i+1]); err == nil {
			row[n] = v
		}
	}
	if fields[0] != "replan-20-s1" || row["stores"] != 20 || row["stores_after"] != 21 || row["extra_pallets"] < 1 {
		t.Fatalf("row %q", lines[1])
	}
	b, err := os.ReadFile(changesFile)
	if err != nil {
		t.Fatal(err)
	}
	var pc engine.PlanChanges
	if err := pc.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	// The row's figures are the changes'.
	m := pc.Metrics
	for n, v := range map[string]int{"stores_compared": m.StoresCompared, "stores_moved": m.StoresMoved, "stores_retimed": m.StoresRetimed,
		"stores_moved_or_retimed": m.StoresMovedOrRetimed, "routes_changed": m.RoutesChanged, "added_stores_delivered": m.StoresAdded} {
		if row[n] != v {
			t.Errorf("%s: %d in the row, %d in the changes", n, row[n], v)
		}
	}
	if share, _ := strconv.ParseFloat(fields[14], 64); m.StoresCompared == 0 || math.Abs(share-float64(m.StoresMovedOrRetimed)/float64(m.StoresCompared)) > 0.00005 {
		t.Errorf("share %s of %d over %d", fields[14], m.StoresMovedOrRetimed, m.StoresCompared)
	}
	if m.StoresRemoved != 1 {
		t.Errorf("%d stores removed, want the one the day lost", m.StoresRemoved)
	}
	if !strings.Contains(errs.String(), "replan-20-s1: planned from scratch") {
		t.Errorf("no summary on stderr:\n%s", errs.String())
	}
	for _, args := range [][]string{{"-stores", "1"}, {"-stores", "20", "-tolerance", "0s"}, {"-stores", "20", "extra"}, {"-stores", "20", "-mode", "rural"}} {
		if code := run(append([]string{"replan"}, args...), &out, &errs); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
}
