package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
)

// -previous re-plans from a plan -json wrote: the lock is stated on the
// request's clock, the changes are printed against the previous plan (none
// when nothing in the request changed), and the reports carry them: the
// workbook's Changes sheet, the page's changes section and plan.json's
// changes.
func TestQuickstartReplan(t *testing.T) {
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
	errs.Reset()
	reports := filepath.Join(dir, "out")
	if err := run(append(args, "-previous", prev, "-lock-before", "03:30", "-lock-routes", "R1, R2", "-lock-stores", "S007", "-out", reports), &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	if want := regexp.MustCompile(`quickstart: re-planning from ` + regexp.QuoteMeta(prev) + ` \(\d+ routes\); locked: routes loading by Tue 24 Nov 03:30; routes R1, R2; stores S007 on their routes\n`); !want.MatchString(errs.String()) {
		t.Errorf("stderr lacks %s:\n%s", want, errs.String())
	}
	_, changes, ok := strings.Cut(out.String(), "\nChanges against "+prev)
	if !ok || !strings.Contains(changes, "\n  0 of 48 stores both plans deliver moved or retimed (0.0 %)") || !strings.Contains(changes, "\nValidate: OK") {
		t.Fatalf("the re-plan of an unchanged request:\n%s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(reports, "plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := engine.DecodePlan(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Changes == nil || plan.Changes.Metrics.StoresCompared != 48 {
		t.Errorf("plan.json's changes: %+v", plan.Changes)
	}
	f, err := excelize.OpenFile(filepath.Join(reports, "dispatch-summary.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), ","); got != "Summary,Changes,Routes,Drivers,Dock,Stops,Load,Axle loads,Unassigned" {
		t.Errorf("sheets %s", got)
	}
	page, err := os.ReadFile(filepath.Join(reports, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<section id="changes">`) || !strings.Contains(string(page), "No store's delivery changed.") {
		t.Error("the page has no changes section saying nothing changed")
	}
}

// The request carries the previous plan and the lock the flags give.
func TestReplanFlagsFillTheRequest(t *testing.T) {
	dir := t.TempDir()
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	loc := req.TimeZone()
	first := time.Date(2026, 11, 23, 22, 10, 0, 0, loc)
	prev := engine.Result{Routes: []engine.Route{{ID: "R1", TrailerUnit: "DRY53-01", Shift: "D01", Trip: 1, LoadingStart: first},
		{ID: "R2", TrailerUnit: "DRY53-02", Shift: "D02", Trip: 1, LoadingStart: first.Add(3 * time.Hour)}}}
	b, err := engine.MarshalIndent(prev)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "plan.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := parseFlags([]string{"-previous", file, "-lock-before", "01:30", "-lock-routes", "R2,,R1 ", "-lock-stores", "S001,S002"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.replan.apply(&req); err != nil {
		t.Fatal(err)
	}
	if req.Previous == nil || len(req.Previous.Routes) != 2 || req.Previous.Routes[1].ID != "R2" {
		t.Fatalf("previous %+v", req.Previous)
	}
	want := engine.Lock{Before: time.Date(2026, 11, 24, 1, 30, 0, 0, loc), Routes: []string{"R2", "R1"}, Stores: []string{"S001", "S002"}}
	if !req.Lock.Before.Equal(want.Before) || strings.Join(req.Lock.Routes, ",") != "R2,R1" || strings.Join(req.Lock.Stores, ",") != "S001,S002" {
		t.Errorf("lock %+v, want %+v", req.Lock, want)
	}
}

// A clock time alone is the one in the night the previous plan loads in:
// the 24 hours from 12 hours before its first loading.
func TestLockTime(t *testing.T) {
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time { return time.Date(2026, 11, day, h, m, 0, 0, loc) }
	evening := at(23, 22, 10) // the first loading the evening before
	night := at(24, 1, 43)    // the first loading after midnight
	for _, c := range []struct {
		in    string
		first time.Time
		want  time.Time
	}{
		{"01:30", evening, at(24, 1, 30)},
		{"23:00", evening, at(23, 23, 0)},
		{"21:00", evening, at(23, 21, 0)},  // before the first loading: locks nothing
		{"10:09", evening, at(24, 10, 9)},  // the last minute of the window
		{"10:10", evening, at(23, 10, 10)}, // the window's first minute
		{"03:30", night, at(24, 3, 30)},
		{"22:00", night, at(23, 22, 0)},
		{"13:42", night, at(24, 13, 42)},
		{" 03:30 ", night, at(24, 3, 30)},
		{"2026-11-25T04:00", night, at(25, 4, 0)},
		{"2026-11-25 04:00", night, at(25, 4, 0)},
		{"2026-11-24T03:30:00-06:00", night, at(24, 3, 30)},
		{"2026-11-24T09:30:00Z", night, at(24, 3, 30)},
		{"2026-11-24T09:30:00Z", time.Time{}, at(24, 3, 30)},
	} {
		got, err := lockTime(c.in, loc, c.first)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("lockTime(%q, first %v) = %v, %v; want %v", c.in, c.first, got, err, c.want)
		}
	}
	for _, c := range []struct {
		in, first string
		want      string
	}{
		{"25:00", "night", `-lock-before "25:00": want a clock time on the request's clock (America/Chicago) like 01:30`},
		{"3:30pm", "night", `-lock-before "3:30pm": want`},
		{"", "night", `-lock-before "": want`},
		{"2026-11-31T03:00", "night", `-lock-before "2026-11-31T03:00": want`},
		{"03:30", "", "-lock-before 03:30: the previous plan has no routes to place a clock time in its night; give a date and time, like 2026-11-24T03:30"},
	} {
		first := night
		if c.first == "" {
			first = time.Time{}
		}
		_, err := lockTime(c.in, loc, first)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lockTime(%q): %v, want %q", c.in, err, c.want)
		}
	}
}

// Every problem of the re-plan flags is reported at once, before any
// planning; a previous plan that is not there or not a plan is named with
// the path of each bad member.
func TestReplanFlagErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := parseFlags([]string{"-lock-before", "03:30", "-lock-stores", "S001"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-lock-before 03:30: a lock needs the plan it locks: give -previous plan.json") ||
		!strings.Contains(err.Error(), "-lock-stores S001: a lock needs the plan it locks") {
		t.Errorf("locks without -previous: %v", err)
	}
	_, err = parseFlags([]string{"-previous", "a.json", "-compare", "b.json"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-compare b.json and -previous a.json") {
		t.Errorf("-compare with -previous: %v", err)
	}
	var out, errs bytes.Buffer
	args := []string{"-iterations", "20", "-quiet"}
	missing := filepath.Join(dir, "missing.json")
	if err := run(append(args, "-previous", missing), &out, &errs); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing previous plan: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"routes":[{"trip":"one","locked":"yes"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(append(args, "-previous", bad, "-lock-before", "03:30"), &out, &errs)
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "routes[0].trip") || !strings.Contains(err.Error(), "routes[0].locked") {
		t.Errorf("a bad previous plan: %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("printed before the errors:\n%s", out.String())
	}
	status, _, stderr := runMain(t, "-lock-routes", "R1")
	if status != 1 || !strings.Contains(stderr, "quickstart: -lock-routes R1: a lock needs the plan it locks") {
		t.Errorf("exit status %d:\n%s", status, stderr)
	}
}

// lockTime never panics, and a clock time it accepts lands on that clock
// time in the 24 hours from 12 hours before the first loading.
func FuzzLockTime(f *testing.F) {
	for _, s := range []string{"01:30", "23:59", "00:00", "2026-11-24T03:30", "2026-11-24T03:30:00-06:00", "24:00", "", "9:5", "03:30:00"} {
		f.Add(s, int64(1795509780))
	}
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		f.Fatal(err)
	}
	clock := regexp.MustCompile(`^\s*(\d\d):(\d\d)\s*$`)
	f.Fuzz(func(t *testing.T, s string, firstUnix int64) {
		first := time.Unix(firstUnix%(1<<34), 0)
		got, err := lockTime(s, loc, first)
		if err != nil {
			return
		}
		if m := clock.FindStringSubmatch(s); m != nil {
			from := first.Add(-lockWindow)
			if got.Before(from) || !got.Before(from.Add(24*time.Hour)) {
				t.Errorf("lockTime(%q, %v) = %v, outside the 24 hours from %v", s, first, got, from)
			}
			if local := got.In(loc).Format("15:04"); local != m[1]+":"+m[2] && !dstGap(got, loc) {
				t.Errorf("lockTime(%q, %v) = %v, at %s", s, first, got, local)
			}
		}
	})
}

// dstGap reports whether the hour before t, on loc's clock, was skipped
// by a change to summer time, so that a clock time in it does not exist.
func dstGap(t time.Time, loc *time.Location) bool {
	_, a := t.Add(-time.Hour).In(loc).Zone()
	_, b := t.In(loc).Zone()
	return a != b
}

// A locked route's line says it is kept from the previous plan; another
// route's does not.
func TestPrintMarksLockedRoutes(t *testing.T) {
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 3, 0, 0, 0, req.TimeZone())
	plan := engine.Result{Routes: []engine.Route{
		{ID: "R1", Trailer: req.Fleet[0].ID, TrailerUnit: req.Fleet[0].ID + "-01", Shift: req.Shifts[0].ID, Trip: 1, LoadingStart: start, Locked: true},
		{ID: "R2", Trailer: req.Fleet[0].ID, TrailerUnit: req.Fleet[0].ID + "-02", Shift: req.Shifts[1].ID, Trip: 1, LoadingStart: start},
	}}
	p := newPrinter(req, plan)
	var out bytes.Buffer
	for i := range plan.Routes {
		p.route(&out, &plan.Routes[i])
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "R1 (locked: kept from the previous plan)  ") || strings.Contains(lines[1], "locked") || !strings.HasPrefix(lines[1], "R2  ") {
		t.Errorf("printed:\n%s", out.String())
	}
}
