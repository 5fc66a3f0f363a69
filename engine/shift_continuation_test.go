package engine

import (
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestLaterRoundDrivesOnWithTheShiftOut: loneHalvesRequest with one
// driver. The first routing round gives the shift one trip of the three
// stores, whose layout sends the last stop (S2, open from 10:00) back;
// the one shift then drives, and no shift is free for the second round.
// The shift's trip is back long before its end, so the second round
// gives it a second trip for S2: every pallet rides on the one shift,
// two trips, under every objective, and Validate accepts the plan (hours
// of service across the trips, trip order, the two units). Before, a
// later round could only open a shift, and S2's pallets that the first
// trip's spare floor could not take stayed FLEET_EXHAUSTED.
func TestLaterRoundDrivesOnWithTheShiftOut(t *testing.T) {
	for _, objective := range []Objective{FewestTrailers, FewestDrivers, LowestCost} {
		req := loneHalvesRequest()
		req.Shifts = req.Shifts[:1]
		req.Options.Objective = objective
		sentBack := false
		req.Options.Progress = func(p Progress) {
			if p.Phase == PhaseLayouts && p.Round == 1 {
				sentBack = p.Routes == 1 && p.Unassigned > 0
			}
		}
		plan := planOK(t, req)
		if !sentBack {
			t.Fatalf("%s: the first round did not keep one route and send a stop back: the request no longer tests a later round", objective)
		}
		if len(plan.Unassigned) > 0 {
			u := plan.Unassigned[0]
			t.Fatalf("%s: %d pallets unassigned, first %s %s (%s); want every pallet on the shift's trips", objective, len(plan.Unassigned), u.Pallet, u.Reason, u.Message)
		}
		if len(plan.Routes) != 2 || plan.Metrics.ShiftsUsed != 1 {
			t.Fatalf("%s: %d trips on %d shifts; want two trips of the one shift", objective, len(plan.Routes), plan.Metrics.ShiftsUsed)
		}
	}
}

// TestShiftAfterCountsTheShiftsHours: the group a shift that drove a trip
// gets for the trips after it starts when the trip is back, and the
// break first when the break rule would bind on the driving left; it
// ends at the shift's end or when the duty limit, counted from the first
// trip, runs out; it keeps the driving and trips the trip left, and a
// shift with neither gets none.
func TestShiftAfterCountsTheShiftsHours(t *testing.T) {
	req := spareRoomRequest()
	req.Shifts[0].MaxTrips = 3
	req.HoursOfService = constraints.HoursOfService{MaxDriving: 11 * time.Hour, MaxDuty: 14 * time.Hour,
		BreakAfter: 8 * time.Hour, BreakDuration: 30 * time.Minute}
	m, _, _, _ := orderedDay(t, req, time.Now)
	day := req.Shifts[0].Start // 04:00, the shift ends at 16:00
	at := func(h, min int) time.Time {
		return day.Add(time.Duration(h)*time.Hour + time.Duration(min)*time.Minute)
	}
	// trip drives from 04:15 to a stop at arrive, leaves it at leave and
	// is back at back.
	trip := func(arrive, leave, back time.Time) Route {
		return Route{Start: day, Depart: at(0, 15), Return: back, Stops: []Stop{{Arrival: arrive, Departure: leave}}}
	}
	for _, tc := range []struct {
		name             string
		trip             Route
		maxDuty          time.Duration
		maxTrips         int
		ok               bool
		start, end       time.Time
		driving, breakAt time.Duration
	}{
		// 2h45 out, 20 min at the stop (no break), 2h40 back: 5h25 driven
		// since the start, 5h35 left, more than the break rule's 2h35.
		{"rests first", trip(at(3, 0), at(3, 20), at(6, 0)), 14 * time.Hour, 3, true, at(6, 30), at(12, 0), 5*time.Hour + 35*time.Minute, 8 * time.Hour},
		// 3h45 out, 40 min at the stop (a break), 1h back: 6h15 left, and
		// the break rule leaves 7h: no need to rest.
		{"drives on", trip(at(4, 0), at(4, 40), at(5, 40)), 14 * time.Hour, 3, true, at(5, 40), at(12, 0), 6*time.Hour + 15*time.Minute, 7 * time.Hour},
		{"duty limit from the first trip", trip(at(3, 0), at(3, 20), at(6, 0)), 9 * time.Hour, 3, true, at(6, 30), at(9, 0), 5*time.Hour + 35*time.Minute, 8 * time.Hour},
		{"duty spent", trip(at(3, 0), at(3, 20), at(6, 0)), 6*time.Hour + 20*time.Minute, 3, false, time.Time{}, time.Time{}, 0, 0},
		{"trips spent", trip(at(3, 0), at(3, 20), at(6, 0)), 14 * time.Hour, 1, false, time.Time{}, time.Time{}, 0, 0},
	} {
		m.req.HoursOfService.MaxDuty = tc.maxDuty
		m.req.Shifts[0].MaxTrips = tc.maxTrips
		grp, ok := m.shiftAfter(0, []Route{tc.trip}, restWhenDue)
		if ok != tc.ok {
			t.Fatalf("%s: a group %v; want %v", tc.name, ok, tc.ok)
		}
		if !ok {
			continue
		}
		if !grp.start.Equal(tc.start) || !grp.end.Equal(tc.end) || grp.limits.MaxDriving != tc.driving ||
			grp.limits.BreakAfter != tc.breakAt || grp.limits.MaxDuty != tc.end.Sub(tc.start) || grp.maxTrips != tc.maxTrips-1 || grp.cost != 0 {
			t.Fatalf("%s: group %v–%v, limits %+v, %d trips, cost %v; want %v–%v, driving %v, break after %v, %d trips, no cost",
				tc.name, grp.start, grp.end, grp.limits, grp.maxTrips, grp.cost, tc.start, tc.end, tc.driving, tc.breakAt, tc.maxTrips-1)
		}
	}
}
