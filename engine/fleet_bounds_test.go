package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/loadplan"
	"pgregory.net/rapid"
)

// boundsDay is a day whose bounds are worked out by hand: store A on the
// equator 0.1° east of the DC, 36 km/h and circuity 1 as in goldenVan, so
// 1,114 s each way, which the bounds take as 1,113 s (a second less, for
// the rounding of legs): R(A) = 2,226 s. Forty pallets of 1,200 × 1,000 ×
// 1,000 mm and 400 kg for A, a van of 8 positions, 10,000 kg and 24 m³, so
// 5 trailer loads by positions (1.6 by weight, 2 by volume). Unloading
// 10 min + 2 min a pallet: 5,400 s in all, 720 s for one pallet. Loading
// 1 min a pallet, hook-up 15 min, turnaround 30 min (the defaults). Six
// shifts from 04:00 UTC on 24 November 2026, long as asked.
func boundsDay(shiftLen time.Duration) Request {
	open := constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "24:00")}
	req := Request{
		DC: DC{ID: "DC", LoadingPerPallet: time.Minute},
		Stores: []Store{{ID: "A", Location: geo.Point{Lng: 0.1}, Hours: open,
			Unloading: Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}}},
		Fleet: []TrailerType{{ID: "VAN", Count: 10, Inside: Dimensions{LengthMM: 4000, WidthMM: 2500, HeightMM: 2600},
			PalletPositions: 8, PayloadKg: 10000, VolumeM3: 24, Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: constraints.AxleGeometry{KingpinMM: 600, AxleGroupMM: 3600, TareKg: 3000, TareCentreMM: 2100, KingpinLimitKg: 8000, AxleGroupLimitKg: 8000},
			Costs: Costs{Fixed: 100, PerKm: 2, PerHour: 30}}},
		Travel: geo.TravelModel{SpeedKmh: 36, Circuity: 1},
	}
	for i := range 40 {
		req.Pallets = append(req.Pallets, Pallet{ID: "P" + string(rune('A'+i/26)) + string(rune('a'+i%26)), Store: "A", WeightKg: 400,
			Footprint: Footprint{LengthMM: 1200, WidthMM: 1000}, HeightMM: 1000})
	}
	for i := range 6 {
		req.Shifts = append(req.Shifts, constraints.Shift{ID: "D" + string(rune('1'+i)), Start: utc(4, 0, 0), End: utc(4, 0, 0).Add(shiftLen)})
	}
	return req
}

// allPalletsAndMatrix is every pallet of req, by index, and its
// Options.Matrix's travel over the DC and the stores (nil without one).
func allPalletsAndMatrix(t fataler, req *Request) ([]int, *geo.Matrix) {
	idx := make([]int, len(req.Pallets))
	for i := range idx {
		idx[i] = i
	}
	if req.Options.Matrix == nil {
		return idx, nil
	}
	points := []geo.Point{req.DC.Location}
	for _, s := range req.Stores {
		points = append(points, s.Location)
	}
	mx, err := req.Options.Matrix.Matrix(context.Background(), points)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return idx, mx
}

// boundsOf is what a plan delivering all of req's pallets reports.
func boundsOf(t fataler, req Request) fleetBounds {
	t.Helper()
	if err := req.Check(); err != nil {
		t.Fatalf("%v", err)
	}
	idx, mx := allPalletsAndMatrix(t, &req)
	return fleetLowerBounds(&req, idx, trailersLowerBound(&req, idx), mx, func(p int) int { return p })
}

// TestFleetBoundsByHand checks the bounds on boundsDay and variants of it
// against figures worked out by hand. On every row the trips are at least
// 5 (trailersLowerBound), the driving at least 5 × 2,226 = 11,130 s (by
// positions), and the duty 11,130 + 5,400 + 5 × 900 = 21,030 s.
//
// A trip to A is on duty at least 900 + 1,113 + 720 + 1,113 = 3,846 s;
// with shifts of 04:00–06:00 each one starts by 04:55:54 and is back no
// sooner than 05:04:06, so all are on duty at 05:00 and hold a shift and
// a unit each: 5. With shifts of 3 h that span is empty.
//
// Units, shifts of 3 h: the trips hold units for 5 × (900 + 1,800) +
// 40 × 60 + 11,130 + 5,400 = 32,430 s inside a horizon from 04:00 less the
// loading of 16 pallets (the most a van of 8 positions holds) to 07:30:
// 13,560 s, so ⌈2.39⌉ = 3. A unit for A is loaded no later than 06:29:27
// (the last unloading that returns by 07:00) − 1,113 − 900 − 60 =
// 05:54:54 and back and turned around no sooner than 04:33:33 + 720 +
// 1,113 + 1,800 = 05:34:06: no instant in common, unless the dock closes
// at 03:00, when every unit is out from 03:00 to 05:34:06: 5.
//
// Shifts of 10 h with A receiving from 04:00 to 07:00: the stops start
// from 04:33:33 (04:00 + 900 + 1,113) and end by 07:00 + 5,400 s (all 40
// pallets at once) = 08:30, direct legs 1,114 + 1 s each way. A shift
// works at most 08:30 − 04:00 + 1,115 = 17,315 s of the 21,030 the day
// asks: 2 shifts, where 10 h a shift would say 1. A unit works at most
// 14,187 + 960 (loading 16 pallets) + 900 + 2,230 + 1,800 = 20,077 s of
// the 32,430: 2 units, where the horizon of 38,760 s would say 1; the
// loading waves ask for 3 (loadingWavesBound). Receiving all day, each
// bound is 1.
func TestFleetBoundsByHand(t *testing.T) {
	cases := []struct {
		name          string
		shiftLen      time.Duration
		change        func(*Request)
		shifts, units int
	}{
		{"3 h shifts: duty 2 × 10,800 s ≥ 21,030 s", 3 * time.Hour, nil, 2, 3},
		{"2 h shifts: every trip out at 05:00", 2 * time.Hour, nil, 5, 5},
		{"one trip a shift", 3 * time.Hour, func(r *Request) {
			for i := range r.Shifts {
				r.Shifts[i].MaxTrips = 1
			}
		}, 5, 3},
		{"1 h of driving a shift: ⌈11,130 / 3,600⌉", 3 * time.Hour, func(r *Request) { r.HoursOfService.MaxDriving = time.Hour }, 4, 3},
		{"1 h 30 min of duty a shift: ⌈21,030 / 5,400⌉", 3 * time.Hour, func(r *Request) { r.HoursOfService.MaxDuty = 90 * time.Minute }, 4, 3},
		{"dock hours end at 03:00", 3 * time.Hour, func(r *Request) {
			r.DC.DockHours = &constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "03:00")}
		}, 2, 5},
		{"10 h shifts, A receiving 04:00–07:00: work inside the receiving hours", 10 * time.Hour, func(r *Request) {
			r.Stores[0].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("04:00", "07:00")}
		}, 2, 3},
		{"10 h shifts, A receiving all day", 10 * time.Hour, nil, 1, 1},
		{"nothing to deliver", 3 * time.Hour, func(r *Request) { r.Pallets = nil }, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := boundsDay(tc.shiftLen)
			if tc.change != nil {
				tc.change(&req)
			}
			got := boundsOf(t, req)
			if got.shifts != tc.shifts || got.trailerUnits != tc.units {
				t.Fatalf("bounds: %d shifts, %d units; want %d and %d", got.shifts, got.trailerUnits, tc.shifts, tc.units)
			}
		})
	}
}

// TestFleetBoundFigures checks the parts of the bounds on boundsDay.
func TestFleetBoundFigures(t *testing.T) {
	req := boundsDay(3 * time.Hour)
	idx := make([]int, len(req.Pallets))
	for i := range idx {
		idx[i] = i
	}
	d := newDayDemand(&req, idx, nil, nil)
	if len(d.stores) != 1 || d.stores[0].out != 1113*time.Second || d.stores[0].back != 1113*time.Second {
		t.Fatalf("stores %+v; want A at 1,113 s each way", d.stores)
	}
	if want := [3]int64{5 * shareScale, 1.6 * shareScale * (1 - 1e-8), 2 * shareScale * (1 - 1e-8)}; !sharesNear(d.stores[0].shares, want) {
		t.Errorf("shares %v; want about %v", d.stores[0].shares, want)
	}
	if got := d.drivingBound(5); got != 11130*time.Second {
		t.Errorf("driving bound %v; want 11,130 s", got)
	}
	// Seven trips, two more than the shares ask, drive to A all the same.
	if got := d.drivingBound(7); got != 7*2226*time.Second {
		t.Errorf("driving bound of 7 trips %v; want 15,582 s", got)
	}
	if got := d.unloadingBound(); got != 5400*time.Second {
		t.Errorf("unloading bound %v; want 5,400 s", got)
	}
	// Stackable pallets take half a position each: 2.5 trailers by
	// positions, so at least 3 trips to A, 3 × 2,226 s of driving
	// (volume gives 2 × 2,226).
	for i := range req.Pallets {
		req.Pallets[i].MayBeStacked = true
	}
	if got := newDayDemand(&req, idx, nil, nil).drivingBound(0); got != 6678*time.Second {
		t.Errorf("driving bound of stackable pallets %v; want 6,678 s", got)
	}
}

// TestExtraStopsByHand: boundsDay with half of A's pallets chilled, on
// a dry van and a reefer of the van's size, each carrying one class a
// trip: A is two stops at least, so the unloading is 5,400 s + one more
// Fixed of 600 s. A multi-temperature reefer with no units changes
// nothing; with ten units, which run at least ten trips, it may carry
// both classes whole (5 trailers by positions) and the bound is 5,400 s
// again. So is it when A receives one class only.
func TestExtraStopsByHand(t *testing.T) {
	day := func(multiUnits int, classes int) Request {
		req := boundsDay(3 * time.Hour)
		van := req.Fleet[0]
		reefer, multi := van, van
		reefer.ID, reefer.Equipment = "REEF", constraints.Equipment{Kind: constraints.Reefer}
		multi.ID, multi.Count, multi.Equipment = "MULTI", multiUnits, constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 2}
		req.Fleet = append(req.Fleet, reefer, multi)
		for i := range req.Pallets {
			if classes > 1 && i%2 == 1 {
				req.Pallets[i].Temperature = constraints.Chilled
			}
		}
		return req
	}
	for _, c := range []struct {
		name              string
		multiUnits, class int
		want              time.Duration
	}{
		{"two classes, no multi-class type", 0, 2, 6000 * time.Second},
		{"two classes, ten multi-class units", 10, 2, 5400 * time.Second},
		{"one class", 0, 1, 5400 * time.Second},
	} {
		req := day(c.multiUnits, c.class)
		if err := req.Check(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		idx, _ := allPalletsAndMatrix(t, &req)
		if got := newDayDemand(&req, idx, nil, nil).unloadingBound(); got != c.want {
			t.Errorf("%s: unloading bound %v; want %v", c.name, got, c.want)
		}
	}
}

// TestExtraStopsOnUnitsThatTurnInNanoseconds: a store A of two classes
// and a store Z at the DC that takes no time, with a hook time, a
// turnaround and a loading of nothing: the one multi-class unit may run
// trips to Z a nanosecond apart, more than a count of shares can hold.
// It still carries A's two classes on one trip, so the unloading bound
// is A's one stop, 10 min + 2 × 2 min, and Z's nothing.
func TestExtraStopsOnUnitsThatTurnInNanoseconds(t *testing.T) {
	req := boundsDay(12 * time.Hour)
	req.Pallets = req.Pallets[:2]
	req.Pallets[1].Temperature = constraints.Chilled
	multi := req.Fleet[0]
	multi.ID, multi.Count, multi.Equipment = "MULTI", 1, constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 2}
	req.Fleet = append(req.Fleet, multi)
	req.DC.HookTime, req.DC.TrailerTurnaround, req.DC.LoadingPerPallet = time.Nanosecond, time.Nanosecond, 0
	z := req.Stores[0]
	z.ID, z.Location, z.Unloading = "Z", req.DC.Location, Unloading{}
	req.Stores = append(req.Stores, z)
	pz := req.Pallets[0]
	pz.ID, pz.Store = "PZ", "Z"
	req.Pallets = append(req.Pallets, pz)
	if err := req.Check(); err != nil {
		t.Fatal(err)
	}
	idx, _ := allPalletsAndMatrix(t, &req)
	if got, want := newDayDemand(&req, idx, nil, nil).unloadingBound(), 14*time.Minute; got != want {
		t.Errorf("unloading bound %v; want %v", got, want)
	}
}

// sharesNear reports whether got is want to 100 units in each
// dimension: each pallet's share is rounded down on its own.
func sharesNear(got, want [3]int64) bool {
	for i := range got {
		if d := got[i] - want[i]; d < -100 || d > 100 {
			return false
		}
	}
	return true
}

// detourMatrix is a road matrix whose direct legs between the DC and A
// take 5,000 s, while going by B takes 100 s a leg: no triangle
// inequality, as a matrix source may well give.
type detourMatrix struct{}

func (detourMatrix) Matrix(_ context.Context, points []geo.Point) (*geo.Matrix, error) {
	m := geo.NewMatrix(len(points))
	for i, a := range points {
		for j, b := range points {
			d := 100 * time.Second
			if a.Lng+b.Lng == 0.1 && (a.Lng == 0 || b.Lng == 0) { // the DC and A
				d = 5000 * time.Second
			}
			if i != j {
				m.Set(i, j, 1000, d)
			}
		}
	}
	return m, nil
}

// TestRoundTripsTakeTheShortestWay: on a matrix source the way out and
// back is the shortest in the matrix over the stores delivered, here by B:
// R(A) = 400 s, R(B) = 200 s; with a trailer load for each, the driving
// bound is 600 s. Without B delivered, no trip can go by it: 10,000 s.
func TestRoundTripsTakeTheShortestWay(t *testing.T) {
	req := boundsDay(3 * time.Hour)
	req.Options.Matrix = detourMatrix{}
	req.Stores = append(req.Stores, req.Stores[0])
	req.Stores[1].ID, req.Stores[1].Location = "B", geo.Point{Lng: -0.05}
	req.Pallets = req.Pallets[:16]
	for i := range 8 {
		req.Pallets[i].Store = "B"
	}
	points := []geo.Point{req.DC.Location, req.Stores[0].Location, req.Stores[1].Location}
	mx, err := req.Options.Matrix.Matrix(context.Background(), points)
	if err != nil {
		t.Fatal(err)
	}
	all, onlyA := []int{}, []int{}
	for i := range req.Pallets {
		all = append(all, i)
		if i >= 8 {
			onlyA = append(onlyA, i)
		}
	}
	row := func(p int) int { return p }
	if got := newDayDemand(&req, all, mx, row).drivingBound(0); got != 600*time.Second {
		t.Errorf("driving bound by B %v; want 600 s", got)
	}
	if got := newDayDemand(&req, onlyA, mx, row).drivingBound(0); got != 10000*time.Second {
		t.Errorf("driving bound to A alone %v; want 10,000 s", got)
	}
}

// skewedMatrix is a road matrix far from any metric: each leg takes the
// request's travel time (36 km/h, circuity 1) times a factor from 0.3 to
// 3 drawn from its two ends, so that legs differ by direction and a way
// by a third place may beat the direct one.
type skewedMatrix struct{}

var skewedTravel = geo.TravelModel{SpeedKmh: 36, Circuity: 1}

func (skewedMatrix) Matrix(_ context.Context, points []geo.Point) (*geo.Matrix, error) {
	m := geo.NewMatrix(len(points))
	for i, a := range points {
		for j, b := range points {
			if i != j {
				m.Set(i, j, skewedTravel.RoadDistance(a, b), skewedLeg(a, b))
			}
		}
	}
	return m, nil
}

func skewedLeg(a, b geo.Point) time.Duration {
	x := math.Sin(a.Lat*12.9898+a.Lng*78.233+2*(b.Lat*39.3468+b.Lng*11.135)) * 43758.5453
	f := 0.3 + 2.7*(x-math.Floor(x))
	return time.Duration(f * float64(skewedTravel.Duration(a, b)))
}

// tightTrip is one trip of tightDay as it is drawn.
type tightTrip struct {
	shift     int
	stops     []Stop
	pallets   []Pallet
	loadStart time.Time
	route     Route
}

// genTightDay draws a legal day of several trips a shift with the shifts
// and trailer units used to the full: each shift's window and limits are
// exactly its trips' duty and driving (its maxTrips sometimes their
// count), each store's receiving hours and the dock hours the minutes
// around the stops and loadings, trips follow each other after short
// gaps, and the units turn as soon as they may. Travel is the request's
// (drawTravel) or skewedMatrix.
func genTightDay(t *rapid.T) (Request, Result) {
	req := Request{
		DC: DC{ID: "DC", LoadingPerPallet: time.Duration(rapid.IntRange(0, 90).Draw(t, "loadingPerPallet")) * time.Second,
			LoadingFixed:      time.Duration(rapid.IntRange(0, 10).Draw(t, "loadingFixed")) * time.Minute,
			HookTime:          time.Duration(rapid.SampledFrom([]int{0, 5, 20}).Draw(t, "hook")) * time.Minute,
			TrailerTurnaround: time.Duration(rapid.SampledFrom([]int{0, 10, 45}).Draw(t, "turnaround")) * time.Minute,
			MaxStaging:        time.Duration(rapid.IntRange(0, 120).Draw(t, "staging")) * time.Minute},
		Fleet:          boundsDay(time.Hour).Fleet,
		Travel:         drawTravel(t),
		HoursOfService: constraints.HoursOfService{BreakAfter: 24 * time.Hour},
	}
	leg := req.Travel.Duration
	if rapid.Bool().Draw(t, "matrix") {
		req.Options.Matrix = skewedMatrix{}
		leg = func(a, b geo.Point) time.Duration {
			return (time.Duration(math.Ceil(float64(skewedLeg(a, b))/1e9)) * time.Second)
		}
	}
	for i := range rapid.IntRange(1, 5).Draw(t, "stores") {
		req.Stores = append(req.Stores, Store{ID: fmt.Sprint("S", i),
			Location:  geo.Point{Lat: rapid.Float64Range(-0.2, 0.2).Draw(t, "lat"), Lng: rapid.Float64Range(-0.3, 0.3).Draw(t, "lng")},
			Unloading: Unloading{Fixed: time.Duration(rapid.IntRange(0, 20).Draw(t, "fixed")) * time.Minute, PerPallet: time.Duration(rapid.IntRange(0, 180).Draw(t, "perPallet")) * time.Second}})
	}
	var trips []*tightTrip
	for si := range rapid.IntRange(1, 3).Draw(t, "shifts") {
		trips = append(trips, drawShiftTrips(t, &req, si, leg)...)
	}
	return req, tightPlan(t, &req, trips)
}

// drawShiftTrips draws shift si's trips one after another and the shift
// around them.
func drawShiftTrips(t *rapid.T, req *Request, si int, leg func(a, b geo.Point) time.Duration) []*tightTrip {
	at := utc(4, 0, 0).Add(time.Duration(rapid.IntRange(0, 120).Draw(t, "shiftStart")) * time.Minute)
	var trips []*tightTrip
	var driving time.Duration
	first := at
	for k := range rapid.IntRange(1, 4).Draw(t, "trips") {
		tr := &tightTrip{shift: si}
		start := at.Add(time.Duration(rapid.IntRange(0, 30).Draw(t, "gap")) * time.Minute)
		if k == 0 {
			first = start
		}
		depart := start.Add(req.HookTime())
		place, leave := req.DC.Location, depart
		stores := rapid.Permutation(req.Stores).Draw(t, "order")[:rapid.IntRange(1, min(3, len(req.Stores))).Draw(t, "stops")]
		for _, s := range stores {
			d := leg(place, s.Location)
			driving += d
			st := Stop{Store: s.ID, Arrival: leave.Add(d)}
			st.Start = st.Arrival.Add(time.Duration(rapid.IntRange(0, 15).Draw(t, "wait")) * time.Minute)
			st.Wait = st.Start.Sub(st.Arrival)
			for range rapid.IntRange(1, 6/len(stores)).Draw(t, "pallets") {
				p := Pallet{ID: fmt.Sprintf("P%d-%d-%d", si, k, len(tr.pallets)), Store: s.ID, WeightKg: 400,
					Footprint: Footprint{LengthMM: 1200, WidthMM: 1000}, HeightMM: 1000}
				tr.pallets = append(tr.pallets, p)
				st.Pallets = append(st.Pallets, p.ID)
			}
			st.Departure = st.Start.Add(s.Unloading.Time(len(st.Pallets)))
			tr.stops = append(tr.stops, st)
			place, leave = s.Location, st.Departure
		}
		d := leg(place, req.DC.Location)
		driving += d
		ret := leave.Add(d)
		loadEnd := start.Add(-time.Duration(rapid.IntRange(0, int(req.DC.MaxStaging/time.Minute)).Draw(t, "staged")) * time.Minute)
		tr.loadStart = loadEnd.Add(-req.DC.LoadingTime(len(tr.pallets)))
		tr.route = Route{Shift: fmt.Sprint("D", si), Trip: k + 1, LoadingStart: tr.loadStart, LoadingEnd: loadEnd,
			Start: start, Depart: depart, Return: ret, Stops: tr.stops}
		trips = append(trips, tr)
		at = ret
	}
	sh := constraints.Shift{ID: fmt.Sprint("D", si), Start: first, End: at,
		Limits: &constraints.HoursOfService{MaxDuty: at.Sub(first), MaxDriving: max(driving, time.Second),
			// No break is ever due: the shift drives no more than this.
			BreakAfter: max(driving, time.Second)}}
	if rapid.Bool().Draw(t, "maxTrips") {
		sh.MaxTrips = len(trips)
	}
	req.Shifts = append(req.Shifts, sh)
	return trips
}

// tightPlan gives the trips their pallets, trailer units (each the first
// unit turned around by its loading start), doors, floor layouts and ids,
// and the request the units, receiving hours and dock hours they keep.
func tightPlan(t *rapid.T, req *Request, trips []*tightTrip) Result {
	slices.SortStableFunc(trips, func(a, b *tightTrip) int { return a.loadStart.Compare(b.loadStart) })
	var unitFree, doorFree []time.Time
	starts := map[string][]time.Time{}
	var loadStarts []time.Time
	plan := Result{Unassigned: []Unassigned{}}
	for i, tr := range trips {
		r := tr.route
		r.ID, r.Trailer = fmt.Sprint("R", i+1), "VAN"
		u := slices.IndexFunc(unitFree, func(free time.Time) bool { return !free.After(r.LoadingStart) })
		if u < 0 {
			u, unitFree = len(unitFree), append(unitFree, time.Time{})
		}
		unitFree[u] = r.Return.Add(req.Turnaround())
		r.TrailerUnit = req.Fleet[0].UnitID(u + 1)
		door := slices.IndexFunc(doorFree, func(free time.Time) bool { return !free.After(r.LoadingStart) })
		if door < 0 {
			door, doorFree = len(doorFree), append(doorFree, time.Time{})
		}
		doorFree[door], r.DockDoor = r.LoadingEnd, door+1
		var lp []loadplan.Pallet
		for k, st := range r.Stops {
			starts[st.Store] = append(starts[st.Store], st.Start)
			for _, id := range st.Pallets {
				p := tr.pallets[slices.IndexFunc(tr.pallets, func(p Pallet) bool { return p.ID == id })]
				lp = append(lp, layoutPallet(p, k))
			}
		}
		lay, err := loadplan.PlanTrailer(layoutTrailer(req.Fleet[0]), lp, len(r.Stops))
		if err != nil {
			t.Fatalf("no layout for %d pallets on %d stops: %v", len(lp), len(r.Stops), err)
		}
		r.Load = fromLayout(lay)
		req.Pallets = append(req.Pallets, tr.pallets...)
		loadStarts = append(loadStarts, r.LoadingStart)
		plan.Routes = append(plan.Routes, r)
	}
	req.Fleet[0].Count = len(unitFree)
	for i := range req.Stores {
		req.Stores[i].Hours = minutesAround(starts[req.Stores[i].ID])
	}
	if rapid.Bool().Draw(t, "dockHours") {
		h := minutesAround(loadStarts)
		req.DC.DockHours = &h
	}
	return plan
}

// minutesAround is hours in UTC from the whole minute at or before the
// earliest instant to the one after the latest, on the weekdays between
// (across midnight when they run past it); all day for none.
func minutesAround(at []time.Time) constraints.WeeklyHours {
	if len(at) == 0 {
		return constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings("00:00", "24:00")}
	}
	lo, hi := slices.MinFunc(at, time.Time.Compare), slices.MaxFunc(at, time.Time.Compare)
	minute := func(t time.Time) int { return t.Hour()*60 + t.Minute() }
	first, last := lo.UTC().Truncate(24*time.Hour), hi.UTC().Truncate(24*time.Hour)
	days := map[string][]constraints.Opening{}
	for d := first; !d.After(last); d = d.Add(24 * time.Hour) {
		open, close := 0, 24*60
		if d.Equal(first) {
			open = minute(lo)
		}
		if d.Equal(last) {
			close = min(24*60, minute(hi)+1)
		}
		key := strings.ToLower(d.Weekday().String()[:3])
		days[key] = append(days[key], constraints.Opening{Open: clock(open), Close: clock(close)})
	}
	return constraints.WeeklyHours{TimeZone: "UTC", Days: days}
}

// TestFleetBoundsHoldOnTightDays: on a legal day that uses its shifts and
// units to the full, the bounds never pass what it uses.
func TestFleetBoundsHoldOnTightDays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, plan := genTightDay(t)
		var vs constraints.Violations
		for _, v := range constraints.AsViolations(Validate(req, plan)) {
			if v.Code != CodeMetric {
				vs = append(vs, v)
			}
		}
		if len(vs) > 0 {
			t.Fatalf("the drawn day is not legal: %v", vs)
		}
		got := boundsOf(t, req)
		if got.shifts > len(req.Shifts) || got.trailerUnits > req.Fleet[0].Count {
			t.Fatalf("bounds of %d shifts and %d units; the day uses %d and %d", got.shifts, got.trailerUnits, len(req.Shifts), req.Fleet[0].Count)
		}
	})
}

// TestPlanKeepsToItsFleetBounds: every plan Plan returns uses at least
// the shifts and units its bounds say, and Validate agrees with the
// bounds it reports (planOK).
func TestPlanKeepsToItsFleetBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		plan := planOK(t, genRequest(t))
		m := plan.Metrics
		if m.ShiftsUsed < m.ShiftsLowerBound || m.TrailerUnitsUsed < m.TrailerUnitsLowerBound {
			t.Fatalf("%d shifts used, bound %d; %d units used, bound %d", m.ShiftsUsed, m.ShiftsLowerBound, m.TrailerUnitsUsed, m.TrailerUnitsLowerBound)
		}
	})
}

// TestPlansUnloadAtLeastTheBound: the stops of every plan Plan returns
// unload, from their start to their departure, at least unloadingBound
// of the pallets the plan delivers, the stops that stores of several
// classes need beyond one (extraStops) included.
func TestPlansUnloadAtLeastTheBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		plan := planOK(t, req)
		var unloading time.Duration
		for _, r := range plan.Routes {
			for _, st := range r.Stops {
				unloading += st.Departure.Sub(st.Start)
			}
		}
		d, _ := deliveredDemand(t, &req, &plan)
		if bound := d.unloadingBound(); unloading < bound {
			t.Fatalf("the stops unload for %v; the bound says at least %v", unloading, bound)
		}
	})
}

// deliveredDemand is the dayDemand of the pallets plan delivers, with
// their indices in req.Pallets.
func deliveredDemand(t *rapid.T, req *Request, plan *Result) (*dayDemand, []int) {
	delivered := map[string]bool{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				delivered[id] = true
			}
		}
	}
	all, mx := allPalletsAndMatrix(t, req)
	var idx []int
	for _, pi := range all {
		if delivered[req.Pallets[pi].ID] {
			idx = append(idx, pi)
		}
	}
	return newDayDemand(req, idx, mx, func(p int) int { return p }), idx
}

// tightDemand is the dayDemand of the pallets a tight day's plan
// delivers, all of them, and the trips it must have.
func tightDemand(t *rapid.T, req *Request) (*dayDemand, int) {
	idx, mx := allPalletsAndMatrix(t, req)
	return newDayDemand(req, idx, mx, func(p int) int { return p }), trailersLowerBound(req, idx)
}

// TestTripRadialsHoldOnTightDays: drivingBound's items, the least round
// trips of the longest trips, never pass the driving of the day's trips
// taken longest first, item by item, nor outnumber them.
func TestTripRadialsHoldOnTightDays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, plan := genTightDay(t)
		d, trips := tightDemand(t, &req)
		var driving []time.Duration
		for _, r := range plan.Routes {
			at, sum := r.Depart, time.Duration(0)
			for _, st := range r.Stops {
				sum += st.Arrival.Sub(at)
				at = st.Departure
			}
			driving = append(driving, sum+r.Return.Sub(at))
		}
		slices.SortFunc(driving, func(a, b time.Duration) int { return cmp.Compare(b, a) })
		items := d.tripRadials(trips)
		if len(items) > len(driving) {
			t.Fatalf("%d round trips for a day of %d trips", len(items), len(driving))
		}
		for j, r := range items {
			if r > driving[j] {
				t.Fatalf("trip %d (longest first) drives at least %v; the day's drives %v (all: %v; items %v)", j+1, r, driving[j], driving, items)
			}
		}
	})
}

// TestLoadingWavesByHand: boundsDay with shifts of 12 h from 04:00 and
// dock hours from 00:00 to 03:00 and from 06:00 on. A unit for A is back
// and turned around no sooner than 04:33:33 + 720 + 1,113 + 1,800 =
// 05:34:06, so every trip loaded in the night is out then: one a unit.
// A trip loaded from 06:00 that is back by the window's end holds its
// unit at least base 900 + 2,226 + 600 + 1,800 = 5,526 s and 180 s a
// pallet (loading 60, unloading 120).
func TestLoadingWavesByHand(t *testing.T) {
	cases := []struct {
		name  string
		close string
		units int
	}{
		{"no short trip in 1 h: 5 loads, one a wave", "07:00", 3},
		{"one short trip of 2 pallets in 1 h 40 min: 5 / 2.25 trailers", "07:40", 3},
		{"one short trip of 9 pallets in 2 h: 5 / 3 trailers", "08:00", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := boundsDay(12 * time.Hour)
			days := dailyOpenings("00:00", "03:00")
			for d := range days {
				days[d] = append(days[d], constraints.Opening{Open: "06:00", Close: tc.close})
			}
			req.DC.DockHours = &constraints.WeeklyHours{TimeZone: "UTC", Days: days}
			if got := boundsOf(t, req); got.trailerUnits != tc.units {
				t.Fatalf("%d units; want %d", got.trailerUnits, tc.units)
			}
		})
	}
}

// TestLoadingWavesHoldOnTightDays: the loading waves never ask for more
// units than a tight day uses.
func TestLoadingWavesHoldOnTightDays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, _ := genTightDay(t)
		d, trips := tightDemand(t, &req)
		if got := d.loadingWavesBound(trips); got > req.Fleet[0].Count {
			t.Fatalf("loading waves ask for %d units; the day uses %d", got, req.Fleet[0].Count)
		}
	})
}

// TestWorkCapsHoldOnTightDays: on a legal day that uses its shifts and
// units to the full, no shift works more than workCap and no unit is busy
// more than unitWorkCap, counting the parts the bounds count: a trip's
// hook time, its legs' driving and its stops' unloading, and for a unit
// also its loading and turnaround.
func TestWorkCapsHoldOnTightDays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, plan := genTightDay(t)
		d, _ := tightDemand(t, &req)
		w := d.deliveryWindow()
		storeOf := map[string]int{}
		for i, s := range req.Stores {
			storeOf[s.ID] = i
		}
		work := func(r Route) time.Duration {
			sum, at := req.HookTime(), r.Depart
			for _, st := range r.Stops {
				sum += st.Arrival.Sub(at) + req.Stores[storeOf[st.Store]].Unloading.Time(len(st.Pallets))
				at = st.Departure
			}
			return sum + r.Return.Sub(at)
		}
		byShift, byUnit := map[string]time.Duration{}, map[string]time.Duration{}
		for _, r := range plan.Routes {
			byShift[r.Shift] += work(r)
			n := 0
			for _, st := range r.Stops {
				n += len(st.Pallets)
			}
			byUnit[r.TrailerUnit] += work(r) + req.DC.LoadingTime(n) + req.Turnaround()
		}
		for si, sh := range req.Shifts {
			if got, most := byShift[sh.ID], d.workCap(sh, req.ShiftLimits(si).MaxDuty, w); got > most {
				t.Fatalf("shift %s works %v; workCap says at most %v (deliveries %v to %v)", sh.ID, got, most, w.first, w.last)
			}
		}
		for unit, got := range byUnit {
			if most := d.unitWorkCap(); got > most {
				t.Fatalf("unit %s is busy %v; unitWorkCap says at most %v", unit, got, most)
			}
		}
	})
}

// TestMostTripPalletsByHand: the most pallets a trip carries counts four
// quarters a floor position and one pallet stacked on each floor pallet
// (four times two a position, which halves and quarters that may be
// stacked reach), the payload, and only the types with units.
func TestMostTripPalletsByHand(t *testing.T) {
	quarter := Footprint{LengthMM: 600, WidthMM: 500}
	pallets := func(n int, fp Footprint, kg float64, stack bool) []Pallet {
		ps := make([]Pallet, n)
		for i := range ps {
			ps[i] = Pallet{Footprint: fp, WeightKg: kg, MayCarry: stack, MayBeStacked: stack}
		}
		return ps
	}
	fleet := func(payload float64) []TrailerType {
		return []TrailerType{{ID: "SMALL", Count: 1, PalletPositions: 2, PayloadKg: payload}, {ID: "NONE", Count: 0, PalletPositions: 10, PayloadKg: 1e6}}
	}
	for _, c := range []struct {
		name    string
		pallets []Pallet
		payload float64
		want    int
	}{
		{"quarters on quarters", pallets(20, quarter, 100, true), 1e4, 16},
		{"quarters under a payload", pallets(20, quarter, 100, true), 1000, 10},
		{"payload to a relative 1e-9", pallets(20, quarter, 100, true), 1000 * (1 - 1e-10), 10},
		{"quarters that stack on none", pallets(20, quarter, 100, false), 1e4, 8},
		{"halves first, then whole pallets", append(pallets(3, StandardFootprint, 100, false), pallets(2, HalfFootprint, 100, false)...), 1e4, 3},
		{"halves on halves", pallets(9, HalfFootprint, 100, true), 1e4, 8},
		{"no more than the day has", pallets(3, quarter, 100, true), 1e4, 3},
	} {
		req := Request{Fleet: fleet(c.payload), Pallets: c.pallets}
		idx := make([]int, len(c.pallets))
		for i := range idx {
			idx[i] = i
		}
		if got := mostTripPallets(&req, idx); got != c.want {
			t.Errorf("%s: %d pallets a trip, want %d", c.name, got, c.want)
		}
	}
}
