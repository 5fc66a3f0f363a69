package engine

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// Golden tests: small requests whose plans are worked out by hand and
// written as literal numbers. Validate must accept them as they are, and
// reject each with a specific violation when one number moves by one unit.

func utc(h, m, s int) time.Time { return time.Date(2026, 11, 24, h, m, s, 0, time.UTC) }

func dailyOpenings(open, close string) map[string][]constraints.Opening {
	days := map[string][]constraints.Opening{}
	for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
		days[d] = []constraints.Opening{{Open: open, Close: close}}
	}
	return days
}

// goldenVan is a dry van and two stores on the equator, 0.1° of longitude
// apart, with a travel model that is easy to follow: circuity 1 and 36 km/h,
// 10 m a second.
//
//	DC (0, 0) → A (0, 0.1): 11,131.949079327358 m, 1,113.19… s → 1,114 s (18 min 34 s)
//	A → B (0, 0.2):         11,131.949079327358 m, 1,114 s
//	B → DC:                 22,263.898158654716 m, 2,226.39… s → 2,227 s (37 min 7 s)
//
// (haversine on a sphere of 6,378,137 m: 0.1° is 6,378,137 × π/1800 m.)
//
// The route, all in UTC on 24 November 2026:
//
//	03:45:00 loading starts at door 1 (the dock opens at 03:45); 4 pallets × 60 s
//	03:49:00 loading ends; the driver comes on duty (the shift starts at
//	         03:49) and hooks the trailer VAN-01 up: 15 min, the default
//	04:04:00 departs
//	04:22:34 arrives at A; A opens 04:30: a wait of 7 min 26 s
//	04:30:00 unloading starts: 10 min + 3 × 2 min = 16 min, done 04:46:00
//	04:52:34 departs A: 30 min at A since arriving, the break the rules need,
//	         which the plan states at A: 7 min 26 s waiting, 16 min unloading,
//	         6 min 34 s of rest
//	05:11:08 arrives at B, unloads at once (10 min + 2 min)
//	05:23:08 departs B
//	06:00:15 back at the DC: on duty 2 h 11 min 15 s, driving 4,455 s = 1 h 14 min 15 s
//
// Hours of service: the request allows 2 h 11 min 15 s of duty and 1 h of
// driving without a break; the shift's own limits set only the break, 30
// min. Without the break at A the driving since the start would reach
// 1,114 + 1,114 + 2,227 = 4,455 s > 3,600 s on the way back.
//
// Cost: 100 + 2 × 44.527796317309432 km + 30 × 7,875 s / 3,600 =
// 100 + 89.055592634618864 + 65.625 = 254.68059263461886.
//
// The floor, 4,000 × 2,500 mm, pallets 1,200 × 1,000 mm × 1,000 mm (1.2 m³):
//
//	row 0: B1 (400 kg, stop 1) LEFT, x 0; A1 (500 kg) RIGHT, x 0 carrying A2 (300 kg) at level 1
//	row 1: A3 (200 kg) CENTER, x 1,200 (alone across the row: 2 positions)
//
// Positions 1 + 1 + 0 + 2 = 4 of 8 (0.5); 1,400 kg of 10,000 (0.14);
// 4.8 m³ of 24 (0.2). Axles, kingpin at 600 mm, axle group at 3,600 mm
// (lever 3,000 mm), tare 3,000 kg at 2,100 mm; the pallets of row 0 stand
// over the kingpin (centre 600 mm) and A3 at 1,800 mm:
//
//	at departure: axle (3,000 × 1,500 + 200 × 1,200) / 3,000 = 1,580 kg; kingpin 4,400 − 1,580 = 2,820 kg
//	after A:      axle 3,000 × 1,500 / 3,000 = 1,500 kg; kingpin 3,400 − 1,500 = 1,900 kg
//	after B:      axle 1,500 kg; kingpin 1,500 kg
func goldenVan() (Request, Result) {
	box := Footprint{LengthMM: 1200, WidthMM: 1000}
	pallet := func(id, store string, kg float64) Pallet {
		return Pallet{ID: id, Store: store, WeightKg: kg, Footprint: box, HeightMM: 1000}
	}
	req := Request{
		DC: DC{ID: "DC", Location: geo.Point{}, LoadingPerPallet: time.Minute,
			DockHours: &constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("03:45", "20:00")}},
		Stores: []Store{
			{ID: "A", Location: geo.Point{Lng: 0.1}, Hours: constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("04:30", "22:00")},
				Unloading: Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}},
			{ID: "B", Location: geo.Point{Lng: 0.2}, Hours: constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "24:00")},
				Unloading: Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}},
		},
		Pallets: []Pallet{pallet("A1", "A", 500), pallet("A2", "A", 300), pallet("A3", "A", 200), pallet("B1", "B", 400), pallet("X1", "B", 100)},
		Fleet: []TrailerType{{ID: "VAN", Count: 1, Inside: Dimensions{LengthMM: 4000, WidthMM: 2500, HeightMM: 2600},
			PalletPositions: 8, PayloadKg: 10000, VolumeM3: 24, Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: constraints.AxleGeometry{KingpinMM: 600, AxleGroupMM: 3600, TareKg: 3000, TareCentreMM: 2100, KingpinLimitKg: 5000, AxleGroupLimitKg: 5000},
			Costs: Costs{Fixed: 100, PerKm: 2, PerHour: 30}}},
		Shifts: []constraints.Shift{{ID: "D1", Start: utc(3, 49, 0), End: utc(16, 0, 0),
			Limits: &constraints.HoursOfService{BreakDuration: 30 * time.Minute}}},
		HoursOfService: constraints.HoursOfService{MaxDuty: time.Duration(2*time.Hour + 11*time.Minute + 15*time.Second), BreakAfter: time.Hour},
		Travel:         geo.TravelModel{SpeedKmh: 36, Circuity: 1},
	}
	req.Pallets[0].MayCarry = true
	req.Pallets[1].MayBeStacked = true

	const distance = 44527.796317309432
	plan := Result{
		Routes: []Route{{
			ID: "R1", Trailer: "VAN", Shift: "D1", Trip: 1, TrailerUnit: "VAN-01", DockDoor: 1,
			LoadingStart: utc(3, 45, 0), LoadingEnd: utc(3, 49, 0), Start: utc(3, 49, 0), Depart: utc(4, 4, 0), Return: utc(6, 0, 15),
			Stops: []Stop{
				{Store: "A", Arrival: utc(4, 22, 34), Start: utc(4, 30, 0), Departure: utc(4, 52, 34), Wait: time.Duration(7*time.Minute + 26*time.Second), Pallets: []string{"A1", "A2", "A3"},
					Break: &Break{Start: utc(4, 22, 34), Duration: 30 * time.Minute, Wait: time.Duration(7*time.Minute + 26*time.Second), Unloading: 16 * time.Minute,
						Rest: time.Duration(6*time.Minute + 34*time.Second)}},
				{Store: "B", Arrival: utc(5, 11, 8), Start: utc(5, 11, 8), Departure: utc(5, 23, 8), Pallets: []string{"B1"}},
			},
			Load: LoadPlan{
				Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 1, FromMM: 0, ToMM: 4000}},
				Placements: []Placement{
					{Pallet: "B1", Row: 0, Side: "LEFT"},
					{Pallet: "A1", Row: 0, Side: "RIGHT"},
					{Pallet: "A2", Row: 0, Side: "RIGHT", Level: 1},
					{Pallet: "A3", Row: 1, Side: "CENTER", XMM: 1200},
				},
				Axles: []AxleLoad{{AfterStop: -1, KingpinKg: 2820, AxleGroupKg: 1580}, {AfterStop: 0, KingpinKg: 1900, AxleGroupKg: 1500}, {AfterStop: 1, KingpinKg: 1500, AxleGroupKg: 1500}},
			},
			Metrics: RouteMetrics{Stops: 2, Pallets: 4, DistanceM: distance, Duration: 7875 * time.Second,
				Driving: 4455 * time.Second, Wait: 446 * time.Second, WeightKg: 1400, VolumeM3: 4.8,
				Positions: 4, Cost: 254.68059263461886, PosUtil: 0.5, WeightUtil: 0.14, VolumeUtil: 0.2},
		}},
		Unassigned: []Unassigned{{Pallet: "X1", Store: "B", Reason: ReasonCapacity}},
		Metrics: Metrics{Routes: 1, Stops: 2, Pallets: 4, Unassigned: 1, DistanceM: distance, Duration: 7875 * time.Second,
			Driving: 4455 * time.Second, Wait: 446 * time.Second, Cost: 254.68059263461886, PosUtil: 0.5, TrailersLowerBound: 1,
			ShiftsUsed: 1, TrailerUnitsUsed: 1, PeakDockDoors: 1, ShiftsLowerBound: 1, TrailerUnitsLowerBound: 1},
	}
	return req, plan
}

// pointsAsked is a matrix source with the same figures between any two
// different points, 30 km and 30 min, that records the points it is asked
// for.
type pointsAsked struct{ asked *[]geo.Point }

func (s pointsAsked) Matrix(_ context.Context, points []geo.Point) (*geo.Matrix, error) {
	*s.asked = append(*s.asked, points...)
	m := geo.NewMatrix(len(points))
	for i := range points {
		for j := range points {
			if i != j {
				m.Set(i, j, 30000, 30*time.Minute)
			}
		}
	}
	return m, nil
}

// goldenReefer is a two-zone reefer in Chicago, on a road matrix (a
// MatrixSource: 30 km, 30 min between any two places), visiting one of three
// stores. 24 November 2026 is standard time in Chicago, UTC−6.
//
//	10:45:00Z (04:45 CST) loading starts at door 1; 3 pallets × 90 s
//	10:49:30Z loading ends; the driver comes on duty with the shift and
//	          hooks MULTI-01 up for 15 min
//	11:04:30Z departs
//	11:34:30Z arrives; the store opens 06:00 CST = 12:00Z: a wait of 25 min 30 s
//	12:00:00Z unloading: 15 min + 3 × 1 min = 18 min
//	12:18:00Z departs
//	12:48:00Z back: 1 h 58 min 30 s = 1.975 h on duty, 1 h driving, 60 km
//
// Cost: 200 + 1.5 × 60 + 40 × 1.975 = 369.
//
// The floor, 6,000 × 2,440 mm, 48×40 in pallets (1,219 × 1,016 mm, 1.5 m
// tall: 1.857756 m³ each) all turned, 1,016 mm along:
//
//	zone 0 FROZEN,  rows 0–0,     0–1,016 mm: F1 (400 kg) LEFT, x 0
//	zone 1 CHILLED, rows 1–1, 1,016–6,000 mm: C1 (300 kg) LEFT, C2 (300 kg) RIGHT, x 1,016
//
// Two turned pallets take 2 × 1,219 = 2,438 mm of the 2,440 mm width.
// Positions 3 of 6 (0.5); 1,000 kg of 5,000 (0.2); 5.573268 m³ of 30
// (0.1857756). Axles, kingpin at 0, axle group at 4,000 mm, tare 4,000 kg at
// 3,000 mm; centres at 508 and 1,524 mm:
//
//	at departure: axle (12,000,000 + 400 × 508 + 600 × 1,524) / 4,000 = 3,279.4 kg; kingpin 5,000 − 3,279.4 = 1,720.6 kg
//	after the stop: axle 3,000 kg, kingpin 1,000 kg
func goldenReefer(asked *[]geo.Point) (Request, Result) {
	chicago := func(open, close string) constraints.WeeklyHours {
		return constraints.WeeklyHours{TimeZone: "America/Chicago", Days: dailyOpenings(open, close)}
	}
	dock := chicago("00:00", "24:00")
	req := Request{
		DC: DC{ID: "DC", Location: geo.Point{Lat: 41.8, Lng: -87.7}, LoadingPerPallet: 90 * time.Second, DockHours: &dock},
		Stores: []Store{
			{ID: "S0", Location: geo.Point{Lat: 41.9, Lng: -87.6}, Hours: chicago("06:00", "18:00")},
			{ID: "S1", Location: geo.Point{Lat: 42.0, Lng: -87.7}, Hours: chicago("06:00", "18:00"),
				Unloading: Unloading{Fixed: 15 * time.Minute, PerPallet: time.Minute}},
			{ID: "S2", Location: geo.Point{Lat: 41.7, Lng: -87.8}, Hours: chicago("06:00", "18:00")},
		},
		Pallets: []Pallet{
			{ID: "F1", Store: "S1", WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Frozen},
			{ID: "C1", Store: "S1", WeightKg: 300, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Chilled},
			{ID: "C2", Store: "S1", WeightKg: 300, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Chilled},
		},
		Fleet: []TrailerType{{ID: "MULTI", Count: 1, Inside: Dimensions{LengthMM: 6000, WidthMM: 2440, HeightMM: 2600},
			PalletPositions: 6, PayloadKg: 5000, VolumeM3: 30, Equipment: constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 2},
			Axles: constraints.AxleGeometry{KingpinMM: 0, AxleGroupMM: 4000, TareKg: 4000, TareCentreMM: 3000, KingpinLimitKg: 10000, AxleGroupLimitKg: 10000},
			Costs: Costs{Fixed: 200, PerKm: 1.5, PerHour: 40}}},
		Shifts:  []constraints.Shift{{ID: "D1", Start: utc(10, 49, 30), End: utc(21, 0, 0)}},
		Options: Options{Matrix: pointsAsked{asked}},
	}
	plan := Result{
		Routes: []Route{{
			ID: "R1", Trailer: "MULTI", Shift: "D1", Trip: 1, TrailerUnit: "MULTI-01", DockDoor: 1,
			LoadingStart: utc(10, 45, 0), LoadingEnd: utc(10, 49, 30), Start: utc(10, 49, 30), Depart: utc(11, 4, 30), Return: utc(12, 48, 0),
			Stops: []Stop{{Store: "S1", Arrival: utc(11, 34, 30), Start: utc(12, 0, 0), Departure: utc(12, 18, 0),
				Wait: 1530 * time.Second, Pallets: []string{"F1", "C1", "C2"}}},
			Load: LoadPlan{
				Zones: []Zone{
					{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0, FromMM: 0, ToMM: 1016},
					{Temperature: constraints.Chilled, FirstRow: 1, LastRow: 1, FromMM: 1016, ToMM: 6000},
				},
				Placements: []Placement{
					{Pallet: "F1", Row: 0, Side: "LEFT", Turned: true, Zone: 0},
					{Pallet: "C1", Row: 1, Side: "LEFT", Turned: true, Zone: 1, XMM: 1016},
					{Pallet: "C2", Row: 1, Side: "RIGHT", Turned: true, Zone: 1, XMM: 1016},
				},
				Axles: []AxleLoad{{AfterStop: -1, KingpinKg: 1720.6, AxleGroupKg: 3279.4}, {AfterStop: 0, KingpinKg: 1000, AxleGroupKg: 3000}},
			},
			Metrics: RouteMetrics{Stops: 1, Pallets: 3, DistanceM: 60000, Duration: 7110 * time.Second,
				Driving: time.Hour, Wait: 1530 * time.Second, WeightKg: 1000, VolumeM3: 5.573268,
				Positions: 3, Cost: 369, PosUtil: 0.5, WeightUtil: 0.2, VolumeUtil: 0.1857756},
		}},
		Unassigned: []Unassigned{},
		Metrics: Metrics{Routes: 1, Stops: 1, Pallets: 3, DistanceM: 60000, Duration: 7110 * time.Second,
			Driving: time.Hour, Wait: 1530 * time.Second, Cost: 369, PosUtil: 0.5, TrailersLowerBound: 1,
			ShiftsUsed: 1, TrailerUnitsUsed: 1, PeakDockDoors: 1, ShiftsLowerBound: 1, TrailerUnitsLowerBound: 1},
	}
	return req, plan
}

// violation is what a broken plan must give: a code at a path, and perhaps
// words its message must hold.
type violation struct {
	code, path string
	words      []string
}

// wantViolations demands that err holds every wanted violation.
func wantViolations(t *testing.T, err error, want ...violation) {
	t.Helper()
	vs := constraints.AsViolations(err)
	if len(vs) == 0 {
		t.Fatalf("want %v, got %v", want, err)
	}
	for _, w := range want {
		if !slices.ContainsFunc(vs, func(v constraints.Violation) bool {
			if v.Code != w.code || v.Path != w.path {
				return false
			}
			for _, word := range w.words {
				if !strings.Contains(v.Message, word) {
					return false
				}
			}
			return true
		}) {
			t.Errorf("want %s at %s (with %q), got:\n%v", w.code, w.path, w.words, vs)
		}
	}
}

func TestGoldenPlansValidate(t *testing.T) {
	req, plan := goldenVan()
	if err := Validate(req, plan); err != nil {
		t.Errorf("van: %v", err)
	}
	var asked []geo.Point
	req, plan = goldenReefer(&asked)
	if err := Validate(req, plan); err != nil {
		t.Errorf("reefer: %v", err)
	}
	// Only the DC and the store the route visits are asked for.
	if want := []geo.Point{req.DC.Location, req.Stores[1].Location}; !slices.Equal(asked, want) {
		t.Errorf("the matrix source was asked for %v, want %v", asked, want)
	}
}

const (
	second = time.Second
	r0     = "routes[0]"
	stopA  = "routes[0].stops[0]"
	stopB  = "routes[0].stops[1]"
	load0  = "routes[0].load"
	rm0    = "routes[0].metrics"
)

// TestGoldenVanOneUnitOff moves one number of the van's plan (or request)
// by one unit and names the violation it must give.
func TestGoldenVanOneUnitOff(t *testing.T) {
	tests := []struct {
		name   string
		change func(req *Request, p *Result)
		want   []violation
	}{
		{"the driver comes on duty a second before the shift", func(req *Request, p *Result) { p.Routes[0].Start = utc(3, 48, 59) },
			[]violation{{CodeShiftWindow, r0 + ".start", []string{"2026-11-24T03:48:59Z", "2026-11-24T03:49:00Z"}}}},
		{"loading starts a second before the dock opens", func(req *Request, p *Result) { p.Routes[0].LoadingStart = utc(3, 44, 59) },
			[]violation{{CodeDockHours, r0 + ".loadingStart", []string{"2026-11-24T03:44:59Z"}}}},
		{"loading starts a second late", func(req *Request, p *Result) { p.Routes[0].LoadingStart = utc(3, 45, 1) },
			[]violation{{CodeLoadingTime, r0 + ".loadingEnd", []string{"3m59s", "4m0s"}}}},
		{"loading ends a second after the driver comes on duty", func(req *Request, p *Result) { p.Routes[0].LoadingEnd = utc(3, 49, 1) },
			[]violation{{CodeStaging, r0 + ".loadingEnd", []string{"2026-11-24T03:49:01Z", "2026-11-24T03:49:00Z"}}}},
		{"the driver comes on duty a second after loading ends", func(req *Request, p *Result) {
			p.Routes[0].Start = utc(3, 49, 1)
			p.Routes[0].Metrics.Duration -= second
		}, []violation{{CodeStaging, r0 + ".loadingEnd", []string{"waits 1s", "at most 0s"}}, {CodeHookTime, r0 + ".depart", []string{"14m59s", "15m0s"}}}},
		{"departs a second early", func(req *Request, p *Result) { p.Routes[0].Depart = utc(4, 3, 59) },
			[]violation{{CodeHookTime, r0 + ".depart", nil}, {CodeTravelTime, stopA + ".arrival", nil}}},
		{"hook time a second longer", func(req *Request, p *Result) { req.DC.HookTime = 15*time.Minute + second },
			[]violation{{CodeHookTime, r0 + ".depart", []string{"15m0s", "15m1s"}}}},
		{"loading a second longer", func(req *Request, p *Result) { req.DC.LoadingFixed = second },
			[]violation{{CodeLoadingTime, r0 + ".loadingEnd", []string{"4m0s", "4m1s"}}}},
		{"the trailer staged 10 min 1 s with a limit of 10 min", func(req *Request, p *Result) {
			req.DC.MaxStaging = 10 * time.Minute
			req.DC.DockHours.Days = dailyOpenings("03:30", "20:00")
			p.Routes[0].LoadingStart, p.Routes[0].LoadingEnd = utc(3, 34, 59), utc(3, 38, 59)
		}, []violation{{CodeStaging, r0 + ".loadingEnd", []string{"waits 10m1s", "at most 10m0s"}}}},
		{"the trailer type's own staging limit binds", func(req *Request, p *Result) {
			req.DC.MaxStaging, req.Fleet[0].MaxStaging = time.Hour, 5*time.Minute
			req.DC.DockHours.Days = dailyOpenings("03:30", "20:00")
			p.Routes[0].LoadingStart, p.Routes[0].LoadingEnd = utc(3, 35, 0), utc(3, 39, 0)
		}, []violation{{CodeStaging, r0 + ".loadingEnd", []string{"waits 10m0s", "VAN may wait at most 5m0s"}}}},
		{"arrives at A a second early", func(req *Request, p *Result) { p.Routes[0].Stops[0].Arrival = utc(4, 22, 33) },
			[]violation{{CodeTravelTime, stopA + ".arrival", []string{"2026-11-24T04:22:34Z"}}, {CodeMetric, stopA + ".wait", nil}}},
		{"arrives at A a second late", func(req *Request, p *Result) { p.Routes[0].Stops[0].Arrival = utc(4, 22, 35) },
			[]violation{{CodeTravelTime, stopA + ".arrival", nil}}},
		{"a wait a second long", func(req *Request, p *Result) { p.Routes[0].Stops[0].Wait += second },
			[]violation{{CodeMetric, stopA + ".wait", nil}}},
		{"unloads at A a second before it opens", func(req *Request, p *Result) {
			s := &p.Routes[0].Stops[0]
			s.Start, s.Wait = utc(4, 29, 59), s.Wait-second
		}, []violation{{CodeOpeningHours, stopA + ".start", nil}}},
		{"unloads at A a second before arriving", func(req *Request, p *Result) {
			s := &p.Routes[0].Stops[0]
			s.Arrival, s.Start, s.Wait = utc(4, 30, 0), utc(4, 29, 59), -second
		}, []violation{{CodeEarlyStart, stopA + ".start", nil}}},
		{"leaves B a second before unloading ends", func(req *Request, p *Result) { p.Routes[0].Stops[1].Departure = utc(5, 23, 7) },
			[]violation{{CodeServiceTime, stopB + ".departure", []string{"11m59s", "12m0s"}}, {CodeTravelTime, r0 + ".return", nil}}},
		{"a break a second short", func(req *Request, p *Result) {
			// Everything after A one second earlier: 29 min 59 s at A.
			r := &p.Routes[0]
			r.Stops[0].Departure = utc(4, 52, 33)
			r.Stops[1].Arrival, r.Stops[1].Start, r.Stops[1].Departure = utc(5, 11, 7), utc(5, 11, 7), utc(5, 23, 7)
			r.Return = utc(6, 0, 14)
			r.Metrics.Duration -= second
			p.Metrics.Duration -= second
		}, []violation{{constraints.CodeBreakRequired, r0 + ".return", nil}, {CodeBreak, stopA + ".break.duration", []string{"29m59s", "30m0s"}}}},
		{"the break at A not stated", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break = nil },
			[]violation{{CodeBreakMissing, r0 + ".return", []string{"1h14m15s", "1h0m0s"}}}},
		{"the break stated at B, 12 min on site", func(req *Request, p *Result) {
			s := &p.Routes[0].Stops[1]
			s.Break = &Break{Start: s.Arrival, Duration: 12 * time.Minute, Unloading: 12 * time.Minute}
		}, []violation{{CodeBreak, stopB + ".break.duration", []string{"12m0s", "30m0s"}}}},
		{"the break starts a second after the arrival", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break.Start = utc(4, 22, 35) },
			[]violation{{CodeBreak, stopA + ".break.start", []string{"2026-11-24T04:22:34Z"}}}},
		{"the break a second longer than the stop", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break.Duration += second },
			[]violation{{CodeBreak, stopA + ".break.duration", nil}}},
		{"the break's wait a second short", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break.Wait -= second },
			[]violation{{CodeMetric, stopA + ".break.wait", nil}}},
		{"the break's unloading a second long", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break.Unloading += second },
			[]violation{{CodeMetric, stopA + ".break.unloading", nil}}},
		{"the break's rest a second long", func(req *Request, p *Result) { p.Routes[0].Stops[0].Break.Rest += second },
			[]violation{{CodeMetric, stopA + ".break.rest", []string{"6m34s"}}}},
		{"returns a second late", func(req *Request, p *Result) { p.Routes[0].Return = utc(6, 0, 16) },
			[]violation{{CodeTravelTime, r0 + ".return", nil}, {constraints.CodeDutyLimit, r0, nil}, {CodeMetric, rm0 + ".duration", nil}}},
		{"distance a metre long", func(req *Request, p *Result) { p.Routes[0].Metrics.DistanceM++ }, []violation{{CodeMetric, rm0 + ".distanceM", nil}}},
		{"distance a metre short", func(req *Request, p *Result) { p.Metrics.DistanceM-- }, []violation{{CodeMetric, "metrics.distanceM", nil}}},
		{"duration a second long", func(req *Request, p *Result) { p.Routes[0].Metrics.Duration += second }, []violation{{CodeMetric, rm0 + ".duration", nil}}},
		{"driving a second short", func(req *Request, p *Result) { p.Routes[0].Metrics.Driving -= second }, []violation{{CodeMetric, rm0 + ".driving", nil}}},
		{"wait a second long", func(req *Request, p *Result) { p.Routes[0].Metrics.Wait += second }, []violation{{CodeMetric, rm0 + ".wait", nil}}},
		{"plan's driving a second long", func(req *Request, p *Result) { p.Metrics.Driving += second }, []violation{{CodeMetric, "metrics.driving", nil}}},
		{"plan's wait a second short", func(req *Request, p *Result) { p.Metrics.Wait -= second }, []violation{{CodeMetric, "metrics.wait", nil}}},
		{"cost a cent high", func(req *Request, p *Result) { p.Routes[0].Metrics.Cost += 0.01 }, []violation{{CodeMetric, rm0 + ".cost", nil}}},
		{"plan's cost a cent low", func(req *Request, p *Result) { p.Metrics.Cost -= 0.01 }, []violation{{CodeMetric, "metrics.cost", nil}}},
		{"weight a kilogram high", func(req *Request, p *Result) { p.Routes[0].Metrics.WeightKg++ }, []violation{{CodeMetric, rm0 + ".weightKg", nil}}},
		{"volume a litre high", func(req *Request, p *Result) { p.Routes[0].Metrics.VolumeM3 += 0.001 }, []violation{{CodeMetric, rm0 + ".volumeM3", nil}}},
		{"the stacked pallet counted as a position", func(req *Request, p *Result) { p.Routes[0].Metrics.Positions++ }, []violation{{CodeMetric, rm0 + ".positions", nil}}},
		{"position utilisation of 5 positions", func(req *Request, p *Result) { p.Routes[0].Metrics.PosUtil = 0.625 }, []violation{{CodeMetric, rm0 + ".positionsUtilisation", nil}}},
		{"weight utilisation a kilogram high", func(req *Request, p *Result) { p.Routes[0].Metrics.WeightUtil = 0.1401 }, []violation{{CodeMetric, rm0 + ".weightUtilisation", nil}}},
		{"volume utilisation a litre high", func(req *Request, p *Result) { p.Routes[0].Metrics.VolumeUtil = 4.801 / 24 }, []violation{{CodeMetric, rm0 + ".volumeUtilisation", nil}}},
		{"stops one more", func(req *Request, p *Result) { p.Routes[0].Metrics.Stops++ }, []violation{{CodeMetric, rm0 + ".stops", nil}}},
		{"pallets one fewer", func(req *Request, p *Result) { p.Metrics.Pallets-- }, []violation{{CodeMetric, "metrics.pallets", nil}}},
		{"routes one more", func(req *Request, p *Result) { p.Metrics.Routes++ }, []violation{{CodeMetric, "metrics.routes", nil}}},
		{"unassigned one fewer", func(req *Request, p *Result) { p.Metrics.Unassigned-- }, []violation{{CodeMetric, "metrics.unassigned", nil}}},
		{"bound one higher", func(req *Request, p *Result) { p.Metrics.TrailersLowerBound++ }, []violation{{CodeMetric, "metrics.trailersLowerBound", nil}}},
		{"shift bound one higher", func(req *Request, p *Result) { p.Metrics.ShiftsLowerBound++ }, []violation{{CodeMetric, "metrics.shiftsLowerBound", nil}}},
		{"unit bound one lower", func(req *Request, p *Result) { p.Metrics.TrailerUnitsLowerBound-- }, []violation{{CodeMetric, "metrics.trailerUnitsLowerBound", nil}}},
		{"plan's position utilisation off", func(req *Request, p *Result) { p.Metrics.PosUtil = 0.5001 }, []violation{{CodeMetric, "metrics.positionsUtilisation", nil}}},
		{"kingpin a kilogram heavy at departure", func(req *Request, p *Result) { p.Routes[0].Load.Axles[0].KingpinKg++ },
			[]violation{{codeAxleReport, load0 + ".axles[0]", []string{"at departure"}}}},
		{"axle group a kilogram light after A", func(req *Request, p *Result) { p.Routes[0].Load.Axles[1].AxleGroupKg-- },
			[]violation{{codeAxleReport, load0 + ".axles[1]", []string{"after stop 0"}}}},
		{"kingpin limit a kilogram below the load", func(req *Request, p *Result) { req.Fleet[0].Axles.KingpinLimitKg = 2819 },
			[]violation{{codeKingpin, load0 + ".axles[0]", []string{"2820.0 kg at departure"}}}},
		{"axle group limit a kilogram below the load", func(req *Request, p *Result) { req.Fleet[0].Axles.AxleGroupLimitKg = 1579 },
			[]violation{{codeAxleGroup, load0 + ".axles[0]", []string{"at departure"}}}},
		{"payload a kilogram below the load", func(req *Request, p *Result) { req.Fleet[0].PayloadKg = 1399 }, []violation{{codePayload, load0 + ".placements", nil}}},
		{"positions one below the load", func(req *Request, p *Result) { req.Fleet[0].PalletPositions = 3 }, []violation{{codePositions, load0 + ".placements", nil}}},
		{"B1 a millimetre towards the door", func(req *Request, p *Result) { p.Routes[0].Load.Placements[0].XMM = 1 },
			// A2 (stop 0) stands on A1, B1 (stop 1) now starts nearer the
			// door than both: neither comes off at stop 0.
			[]violation{{codeUnloadingOrder, load0 + ".placements[1]", []string{"stop 0"}}, {codeUnloadingOrder, load0 + ".placements[2]", []string{`"B1" for stop 1 is in the way`}},
				{codeOverlap, load0 + ".placements[3]", nil}}},
		{"A3 a millimetre towards the nose", func(req *Request, p *Result) { p.Routes[0].Load.Placements[3].XMM = 1199 },
			[]violation{{codeOverlap, load0 + ".placements[3]", nil}}},
		{"the top a kilogram heavier than its bottom", func(req *Request, p *Result) { req.Pallets[1].WeightKg = 501 },
			[]violation{{codeStacking, load0 + ".placements[2]", nil}}},
		{"the stack a millimetre taller than the trailer", func(req *Request, p *Result) { req.Fleet[0].Inside.HeightMM = 1999 },
			[]violation{{codeTooTall, load0 + ".placements[2]", nil}}},
		{"the zone a millimetre short of A3", func(req *Request, p *Result) { p.Routes[0].Load.Zones[0].ToMM = 2399 },
			[]violation{{codeZone, load0 + ".placements[3]", nil}}},
		{"duty limit a second short", func(req *Request, p *Result) {
			req.HoursOfService.MaxDuty = time.Duration(2*time.Hour + 11*time.Minute + 14*time.Second)
		}, []violation{{constraints.CodeDutyLimit, r0, []string{"2h11m15s"}}}},
		{"dock opens a minute late", func(req *Request, p *Result) { req.DC.DockHours.Days = dailyOpenings("03:46", "20:00") },
			[]violation{{CodeDockHours, r0 + ".loadingStart", nil}}},
		{"shifts used one more", func(req *Request, p *Result) { p.Metrics.ShiftsUsed++ }, []violation{{CodeMetric, "metrics.shiftsUsed", nil}}},
		{"trailer units used one fewer", func(req *Request, p *Result) { p.Metrics.TrailerUnitsUsed-- }, []violation{{CodeMetric, "metrics.trailerUnitsUsed", nil}}},
		{"peak dock doors one more", func(req *Request, p *Result) { p.Metrics.PeakDockDoors++ }, []violation{{CodeMetric, "metrics.peakDockDoors", nil}}},
		{"the shift costs a driver's day the plan leaves out", func(req *Request, p *Result) { req.Shifts[0].Cost = 250 },
			[]violation{{CodeMetric, "metrics.cost", []string{"reports 254.68", "recomputed 504.68"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, plan := goldenVan()
			tc.change(&req, &plan)
			wantViolations(t, Validate(req, plan), tc.want...)
		})
	}
}

// TestGoldenReeferOneUnitOff does the same on the reefer, whose instants
// are reported in Chicago time.
func TestGoldenReeferOneUnitOff(t *testing.T) {
	tests := []struct {
		name   string
		change func(req *Request, p *Result)
		want   []violation
	}{
		{"the driver comes on duty a second before the shift", func(req *Request, p *Result) { p.Routes[0].Start = utc(10, 49, 29) },
			[]violation{{CodeShiftWindow, r0 + ".start", []string{"2026-11-24T04:49:29-06:00", "2026-11-24T04:49:30-06:00"}}}},
		{"arrives a second early", func(req *Request, p *Result) { p.Routes[0].Stops[0].Arrival = utc(11, 34, 29) },
			[]violation{{CodeTravelTime, stopA + ".arrival", []string{"2026-11-24T05:34:29-06:00", "2026-11-24T05:34:30-06:00"}}}},
		{"unloads a second before the store opens", func(req *Request, p *Result) {
			s := &p.Routes[0].Stops[0]
			s.Start, s.Wait = utc(11, 59, 59), s.Wait-second
		}, []violation{{CodeOpeningHours, stopA + ".start", []string{"2026-11-24T05:59:59-06:00"}}}},
		{"distance a metre long", func(req *Request, p *Result) { p.Routes[0].Metrics.DistanceM = 60001 }, []violation{{CodeMetric, rm0 + ".distanceM", nil}}},
		{"cost a cent high", func(req *Request, p *Result) { p.Routes[0].Metrics.Cost = 369.01 }, []violation{{CodeMetric, rm0 + ".cost", nil}}},
		{"kingpin a kilogram light at departure", func(req *Request, p *Result) { p.Routes[0].Load.Axles[0].KingpinKg = 1719.6 },
			[]violation{{codeAxleReport, load0 + ".axles[0]", []string{"at departure"}}}},
		{"the chilled zone a millimetre into the frozen one", func(req *Request, p *Result) { p.Routes[0].Load.Zones[1].FromMM = 1015 },
			[]violation{{codeZone, load0 + ".zones[1]", nil}}},
		{"the frozen pallet a millimetre into the chilled zone", func(req *Request, p *Result) { p.Routes[0].Load.Placements[0].XMM = 1 },
			[]violation{{codeZone, load0 + ".placements[0]", nil}, {codeOverlap, load0 + ".placements[1]", nil}}},
		{"a floor a millimetre too narrow for two turned pallets", func(req *Request, p *Result) { req.Fleet[0].Inside.WidthMM = 2437 },
			[]violation{{codeOverlap, load0 + ".placements[2]", nil}}},
		{"zones in the wrong order", func(req *Request, p *Result) {
			z := p.Routes[0].Load.Zones
			z[0].Temperature, z[1].Temperature = constraints.Chilled, constraints.Frozen
		}, []violation{{codeZone, load0 + ".zones[1]", nil}, {CodeTemperature, load0 + ".placements[0]", nil}}},
		{"a dry van", func(req *Request, p *Result) {
			req.Fleet[0].Equipment = constraints.Equipment{Kind: constraints.DryVan}
		},
			[]violation{{CodeTemperature, r0 + ".trailer", nil}, {codeTooManyZones, load0 + ".zones", nil}}},
		{"positions utilisation above 1", func(req *Request, p *Result) { p.Routes[0].Metrics.PosUtil = 1.5 },
			[]violation{{CodeMetric, rm0 + ".positionsUtilisation", []string{"[0, 1]"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var asked []geo.Point
			req, plan := goldenReefer(&asked)
			tc.change(&req, &plan)
			wantViolations(t, Validate(req, plan), tc.want...)
		})
	}
}

// TestValidateGoldenRules: rules of Validate shown on the golden plans,
// each with the plan broken or changed just enough to meet it.
func TestValidateGoldenRules(t *testing.T) {
	t.Run("a shift's break with the request's break-after needs the break", func(t *testing.T) {
		// The van's route without the rest at A: it leaves A when
		// unloading ends, 04:46:00, and everything after is 6 min 34 s
		// earlier. The shift states only the break's length; the
		// request's hour of driving still applies (the US default of 8 h
		// would not need a break).
		req, p := goldenVan()
		r := &p.Routes[0]
		early := -(6*time.Minute + 34*time.Second)
		r.Stops[0].Departure = utc(4, 46, 0)
		r.Stops[0].Break = nil
		r.Stops[1].Arrival, r.Stops[1].Start, r.Stops[1].Departure = r.Stops[1].Arrival.Add(early), r.Stops[1].Start.Add(early), r.Stops[1].Departure.Add(early)
		r.Return = r.Return.Add(early)
		r.Metrics.Duration += time.Duration(early)
		r.Metrics.Cost = 100 + 2*44.527796317309432 + 30*(7875-394)/3600.0
		p.Metrics.Duration, p.Metrics.Cost = r.Metrics.Duration, r.Metrics.Cost
		err := Validate(req, p)
		wantViolations(t, err, violation{constraints.CodeBreakRequired, r0 + ".return", nil})
		if vs := constraints.AsViolations(err); len(vs) != 1 {
			t.Errorf("want only the missing break, got %v", vs)
		}
		req.HoursOfService.BreakAfter = 0
		if err := Validate(req, p); err != nil {
			t.Errorf("with the US default of 8 h before a break: %v", err)
		}
	})
	t.Run("a stacked pallet takes no position", func(t *testing.T) {
		// 17 stackable pallets on 16 positions: one stands on another.
		req := packingRequest(1, 1, []TrailerType{packingTrailer("DRY", constraints.DryVan, 1)})
		req.Fleet[0].PalletPositions = 16
		for i := range 17 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprint("P", i), Store: "S0", WeightKg: 300, Footprint: StandardFootprint, HeightMM: 1200, MayBeStacked: true, MayCarry: true})
		}
		plan := planOK(t, req)
		r := &plan.Routes[0]
		stacked := 0
		for _, pl := range r.Load.Placements {
			stacked += pl.Level
		}
		if len(plan.Routes) != 1 || stacked != 1 || r.Metrics.Positions != 16 || r.Metrics.PosUtil != 1 {
			t.Fatalf("%d routes, %d stacked, %d positions (%g); want 1 route, 1 stacked, 16 positions (1)", len(plan.Routes), stacked, r.Metrics.Positions, r.Metrics.PosUtil)
		}
		r.Metrics.Positions, r.Metrics.PosUtil, plan.Metrics.PosUtil = 17, 17.0/16, 17.0/16
		wantViolations(t, Validate(req, plan),
			violation{CodeMetric, rm0 + ".positions", []string{"reports 17, recomputed 16"}},
			violation{CodeMetric, rm0 + ".positionsUtilisation", []string{"[0, 1]"}},
			violation{CodeMetric, "metrics.positionsUtilisation", []string{"[0, 1]"}})
	})
	t.Run("instants in the request's time zone", func(t *testing.T) {
		chicago := constraints.WeeklyHours{TimeZone: "America/Chicago"}
		berlin := constraints.WeeklyHours{TimeZone: "Europe/Berlin"}
		tests := []struct {
			dock   *constraints.WeeklyHours
			stores []Store
			want   string
		}{
			{&chicago, []Store{{Hours: berlin}}, "America/Chicago"},
			{nil, []Store{{Hours: berlin}, {Hours: chicago}}, "Europe/Berlin"},
			{&constraints.WeeklyHours{}, []Store{{Hours: berlin}}, "Europe/Berlin"},
			{nil, nil, "UTC"},
		}
		for _, tc := range tests {
			if got := (&Request{DC: DC{DockHours: tc.dock}, Stores: tc.stores}).TimeZone().String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		}
	})
	t.Run("travel only for the legs driven", func(t *testing.T) {
		// 5,000 stores, one visited: a matrix of every store would take
		// 200 MB; Validate computes three legs.
		req, plan := goldenVan()
		for i := range MaxStores - len(req.Stores) {
			req.Stores = append(req.Stores, Store{ID: fmt.Sprint("far", i), Location: geo.Point{Lat: 10 + float64(i%50)/10, Lng: float64(i/50) / 10},
				Hours: constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "24:00")}})
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := Validate(req, plan); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if used := after.TotalAlloc - before.TotalAlloc; used > 50<<20 {
			t.Fatalf("Validate allocated %d MB for one route among %d stores", used>>20, len(req.Stores))
		}
	})
}
