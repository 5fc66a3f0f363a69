package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"pgregory.net/rapid"
)

// genRequest draws a small but varied request: stores around one DC with
// random receiving hours (some crossing midnight, some closed), all
// temperature classes and footprints, every equipment kind, tight and loose
// shifts and hours-of-service limits, trip limits and shift costs, and the
// DC's hook-up, turnaround, doors, loading and staging.
func genRequest(t *rapid.T) Request {
	loc := rapid.SampledFrom([]string{"America/Chicago", "Europe/Berlin", "UTC"}).Draw(t, "zone")
	dc := geo.Point{Lat: rapid.Float64Range(-60, 60).Draw(t, "dcLat"), Lng: rapid.Float64Range(-179, 179).Draw(t, "dcLng")}
	req := Request{
		DC: DC{ID: "DC", Location: dc, LoadingPerPallet: time.Duration(rapid.IntRange(0, 180).Draw(t, "load")) * time.Second},
		Options: Options{TimeLimit: 30 * time.Millisecond, Seed: rapid.Int64Range(0, 9).Draw(t, "seed"), Workers: 1,
			Objective:       rapid.SampledFrom([]Objective{FewestTrailers, LowestCost, FewestDrivers}).Draw(t, "objective"),
			WholeDeliveries: rapid.Bool().Draw(t, "wholeDeliveries"),
			Iterations:      rapid.SampledFrom([]int{0, 0, 40}).Draw(t, "iterations")},
	}
	if req.Options.Iterations > 0 {
		// The budget ends the search, well inside the time limit, and
		// route elimination runs whole.
		req.Options.TimeLimit = time.Minute
	}
	// The DC's day: hook-up, turnaround, doors, loading and staging, each
	// at its default or drawn.
	minutes := func(name string, hi int) time.Duration {
		return time.Duration(rapid.IntRange(0, hi).Draw(t, name)) * time.Minute
	}
	req.DC.HookTime, req.DC.TrailerTurnaround = minutes("hook", 30), minutes("turnaround", 60)
	req.DC.DockDoors, req.DC.LoadingFixed = rapid.IntRange(0, 3).Draw(t, "doors"), minutes("loadingFixed", 20)
	req.DC.MaxStaging = rapid.SampledFrom([]time.Duration{0, 0, time.Hour, 12 * time.Hour}).Draw(t, "staging")
	if rapid.Bool().Draw(t, "dock") {
		req.DC.DockHours = &constraints.WeeklyHours{TimeZone: loc, Days: map[string][]constraints.Opening{}}
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			req.DC.DockHours.Days[d] = []constraints.Opening{{Open: "02:00", Close: "20:00"}}
		}
	}
	nStores := rapid.IntRange(1, 8).Draw(t, "stores")
	for i := range nStores {
		h := constraints.WeeklyHours{TimeZone: loc, Days: map[string][]constraints.Opening{}}
		open := rapid.IntRange(0, 23).Draw(t, "open")
		span := rapid.IntRange(1, 14).Draw(t, "span")
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			if rapid.IntRange(0, 6).Draw(t, "closed") == 0 {
				continue
			}
			h.Days[d] = []constraints.Opening{{Open: fmt.Sprintf("%02d:00", open), Close: fmt.Sprintf("%02d:00", (open+span)%24)}}
		}
		req.Stores = append(req.Stores, Store{
			ID: fmt.Sprint("S", i), Location: geo.Point{Lat: dc.Lat + rapid.Float64Range(-0.5, 0.5).Draw(t, "dlat"), Lng: dc.Lng + rapid.Float64Range(-0.5, 0.5).Draw(t, "dlng")},
			Hours:              h,
			Unloading:          Unloading{Fixed: time.Duration(rapid.IntRange(0, 30).Draw(t, "fixed")) * time.Minute, PerPallet: time.Duration(rapid.IntRange(0, 180).Draw(t, "per")) * time.Second},
			MaxTrailerLengthMM: rapid.SampledFrom([]int{0, 0, 0, 14630}).Draw(t, "maxLen"),
		})
	}
	nPallets := rapid.IntRange(0, 60).Draw(t, "pallets")
	for i := range nPallets {
		fp := rapid.SampledFrom([]Footprint{StandardFootprint, HalfFootprint, {610, 508}, {1200, 800}, {1200, 1000}}).Draw(t, "fp")
		req.Pallets = append(req.Pallets, Pallet{
			ID: fmt.Sprint("P", i), Store: fmt.Sprint("S", rapid.IntRange(0, nStores-1).Draw(t, "store")),
			WeightKg: rapid.Float64Range(10, 1500).Draw(t, "kg"), HeightMM: rapid.IntRange(300, 2800).Draw(t, "h"),
			Footprint: fp, Temperature: constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp")),
			MayBeStacked: rapid.Bool().Draw(t, "mayBeStacked"), MayCarry: rapid.Bool().Draw(t, "mayCarry"),
		})
	}
	kinds := []constraints.EquipmentKind{constraints.DryVan, constraints.Reefer, constraints.MultiTempReefer}
	for i := range rapid.IntRange(1, 3).Draw(t, "types") {
		length := rapid.SampledFrom([]int{14350, 16002}).Draw(t, "len")
		req.Fleet = append(req.Fleet, TrailerType{
			ID: fmt.Sprint("T", i), Count: rapid.IntRange(0, 3).Draw(t, "count"), LengthMM: length + 150,
			Inside:          Dimensions{LengthMM: length, WidthMM: rapid.IntRange(2400, 2540).Draw(t, "width"), HeightMM: 2700},
			PalletPositions: rapid.IntRange(10, 30).Draw(t, "positions"), PayloadKg: rapid.Float64Range(5000, 20000).Draw(t, "payload"),
			Equipment: constraints.Equipment{Kind: rapid.SampledFrom(kinds).Draw(t, "kind")},
			Axles: constraints.AxleGeometry{KingpinMM: 914, AxleGroupMM: float64(length) - 3500, TareKg: 6500, TareCentreMM: 7500,
				KingpinLimitKg: rapid.Float64Range(6000, 12000).Draw(t, "kpLimit"), AxleGroupLimitKg: 15422},
			Costs: Costs{Fixed: 100, PerKm: 1, PerHour: 30},
			Doors: drawDoors(t, length),
		})
	}
	base := time.Date(2026, 3, rapid.IntRange(1, 31).Draw(t, "day"), 0, 0, 0, 0, time.UTC) // March: DST changes in both zones
	for i := range rapid.IntRange(1, 5).Draw(t, "shifts") {
		start := base.Add(time.Duration(rapid.IntRange(0, 23).Draw(t, "shiftStart")) * time.Hour)
		s := constraints.Shift{ID: fmt.Sprint("D", i), Start: start, End: start.Add(time.Duration(rapid.IntRange(2, 14).Draw(t, "shiftLen")) * time.Hour)}
		if rapid.Bool().Draw(t, "tightHOS") {
			s.Limits = &constraints.HoursOfService{MaxDriving: 2 * time.Hour, BreakAfter: time.Hour}
		}
		s.MaxTrips = rapid.IntRange(0, 3).Draw(t, "maxTrips")
		s.Cost = float64(rapid.IntRange(0, 2).Draw(t, "shiftCost") * 200)
		req.Shifts = append(req.Shifts, s)
	}
	return req
}

// TestPlanAlwaysValidates: for any request, Plan returns a plan that
// Validate accepts, and every pallet is either delivered or unassigned.
func TestPlanAlwaysValidates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { planOK(t, genRequest(t)) })
}

func TestCheckReportsEveryBadField(t *testing.T) {
	req, _ := sample(t)
	req = cloneRequest(t, req)
	req.DC.Location.Lat = 91
	req.Stores[2].Location.Lng = -200
	req.Stores[3].ID = req.Stores[4].ID
	req.Pallets[5].Store = "NOPE"
	req.Pallets[6].WeightKg = -1
	req.Fleet[1].Axles.AxleGroupMM = 100
	req.Shifts[0].End = req.Shifts[0].Start
	req.Stores[7].Hours.Days["mon"] = []constraints.Opening{{Open: "25:00", Close: "10:00"}}
	// Beyond loadplan's input limits: 2e9 kg, 200 m, a dry van with -1 zones.
	req.Pallets[7].WeightKg = 2e9
	req.Pallets[8].Footprint = Footprint{LengthMM: 200_000, WidthMM: 1000}
	req.Fleet[0].Equipment.MaxZones = -1
	req.Options.Objective = Objective(7)
	err := req.Check()
	if !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("want ErrInvalid, got %v", err)
	}
	vs := constraints.AsViolations(err)
	want := []string{"dc.location.lat", "stores[2].location.lng", "stores[4].id", "pallets[5].store", "pallets[6].weightKg", "fleet[1].axles.axleGroupMM", "shifts[0].end", "stores[7].hours.days.mon[0].open",
		"pallets[7].weightKg", "pallets[8].footprint", "fleet[0].equipment.maxZones", "options.objective"}
	for _, w := range want {
		found := false
		for _, v := range vs {
			if v.Path == w {
				found = true
			}
		}
		if !found {
			t.Errorf("no violation at %s; got:\n%v", w, vs)
		}
	}
	if _, err := Plan(context.Background(), req); !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("Plan on an invalid request: want the violations, got %v", err)
	}
}

// TestPlanHonoursCancelledContext: a context whose deadline passes during
// the search ends it with the best plan so far, which validates. The
// deadline passes when the search has reported a plan (expiringContext),
// not after a fixed time that a loaded machine could spend before any
// plan; the time limit is an hour, so only the deadline can end the
// search within the test run.
func TestPlanHonoursCancelledContext(t *testing.T) {
	req, _ := sample(t)
	req.Options.TimeLimit = time.Hour
	ctx := &expiringContext{Context: context.Background(), done: make(chan struct{})}
	req.Options.Progress = func(p Progress) {
		if p.Phase == PhaseRouting && p.Routes > 0 {
			ctx.expire()
		}
	}
	plan, err := Plan(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(req, plan); err != nil {
		t.Fatal(err)
	}
}

// expiringContext is a context whose deadline passes when expire is
// called: from then on it is done, with context.DeadlineExceeded.
type expiringContext struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func (c *expiringContext) expire() { c.once.Do(func() { close(c.done) }) }

func (c *expiringContext) Done() <-chan struct{} { return c.done }

func (c *expiringContext) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// genTripsDay draws a day one driver must split into trips: one 14 h shift
// from 04:00, stores a few km from the DC open 04:00–20:00 every day, more
// pallets than one small trailer takes, a few units of it, the drivers
// objective, and the DC's hook-up, turnaround, doors and staging drawn.
func genTripsDay(t *rapid.T) Request {
	req := genRequest(t)
	req.Options.Objective = FewestDrivers
	start := time.Date(2026, 3, 10, 4, 0, 0, 0, time.UTC)
	req.Shifts = []constraints.Shift{{ID: "D0", Start: start, End: start.Add(14 * time.Hour)}}
	dc := req.DC.Location
	for i := range req.Stores {
		s := &req.Stores[i]
		s.Location = geo.Point{Lat: dc.Lat + rapid.Float64Range(-0.1, 0.1).Draw(t, "near"), Lng: dc.Lng + rapid.Float64Range(-0.1, 0.1).Draw(t, "near")}
		s.Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{}}
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			s.Hours.Days[d] = []constraints.Opening{{Open: "04:00", Close: "20:00"}}
		}
		s.MaxTrailerLengthMM = 0
	}
	req.DC.DockHours = nil
	for k := range req.Fleet {
		f := &req.Fleet[k]
		f.PalletPositions, f.Count = 10, rapid.IntRange(2, 4).Draw(t, "units")
		f.Equipment = constraints.Equipment{Kind: constraints.MultiTempReefer}
	}
	return req
}

// TestPlanSplitsTheDayIntoTrips: on days one driver must drive in trips,
// Plan's plan passes Validate (Plan checks it) with its trips of the one
// shift numbered in order, and delivers at least one trailer load.
func TestPlanSplitsTheDayIntoTrips(t *testing.T) {
	trips, days := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		days++
		plan := planOK(t, genTripsDay(t))
		for k, r := range plan.Routes {
			if r.Shift != "D0" || r.Trip < 1 || r.Trip > len(plan.Routes) {
				t.Fatalf("route %d: shift %q trip %d of %d", k, r.Shift, r.Trip, len(plan.Routes))
			}
			if r.Trip == 2 {
				trips++
			}
		}
	})
	t.Logf("%d of %d days drove a second trip", trips, days)
	if trips == 0 {
		t.Fatal("no generated day had a second trip: the generator no longer tests trips")
	}
}
