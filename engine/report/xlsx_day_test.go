package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The Drivers sheet has a row per shift that drives, with its trips, duty
// and driving over all of them; the Dock sheet a row per loading by door
// and start; the Routes sheet each trip's unit, shift, trip, door and
// loading. Figures of the multi-trip day by hand (see multiTripTrips), as
// a spreadsheet shows them: [h]:mm drops the seconds (D1 is 2:02:42 at the
// DC between trips).
func TestDispatchSummaryDriversAndDock(t *testing.T) {
	req, plan := multiTripDay(t)
	f := reopenedSummary(t, req, plan)
	day := "2026-11-24 "
	checkRows(t, f, SheetDrivers, driversHead, [][]string{
		{"D1", "3", "R1 (DRY53-01), R3 (DRY53-01), R5 (DRY53-01)", day + "03:00", day + "17:00", day + "03:00", day + "10:35",
			"7:35", "3:29", "2:02", "209.3", "24", "250.00"},
		{"D2", "2", "R2 (DRY53-02), R4 (DRY53-02)", day + "04:00", day + "18:00", day + "04:00", day + "09:30",
			"5:30", "3:09", "0:58", "189.2", "16", "250.00"},
	})
	checkRows(t, f, SheetDock, dockHead, [][]string{
		{"1", day + "02:00", day + "02:22", "0:22", "R1", "1", "D1", "DRY53-01", "8", "0:38", day + "03:00", day + "03:15"},
		{"1", day + "05:35", day + "05:57", "0:22", "R3", "2", "D1", "DRY53-01", "8", "0:03", day + "06:00", day + "06:15"},
		{"1", day + "08:15", day + "08:37", "0:22", "R5", "3", "D1", "DRY53-01", "8", "0:08", day + "08:45", day + "09:00"},
		{"2", day + "02:10", day + "02:32", "0:22", "R2", "1", "D2", "DRY53-02", "8", "1:28", day + "04:00", day + "04:15"},
		{"2", day + "06:55", day + "07:17", "0:22", "R4", "2", "D2", "DRY53-02", "8", "0:03", day + "07:20", day + "07:35"},
	})
	// A shift's cost is its trips' and its own.
	rows, _ := f.GetRows(SheetDrivers)
	for k, sh := range []string{"D1", "D2"} {
		want := 250.0
		for _, r := range plan.Routes {
			if r.Shift == sh {
				want += r.Metrics.Cost
			}
		}
		got, err := strconv.ParseFloat(cell(t, f, SheetDrivers, cellName(len(driversHead), k+2)), 64)
		if err != nil || math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: cost %v, want %.2f (%v)", sh, rows[k+1], want, err)
		}
	}
	routes, _ := f.GetRows(SheetRoutes)
	col := func(name string) int { return slices.Index(routesHead, name) }
	for i, r := range plan.Routes {
		got := routes[i+1]
		want := []string{r.ID, r.TrailerUnit, r.Shift, strconv.Itoa(r.Trip), strconv.Itoa(r.DockDoor),
			r.LoadingStart.In(chicago).Format("2006-01-02 15:04"), r.Start.In(chicago).Format("2006-01-02 15:04")}
		have := []string{got[col("Route")], got[col("Trailer unit")], got[col("Shift")], got[col("Trip")], got[col("Dock door")],
			got[col("Loading start")], got[col("On duty")]}
		if !slices.Equal(have, want) {
			t.Errorf("Routes row %d: %v, want %v", i+2, have, want)
		}
	}
	summary, _ := f.GetRows(SheetSummary)
	for name, want := range map[string]string{"Shifts used": "2", "Shifts lower bound": "1", "Trailer units used": "2", "Trailer units lower bound": "1", "Peak dock doors": "2"} {
		i := slices.IndexFunc(summary, func(r []string) bool { return r[0] == name })
		if i < 0 || summary[i][1] != want {
			t.Errorf("Summary %s: %v, want %s", name, summary, want)
		}
	}
}

// checkRows compares a sheet's header and the leading cells of its rows,
// as shown, with want.
func checkRows(t *testing.T, f *excelize.File, sheet string, head []string, want [][]string) {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(want) || !slices.Equal(rows[0], head) {
		t.Fatalf("%s: %d rows under %v, want %d under %v", sheet, len(rows)-1, rows[0], len(want), head)
	}
	for i, w := range want {
		if got := rows[i+1]; len(got) < len(w) || !slices.Equal(got[:len(w)], w) {
			t.Errorf("%s row %d:\n got %q\nwant %q", sheet, i+2, got, w)
		}
	}
}

func cell(t *testing.T, f *excelize.File, sheet, name string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, name, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(fmt.Errorf("%s!%s: %w", sheet, name, err))
	}
	return v
}
