package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/loadplan"
)

// A DC day planted by hand with several trips per shift, trailer units
// that turn and dock doors that are shared. The planner drives one trip
// per shift, so these plans are the evidence that Validate knows the
// rules of several.
//
// Travel as in goldenVan: stores on the equator, 36 km/h, circuity 1, so
// the DC to A (0.1° east) or C (0.1° west) is 1,114 s and to B (0.2° east)
// 2,227 s. Every trip carries 2 pallets: loading 5 min + 2 × 1 min = 7 min,
// unloading 10 min + 2 × 2 min = 14 min. Hook-up 15 min (the default),
// turnaround 30 min (the default), 2 dock doors open 03:00–20:00, staging
// up to 2 h. All in UTC on 24 November 2026:
//
//	routes[0] D1 trip 1, VAN-01, door 1: loads 03:30–03:37, staged; on duty 04:00, departs 04:15 to A, back 05:06:08
//	routes[1] D2 trip 1, VAN-03, door 2: loads 03:35–03:42, staged; on duty 04:00, departs 04:15 to A, back 05:06:08
//	routes[2] D1 trip 2, VAN-02, door 1: loads 04:30–04:37, staged; on duty 05:20, departs 05:35 to B, back 07:03:14
//	routes[3] D2 trip 2, VAN-03, door 1: loads 05:40–05:47 (VAN-03 free at 05:36:08); on duty 05:50, departs 06:05 to C, back 06:56:08
//	routes[4] D1 trip 3, VAN-01, door 2: loads 06:00–06:07 (VAN-01 free at 05:36:08); on duty 07:10, departs 07:25 to C, back 08:16:08
//
// D1 (maxTrips 3, a cost of 200) is on duty 04:00–08:16:08, 4 h 16 min 8 s,
// and drives 37 min 8 s + 1 h 14 min 14 s + 37 min 8 s = 2 h 28 min 30 s;
// between its trips it stays at the DC 28 min 52 s (no break of 30 min)
// and 21 min 46 s. D2 stays 58 min 52 s between its two. Two loadings at
// once at most (03:35–03:37), three trailer units, two shifts.
func multiTripDay() (Request, Result) {
	open := constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "24:00")}
	store := func(id string, lng float64) Store {
		return Store{ID: id, Location: geo.Point{Lng: lng}, Hours: open, Unloading: Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}}
	}
	req := Request{
		DC: DC{ID: "DC", LoadingPerPallet: time.Minute, LoadingFixed: 5 * time.Minute, DockDoors: 2, MaxStaging: 2 * time.Hour,
			DockHours: &constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("03:00", "20:00")}},
		Stores: []Store{store("A", 0.1), store("B", 0.2), store("C", -0.1)},
		Fleet: []TrailerType{{ID: "VAN", Count: 3, Inside: Dimensions{LengthMM: 4000, WidthMM: 2500, HeightMM: 2600},
			PalletPositions: 8, PayloadKg: 10000, VolumeM3: 24, Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: constraints.AxleGeometry{KingpinMM: 600, AxleGroupMM: 3600, TareKg: 3000, TareCentreMM: 2100, KingpinLimitKg: 8000, AxleGroupLimitKg: 8000},
			Costs: Costs{Fixed: 100, PerKm: 2, PerHour: 30}}},
		Shifts: []constraints.Shift{
			{ID: "D1", Start: utc(4, 0, 0), End: utc(18, 0, 0), MaxTrips: 3, Cost: 200},
			{ID: "D2", Start: utc(4, 0, 0), End: utc(18, 0, 0)},
		},
		Travel: geo.TravelModel{SpeedKmh: 36, Circuity: 1},
	}
	type planted struct {
		shift, unit, store string
		trip, door         int
		loadStart, start   time.Time
	}
	trips := []planted{
		{"D1", "VAN-01", "A", 1, 1, utc(3, 30, 0), utc(4, 0, 0)},
		{"D2", "VAN-03", "A", 1, 2, utc(3, 35, 0), utc(4, 0, 0)},
		{"D1", "VAN-02", "B", 2, 1, utc(4, 30, 0), utc(5, 20, 0)},
		{"D2", "VAN-03", "C", 2, 1, utc(5, 40, 0), utc(5, 50, 0)},
		{"D1", "VAN-01", "C", 3, 2, utc(6, 0, 0), utc(7, 10, 0)},
	}
	var plan Result
	for i, p := range trips {
		r := Route{ID: fmt.Sprint("T", i+1), Trailer: "VAN", Shift: p.shift, Trip: p.trip, TrailerUnit: p.unit, DockDoor: p.door,
			LoadingStart: p.loadStart, LoadingEnd: p.loadStart.Add(7 * time.Minute), Start: p.start, Depart: p.start.Add(15 * time.Minute)}
		s := req.Stores[slices.IndexFunc(req.Stores, func(s Store) bool { return s.ID == p.store })]
		leg := req.Travel.Duration(req.DC.Location, s.Location)
		st := Stop{Store: s.ID, Arrival: r.Depart.Add(leg), Start: r.Depart.Add(leg)}
		st.Departure = st.Start.Add(14 * time.Minute)
		var lp []loadplan.Pallet
		for k := range 2 {
			pal := Pallet{ID: fmt.Sprintf("P%d%c", i+1, 'a'+k), Store: s.ID, WeightKg: 400, Footprint: Footprint{LengthMM: 1200, WidthMM: 1000}, HeightMM: 1000}
			req.Pallets = append(req.Pallets, pal)
			st.Pallets = append(st.Pallets, pal.ID)
			lp = append(lp, layoutPallet(pal, 0))
		}
		r.Stops = []Stop{st}
		r.Return = st.Departure.Add(leg)
		lay, err := loadplan.PlanTrailer(layoutTrailer(req.Fleet[0]), lp, 1)
		if err != nil {
			panic(err) // the test's own plan; 2 pallets fit 8 positions
		}
		r.Load = fromLayout(lay)
		plan.Routes = append(plan.Routes, r)
	}
	plan.Unassigned = []Unassigned{}
	plan.Metrics = Metrics{ShiftsUsed: 2, TrailerUnitsUsed: 3, PeakDockDoors: 2}
	return req, plan
}

// tripRuleViolations are Validate's violations of plan but the metrics the
// plan does not report (the routes' figures and their totals), so that
// the planted plan need not state them: the counts of shifts, units and
// doors it does state stay in view.
func tripRuleViolations(req Request, plan Result) constraints.Violations {
	var vs constraints.Violations
	stated := []string{"metrics.shiftsUsed", "metrics.trailerUnitsUsed", "metrics.peakDockDoors"}
	for _, v := range constraints.AsViolations(Validate(req, plan)) {
		if v.Code != CodeMetric || slices.Contains(stated, v.Path) {
			vs = append(vs, v)
		}
	}
	return vs
}

// TestMultiTripDayValidates: the planted day keeps every rule, times
// checked by hand against the comment of multiTripDay; and so do smaller
// days cut from it: D1 alone with its three trips, D2 alone with two.
func TestMultiTripDayValidates(t *testing.T) {
	req, plan := multiTripDay()
	if vs := tripRuleViolations(req, plan); len(vs) > 0 {
		t.Fatalf("the planted day: %v", vs)
	}
	want := []time.Time{utc(5, 6, 8), utc(5, 6, 8), utc(7, 3, 14), utc(6, 56, 8), utc(8, 16, 8)}
	for i, r := range plan.Routes {
		if !r.Return.Equal(want[i]) {
			t.Errorf("routes[%d] returns %s, the comment says %s", i, r.Return.Format("15:04:05"), want[i].Format("15:04:05"))
		}
	}
	for shift, units := range map[string]int{"D1": 2, "D2": 1} {
		req, plan := multiTripDay()
		var keep []Route
		for _, r := range plan.Routes {
			if r.Shift == shift {
				keep = append(keep, r)
			} else {
				for _, id := range r.Stops[0].Pallets {
					plan.Unassigned = append(plan.Unassigned, Unassigned{Pallet: id, Store: r.Stops[0].Store, Reason: ReasonFleetExhausted})
				}
			}
		}
		plan.Routes = keep
		plan.Metrics = Metrics{ShiftsUsed: 1, TrailerUnitsUsed: units, PeakDockDoors: 1}
		if vs := tripRuleViolations(req, plan); len(vs) > 0 {
			t.Errorf("shift %s alone: %v", shift, vs)
		}
	}
}

// TestMultiTripRulesBroken breaks the planted day one rule at a time and
// names the violation Validate must give, with its path and words of its
// message.
func TestMultiTripRulesBroken(t *testing.T) {
	tests := []struct {
		name   string
		change func(req *Request, p *Result)
		want   []violation
	}{
		{"trips numbered out of time order", func(req *Request, p *Result) { p.Routes[0].Trip, p.Routes[2].Trip = 2, 1 },
			[]violation{{CodeTripOrder, "routes[0].trip", []string{"trip 2", "trip 1 of shift \"D1\""}}, {CodeTripOrder, "routes[2].trip", nil}}},
		{"a trip numbered 0", func(req *Request, p *Result) { p.Routes[1].Trip = 0 },
			[]violation{{CodeTripOrder, "routes[1].trip", []string{"trip 0"}}}},
		{"a trip starts a second before the one before is back", func(req *Request, p *Result) { p.Routes[2].Start = utc(5, 6, 7) },
			[]violation{{CodeTripOverlap, "routes[2].start", []string{"shift \"D1\"", "05:06:07", "routes[0]", "05:06:08"}}}},
		{"more trips than maxTrips", func(req *Request, p *Result) { req.Shifts[0].MaxTrips = 2 },
			[]violation{{CodeMaxTrips, "routes[4].shift", []string{"3 trips", "at most 2"}}}},
		{"the last trip back after the shift ends", func(req *Request, p *Result) { req.Shifts[0].End = utc(8, 16, 7) },
			[]violation{{CodeShiftWindow, "routes[4].return", nil}}},
		{"the first trip's duty before the shift starts", func(req *Request, p *Result) { req.Shifts[1].Start = utc(4, 0, 1) },
			[]violation{{CodeShiftWindow, "routes[1].start", nil}}},
		{"the duty of three trips over the limit", func(req *Request, p *Result) { req.HoursOfService.MaxDuty = 4*time.Hour + 16*time.Minute },
			[]violation{{constraints.CodeDutyLimit, "routes[4]", []string{"shift \"D1\" over its 3 trips", "4h16m8s"}}}},
		{"the driving of three trips over the limit", func(req *Request, p *Result) { req.HoursOfService.MaxDriving = 2*time.Hour + 28*time.Minute },
			[]violation{{constraints.CodeDrivingLimit, "routes[4]", []string{"shift \"D1\"", "2h28m30s"}}}},
		{"driving across trips with no break between", func(req *Request, p *Result) {
			req.HoursOfService.BreakAfter = 90 * time.Minute
		}, []violation{{constraints.CodeBreakRequired, "routes[2].return", []string{"1h51m22s"}}}},
		{"loading a minute short", func(req *Request, p *Result) { p.Routes[3].LoadingEnd = utc(5, 46, 0) },
			[]violation{{CodeLoadingTime, "routes[3].loadingEnd", []string{"6m0s", "2 pallets takes 7m0s"}}}},
		{"loading before the dock opens", func(req *Request, p *Result) { req.DC.DockHours.Days = dailyOpenings("03:31", "20:00") },
			[]violation{{CodeDockHours, "routes[0].loadingStart", []string{"03:30:00"}}}},
		{"loading ends after the driver comes on duty", func(req *Request, p *Result) { p.Routes[3].Start = utc(5, 46, 0) },
			[]violation{{CodeStaging, "routes[3].loadingEnd", []string{"after the driver comes on duty"}}}},
		{"staged longer than the limit", func(req *Request, p *Result) { req.DC.MaxStaging = time.Hour },
			[]violation{{CodeStaging, "routes[4].loadingEnd", []string{"waits 1h3m0s", "at most 1h0m0s"}}}},
		{"hook-up a minute short", func(req *Request, p *Result) { p.Routes[0].Start = utc(4, 1, 0) },
			[]violation{{CodeHookTime, "routes[0].depart", []string{"14m0s", "15m0s"}}}},
		{"a unit without the type's prefix", func(req *Request, p *Result) { p.Routes[2].TrailerUnit = "REEF-02" },
			[]violation{{CodeTrailerUnit, "routes[2].trailerUnit", []string{`"REEF-02"`, "VAN-01 to VAN-03"}}}},
		{"a unit with one digit", func(req *Request, p *Result) { p.Routes[2].TrailerUnit = "VAN-2" },
			[]violation{{CodeTrailerUnit, "routes[2].trailerUnit", nil}}},
		{"a unit number 0", func(req *Request, p *Result) { p.Routes[2].TrailerUnit = "VAN-00" },
			[]violation{{CodeTrailerUnit, "routes[2].trailerUnit", nil}}},
		{"no unit", func(req *Request, p *Result) { p.Routes[2].TrailerUnit = "" },
			[]violation{{CodeTrailerUnit, "routes[2].trailerUnit", []string{"required"}}}},
		{"a unit beyond the count", func(req *Request, p *Result) { req.Fleet[0].Count = 2 },
			[]violation{{CodeFleetCount, "routes[1].trailerUnit", []string{"has 2 units, VAN-01 to VAN-02"}}, {CodeFleetCount, "routes[3].trailerUnit", nil}}},
		{"a unit loaded before its turnaround ends", func(req *Request, p *Result) { req.DC.TrailerTurnaround = time.Hour },
			[]violation{{CodeTrailerUnitBusy, "routes[3].trailerUnit", []string{"VAN-03", "routes[1]", "06:06:08"}},
				{CodeTrailerUnitBusy, "routes[4].trailerUnit", []string{"VAN-01", "routes[0]"}}}},
		{"one unit on two trips at once", func(req *Request, p *Result) { p.Routes[1].TrailerUnit = "VAN-01" },
			[]violation{{CodeTrailerUnitBusy, "routes[1].trailerUnit", []string{"VAN-01", "routes[0]"}}}},
		{"a door beyond the DC's", func(req *Request, p *Result) { req.DC.DockDoors = 1 },
			[]violation{{CodeDockDoor, "routes[1].dockDoor", []string{"1 dock doors"}}, {CodeDockDoor, "routes[4].dockDoor", nil}}},
		{"door 0", func(req *Request, p *Result) { p.Routes[2].DockDoor = 0 },
			[]violation{{CodeDockDoor, "routes[2].dockDoor", []string{"from 1"}}}},
		{"two loadings on one door at once", func(req *Request, p *Result) { p.Routes[1].DockDoor = 1 },
			[]violation{{CodeDockDoorBusy, "routes[1].dockDoor", []string{"door 1", "routes[0]", "03:37:00"}}}},
		{"shifts used miscounted", func(req *Request, p *Result) { p.Metrics.ShiftsUsed = 5 },
			[]violation{{CodeMetric, "metrics.shiftsUsed", []string{"reports 5, recomputed 2"}}}},
		{"units used miscounted", func(req *Request, p *Result) { p.Metrics.TrailerUnitsUsed = 5 },
			[]violation{{CodeMetric, "metrics.trailerUnitsUsed", []string{"recomputed 3"}}}},
		{"peak doors miscounted", func(req *Request, p *Result) { p.Metrics.PeakDockDoors = 1 },
			[]violation{{CodeMetric, "metrics.peakDockDoors", []string{"reports 1, recomputed 2"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, plan := multiTripDay()
			tc.change(&req, &plan)
			vs := tripRuleViolations(req, plan)
			wantViolations(t, vs.Err(), tc.want...)
			for _, v := range vs { // nothing else breaks
				if !slices.ContainsFunc(tc.want, func(w violation) bool { return w.code == v.Code && w.path == v.Path }) {
					t.Errorf("also %s at %s: %s", v.Code, v.Path, v.Message)
				}
			}
		})
	}
}

// TestBreakAtTheDCBetweenTrips: time at the DC between two trips is on
// duty and not driving, so it counts as the break when it lasts long
// enough (D2 stays 58 min 52 s), and it does not when it is shorter (D1's
// 28 min 52 s): with a break of 30 min due after an hour of driving, only
// D1 breaks the rule; with a break of an hour, D2 does too.
func TestBreakAtTheDCBetweenTrips(t *testing.T) {
	req, plan := multiTripDay()
	req.HoursOfService.BreakAfter = time.Hour
	vs := tripRuleViolations(req, plan)
	wantViolations(t, vs.Err(), violation{constraints.CodeBreakRequired, "routes[2].stops[0].arrival", []string{"1h14m15s"}})
	for _, v := range vs {
		if strings.HasPrefix(v.Path, "routes[1]") || strings.HasPrefix(v.Path, "routes[3]") {
			t.Errorf("D2 rests 58 min 52 s at the DC between its trips, yet: %s at %s: %s", v.Code, v.Path, v.Message)
		}
	}
	req.HoursOfService.BreakDuration = time.Hour
	wantViolations(t, tripRuleViolations(req, plan).Err(), violation{constraints.CodeBreakRequired, "routes[3].return", []string{"1h14m16s"}})
}
