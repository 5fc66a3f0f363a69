package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/loadplan"
)

// chicago is the zone of the hand-built day: the reports must show its
// wall clock, not UTC.
var chicago = mustZone("America/Chicago")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// at is h:m on Tuesday 24 November 2026 in Chicago (CST, UTC−6).
func at(h, m int) time.Time { return time.Date(2026, 11, 24, h, m, 0, 0, chicago) }

// plantedTrip is one trip of the hand-built day.
type plantedTrip struct {
	route, shift, unit, store string
	trip, door                int
	loadingStart, start       time.Time
}

// multiTripTrips are the trips of multiTripDay, in the order of their
// hook-ups. Two shifts drive five trips with two trailer units on two dock
// doors; every trip carries 8 pallets to one store:
//
//	R1 D1 trip 1, DRY53-01, door 1: loads 02:00–02:22, staged 0:38; on duty 03:00, departs 03:15 to A (40 km north), back 05:01:10
//	R2 D2 trip 1, DRY53-02, door 2: loads 02:10–02:32 (door 1 busy), staged 1:28; on duty 04:00, departs 04:15 to B (50 km south), back 06:21:12
//	R3 D1 trip 2, DRY53-01, door 1: loads 05:35–05:57 (the unit free at 05:31:10), staged 0:03; on duty 06:00, departs 06:15 to C (30 km north), back 07:41:08
//	R4 D2 trip 2, DRY53-02, door 2: loads 06:55–07:17 (the unit free at 06:51:12), staged 0:03; on duty 07:20, departs 07:35 to D (45 km south), back 09:30:04
//	R5 D1 trip 3, DRY53-01, door 1: loads 08:15–08:37 (the unit free at 08:11:08), staged 0:08; on duty 08:45, departs 09:00 to E (35 km north), back 10:35:02
//
// (a leg of x km takes about x minutes at 60 km/h, a stop 26 minutes.)
// D1 is on duty 03:00–10:35:02 with 59 and 64 minutes at the DC between
// its trips; D2 04:00–09:30:04 with 59 minutes between its two.
var multiTripTrips = []plantedTrip{
	{"R1", "D1", "DRY53-01", "A", 1, 1, at(2, 0), at(3, 0)},
	{"R2", "D2", "DRY53-02", "B", 1, 2, at(2, 10), at(4, 0)},
	{"R3", "D1", "DRY53-01", "C", 2, 1, at(5, 35), at(6, 0)},
	{"R4", "D2", "DRY53-02", "D", 2, 2, at(6, 55), at(7, 20)},
	{"R5", "D1", "DRY53-01", "E", 3, 1, at(8, 15), at(8, 45)},
}

// multiTripDay is a DC day built by hand with several trips per shift,
// trailer units that turn and dock doors that are shared (the trips of
// multiTripTrips), which engine.Validate accepts as it stands: metrics
// included.
func multiTripDay(t testing.TB) (engine.Request, engine.Result) {
	t.Helper()
	req := multiTripRequest()
	var plan engine.Result
	for _, p := range multiTripTrips {
		plan.Routes = append(plan.Routes, plantRoute(t, &req, p))
	}
	plan.Unassigned = []engine.Unassigned{}
	plan.Metrics = planMetrics(plan.Routes, req.Shifts)
	plan.Metrics.TrailersLowerBound = 2 // 40 pallets of 48 × 40 in on 30-position floors
	// The fleet bounds engine.Validate recomputes from the request: on a day
	// this small they prove one shift and one unit.
	plan.Metrics.ShiftsLowerBound, plan.Metrics.TrailerUnitsLowerBound = 1, 1
	if err := engine.Validate(req, plan); err != nil {
		t.Fatalf("the hand-built multi-trip day is not a valid plan: %v", err)
	}
	return req, plan
}

func multiTripRequest() engine.Request {
	daily := func(open, close string) constraints.WeeklyHours {
		days := map[string][]constraints.Opening{}
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			days[d] = []constraints.Opening{{Open: open, Close: close}}
		}
		return constraints.WeeklyHours{TimeZone: "America/Chicago", Days: days}
	}
	dc := geo.Point{Lat: 32.5921, Lng: -96.7561}
	store := func(id string, dLat, dLng float64) engine.Store {
		return engine.Store{ID: id, Name: "Store " + id, Location: geo.Point{Lat: dc.Lat + dLat, Lng: dc.Lng + dLng},
			Hours: daily("00:00", "24:00"), Unloading: engine.Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}}
	}
	dockHours := daily("01:00", "20:00")
	return engine.Request{
		DC: engine.DC{ID: "DC", Name: "Test DC", Location: dc, DockHours: &dockHours, DockDoors: 2,
			LoadingFixed: 10 * time.Minute, LoadingPerPallet: 90 * time.Second, MaxStaging: 2 * time.Hour},
		Stores: []engine.Store{store("A", 0.36, 0), store("B", -0.45, 0), store("C", 0.27, 0), store("D", -0.40, 0), store("E", 0.31, 0)},
		Fleet: []engine.TrailerType{{ID: "DRY53", Name: "53 ft dry van", Count: 2,
			Inside: engine.Dimensions{LengthMM: 16002, WidthMM: 2540, HeightMM: 2794}, PalletPositions: 30, PayloadKg: 20400,
			Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: constraints.AxleGeometry{KingpinMM: 914, AxleGroupMM: 12500, TareKg: 6350, TareCentreMM: 8500,
				KingpinLimitKg: 11300, AxleGroupLimitKg: 15422},
			Costs: engine.Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}}},
		Shifts: []constraints.Shift{
			{ID: "D1", Start: at(3, 0), End: at(17, 0), MaxTrips: 3, Cost: 250},
			{ID: "D2", Start: at(4, 0), End: at(18, 0), Cost: 250},
		},
		Travel: geo.TravelModel{SpeedKmh: 60, Circuity: 1},
	}
}

// plantRoute builds trip p of 8 pallets with its times, load plan and
// metrics, and adds its pallets to the request.
func plantRoute(t testing.TB, req *engine.Request, p plantedTrip) engine.Route {
	t.Helper()
	const pallets = 8
	var s engine.Store
	for _, x := range req.Stores {
		if x.ID == p.store {
			s = x
		}
	}
	hook := 15 * time.Minute
	r := engine.Route{ID: p.route, Trailer: "DRY53", Shift: p.shift, Trip: p.trip, TrailerUnit: p.unit, DockDoor: p.door,
		LoadingStart: p.loadingStart, LoadingEnd: p.loadingStart.Add(req.DC.LoadingFixed + pallets*req.DC.LoadingPerPallet),
		Start: p.start, Depart: p.start.Add(hook)}
	leg := req.Travel.Duration(req.DC.Location, s.Location)
	st := engine.Stop{Store: s.ID, Arrival: r.Depart.Add(leg), Start: r.Depart.Add(leg)}
	st.Departure = st.Start.Add(s.Unloading.Fixed + pallets*s.Unloading.PerPallet)
	var lp []loadplan.Pallet
	for k := range pallets {
		pal := engine.Pallet{ID: fmt.Sprintf("%s-P%d", p.route, k+1), Store: s.ID, WeightKg: 500,
			Footprint: engine.Footprint{LengthMM: 1219, WidthMM: 1016}, HeightMM: 1500}
		req.Pallets = append(req.Pallets, pal)
		st.Pallets = append(st.Pallets, pal.ID)
		lp = append(lp, loadplan.Pallet{ID: pal.ID, Store: s.ID, LengthMM: 1219, WidthMM: 1016, HeightMM: 1500, WeightKg: 500,
			VolumeM3: 1.219 * 1.016 * 1.5})
	}
	r.Stops = []engine.Stop{st}
	r.Return = st.Departure.Add(leg)
	tt := req.Fleet[0]
	lay, err := loadplan.PlanTrailer(loadplan.Trailer{ID: tt.ID, LengthMM: tt.Inside.LengthMM, WidthMM: tt.Inside.WidthMM,
		HeightMM: tt.Inside.HeightMM, Positions: tt.PalletPositions, PayloadKg: tt.PayloadKg, Equipment: tt.Equipment, Axles: tt.Axles}, lp, 1)
	if err != nil {
		t.Fatal(err)
	}
	r.Load = loadPlanOf(lay)
	km := 2 * req.Travel.RoadDistance(req.DC.Location, s.Location) / 1000
	m := engine.RouteMetrics{Stops: 1, Pallets: pallets, DistanceM: km * 1000, Duration: r.Return.Sub(r.Start), Driving: 2 * leg,
		WeightKg: pallets * 500, VolumeM3: pallets * 1.219 * 1.016 * 1.5, Positions: len(lay.Placements)}
	m.Cost = tt.Costs.Fixed + tt.Costs.PerKm*km + tt.Costs.PerHour*m.Duration.Hours()
	m.PosUtil = float64(m.Positions) / float64(tt.PalletPositions)
	m.WeightUtil = m.WeightKg / tt.PayloadKg
	m.VolumeUtil = m.VolumeM3 / (16.002 * 2.540 * 2.794)
	r.Metrics = m
	return r
}

// loadPlanOf is a layout as a route's load plan.
func loadPlanOf(l *loadplan.Layout) engine.LoadPlan {
	var lp engine.LoadPlan
	for _, z := range l.Zones {
		lp.Zones = append(lp.Zones, engine.Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for _, p := range l.Placements {
		lp.Placements = append(lp.Placements, engine.Placement{Pallet: p.Pallet, Row: p.Row, Side: p.Side.String(), Turned: p.Turned,
			Zone: p.Zone, XMM: p.XMM, Level: p.Level})
	}
	for _, a := range l.Axles {
		lp.Axles = append(lp.Axles, engine.AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lp
}

// planMetrics totals the routes, the shifts' costs and the resources they
// use.
func planMetrics(routes []engine.Route, shifts []constraints.Shift) engine.Metrics {
	var m engine.Metrics
	usedShift, units, doors := map[string]bool{}, map[string]bool{}, 0
	for _, r := range routes {
		m.Routes++
		m.Stops += r.Metrics.Stops
		m.Pallets += r.Metrics.Pallets
		m.DistanceM += r.Metrics.DistanceM
		m.Duration += r.Metrics.Duration
		m.Driving += r.Metrics.Driving
		m.Wait += r.Metrics.Wait
		m.Cost += r.Metrics.Cost
		m.PosUtil += r.Metrics.PosUtil / float64(len(routes))
		usedShift[r.Shift] = true
		units[r.TrailerUnit] = true
		loading := 0 // at r's loading start
		for _, q := range routes {
			if !q.LoadingStart.After(r.LoadingStart) && q.LoadingEnd.After(r.LoadingStart) {
				loading++
			}
		}
		doors = max(doors, loading)
	}
	for _, s := range shifts {
		if usedShift[s.ID] {
			m.Cost += s.Cost
		}
	}
	m.ShiftsUsed, m.TrailerUnitsUsed, m.PeakDockDoors = len(usedShift), len(units), doors
	return m
}

// The hand-built day is what the report tests take it for: two shifts of
// three and two trips, two units that turn, two doors shared.
func TestMultiTripDay(t *testing.T) {
	req, plan := multiTripDay(t)
	trips := map[string]int{}
	for _, r := range plan.Routes {
		trips[r.Shift]++
	}
	if trips["D1"] != 3 || trips["D2"] != 2 || plan.Metrics.TrailerUnitsUsed != 2 || plan.Metrics.PeakDockDoors != 2 {
		t.Errorf("trips per shift %v, %d units, %d doors at peak", trips, plan.Metrics.TrailerUnitsUsed, plan.Metrics.PeakDockDoors)
	}
	back := []time.Time{at(5, 1).Add(10 * time.Second), at(6, 21).Add(12 * time.Second), at(7, 41).Add(8 * time.Second),
		at(9, 30).Add(4 * time.Second), at(10, 35).Add(2 * time.Second)}
	for i, r := range plan.Routes {
		if !r.Return.Equal(back[i]) {
			t.Errorf("%s back %s, the comment says %s", r.ID, r.Return.In(chicago).Format("15:04:05"), back[i].Format("15:04:05"))
		}
	}
	if req.TimeZone().String() != "America/Chicago" {
		t.Errorf("zone %s", req.TimeZone())
	}
}
