package engine

import (
	"math"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/routeplan"
)

// TestDoorTimeFreed: the door time a round freed is where its solution
// had every door loading and the routes kept leave one free, in the run
// of free door time around it; a round whose kept routes load wherever
// its solution had the doors full frees none, whatever time was free
// before.
func TestDoorTimeFreed(t *testing.T) {
	w := func(a, b float64) routeplan.Window { return routeplan.Window{Start: a, End: b} }
	inf := math.Inf(1)
	for _, tc := range []struct {
		name    string
		before  []routeplan.Window
		planned []tripLoading
		after   []routeplan.Window
		want    []doorRun
	}{
		{"a rejected trip frees its loading", []routeplan.Window{w(0, 100)}, []tripLoading{{0, 100}, {100, 200}},
			[]routeplan.Window{w(0, 100)}, []doorRun{{start: math.Inf(-1), end: inf, firstFreed: 0, freed: true}}},
		{"a rejected trip where a door was free frees nothing", []routeplan.Window{w(0, 100)}, []tripLoading{{0, 100}, {100, 200}},
			[]routeplan.Window{w(0, 100), w(0, 100)}, nil},
		{"freed in the second of two runs", []routeplan.Window{w(0, 100), w(0, 100), w(200, 300)}, []tripLoading{{200, 300}},
			[]routeplan.Window{w(0, 100), w(0, 100), w(200, 300)}, []doorRun{{start: 100, end: inf, firstFreed: 200, freed: true}}},
		{"all kept: nothing freed", []routeplan.Window{w(0, 100)}, []tripLoading{{0, 100}},
			[]routeplan.Window{w(0, 100), w(0, 100)}, nil},
		{"kept elsewhere: the full time freed", nil, []tripLoading{{0, 100}, {0, 100}},
			[]routeplan.Window{w(0, 100), w(100, 200), w(100, 200)}, []doorRun{{start: math.Inf(-1), end: 100, firstFreed: 0, freed: true}}},
		{"the doors never full", nil, []tripLoading{{0, 100}}, nil, nil},
	} {
		got := doorTimeFreed(2, tc.before, tc.planned, tc.after)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %v; want %v", tc.name, got, tc.want)
		}
		for k := range got {
			if got[k] != tc.want[k] {
				t.Fatalf("%s: %v; want %v", tc.name, got, tc.want)
			}
		}
	}
}

// TestLoadsInFreedTime: an order whose store closes at 06:00 cannot load
// in door time freed from 07:00 (routing time 3 h: the day starts with
// the shifts at 04:00), an order of a store open all day can; freed door
// time from 04:00 on serves both, and a run of free door time shorter
// than the order's own loading serves neither.
func TestLoadsInFreedTime(t *testing.T) {
	req := spareRoomRequest()
	early := map[string][]constraints.Opening{} // the stores share one map of days
	for d := range req.Stores[0].Hours.Days {
		early[d] = []constraints.Opening{{Open: "00:00", Close: "06:00"}}
	}
	req.Stores[0].Hours.Days = early
	m, _, orders, _ := orderedDay(t, req, time.Now)
	s0, s1 := orders[0], orders[1]
	if m.req.Stores[s0.store].ID != "S0" {
		s0, s1 = s1, s0
	}
	inf := math.Inf(1)
	for _, tc := range []struct {
		name        string
		runs        []doorRun
		early, late bool
	}{
		{"freed from 07:00", []doorRun{{start: 3 * 3600, end: inf, firstFreed: 3 * 3600, freed: true}}, false, true},
		{"freed from 04:00", []doorRun{{start: 0, end: inf, firstFreed: 0, freed: true}}, true, true},
		{"a free minute", []doorRun{{start: 0, end: 60, firstFreed: 0, freed: true}}, false, false},
		{"nothing freed", nil, false, false},
	} {
		if got := m.loadsInFreedTime(s0, tc.runs); got != tc.early {
			t.Errorf("%s: the order of the store closing at 06:00 loads %v; want %v", tc.name, got, tc.early)
		}
		if got := m.loadsInFreedTime(s1, tc.runs); got != tc.late {
			t.Errorf("%s: the order of the store open all day loads %v; want %v", tc.name, got, tc.late)
		}
	}
}
