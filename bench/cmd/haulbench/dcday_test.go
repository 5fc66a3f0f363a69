package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// TestMain lets the test binary stand in for haulbench when dcday -sizes
// runs its children (os.Executable is the test binary then).
func TestMain(m *testing.M) {
	if os.Getenv("HAULBENCH_TEST_AS_COMMAND") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// dcdayRows runs haulbench dcday with args and returns its CSV rows
// without the header, which it checks.
func dcdayRows(t *testing.T, args ...string) ([][]string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(append([]string{"dcday"}, args...), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != dcdayHeader {
		t.Fatalf("header %q", lines[0])
	}
	var rows [][]string
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != strings.Count(dcdayHeader, ",")+1 {
			t.Fatalf("row %q has %d fields", l, len(f))
		}
		rows = append(rows, f)
	}
	return rows, errs.String()
}

func TestDCDayCommand(t *testing.T) {
	out, planFile := filepath.Join(t.TempDir(), "day.json"), filepath.Join(t.TempDir(), "plan.json")
	rows, errs := dcdayRows(t, "-stores", "20", "-iterations", "20", "-streams", "1", "-time", "20s", "-out", out, "-plan", planFile)
	if len(rows) != 1 || rows[0][0] != "dcday-20-s1" || rows[0][1] != "20" {
		t.Fatalf("rows %q", rows)
	}
	// The plan written is the row's: its routes, and Validate accepts it.
	req, err := readWith(out, engine.DecodeRequest)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := readWith(planFile, engine.DecodePlan)
	if err != nil {
		t.Fatal(err)
	}
	if got := strconv.Itoa(len(plan.Routes)); got != rows[0][3] {
		t.Errorf("plan file has %s routes, the row %s", got, rows[0][3])
	}
	if err := engine.Validate(req, plan); err != nil {
		t.Errorf("the plan file fails Validate: %v", err)
	}
	if !strings.Contains(errs, "dcday-20-s1: ") || !strings.Contains(errs, "bound") {
		t.Errorf("no summary on stderr:\n%s", errs)
	}
	// The saved request, options included, plans to the same figures.
	again, _ := dcdayRows(t, "-in", out)
	if again[0][0] != "day" {
		t.Errorf("instance %q, want the file's name", again[0][0])
	}
	for i := 1; i <= 8; i++ { // stores … cost; the times differ
		if again[0][i] != rows[0][i] {
			t.Errorf("column %d: %s from the file, %s generated", i, again[0][i], rows[0][i])
		}
	}
}

func TestDCDaySizesRunInChildren(t *testing.T) {
	t.Setenv("HAULBENCH_TEST_AS_COMMAND", "1")
	rows, _ := dcdayRows(t, "-sizes", "5,8", "-iterations", "10", "-streams", "1", "-time", "20s")
	if len(rows) != 2 || rows[0][1] != "5" || rows[1][1] != "8" {
		t.Fatalf("rows %q", rows)
	}
	rss := slices.Index(strings.Split(dcdayHeader, ","), "peak_rss_mb")
	for _, r := range rows {
		if r[rss] == "" {
			t.Errorf("%s: no peak RSS", r[0])
		}
	}
}

func TestDCDayFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-stores", "10", "-in", "x.json"},
		{"-sizes", "10,x"},
		{"-sizes", "10,20", "-out", "x.json"},
		{"-sizes", "10,20", "-plan", "x.json"},
		{"-stores", "10", "extra"},
		{"-stores", "10", "-mode", "busy"},
		{"-stores", "10", "-objective", "fewest"},
		{"-stores", "10", "-travel", "fast"},
		{"-in", "x.json", "-travel", "single"},
		{"-in", "x.json", "-rush"},
	} {
		var out, errs bytes.Buffer
		if code := run(append([]string{"dcday"}, args...), &out, &errs); code == 0 {
			t.Errorf("%q: exit 0", args)
		}
	}
}

// TestDCDayTravel: -travel single plans the day under the single-speed
// model, named as such, and the saved request carries it; the default is
// geo's speed bands.
func TestDCDayTravel(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		travel, instance string
		want             geo.TravelModel
	}{
		{"single", "dcday-12-s1-single", geo.TravelModel{SpeedKmh: 55, Circuity: 1.3}},
		{"single-60", "dcday-12-s1-single-60", geo.TravelModel{SpeedKmh: 60, Circuity: 1.25}},
		{"bands", "dcday-12-s1", geo.TravelModel{}},
	} {
		out := filepath.Join(dir, c.travel+".json")
		rows, _ := dcdayRows(t, "-stores", "12", "-travel", c.travel, "-iterations", "10", "-streams", "1", "-time", "20s", "-out", out)
		if len(rows) != 1 || rows[0][0] != c.instance {
			t.Fatalf("-travel %s: rows %q", c.travel, rows)
		}
		req, err := readWith(out, engine.DecodeRequest)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(req.Travel, c.want) {
			t.Errorf("-travel %s: the day's travel is %+v, want %+v", c.travel, req.Travel, c.want)
		}
	}
}

// TestDCDayRush: -rush plans the day under weekday rush hours on the
// DC's clock, named as such (the plan passes Validate, or the command
// fails), and the saved request carries the profile and the zone.
func TestDCDayRush(t *testing.T) {
	out := filepath.Join(t.TempDir(), "rush.json")
	rows, _ := dcdayRows(t, "-stores", "12", "-rush", "-iterations", "10", "-streams", "1", "-time", "20s", "-out", out)
	if len(rows) != 1 || rows[0][0] != "dcday-12-s1-rush" {
		t.Fatalf("rows %q", rows)
	}
	req, err := readWith(out, engine.DecodeRequest)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(req.RushHours, weekdayRush) || req.DC.TimeZone != "America/Chicago" {
		t.Errorf("the day's profile %+v in %q, want %+v in America/Chicago", req.RushHours, req.DC.TimeZone, weekdayRush)
	}
}

// TestDCDayRealisticMode: -mode realistic plans a realistic day under the
// drivers objective and reports shifts, trailer units and doors against
// their bounds.
func TestDCDayRealisticMode(t *testing.T) {
	rows, errs := dcdayRows(t, "-stores", "15", "-mode", "realistic", "-objective", "drivers", "-iterations", "20", "-streams", "1", "-time", "20s")
	if len(rows) != 1 || rows[0][0] != "dcday-realistic-15-s1" {
		t.Fatalf("rows %q", rows)
	}
	col := func(name string) int {
		v, err := strconv.Atoi(rows[0][slices.Index(strings.Split(dcdayHeader, ","), name)])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return v
	}
	if col("shifts_used") < col("shifts_lower_bound") || col("trailer_units_used") < col("trailer_units_lower_bound") || col("peak_dock_doors") > 10 {
		t.Errorf("row %q", rows[0])
	}
	if !strings.Contains(errs, "trailer units used") || !strings.Contains(errs, "on 10 doors") {
		t.Errorf("summary:\n%s", errs)
	}
}
