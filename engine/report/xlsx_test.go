package report

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
)

// reopenedSummary writes the dispatch summary of plan and reads it back,
// as a user's spreadsheet program would open it; the file closes with the
// test.
func reopenedSummary(t *testing.T, req engine.Request, plan engine.Result) *excelize.File {
	t.Helper()
	var buf bytes.Buffer
	if err := DispatchSummary(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestDispatchSummaryReopens(t *testing.T) {
	req, plan := samplePlan(t)
	f := reopenedSummary(t, req, plan)
	want := []string{SheetSummary, SheetRoutes, SheetDrivers, SheetDock, SheetStops, SheetLoad, SheetAxles, SheetUnassigned}
	if got := f.GetSheetList(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	for sheet, head := range sheetHeads {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 || fmt.Sprint(rows[0]) != fmt.Sprint(head) {
			t.Errorf("%s: header %v, want %v", sheet, rows, head)
		}
		panes, err := f.GetPanes(sheet)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s: header row not frozen: %+v %v", sheet, panes, err)
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
	col := func(name string) int { return 1 + slices.Index(routesHead, name) }
	for i, r := range plan.Routes {
		row := i + 2
		if got := raw(SheetRoutes, cellName(1, row)); got != r.ID {
			t.Errorf("Routes row %d: id %q, want %q", row, got, r.ID)
		}
		dep, err := excelize.ExcelDateToTime(num(SheetRoutes, cellName(col("Departure"), row)), false)
		if err != nil {
			t.Fatal(err)
		}
		local := r.Depart.In(loc)
		if dep.Format("2006-01-02 15:04:05") != local.Format("2006-01-02 15:04:05") {
			t.Errorf("%s departs %v in the sheet, %v in the plan", r.ID, dep, local)
		}
		if km := num(SheetRoutes, cellName(col("km"), row)); math.Abs(km-r.Metrics.DistanceM/1000) > 1e-6 {
			t.Errorf("%s: %v km, want %v", r.ID, km, r.Metrics.DistanceM/1000)
		}
		if n := num(SheetRoutes, cellName(col("Pallets"), row)); int(n) != r.Metrics.Pallets {
			t.Errorf("%s: %v pallets, want %d", r.ID, n, r.Metrics.Pallets)
		}
	}
	// The departure cell is shown as a date and time, not a number.
	if s, _ := f.GetCellValue(SheetRoutes, cellName(col("Departure"), 2)); len(s) != len("2006-01-02 15:04") {
		t.Errorf("Routes' first departure shows %q, want a date and time", s)
	}
	// Stops in route order, numbered from 1.
	stops, _ := f.GetRows(SheetStops)
	row := 1
	for _, r := range plan.Routes {
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
	// The Load sheet holds every placement, and nothing to the right of
	// its table; rows and zones count from 1, as a person counts them.
	load, _ := f.GetRows(SheetLoad)
	row = 1
	for _, r := range plan.Routes {
		for _, p := range r.Load.Placements {
			got := load[row]
			if len(got) > len(loadHead) {
				t.Fatalf("Load row %d has %d cells, its table %d columns", row+1, len(got), len(loadHead))
			}
			if got[0] != r.ID || got[3] != p.Pallet || got[4] != strconv.Itoa(p.Row+1) || got[7] != strconv.Itoa(p.Zone+1) {
				t.Fatalf("Load row %d: %v; want route %s, pallet %s, row %d, zone %d", row+1, got, r.ID, p.Pallet, p.Row+1, p.Zone+1)
			}
			if want := map[int]string{0: "floor", 1: "stacked"}[p.Level]; got[6] != want {
				t.Errorf("Load row %d: level %q, want %q", row+1, got[6], want)
			}
			row++
		}
	}
	if row != len(load) {
		t.Errorf("Load lists %d pallets, the plan places %d", len(load)-1, row-1)
	}
	// The axle loads, on a sheet of their own: departure, then after
	// each stop, numbered from 1.
	axles, _ := f.GetRows(SheetAxles)
	row = 1
	for _, r := range plan.Routes {
		for _, a := range r.Load.Axles {
			want := "departure"
			if a.AfterStop >= 0 {
				want = "stop " + strconv.Itoa(a.AfterStop+1)
			}
			if got := axles[row]; got[0] != r.ID || got[1] != want {
				t.Fatalf("Axle loads row %d: %v, want %s after %s", row+1, got, r.ID, want)
			}
			if kg := num(SheetAxles, cellName(4, row+1)); math.Abs(kg-a.KingpinKg) > 1e-6 {
				t.Errorf("Axle loads row %d: kingpin %v kg, want %v", row+1, kg, a.KingpinKg)
			}
			row++
		}
	}
	if row != len(axles) {
		t.Errorf("Axle loads lists %d loads, the plan %d", len(axles)-1, row-1)
	}
	if got := num(SheetSummary, "B4"); int(got) != plan.Metrics.Routes {
		t.Errorf("Summary routes %v, want %d", got, plan.Metrics.Routes)
	}
}

// sheetHeads are the column headers of each sheet.
var sheetHeads = map[string][]string{SheetSummary: summHead, SheetRoutes: routesHead, SheetDrivers: driversHead, SheetDock: dockHead,
	SheetStops: stopsHead, SheetLoad: loadHead, SheetAxles: axleHead, SheetUnassigned: unassHead}

// TestDispatchSummaryRanges reads the saved file's sheet XML, as a reader
// that trusts it does: each sheet declares its table's range as its
// dimension, and an autofilter covers exactly that range, header and
// rows, with or without unassigned pallets.
func TestDispatchSummaryRanges(t *testing.T) {
	req, plan := samplePlan(t)
	short := plan
	short.Routes = plan.Routes[1:]
	short.Unassigned = nil
	for _, s := range plan.Routes[0].Stops {
		for _, id := range s.Pallets {
			short.Unassigned = append(short.Unassigned, unassigned(id, s.Store))
		}
	}
	for _, p := range []engine.Result{plan, short} {
		var buf bytes.Buffer
		if err := DispatchSummary(&buf, req, p); err != nil {
			t.Fatal(err)
		}
		stops, placements, axles := 0, 0, 0
		for _, r := range p.Routes {
			stops += len(r.Stops)
			placements += len(r.Load.Placements)
			axles += len(r.Load.Axles)
		}
		f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		summary, _ := f.GetRows(SheetSummary)
		f.Close()
		shifts := map[string]bool{}
		for _, r := range p.Routes {
			shifts[r.Shift] = true
		}
		rows := map[string]int{SheetRoutes: len(p.Routes), SheetDrivers: len(shifts), SheetDock: len(p.Routes), SheetStops: stops, SheetLoad: placements, SheetAxles: axles,
			SheetUnassigned: len(p.Unassigned), SheetSummary: len(summary) - 1}
		sheets := sheetXML(t, buf.Bytes())
		for sheet, head := range sheetHeads {
			x, ok := sheets[sheet]
			if !ok {
				t.Fatalf("no sheet %s in the file", sheet)
			}
			want := "A1:" + cellName(len(head), rows[sheet]+1)
			if got := xmlRef(x, "dimension"); got != want {
				t.Errorf("%s (%d unassigned): <dimension ref=%q>, want %q", sheet, len(p.Unassigned), got, want)
			}
			// excelize writes the filter's range with absolute references,
			// $A$1:$E$9, as Excel's defined name for it does.
			if got := strings.ReplaceAll(xmlRef(x, "autoFilter"), "$", ""); got != want {
				t.Errorf("%s (%d unassigned): <autoFilter ref=%q>, want %q", sheet, len(p.Unassigned), got, want)
			}
		}
	}
}

// sheetXML unzips a workbook and returns each sheet's XML by the sheet's
// name, following the workbook's relationships.
func sheetXML(t *testing.T, xlsx []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = b
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			ID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(files["xl/workbook.xml"], &wb); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(files["xl/_rels/workbook.xml.rels"], &rels); err != nil {
		t.Fatal(err)
	}
	target := map[string]string{}
	for _, r := range rels.Rels {
		target[r.ID] = "xl/" + strings.TrimPrefix(r.Target, "/xl/")
	}
	out := map[string]string{}
	for _, s := range wb.Sheets {
		b, ok := files[target[s.ID]]
		if !ok {
			t.Fatalf("sheet %s: no part %q", s.Name, target[s.ID])
		}
		out[s.Name] = string(b)
	}
	return out
}

// xmlRef is the ref attribute of the first element named name in a
// sheet's XML, or "" when it has none.
func xmlRef(sheet, name string) string {
	dec := xml.NewDecoder(strings.NewReader(sheet))
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == name {
			for _, a := range se.Attr {
				if a.Name.Local == "ref" {
					return a.Value
				}
			}
			return ""
		}
	}
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
	f := reopenedSummary(t, req, p)
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

// The Stops sheet says at which stops the drivers take their
// hours-of-service breaks and how long each lasts, and how much of it is
// rest after unloading; the other stops leave both cells empty.
func TestDispatchSummaryBreaks(t *testing.T) {
	req, plan := breaksPlan(t)
	if len(breakStops(plan)) == 0 {
		t.Fatal("setup: the plan takes no break")
	}
	f := reopenedSummary(t, req, plan)
	col := func(name string) int { return 1 + slices.Index(stopsHead, name) }
	row := 2
	for _, r := range plan.Routes {
		for _, s := range r.Stops {
			brk, _ := f.GetCellValue(SheetStops, cellName(col("Break"), row), excelize.Options{RawCellValue: true})
			rest, _ := f.GetCellValue(SheetStops, cellName(col("Rest in break"), row), excelize.Options{RawCellValue: true})
			if s.Break == nil {
				if brk != "" || rest != "" {
					t.Errorf("Stops row %d (%s %s): break %q, rest %q on a stop with no break", row, r.ID, s.Store, brk, rest)
				}
				row++
				continue
			}
			for _, c := range []struct {
				name, cell string
				want       time.Duration
			}{{"break", brk, s.Break.Duration}, {"rest", rest, s.Break.Rest}} {
				days, err := strconv.ParseFloat(c.cell, 64)
				if err != nil || math.Abs(days*86400-c.want.Seconds()) > 1e-3 {
					t.Errorf("Stops row %d (%s %s): %s %q, want %v", row, r.ID, s.Store, c.name, c.cell, c.want)
				}
			}
			row++
		}
	}
	summary, _ := f.GetRows(SheetSummary)
	i := slices.IndexFunc(summary, func(r []string) bool { return r[0] == "Breaks" })
	if i < 0 || summary[i][1] != strconv.Itoa(len(breakStops(plan))) {
		t.Errorf("Summary: breaks %v, the plan takes %d", summary, len(breakStops(plan)))
	}
}
