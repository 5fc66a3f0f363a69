package report

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestDispatchSummaryReopens(t *testing.T) {
	req, plan := samplePlan(t)
	var buf bytes.Buffer
	if err := DispatchSummary(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{SheetSummary, SheetRoutes, SheetStops, SheetLoad, SheetUnassigned}
	if got := f.GetSheetList(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	heads := map[string][]string{SheetSummary: summHead, SheetRoutes: routesHead, SheetStops: stopsHead, SheetLoad: loadHead, SheetUnassigned: unassHead}
	for sheet, head := range heads {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 || fmt.Sprint(rows[0][:len(head)]) != fmt.Sprint(head) {
			t.Errorf("%s: header %v, want %v", sheet, rows, head)
		}
		panes, err := f.GetPanes(sheet)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s: header row not frozen: %+v %v", sheet, panes, err)
		}
	}
	filtered := map[string]bool{}
	for _, n := range f.GetDefinedName() {
		if n.Name == "_xlnm._FilterDatabase" {
			filtered[n.Scope] = true
		}
	}
	for _, sheet := range want {
		if !filtered[sheet] {
			t.Errorf("%s has no autofilter (defined names %+v)", sheet, f.GetDefinedName())
		}
	}
	loc := req.TimeZone()
	raw := func(sheet, cell string) string {
		t.Helper()
		v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	num := func(sheet, cell string) float64 {
		t.Helper()
		x, err := strconv.ParseFloat(raw(sheet, cell), 64)
		if err != nil {
			t.Fatalf("%s!%s: %v", sheet, cell, err)
		}
		return x
	}
	// Every route's row: id, departure as a date-time in the request's
	// zone, km and pallets.
	for i, r := range plan.Routes {
		row := i + 2
		if got := raw(SheetRoutes, cellName(1, row)); got != r.ID {
			t.Errorf("Routes row %d: id %q, want %q", row, got, r.ID)
		}
		dep, err := excelize.ExcelDateToTime(num(SheetRoutes, cellName(6, row)), false)
		if err != nil {
			t.Fatal(err)
		}
		local := r.Depart.In(loc)
		if dep.Format("2006-01-02 15:04:05") != local.Format("2006-01-02 15:04:05") {
			t.Errorf("%s departs %v in the sheet, %v in the plan", r.ID, dep, local)
		}
		if km := num(SheetRoutes, cellName(13, row)); math.Abs(km-r.Metrics.DistanceM/1000) > 1e-6 {
			t.Errorf("%s: %v km, want %v", r.ID, km, r.Metrics.DistanceM/1000)
		}
		if n := num(SheetRoutes, cellName(9, row)); int(n) != r.Metrics.Pallets {
			t.Errorf("%s: %v pallets, want %d", r.ID, n, r.Metrics.Pallets)
		}
	}
	// The departure cell is shown as a date and time, not a number.
	if s, _ := f.GetCellValue(SheetRoutes, "F2"); len(s) != len("2006-01-02 15:04") {
		t.Errorf("Routes!F2 shows %q, want a date and time", s)
	}
	// Stops in route order, and the Load sheet holds every placement.
	stops, _ := f.GetRows(SheetStops)
	load, _ := f.GetRows(SheetLoad)
	row, placements := 1, 0
	for _, r := range plan.Routes {
		placements += len(r.Load.Placements)
		for k, s := range r.Stops {
			got := stops[row]
			if got[0] != r.ID || got[1] != strconv.Itoa(k+1) || got[2] != s.Store {
				t.Fatalf("Stops row %d: %v, want %s %d %s", row+1, got[:3], r.ID, k+1, s.Store)
			}
			if w := num(SheetStops, cellName(10, row+1)); math.Abs(w*86400-s.Wait.Seconds()) > 1e-3 {
				t.Errorf("Stops row %d: wait %v days, want %v", row+1, w, s.Wait)
			}
			row++
		}
	}
	pallets := 0
	for _, r := range load[1:] {
		if len(r) > 0 && r[0] != "" {
			pallets++
		}
	}
	if pallets != placements {
		t.Errorf("Load lists %d pallets, the plan places %d", pallets, placements)
	}
	if got := num(SheetSummary, "B4"); int(got) != plan.Metrics.Routes {
		t.Errorf("Summary routes %v, want %d", got, plan.Metrics.Routes)
	}
	if tables, err := f.GetTables(SheetLoad); err != nil || len(tables) != 1 {
		t.Errorf("Load: axle table %v %v", tables, err)
	}
}

func cellName(col, row int) string {
	c, _ := excelize.CoordinatesToCellName(col, row)
	return c
}

func TestDispatchSummaryUnassigned(t *testing.T) {
	req, plan := samplePlan(t)
	p := plan
	p.Routes = plan.Routes[1:]
	p.Unassigned = nil
	for _, s := range plan.Routes[0].Stops {
		for _, id := range s.Pallets {
			p.Unassigned = append(p.Unassigned, unassigned(id, s.Store))
		}
	}
	var buf bytes.Buffer
	if err := DispatchSummary(&buf, req, p); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows(SheetUnassigned)
	if len(rows) != 1+len(p.Unassigned) {
		t.Fatalf("%d rows for %d unassigned pallets", len(rows), len(p.Unassigned))
	}
	u := p.Unassigned[0]
	if got := rows[1]; got[0] != u.Pallet || got[1] != u.Store || got[3] != u.Reason || got[4] != u.Message {
		t.Errorf("Unassigned row %v, want %+v", got, u)
	}
	if day, _ := f.GetCellValue(SheetSummary, "B2"); day != "Tuesday 2026-11-24" {
		t.Errorf("Summary day shows %q", day)
	}
}
