package report

import (
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
)

// The workbook's sheets, in order.
const (
	SheetSummary    = "Summary"
	SheetChanges    = "Changes" // only when the plan carries changes
	SheetRoutes     = "Routes"
	SheetDrivers    = "Drivers"
	SheetDock       = "Dock"
	SheetStops      = "Stops"
	SheetLoad       = "Load"
	SheetAxles      = "Axle loads"
	SheetUnassigned = "Unassigned"
)

// DispatchSummary writes the dispatch summary of plan as an .xlsx workbook
// to w: the sheets Summary, Routes (a trip each: its trailer unit, shift,
// trip number, dock door and times), Drivers (a shift each: its trips,
// duty, driving and cost), Dock (a loading each: door, trailer unit, route,
// trip, loading, staging and departure), Stops (with the hours-of-service
// breaks taken at them), Load (where each pallet stands), Axle loads (at
// departure and after each stop) and Unassigned. A plan that carries
// changes from a previous plan (Result.Changes) also has the sheet
// Changes after the Summary: a row for each store change on each trailer
// trip it touches, grouped by trip so that loaders and drivers find the
// paperwork that changed; the Summary then counts the changes and the
// locked routes, and the Routes sheet says which routes are locked.
//
// Each sheet is one table: a frozen header row, an autofilter over the
// header and its rows, columns wide enough for their contents, and a
// dimension that states the table's range, for readers that trust it.
// Rows, zones and stops are numbered from 1. Instants are Excel
// date-times in the request's time zone, durations Excel times shown
// [h]:mm, distances kilometres, weights kilograms,
// utilisation percentages: numbers a planner can sort and add up, never
// numbers printed as text. The long sheets are written with excelize's
// streaming writer, and so, to keep one way of writing a sheet, are the
// short ones.
func DispatchSummary(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	f := excelize.NewFile()
	defer f.Close()
	st, err := newStyles(f)
	if err != nil {
		return err
	}
	if err := f.SetSheetName("Sheet1", SheetSummary); err != nil {
		return err
	}
	tables := []*table{d.summaryTable(st)}
	if d.plan.Changes != nil {
		tables = append(tables, d.changesTable(st))
	}
	tables = append(tables, d.routesTable(st), d.driversTable(st), d.dockTable(st),
		d.stopsTable(st), d.loadTable(st), d.axlesTable(st), d.unassignedTable(st))
	for _, s := range tables[1:] {
		if _, err := f.NewSheet(s.sheet); err != nil {
			return err
		}
	}
	for _, s := range tables {
		if err := s.write(f, st); err != nil {
			return fmt.Errorf("report: sheet %s: %w", s.sheet, err)
		}
	}
	f.SetActiveSheet(0)
	_, err = f.WriteTo(w)
	return err
}

// styles are the workbook's cell styles, by what the cell holds.
type styles struct {
	header, text, int, day, dateTime, duration, km, kg, pct, money, dec int
}

func newStyles(f *excelize.File) (*styles, error) {
	var st styles
	var err error
	add := func(dst *int, s *excelize.Style) {
		if err != nil {
			return
		}
		*dst, err = f.NewStyle(s)
	}
	custom := func(code string) *excelize.Style { return &excelize.Style{CustomNumFmt: &code} }
	add(&st.header, &excelize.Style{
		Font:      &excelize.Font{Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DCE6F1"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "7F7F7F", Style: 1}},
		Alignment: &excelize.Alignment{Vertical: "center"},
	})
	add(&st.text, &excelize.Style{})
	add(&st.int, custom("0"))
	add(&st.day, custom("dddd yyyy-mm-dd"))
	add(&st.dateTime, custom("yyyy-mm-dd hh:mm"))
	add(&st.duration, custom("[h]:mm"))
	add(&st.km, custom("#,##0.0"))
	add(&st.kg, custom("#,##0"))
	add(&st.pct, custom("0.0%"))
	add(&st.money, custom("#,##0.00"))
	add(&st.dec, custom("0.00"))
	return &st, err
}

// column is one column of a table: its header, cell style and the width
// its formatted numbers need (strings are measured).
type column struct {
	head  string
	style int
	width float64
}

// table is a sheet's header row and data rows, from cell A1.
type table struct {
	sheet string
	cols  []column
	rows  [][]any
}

// widths are the column widths that fit the header and every cell.
func (t *table) widths() []float64 {
	ws := make([]float64, len(t.cols))
	for i, c := range t.cols {
		ws[i] = max(c.width, float64(utf8.RuneCountInString(c.head))+3) // room for the filter button
	}
	for _, r := range t.rows {
		for i, v := range r {
			if c, ok := v.(cellStyled); ok {
				v = c.v
			}
			if s, ok := v.(string); ok {
				ws[i] = max(ws[i], float64(utf8.RuneCountInString(s))+1)
			}
		}
	}
	for i := range ws {
		ws[i] = min(ws[i], 60)
	}
	return ws
}

// write puts the table on its sheet: dimension, widths, frozen header row,
// header, rows, autofilter. The streaming writer writes the dimension when
// it starts and the autofilter when it flushes, from the sheet's settings
// at those moments, so the one is set before it starts and the other
// before it flushes.
func (t *table) write(f *excelize.File, st *styles) error {
	if err := f.SetSheetDimension(t.sheet, t.ref()); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(t.sheet)
	if err != nil {
		return err
	}
	for i, w := range t.widths() {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	header := make([]any, len(t.cols))
	for i, c := range t.cols {
		header[i] = excelize.Cell{StyleID: st.header, Value: c.head}
	}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	for r, row := range t.rows {
		out := make([]any, len(row))
		for i, v := range row {
			switch c := v.(type) {
			case nil:
			case cellStyled:
				out[i] = excelize.Cell{StyleID: c.style, Value: c.v}
			default:
				out[i] = excelize.Cell{StyleID: t.cols[i].style, Value: v}
			}
		}
		if err := sw.SetRow(cellName(1, r+2), out); err != nil {
			return err
		}
	}
	if err := f.AutoFilter(t.sheet, t.ref(), nil); err != nil {
		return err
	}
	return sw.Flush()
}

// ref is the table's range: the header and every row.
func (t *table) ref() string {
	return cellName(1, 1) + ":" + cellName(len(t.cols), len(t.rows)+1)
}

// cellName is the name of the cell in column col and row row, both from 1.
func cellName(col, row int) string {
	c, _ := excelize.CoordinatesToCellName(col, row)
	return c
}

// excelTime is t as the wall-clock time of the request's zone, which is
// what excelize writes as a date-time serial.
func (d *day) excelTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.In(d.loc)
}

// excelDuration is d as a fraction of a day, Excel's form of a duration.
func excelDuration(x time.Duration) float64 { return x.Hours() / 24 }

// ratio is a/b, or nil (an empty cell) when b is zero.
func ratio(a, b float64) any {
	if b == 0 {
		return nil
	}
	return a / b
}
