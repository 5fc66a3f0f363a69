package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"pgregory.net/rapid"
)

// plantedTripsDay is a request built around a day one driver drives in
// trips, known to be feasible, and the shifts that day takes.
type plantedTripsDay struct {
	req    Request
	shifts int
}

// genPlantedTrips draws 1-2 planted shifts of 3 trips of 1-3 stores each,
// timed by the request's own travel: each trip hooks up when the one
// before is back (the first at the shift's start), drives to its stores in
// turn, unloads, and returns. Stores lie within 12 km of the DC, so that a
// shift drives far less than the 8 h after which the break rule asks for
// a break, and a trip carries 16 to 21 of a 30-position trailer's
// pallets: every floor takes its load, and no two trips' loads share a
// trailer, so that with one shift more than planted some shift must still
// drive several trips. Each store opens
// a window from 1 to 40 minutes before its planted arrival to 1 to 60
// minutes after it. The fleet: a trailer unit per planted trip, or as
// few as the planted trips hold at once (from loading to back and turned
// around), the planted shifts and one spare, the DC's hook-up, turnaround, loading and
// staging drawn (loading ahead needs staging: a trip's trailer is loaded
// while the one before is out), and the drivers objective.
func genPlantedTrips(t *rapid.T) plantedTripsDay {
	dc := geo.Point{Lat: 32.59, Lng: -96.75}
	hook := time.Duration(rapid.IntRange(1, 20).Draw(t, "hook")) * time.Minute
	req := Request{
		DC: DC{ID: "DC", Location: dc, LoadingPerPallet: time.Duration(rapid.IntRange(0, 90).Draw(t, "loadPerPallet")) * time.Second,
			HookTime: hook, TrailerTurnaround: time.Duration(rapid.IntRange(1, 45).Draw(t, "turnaround")) * time.Minute,
			MaxStaging: 12 * time.Hour, LoadingFixed: time.Duration(rapid.IntRange(0, 15).Draw(t, "loadingFixed")) * time.Minute},
		Options: Options{TimeLimit: time.Minute, Iterations: 300, Seed: rapid.Int64Range(0, 9).Draw(t, "seed"), Workers: 1, Objective: FewestDrivers},
	}
	shifts := rapid.IntRange(1, 2).Draw(t, "shifts")
	type stop struct {
		store   int
		pallets int
	}
	var trips [][]stop
	for range shifts {
		for range 3 {
			var trip []stop
			room := rapid.IntRange(16, 21).Draw(t, "load")
			for x, stops := 0, rapid.IntRange(1, 3).Draw(t, "stops"); x < stops; x++ {
				n := room // the last stop takes what is left
				if later := stops - 1 - x; later > 0 {
					n = rapid.IntRange(1, room-later).Draw(t, "pallets") // a pallet left for each later stop
				}
				room -= n
				trip = append(trip, stop{len(req.Stores), n})
				req.Stores = append(req.Stores, Store{ID: fmt.Sprint("S", len(req.Stores)),
					Location:  offsetPoint(dc, rapid.Float64Range(-8, 8).Draw(t, "north"), rapid.Float64Range(-8, 8).Draw(t, "east")),
					Unloading: Unloading{Fixed: time.Duration(rapid.IntRange(0, 15).Draw(t, "fixed")) * time.Minute, PerPallet: time.Minute}})
			}
			trips = append(trips, trip)
		}
	}
	points := []geo.Point{dc}
	for _, s := range req.Stores {
		points = append(points, s.Location)
	}
	mx, err := req.Travel.Matrix(context.Background(), points)
	if err != nil {
		t.Fatalf("travel: %v", err)
	}
	// Time the planted shifts, and open each store around its arrival.
	start := time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)
	k := 0
	var holds [][2]time.Time // each planted trip's unit, from loading to back and turned
	for s := range shifts {
		now := start
		for range len(trips) / shifts {
			trip := trips[k]
			k++
			load := 0
			for _, st := range trip {
				load += st.pallets
			}
			hold := [2]time.Time{now.Add(-req.DC.LoadingTime(load))}
			now = now.Add(hook)
			at := 0
			for _, st := range trip {
				now = now.Add(mx.Duration(at, 1+st.store).Truncate(time.Second) + time.Second)
				before := time.Duration(rapid.IntRange(1, 40).Draw(t, "early")) * time.Minute
				after := time.Duration(rapid.IntRange(1, 60).Draw(t, "late")) * time.Minute
				open, close := now.Add(-before).Truncate(time.Minute), now.Add(after+time.Minute).Truncate(time.Minute)
				req.Stores[st.store].Hours = constraints.WeeklyHours{TimeZone: "UTC",
					Days: map[string][]constraints.Opening{"tue": {{Open: open.Format("15:04"), Close: close.Format("15:04")}}}}
				now = now.Add(req.Stores[st.store].Unloading.Time(st.pallets))
				for p := range st.pallets {
					req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("P%d-%d", st.store, p), Store: req.Stores[st.store].ID,
						WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
				}
				at = 1 + st.store
			}
			now = now.Add(mx.Duration(at, 0).Truncate(time.Second) + time.Second)
			hold[1] = now.Add(req.DC.TrailerTurnaround)
			holds = append(holds, hold)
		}
		req.Shifts = append(req.Shifts, constraints.Shift{ID: fmt.Sprint("D", s), Start: start, End: now.Add(30 * time.Minute)})
	}
	// One spare shift, as long as the longest planted one.
	spare := req.Shifts[0]
	for _, s := range req.Shifts {
		if s.End.After(spare.End) {
			spare = s
		}
	}
	spare.ID = "D-spare"
	req.Shifts = append(req.Shifts, spare)
	units := len(trips)
	if rapid.Bool().Draw(t, "turning") {
		// As few units as the planted trips hold at once: units turn.
		units = 0
		for _, h := range holds {
			at := 0
			for _, o := range holds {
				if !o[0].After(h[0]) && h[0].Before(o[1]) {
					at++
				}
			}
			units = max(units, at)
		}
	}
	req.Fleet = []TrailerType{packingTrailer("DRY53", constraints.DryVan, units)}
	return plantedTripsDay{req, shifts}
}

// TestPlantedTripsAreFound: on a day planted with shifts of several trips,
// Plan delivers every pallet on at most the planted shifts and the spare
// one, and its plan passes Validate.
func TestPlantedTripsAreFound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		day := genPlantedTrips(t)
		plan := planOK(t, day.req)
		if len(plan.Unassigned) > 0 {
			u := plan.Unassigned[0]
			t.Fatalf("%d pallets unassigned, first %s: %s %s", len(plan.Unassigned), u.Pallet, u.Reason, u.Message)
		}
		if plan.Metrics.ShiftsUsed > day.shifts+1 {
			t.Fatalf("%d shifts used, %d planted", plan.Metrics.ShiftsUsed, day.shifts)
		}
	})
}
