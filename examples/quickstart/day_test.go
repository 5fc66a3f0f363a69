package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// After the routes, the printout lists each driver shift's trips (shift,
// trips, time on duty, routes with their trailer units) and the dock's
// loadings by door (loading window, route, trip, unit, staging, hook-up):
// a day of two shifts of three and two trips, two units, two doors, built
// by hand in the sample's zone. The printout reads the routes' times and
// names only, so the routes carry no stops.
func TestQuickstartPrintsDriversAndDock(t *testing.T) {
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	req.DC.DockDoors = 2
	loc, _ := time.LoadLocation("America/Chicago")
	at := func(h, m int) time.Time { return time.Date(2026, 11, 24, h, m, 0, 0, loc) }
	trip := func(id, shift, unit string, n, door int, load, start, back time.Time) engine.Route {
		return engine.Route{ID: id, Trailer: "DRY53", Shift: shift, Trip: n, TrailerUnit: unit, DockDoor: door,
			LoadingStart: load, LoadingEnd: load.Add(22 * time.Minute), Start: start, Depart: start.Add(15 * time.Minute), Return: back}
	}
	plan := engine.Result{Routes: []engine.Route{
		trip("R1", "D01", "DRY53-01", 1, 1, at(2, 0), at(3, 0), at(5, 1)),
		trip("R2", "D02", "DRY53-02", 1, 2, at(2, 10), at(4, 0), at(6, 21)),
		trip("R3", "D01", "DRY53-01", 2, 1, at(5, 35), at(6, 0), at(7, 41)),
		trip("R4", "D02", "DRY53-02", 2, 2, at(6, 55), at(7, 20), at(9, 30)),
		trip("R5", "D01", "DRY53-01", 3, 1, at(8, 15), at(8, 45), at(10, 35)),
	}}
	plan.Metrics = engine.Metrics{Routes: 5, ShiftsUsed: 2, ShiftsLowerBound: 1, TrailerUnitsUsed: 2, TrailerUnitsLowerBound: 2, PeakDockDoors: 2}
	var out bytes.Buffer
	summary(&out, req, plan, "hand-built day", 0)
	s := out.String()
	for _, want := range []string{`
Drivers: 2 shifts drive 5 trips
  shift  trips  on duty       duty  routes (trailer units)
  D01        3  03:00-10:35   7:35  R1 (DRY53-01), R3 (DRY53-01), R5 (DRY53-01)
  D02        2  04:00-09:30   5:30  R2 (DRY53-02), R4 (DRY53-02)
`, `
Dock: 2 doors, at most 2 loading at once
  door  loading      route  trip  trailer unit  staged  on duty
     1  02:00-02:22  R1        1  DRY53-01        0:38  03:00
     1  05:35-05:57  R3        2  DRY53-01        0:03  06:00
     1  08:15-08:37  R5        3  DRY53-01        0:08  08:45
     2  02:10-02:32  R2        1  DRY53-02        1:28  04:00
     2  06:55-07:17  R4        2  DRY53-02        0:03  07:20
`, "R3  53 ft dry van DRY53-01, shift D01 trip 2: loading at door 1 Tue 24 Nov 05:35-05:57, driver on duty 06:00, depart 06:15, back 07:41",
		" driven by 2 shifts (at least 1) with 2 trailer units (at least 2), "} {
		if !strings.Contains(s, want) {
			t.Errorf("the printout lacks\n%s\nin\n%s", want, s)
		}
	}
}
