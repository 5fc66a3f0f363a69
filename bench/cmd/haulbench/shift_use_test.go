package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// TestShiftUse: three shifts of one trip each; the morning trip and the
// afternoon one fit one 14 h shift, the third overlaps both.
func TestShiftUse(t *testing.T) {
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	at := func(h float64) time.Time { return day.Add(time.Duration(h * float64(time.Hour))) }
	req := engine.Request{HoursOfService: constraints.HoursOfService{MaxDriving: 11 * time.Hour, MaxDuty: 14 * time.Hour, BreakAfter: 8 * time.Hour, BreakDuration: 30 * time.Minute}}
	for _, id := range []string{"D1", "D2", "D3"} {
		req.Shifts = append(req.Shifts, constraints.Shift{ID: id, Start: at(3), End: at(17)})
	}
	trip := func(id, shift, unit string, from, to float64) engine.Route {
		return engine.Route{ID: id, Shift: shift, TrailerUnit: unit, Start: at(from), Depart: at(from + 0.25), Return: at(to),
			Metrics: engine.RouteMetrics{Driving: 3 * time.Hour}}
	}
	plan := engine.Result{Routes: []engine.Route{
		trip("R1", "D1", "U1", 4, 10), trip("R2", "D2", "U1", 10.5, 16), trip("R3", "D3", "U2", 6, 12)}}
	u := measureShiftUse(req, plan)
	if u.chainable != 1 {
		t.Errorf("%d single-trip shifts could hand their trip on; want 1 (R2 after R1)", u.chainable)
	}
	if len(u.tripsPerShift) != 2 || u.tripsPerShift[1] != 3 || len(u.tripsPerUnit) != 3 || u.tripsPerUnit[1] != 1 || u.tripsPerUnit[2] != 1 {
		t.Errorf("shifts by trips %v, units by trips %v; want 3 of one trip, and one unit of one and one of two", u.tripsPerShift, u.tripsPerUnit)
	}
	var out bytes.Buffer
	writeShiftUse(&out, "day", u)
	if want := "day: shifts by trips 3×1; trailer units by trips 1×1 1×2; duty a shift 5.5/6.0/6.0 h"; !strings.HasPrefix(out.String(), want) {
		t.Errorf("wrote %q; want it to begin %q", out.String(), want)
	}
	// 6 + 5.5 + 6 h of trips fit two shifts of 14 h end to end.
	if u.tripDuty != 17*time.Hour+30*time.Minute || u.packed != 2 {
		t.Errorf("trips' duty %v, %d shifts' worth; want 17h30m and 2", u.tripDuty, u.packed)
	}
	// A limit of 10 h of duty keeps R2 off R1's shift.
	req.HoursOfService.MaxDuty = 10 * time.Hour
	if u := measureShiftUse(req, plan); u.chainable != 0 {
		t.Errorf("%d chainable under 10 h of duty; want 0", u.chainable)
	}
}
