package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// dcDayModel is a model of a request with one trailer type of count
// units and a pallet per trip of trips, enough for the DC schedule's
// steps, which read the request's DC, fleet and pallets only.
func dcDayModel(count, trips int, dc DC) *model {
	req := &Request{DC: dc, Fleet: []TrailerType{{ID: "VAN", Count: count}}}
	m := &model{req: req, trailer: map[string]int{"VAN": 0}, pallet: map[string]int{}, alwaysDock: dc.DockHours == nil}
	for i := range trips {
		id := fmt.Sprint("P", i)
		m.pallet[id] = len(req.Pallets)
		req.Pallets = append(req.Pallets, Pallet{ID: id, Store: "S"})
	}
	return m
}

// dcTrip is trip i of a dcDayModel: loading from load to load+loading,
// back at ret.
func dcTrip(i int, load, loading, ret time.Duration) Route {
	at := func(d time.Duration) time.Time { return utc(0, 0, 0).Add(d) }
	return Route{ID: fmt.Sprint("T", i), Trailer: "VAN", Shift: fmt.Sprint("D", i), LoadingStart: at(load), LoadingEnd: at(load + loading),
		Start: at(load + loading), Return: at(ret), Stops: []Stop{{Store: "S", Pallets: []string{fmt.Sprint("P", i)}}}}
}

// TestTrailerUnitsTurn: a trip takes the unit back from its trip longest
// and turned around by the time its loading starts, so a unit runs
// several trips a day; a longer turnaround keeps it busy.
func TestTrailerUnitsTurn(t *testing.T) {
	h := time.Hour
	trips := func() []Route {
		return []Route{dcTrip(0, 3*h, 20*time.Minute, 5*h), dcTrip(1, 4*h, 20*time.Minute, 6*h), dcTrip(2, 5*h+40*time.Minute, 20*time.Minute, 8*h)}
	}
	for _, tc := range []struct {
		turnaround time.Duration
		want       []string
	}{
		{0, []string{"VAN-01", "VAN-02", "VAN-01"}},                // back 05:00, free 05:30, loaded 05:40
		{40 * time.Minute, []string{"VAN-01", "VAN-02", "VAN-01"}}, // free 05:40 exactly
		{45 * time.Minute, []string{"VAN-01", "VAN-02", "VAN-03"}},
	} {
		m := dcDayModel(3, 3, DC{TrailerTurnaround: tc.turnaround})
		routes, unassigned := assignTrailerUnits(m, trips(), nil)
		var got []string
		for _, r := range routes {
			got = append(got, r.TrailerUnit)
		}
		if !slices.Equal(got, tc.want) || len(unassigned) > 0 {
			t.Errorf("turnaround %v: units %v, unassigned %v; want %v", tc.turnaround, got, unassigned, tc.want)
		}
	}
}

// TestDockDoorsColourLoadings: loadings take the lowest door free when
// they start (a door is free again as its loading ends), so no more doors
// than the most loadings at once; with one door, a loading that finds it
// busy (routing never leaves one: the guard) leaves its trip's pallets
// unassigned as DOCK_CAPACITY; a loading that takes no time holds no
// door.
func TestDockDoorsColourLoadings(t *testing.T) {
	m10 := 10 * time.Minute
	trips := func() []Route {
		return []Route{dcTrip(0, 0, m10, 2*time.Hour), dcTrip(1, 5*time.Minute, m10, 2*time.Hour), dcTrip(2, m10, m10, 2*time.Hour),
			dcTrip(3, 12*time.Minute, 0, 2*time.Hour)}
	}
	routes, unassigned := assignDockDoors(dcDayModel(4, 4, DC{}), trips(), nil)
	var doors []int
	for _, r := range routes {
		doors = append(doors, r.DockDoor)
	}
	if want := []int{1, 2, 1, 1}; !slices.Equal(doors, want) || len(unassigned) > 0 {
		t.Errorf("unlimited doors: %v, unassigned %v; want %v", doors, unassigned, want)
	}
	if got := mostLoadingsAtOnce(routes); got != 2 {
		t.Errorf("most loadings at once: %d, want 2", got)
	}
	routes, unassigned = assignDockDoors(dcDayModel(4, 4, DC{DockDoors: 1}), trips(), nil)
	var ids []string
	for _, r := range routes {
		ids = append(ids, r.ID)
	}
	if want := []string{"T0", "T2", "T3"}; !slices.Equal(ids, want) {
		t.Fatalf("one door: routes %v, want %v", ids, want)
	}
	if len(unassigned) != 1 || unassigned[0].Pallet != "P1" || unassigned[0].Reason != ReasonDockCapacity ||
		unassigned[0].Message != "no dock door free to load its trip from 2026-11-24T00:05:00Z: the DC's one dock door is loading another trailer" {
		t.Fatalf("one door: unassigned %+v", unassigned)
	}
}

// TestLoadingsMoveIntoDockHours: a loading just before the hook-up that
// would start after the dock closes (01:00–05:00) moves to the latest
// start in the dock hours within the staging limit; without such a start,
// it starts as the dock closes and the driver comes on duty when the
// staging limit ends, then waits at the DC for the departure, the route's
// duration and cost counted from then. A loading in the dock hours stays.
func TestLoadingsMoveIntoDockHours(t *testing.T) {
	for _, tc := range []struct {
		staging, load    time.Duration // staging limit; loading start after midnight
		loadStart, start time.Time
	}{
		{0, 6 * time.Hour, utc(5, 0, 0), utc(5, 20, 0)},
		{30 * time.Minute, 6 * time.Hour, utc(5, 0, 0), utc(5, 50, 0)},
		{time.Hour, 6 * time.Hour, utc(5, 0, 0), utc(6, 20, 0)},
		{2 * time.Hour, 6 * time.Hour, utc(5, 0, 0), utc(6, 20, 0)},
		{0, 4 * time.Hour, utc(4, 0, 0), utc(4, 20, 0)},
	} {
		m := dcDayModel(1, 1, DC{})
		m.req.Fleet[0].MaxStaging = tc.staging
		m.req.Fleet[0].Costs = Costs{PerHour: 60}
		m.origin, m.dockWin, m.alwaysDock = utc(0, 0, 0), []constraints.Window{{Start: utc(1, 0, 0), End: utc(5, 0, 0)}}, false
		r := dcTrip(0, tc.load, 20*time.Minute, 10*time.Hour)
		routes, unassigned := placeLoadings(m, []Route{r}, nil)
		if len(routes) != 1 || len(unassigned) > 0 {
			t.Fatalf("staging %v: routes %v, unassigned %v", tc.staging, routes, unassigned)
		}
		got := routes[0]
		if !got.LoadingStart.Equal(tc.loadStart) || !got.LoadingEnd.Equal(tc.loadStart.Add(20*time.Minute)) || !got.Start.Equal(tc.start) {
			t.Errorf("staging %v, loading at %v: loads %s–%s, on duty %s; want loading from %s, on duty %s", tc.staging, tc.load,
				got.LoadingStart.Format("15:04"), got.LoadingEnd.Format("15:04"), got.Start.Format("15:04"), tc.loadStart.Format("15:04"), tc.start.Format("15:04"))
		}
		if !got.Start.Equal(r.Start) && (got.Metrics.Duration != got.Return.Sub(got.Start) || got.Metrics.Cost != got.Metrics.Duration.Hours()*60) {
			t.Errorf("staging %v: duration %v and cost %v not counted from the new start %s", tc.staging, got.Metrics.Duration, got.Metrics.Cost, got.Start.Format("15:04"))
		}
	}
}

// doorDay is stores a few km from the DC that each fill a 30-position
// trailer, receiving from 04:00 to 09:00, with a trailer unit and a
// driver of one trip for each and dc.dockDoors doors; each trailer loads
// in 30 minutes (a minute a pallet).
func doorDay(stores, doors int) Request {
	req := packingRequest(stores, stores, []TrailerType{packingTrailer("DRY53", constraints.DryVan, stores)})
	req.DC.DockDoors, req.DC.LoadingPerPallet = doors, time.Minute
	fullMorningLoads(&req)
	for i := range req.Shifts {
		req.Shifts[i].MaxTrips = 1
	}
	return req
}

// TestOneDoorLoadsBothTrips: on doorDay with one door, both trips would
// load at once at the start of the day. Routing counts the door: one
// trip loads after the other (held back, or loaded ahead and staged), so
// every pallet is delivered, Validate accepts the plan, and the two
// loadings on door 1 do not overlap. Scheduling the doors only after
// routing left one store's pallets as DOCK_CAPACITY.
func TestOneDoorLoadsBothTrips(t *testing.T) {
	for _, staging := range []time.Duration{0, 2 * time.Hour} {
		req := doorDay(2, 1)
		req.DC.MaxStaging = staging
		plan := planOK(t, req)
		if plan.Metrics.Pallets != 60 || len(plan.Routes) != 2 {
			t.Fatalf("staging %v: %d pallets delivered on %d routes, want 60 on 2 (unassigned %v)", staging, plan.Metrics.Pallets, len(plan.Routes), plan.Unassigned)
		}
		a, b := plan.Routes[0], plan.Routes[1]
		if a.LoadingStart.After(b.LoadingStart) {
			a, b = b, a
		}
		if a.DockDoor != 1 || b.DockDoor != 1 || b.LoadingStart.Before(a.LoadingEnd) {
			t.Fatalf("staging %v: loadings %s–%s on door %d and %s–%s on door %d; want both on door 1, one after the other", staging,
				a.LoadingStart.Format("15:04"), a.LoadingEnd.Format("15:04"), a.DockDoor, b.LoadingStart.Format("15:04"), b.LoadingEnd.Format("15:04"), b.DockDoor)
		}
		if plan.Metrics.PeakDockDoors != 1 {
			t.Fatalf("staging %v: peak of %d doors on one", staging, plan.Metrics.PeakDockDoors)
		}
	}
}

// TestDoorBoundDayNamesTheDoors: doorDay of three stores with one door
// on which loading may start only from 03:30 to 03:45 and from 06:00 to
// 06:15, no staging: two 30-minute loadings fit, one in each window, so
// two stores are delivered (the second trip waits for the later window)
// and the third's pallets are DOCK_CAPACITY, with a message that names
// the one door. Scheduling the doors only after routing loaded one trip
// at 03:30 and left two stores out.
func TestDoorBoundDayNamesTheDoors(t *testing.T) {
	req := doorDay(3, 1)
	req.DC.DockHours = everyDay("UTC", constraints.Opening{Open: "03:30", Close: "03:45"}, constraints.Opening{Open: "06:00", Close: "06:15"})
	plan := planOK(t, req)
	if plan.Metrics.Pallets != 60 || len(plan.Unassigned) != 30 {
		t.Fatalf("%d pallets delivered, %d unassigned (%v); want 60 and 30", plan.Metrics.Pallets, len(plan.Unassigned), unassignedReasons(plan))
	}
	for _, u := range plan.Unassigned {
		if u.Reason != ReasonDockCapacity || !strings.Contains(u.Message, "the DC's one dock door is loading another trailer") {
			t.Fatalf("pallet %s unassigned as %s: %q; want DOCK_CAPACITY naming the one door", u.Pallet, u.Reason, u.Message)
		}
	}
}

// TestOneUnitTurnsBetweenShifts: two stores that each fill a trailer, one
// trailer unit, two drivers of one trip each. When store S1 receives only
// from 12:00, long after the morning trip to S0 is back, the unit turns
// and carries both; when both stores receive only until 04:40, the two
// trips would hold the unit at once, and one store's pallets stay behind
// as FLEET_EXHAUSTED.
func TestOneUnitTurnsBetweenShifts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		s0, s1    constraints.Opening
		delivered int
	}{
		{"afternoon store", constraints.Opening{Open: "00:00", Close: "24:00"}, constraints.Opening{Open: "12:00", Close: "20:00"}, 60},
		{"both early", constraints.Opening{Open: "04:00", Close: "04:40"}, constraints.Opening{Open: "04:00", Close: "04:40"}, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := packingRequest(2, 2, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 1)})
			for i, o := range []constraints.Opening{tc.s0, tc.s1} {
				req.Stores[i].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{"tue": {o}}}
				for p := range 30 {
					req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-%02d", i, p), Store: req.Stores[i].ID,
						WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
				}
			}
			for i := range req.Shifts {
				req.Shifts[i].MaxTrips = 1
			}
			plan := planOK(t, req)
			if plan.Metrics.Pallets != tc.delivered {
				t.Fatalf("%d pallets delivered, want %d (unassigned %v)", plan.Metrics.Pallets, tc.delivered, plan.Unassigned)
			}
			for _, r := range plan.Routes {
				if r.TrailerUnit != "DRY53-01" {
					t.Fatalf("route %s on unit %q, want DRY53-01", r.ID, r.TrailerUnit)
				}
			}
			if tc.delivered < 60 && plan.Unassigned[0].Reason != ReasonFleetExhausted {
				t.Fatalf("unassigned as %s, want %s", plan.Unassigned[0].Reason, ReasonFleetExhausted)
			}
		})
	}
}

// TestOneUnitWaitsForItsTurn: two stores that each fill a trailer and
// receive from 04:00 to 09:00, one trailer unit. Both trips would leave
// at the start of the day; the second waits at the DC until the unit is
// back and turned, and the stores are still open when it arrives. So
// every pallet is delivered, by two drivers of one trip each or by one
// driver's two trips, and the unit's two trips do not overlap, its
// turnaround included.
func TestOneUnitWaitsForItsTurn(t *testing.T) {
	for _, tc := range []struct {
		name             string
		drivers, maxTrip int
	}{
		{"two shifts", 2, 1},
		{"one shift, two trips", 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := packingRequest(2, tc.drivers, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 1)})
			fullMorningLoads(&req)
			for i := range req.Shifts {
				req.Shifts[i].MaxTrips = tc.maxTrip
			}
			plan := planOK(t, req)
			if plan.Metrics.Pallets != 60 || len(plan.Routes) != 2 {
				t.Fatalf("%d pallets delivered on %d routes, want 60 on 2 (unassigned %v)", plan.Metrics.Pallets, len(plan.Routes), plan.Unassigned)
			}
			a, b := plan.Routes[0], plan.Routes[1]
			if a.LoadingStart.After(b.LoadingStart) {
				a, b = b, a
			}
			if a.TrailerUnit != "DRY53-01" || b.TrailerUnit != "DRY53-01" {
				t.Fatalf("routes on units %q and %q, want DRY53-01", a.TrailerUnit, b.TrailerUnit)
			}
			if turned := a.Return.Add(30 * time.Minute); b.LoadingStart.Before(turned) {
				t.Fatalf("the second trip loads from %s, before the unit is back and turned at %s", b.LoadingStart.Format("15:04"), turned.Format("15:04"))
			}
		})
	}
}

// fullMorningLoads gives every store of req a full trailer load, 30
// ambient pallets, received on Tuesday 04:00–09:00 UTC.
func fullMorningLoads(req *Request) {
	for i := range req.Stores {
		req.Stores[i].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{"tue": {{Open: "04:00", Close: "09:00"}}}}
		for p := range 30 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("S%d-%02d", i, p), Store: req.Stores[i].ID,
				WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
		}
	}
}
