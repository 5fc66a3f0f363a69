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
	SheetRoutes     = "Routes"
	SheetStops      = "Stops"
	SheetLoad       = "Load"
	SheetUnassigned = "Unassigned"
)

// DispatchSummary writes the dispatch summary of plan as an .xlsx workbook
// to w: the sheets Summary, Routes, Stops, Load and Unassigned, each with a
// frozen header row, an autofilter and columns wide enough for their
// contents. Instants are Excel date-times in the request's time zone,
// durations Excel times shown [h]:mm, distances kilometres, weights
// kilograms, utilisation percentages: numbers a planner can sort and add
// up, never numbers printed as text. The long sheets (Routes, Stops, Load)
// are written with excelize's streaming writer, and so, to keep one way of
// writing a sheet, is the short Summary.
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
	for _, name := range []string{SheetRoutes, SheetStops, SheetLoad, SheetUnassigned} {
		if _, err := f.NewSheet(name); err != nil {
			return err
		}
	}
	for _, s := range []*table{d.summaryTable(st), d.routesTable(st), d.stopsTable(st), d.loadTable(st), d.unassignedTable(st)} {
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

// table is a header row and data rows for one block of a sheet, starting
// at column firstCol (1-based).
type table struct {
	sheet    string
	firstCol int
	cols     []column
	rows     [][]any
	next     *table // a table to the right on the same rows
	name     string // the Excel table's name, for a table to the right
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

// write puts the table (and those to its right) on its sheet: widths,
// frozen header row, header, rows, autofilter.
func (t *table) write(f *excelize.File, st *styles) error {
	blocks := []*table{}
	for b := t; b != nil; b = b.next {
		blocks = append(blocks, b)
	}
	header := func(b *table) []any {
		h := make([]any, len(b.cols))
		for i, c := range b.cols {
			h[i] = excelize.Cell{StyleID: st.header, Value: c.head}
		}
		return h
	}
	cells := func(b *table, r []any) []any {
		out := make([]any, len(r))
		for i, v := range r {
			if v == nil {
				continue
			}
			if c, ok := v.(cellStyled); ok {
				out[i] = excelize.Cell{StyleID: c.style, Value: c.v}
				continue
			}
			out[i] = excelize.Cell{StyleID: b.cols[i].style, Value: v}
		}
		return out
	}
	panes := &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}
	nrows := 0
	for _, b := range blocks {
		nrows = max(nrows, len(b.rows))
	}
	sw, err := f.NewStreamWriter(t.sheet)
	if err != nil {
		return err
	}
	for _, b := range blocks {
		for i, w := range b.widths() {
			if err := sw.SetColWidth(b.firstCol+i, b.firstCol+i, w); err != nil {
				return err
			}
		}
	}
	if err := sw.SetPanes(panes); err != nil {
		return err
	}
	for r := 0; r <= nrows; r++ {
		var row []any
		for _, b := range blocks {
			for len(row) < b.firstCol-1 {
				row = append(row, nil)
			}
			switch {
			case r == 0:
				row = append(row, header(b)...)
			case r-1 < len(b.rows):
				row = append(row, cells(b, b.rows[r-1])...)
			default:
				row = append(row, make([]any, len(b.cols))...)
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, r+1)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	for _, b := range blocks[1:] {
		if err := sw.AddTable(b.excelTable()); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}

	// The sheet's autofilter covers the first table; a table to its right
	// is an Excel table with a filter of its own, since a sheet has one
	// autofilter.
	return f.AutoFilter(t.sheet, t.ref(), nil)
}

// ref is the table's range, header included.
func (t *table) ref() string {
	first, _ := excelize.CoordinatesToCellName(t.firstCol, 1)
	last, _ := excelize.CoordinatesToCellName(t.firstCol+len(t.cols)-1, max(1, len(t.rows))+1)
	return first + ":" + last
}

// excelTable is the table as an Excel table named after it.
func (t *table) excelTable() *excelize.Table {
	return &excelize.Table{Range: t.ref(), Name: t.name, StyleName: "TableStyleLight1", ShowRowStripes: boolPtr(false)}
}

func boolPtr(b bool) *bool { return &b }

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
