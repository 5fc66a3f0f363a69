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
	if len(lines) != 3 || lines[0] != replanHeader {
		t.Fatalf("output %q", lines)
	}
	names := strings.Split(replanHeader, ",")
	rows := map[string]map[string]int{}
	shares := map[string]map[string]float64{}
	for _, line := range lines[1:] {
		fields := strings.Split(line, ",")
		if len(fields) != len(names) {
			t.Fatalf("row %q has %d fields, the header %d", line, len(fields), len(names))
		}
		row, share := map[string]int{}, map[string]float64{}
		for i, n := range names[2:] {
			if v, err := strconv.Atoi(fields[i+2]); err == nil {
				row[n] = v
			}
			if v, err := strconv.ParseFloat(fields[i+2], 64); err == nil {
				share[n] = v
			}
		}
		if fields[0] != "replan-20-s1" || row["stores"] != 20 || row["stores_after"] != 21 || row["extra_pallets"] < 1 {
			t.Fatalf("row %q", line)
		}
		rows[fields[1]], shares[fields[1]] = row, share
	}
	scratch, previous := rows["scratch"], rows["previous"]
	if scratch == nil || previous == nil {
		t.Fatalf("modes %v, want scratch and previous", rows)
	}
	if scratch["locked_routes"] != 0 || previous["locked_routes"] < 1 || previous["locked_changed"] != 0 {
		t.Errorf("locked routes: scratch %d, previous %d (%d changed)", scratch["locked_routes"], previous["locked_routes"], previous["locked_changed"])
	}
	if previous["unlocked_compared"] > previous["stores_compared"] {
		t.Errorf("%d unlocked stores of %d compared", previous["unlocked_compared"], previous["stores_compared"])
	}
	b, err := os.ReadFile(changesFile)
	if err != nil {
		t.Fatal(err)
	}
	var pc engine.PlanChanges
	if err := pc.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	// The last mode's figures are the changes'.
	m := pc.Metrics
	for n, v := range map[string]int{"stores_compared": m.StoresCompared, "stores_moved": m.StoresMoved, "stores_retimed": m.StoresRetimed,
		"stores_moved_or_retimed": m.StoresMovedOrRetimed, "routes_changed": m.RoutesChanged, "added_stores_delivered": m.StoresAdded} {
		if previous[n] != v {
			t.Errorf("%s: %d in the row, %d in the changes", n, previous[n], v)
		}
	}
	if share := shares["previous"]["moved_or_retimed_share"]; m.StoresCompared == 0 || math.Abs(share-float64(m.StoresMovedOrRetimed)/float64(m.StoresCompared)) > 0.00005 {
		t.Errorf("share %v of %d over %d", share, m.StoresMovedOrRetimed, m.StoresCompared)
	}
	if m.StoresRemoved != 1 {
		t.Errorf("%d stores removed, want the one the day lost", m.StoresRemoved)
	}
	for _, want := range []string{"replan-20-s1: planned from scratch", "replan-20-s1: planned from the previous plan"} {
		if !strings.Contains(errs.String(), want) {
			t.Errorf("no %q on stderr:\n%s", want, errs.String())
		}
	}
	for _, args := range [][]string{{"-stores", "1"}, {"-stores", "20", "-tolerance", "0s"}, {"-stores", "20", "extra"}, {"-stores", "20", "-mode", "rural"},
		{"-stores", "20", "-modes", "both"}, {"-stores", "20", "-lock", "half"}, {"-stores", "20", "-replan-time", "-1s"}} {
		if code := run(append([]string{"replan"}, args...), &out, &errs); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
}

// TestExtraLeft: the summary names each extra pallet the plan leaves
// unassigned, with its store and reason, in the order of the extra
// pallets, and no other pallet.
func TestExtraLeft(t *testing.T) {
	plan := engine.Result{Unassigned: []engine.Unassigned{
		{Pallet: "old", Store: "S1", Reason: engine.ReasonCapacity},
		{Pallet: "x2", Store: "S2", Reason: engine.ReasonFleetExhausted},
		{Pallet: "x1", Store: "S3", Reason: engine.ReasonNotPlanned},
	}}
	got := strings.Join(extraLeft([]string{"x1", "x0", "x2"}, plan), "; ")
	if want := "x1 (S3, NOT_PLANNED); x2 (S2, FLEET_EXHAUSTED)"; got != want {
		t.Errorf("extraLeft: %q, want %q", got, want)
	}
}
