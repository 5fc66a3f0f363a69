package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"pgregory.net/rapid"
)

// replanDay draws a day and its plan, from genRequest or genTripsDay
// (several trips a shift), with an iteration budget so that the plan is
// the same on any machine.
func replanDay(t *rapid.T) (Request, Result) {
	var req Request
	if rapid.Bool().Draw(t, "trips") {
		req = genTripsDay(t)
	} else {
		req = genRequest(t)
	}
	req.Options.Iterations, req.Options.TimeLimit = 40, time.Minute
	return req, planOK(t, req)
}

// drawLock locks a random part of plan: routes by id, a loading instant,
// stores, or a mix.
func drawLock(t *rapid.T, plan Result) Lock {
	var l Lock
	for _, r := range plan.Routes {
		if rapid.IntRange(0, 3).Draw(t, "lockRoute") == 0 {
			l.Routes = append(l.Routes, r.ID)
		}
	}
	if len(plan.Routes) > 0 && rapid.Bool().Draw(t, "lockBefore") {
		l.Before = plan.Routes[rapid.IntRange(0, len(plan.Routes)-1).Draw(t, "beforeRoute")].LoadingStart
	}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			if rapid.IntRange(0, 9).Draw(t, "lockStore") == 0 && !slices.Contains(l.Stores, st.Store) {
				l.Stores = append(l.Stores, st.Store)
			}
		}
	}
	return l
}

// lockedStores are the stores the routes req's lock fixes deliver.
func lockedStores(req *Request) map[string]bool {
	out := map[string]bool{}
	for _, lr := range req.lockedRoutes() {
		for _, st := range req.Previous.Routes[lr.index].Stops {
			out[st.Store] = true
		}
	}
	return out
}

// perturb changes req as a night does, leaving what the lock fixes alone:
// it removes pallets and stores off the locked routes, and when more is
// true it also adds pallets to stores and adds a store (a copy of one,
// beside it, with pallets of its own).
func perturb(t *rapid.T, req *Request, more bool) {
	locked := lockedStores(req)
	var pallets []Pallet
	for _, p := range req.Pallets {
		if locked[p.Store] || rapid.IntRange(0, 4).Draw(t, "keepPallet") > 0 {
			pallets = append(pallets, p)
		}
	}
	req.Pallets = pallets
	if len(req.Stores) > 1 && rapid.Bool().Draw(t, "removeStore") {
		k := rapid.IntRange(0, len(req.Stores)-1).Draw(t, "removedStore")
		if s := req.Stores[k].ID; !locked[s] {
			req.Stores = slices.Delete(slices.Clone(req.Stores), k, k+1)
			req.Pallets = slices.DeleteFunc(req.Pallets, func(p Pallet) bool { return p.Store == s })
		}
	}
	if !more || len(req.Pallets) == 0 {
		return
	}
	for i := range rapid.IntRange(1, 4).Draw(t, "late") {
		p := req.Pallets[rapid.IntRange(0, len(req.Pallets)-1).Draw(t, "copied")]
		p.ID = fmt.Sprintf("late-%d", i)
		req.Pallets = append(req.Pallets, p)
	}
	if rapid.Bool().Draw(t, "addStore") {
		s := req.Stores[rapid.IntRange(0, len(req.Stores)-1).Draw(t, "besideStore")]
		s.ID = "new-store"
		s.Location.Lat += 0.01
		req.Stores = append(slices.Clone(req.Stores), s)
		p := req.Pallets[0]
		p.ID, p.Store = "new-store-1", s.ID
		req.Pallets = append(req.Pallets, p)
	}
}

// TestReplanKeepsEveryLock: a planned day, re-planned after a random
// night's changes with a random part of its plan locked, gives a plan
// that passes Validate given the previous plan and the lock (Plan checks
// it): every locked route is in it as it was, to the second and to the
// placement (or, not departed, with late pallets added in free floor
// space, see Lock.Before), and marked locked. Where the night only
// removed pallets and stores, no store off the locked routes moves to a
// route it was not on (a route of the previous plan as Changes pairs
// them: a trip renumbered because a trip before it is gone is the same
// route). Such a night takes away the pallets the previous plan left out
// too: placing them is adding to the plan.
func TestReplanKeepsEveryLock(t *testing.T) {
	locked := 0
	rapid.Check(t, func(t *rapid.T) {
		req, prev := replanDay(t)
		again := req
		again.Previous = &prev
		again.Lock = drawLock(t, prev)
		more := rapid.Bool().Draw(t, "addToo")
		perturb(t, &again, more)
		if !more {
			// Only removed: the pallets the previous plan left out go
			// too, else the re-plan would have pallets to place that no
			// route of the previous plan carried, as after a night that
			// added them.
			again.Pallets = slices.DeleteFunc(slices.Clone(again.Pallets), func(p Pallet) bool {
				return slices.ContainsFunc(prev.Unassigned, func(u Unassigned) bool { return u.Pallet == p.ID })
			})
		}
		// Every plan a progress report offers passes Validate too (Best
		// checks it), locks included.
		var reports []Progress
		again.Options.Progress = func(p Progress) { reports = append(reports, p) }
		plan, err := Plan(context.Background(), again)
		if err != nil {
			t.Fatalf("re-plan: %v", err)
		}
		for _, p := range reports {
			if _, err := p.Best(); err != nil {
				t.Fatalf("progress in phase %v: %v", p.Phase, err)
			}
		}
		if err := Validate(again, plan); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		n := 0
		for _, r := range plan.Routes {
			if r.Locked {
				n++
			}
		}
		if n != len(again.lockedRoutes()) {
			t.Fatalf("%d routes say locked, the lock fixes %d", n, len(again.lockedRoutes()))
		}
		locked += n
		if plan.Changes == nil {
			t.Fatal("a re-plan without changes")
		}
		if more {
			return
		}
		onLocked := lockedStores(&again)
		// A store that lost every pallet of one of its routes is MOVED
		// by Changes' count (its routes differ), and has moved nowhere:
		// a store moves when a route of its own is new to it. A store
		// on a shift with a trip whose floor neither keeps its pallets
		// left where they stood nor takes them laid out again
		// (floorLost) may move: the shift is routed again.
		onLostFloor := map[string]bool{}
		for _, r := range prev.Routes {
			if !floorLost(&again, r) {
				continue
			}
			for _, q := range prev.Routes {
				if q.Shift == r.Shift {
					for _, st := range q.Stops {
						onLostFloor[st.Store] = true
					}
				}
			}
		}
		for _, c := range plan.Changes.Stores {
			if !c.Has(Moved) || onLocked[c.Store] || onLostFloor[c.Store] {
				continue
			}
			for _, to := range c.To {
				if !slices.ContainsFunc(c.From, func(f RouteRef) bool {
					return f.TrailerUnit == to.TrailerUnit && f.Shift == to.Shift && f.Trip == to.PreviousTrip
				}) {
					t.Fatalf("store %s moved from %v to %v though the night only removed pallets", c.Store, c.From, c.To)
				}
			}
		}
	})
	t.Logf("%d locked routes kept", locked)
	if locked == 0 {
		t.Fatal("no route was locked: the test no longer tests locks")
	}
}

// floorLost reports whether the pallets of previous route r that req
// still has can neither stay where r's floor had them
// (loadplan.KeepPallets: a pallet gone carried another, or balanced the
// axles) nor be laid out again (PlanTrailer, each stop's pallets class by
// class as routing orders them), so that the trip cannot be kept as it
// was timed.
func floorLost(req *Request, r Route) bool {
	ti := slices.IndexFunc(req.Fleet, func(t TrailerType) bool { return t.ID == r.Trailer })
	if ti < 0 {
		return true
	}
	have := map[string]Pallet{}
	for _, p := range req.Pallets {
		have[p.ID] = p
	}
	var lp []loadplan.Pallet
	stops := 0
	for _, st := range r.Stops {
		var classes []constraints.Temperature
		for _, id := range st.Pallets {
			if p, ok := have[id]; ok && !slices.Contains(classes, p.Temperature) {
				classes = append(classes, p.Temperature)
			}
		}
		for _, c := range classes {
			for _, id := range st.Pallets {
				if p, ok := have[id]; ok && p.Temperature == c {
					lp = append(lp, layoutPallet(p, stops))
				}
			}
		}
		if len(classes) > 0 {
			stops++
		}
	}
	tr := layoutTrailer(req.Fleet[ti])
	if _, err := loadplan.PlanTrailer(tr, lp, stops); err == nil {
		return false
	}
	_, ok := loadplan.KeepPallets(tr, lp, stops, toLayout(r.Load))
	return !ok
}

// TestCheckReportsBadLocks: a lock without a previous plan, lock members
// the previous plan lacks, a previous plan of a bad shape and a locked
// route the request takes its shift, store or pallet from are each
// reported at their path.
func TestCheckReportsBadLocks(t *testing.T) {
	req, prev := goldenVan()
	if len(prev.Routes) == 0 {
		t.Fatal("the golden plan has no route")
	}
	r0 := prev.Routes[0]
	cases := []struct {
		name   string
		change func(r *Request)
		want   []string // code@path
	}{
		{"lock without previous", func(r *Request) { r.Previous = nil; r.Lock = Lock{Routes: []string{r0.ID}} }, []string{"REQUIRED@previous"}},
		{"unknown route", func(r *Request) { r.Lock = Lock{Routes: []string{"R99"}} }, []string{"UNKNOWN_REFERENCE@lock.routes[0]"}},
		{"unknown store", func(r *Request) { r.Lock = Lock{Stores: []string{"nowhere"}} }, []string{"UNKNOWN_REFERENCE@lock.stores[0]"}},
		{"duplicate route id", func(r *Request) {
			p := *r.Previous
			p.Routes = append(slices.Clone(p.Routes), p.Routes[0])
			r.Previous = &p
		}, []string{"DUPLICATE_ID@previous.routes[1].id", "DUPLICATE_ID@previous.routes[1]", "DUPLICATE_ID@previous.routes[1].stops[0].pallets[0]"}},
		{"shift removed", func(r *Request) {
			r.Lock = Lock{Routes: []string{r0.ID}}
			r.Shifts = slices.DeleteFunc(slices.Clone(r.Shifts), func(s constraints.Shift) bool { return s.ID == r0.Shift })
			r.Shifts = append(r.Shifts, constraints.Shift{ID: "other", Start: r0.Start, End: r0.Return.Add(time.Hour)})
		}, []string{"UNKNOWN_REFERENCE@lock.routes[0]"}},
		{"pallet removed", func(r *Request) {
			r.Lock = Lock{Before: r0.LoadingStart}
			gone := r0.Stops[0].Pallets[0]
			r.Pallets = slices.DeleteFunc(slices.Clone(r.Pallets), func(p Pallet) bool { return p.ID == gone })
		}, []string{"UNKNOWN_REFERENCE@lock.before"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := req
			p := prev
			r.Previous = &p
			c.change(&r)
			var got []string
			for _, v := range constraints.AsViolations(r.Check()) {
				got = append(got, v.Code+"@"+v.Path)
			}
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("want %s among %v", w, got)
				}
			}
		})
	}
}

// TestPlanReportsALockTheRequestBreaks: a locked route whose store the
// request now closes when the route arrives is reported at the lock's
// path, with what is wrong on it, and nothing is planned.
func TestPlanReportsALockTheRequestBreaks(t *testing.T) {
	req, prev := goldenVan()
	r0 := prev.Routes[0]
	again := req
	again.Previous = &prev
	again.Lock = Lock{Routes: []string{r0.ID}}
	again.Options = Options{TimeLimit: 5 * time.Second, Iterations: 20}
	// The first store of the route now opens an hour after the route
	// arrives there.
	again.Stores = slices.Clone(req.Stores)
	for i := range again.Stores {
		if again.Stores[i].ID == r0.Stops[0].Store {
			open := r0.Stops[0].Arrival.Add(time.Hour).UTC()
			again.Stores[i].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{
				strings.ToLower(open.Weekday().String()[:3]): {{Open: open.Format("15:04"), Close: "23:59"}}}}
		}
	}
	_, err := Plan(context.Background(), again)
	vs := constraints.AsViolations(err)
	if len(vs) == 0 {
		t.Fatalf("Plan: %v, want violations at lock.routes[0]", err)
	}
	for _, v := range vs {
		if v.Path != "lock.routes[0]" {
			t.Errorf("violation at %s, want lock.routes[0]: %v", v.Path, v)
		}
	}
}

// TestValidateFindsABrokenLock: a plan that moves a locked route's stop by
// a second, or drops the route, fails Validate given the lock.
func TestValidateFindsABrokenLock(t *testing.T) {
	req, prev := goldenVan()
	again := req
	again.Previous = &prev
	again.Lock = Lock{Routes: []string{prev.Routes[0].ID}}
	plan := prev
	plan.Routes = slices.Clone(prev.Routes)
	plan.Routes[0].Locked = true
	if err := Validate(again, plan); err != nil {
		t.Fatalf("the previous plan itself, its locked route marked: %v", err)
	}
	moved := plan
	moved.Routes = slices.Clone(plan.Routes)
	moved.Routes[0].Load.Placements = slices.Clone(plan.Routes[0].Load.Placements)
	moved.Routes[0].Load.Placements[0].XMM++
	unmarked := plan
	unmarked.Routes = slices.Clone(plan.Routes)
	unmarked.Routes[0].Locked = false
	for name, p := range map[string]Result{"placement moved": moved, "not marked": unmarked} {
		found := false
		for _, v := range constraints.AsViolations(Validate(again, p)) {
			found = found || v.Code == CodeLockBroken
		}
		if !found {
			t.Errorf("%s: no %s", name, CodeLockBroken)
		}
	}
}

// TestReplanDefaultTimeLimit: a re-plan without a time limit searches
// under DefaultReplanTimeLimit, a plan without a previous one under
// DefaultTimeLimit, as the progress reports say.
func TestReplanDefaultTimeLimit(t *testing.T) {
	req, prev := goldenVan()
	again := req
	again.Previous = &prev
	for _, c := range []struct {
		name string
		req  Request
		want time.Duration
	}{{"re-plan", again, DefaultReplanTimeLimit}, {"plan", req, DefaultTimeLimit}} {
		var limits []time.Duration
		c.req.Options = Options{Iterations: 20, Progress: func(p Progress) { limits = append(limits, p.Limit) }}
		if _, err := Plan(context.Background(), c.req); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(limits) == 0 {
			t.Fatalf("%s: no progress report", c.name)
		}
		for _, l := range limits {
			if l != c.want {
				t.Errorf("%s: progress reports a limit of %v, want %v", c.name, l, c.want)
			}
		}
	}
}

// TestReplanFreesRoomForLatePallets: a route kept from the previous plan
// has a full floor, and two of its stores have a late pallet each. The
// smaller leaves the route whole, to ride a second route with its late
// pallet, so that the other's late pallet rides its own route in the room
// it frees: one store moves, rather than two, and none is retimed.
func TestReplanFreesRoomForLatePallets(t *testing.T) {
	req := packingRequest(40, 12, []TrailerType{dryVan(12, 10)})
	for i, s := range req.Stores {
		for k := range 1 + i%3 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-%d", s.ID, k), Store: s.ID, WeightKg: 400,
				Footprint: StandardFootprint, HeightMM: 1400})
		}
	}
	prev := planOK(t, req)
	// A full route whose last stop delivers fewer pallets than another:
	// the last stop is the one to leave (the fewest pallets), and no stop
	// after it is retimed when it does.
	var r Route
	var x, y string
	for _, c := range prev.Routes {
		n := len(c.Stops)
		if c.Metrics.Positions != 10 || n < 2 {
			continue
		}
		for _, st := range c.Stops[:n-1] {
			if len(st.Pallets) > len(c.Stops[n-1].Pallets) {
				r, x, y = c, st.Store, c.Stops[n-1].Store
			}
		}
	}
	if x == "" {
		t.Fatalf("no route of the first plan is full with a last stop smaller than another")
	}
	again := withLate(withLate(req, prev, Lock{}, x, 1), prev, Lock{}, y, 1)
	plan := planOK(t, again)
	if plan.Metrics.Pallets != len(again.Pallets) {
		t.Fatalf("%d of %d pallets delivered: %v", plan.Metrics.Pallets, len(again.Pallets), plan.Unassigned)
	}
	ri := routeAs(plan, r)
	if ri < 0 {
		t.Fatalf("the previous route is not in the re-plan")
	}
	on := map[string][]string{}
	for _, st := range plan.Routes[ri].Stops {
		on[st.Store] = st.Pallets
	}
	stays, leaves := x, y
	if on[x] == nil {
		stays, leaves = y, x
	}
	if on[leaves] != nil || !slices.Contains(on[stays], "late-"+stays+"-0") {
		t.Errorf("the kept route delivers %v: want one of %s and %s off it, the other's late pallet on it", on, x, y)
	}
	for _, c := range plan.Changes.Stores {
		if c.Store != leaves && c.Has(Retimed) {
			t.Errorf("store %s: %v, want no store retimed", c.Store, c.Kinds)
		}
	}
	moved := map[string]bool{}
	for _, c := range plan.Changes.Stores {
		moved[c.Store] = c.Has(Moved)
	}
	if !moved[leaves] || moved[stays] {
		t.Errorf("%s moved: %v, %s moved: %v; want the one off the route moved alone", x, moved[x], y, moved[y])
	}
}

// TestReplanFoldsLatePalletsIntoAKeptRoute: a store on a full route kept
// from the previous plan has a late pallet, and another kept route with
// floor to spare passes nearby. The late pallet rides that route as a
// stop of its own, on no new route, and none of the kept stops moves or
// changes its arrival: only the store with the late pallet changes.
func TestReplanFoldsLatePalletsIntoAKeptRoute(t *testing.T) {
	req := packingRequest(13, 4, []TrailerType{dryVan(4, 10)})
	for _, s := range req.Stores {
		for k := range 2 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-%d", s.ID, k), Store: s.ID, WeightKg: 400,
				Footprint: StandardFootprint, HeightMM: 1400})
		}
	}
	prev := planOK(t, req)
	full := slices.IndexFunc(prev.Routes, func(r Route) bool { return r.Metrics.Positions == 10 })
	if full < 0 || !slices.ContainsFunc(prev.Routes, func(r Route) bool { return r.Metrics.Positions < 10 }) {
		t.Fatalf("the first plan has no full route and one with room: %d routes", len(prev.Routes))
	}
	x := prev.Routes[full].Stops[0].Store
	plan := planOK(t, withLate(req, prev, Lock{}, x, 1))
	if len(plan.Routes) != len(prev.Routes) {
		t.Fatalf("%d routes, want the %d of the previous plan", len(plan.Routes), len(prev.Routes))
	}
	rides := -1
	for k, r := range prev.Routes {
		ri := routeAs(plan, r)
		if ri < 0 {
			t.Fatalf("previous route %d is not in the re-plan", k)
		}
		for _, st := range plan.Routes[ri].Stops {
			if slices.Contains(st.Pallets, "late-"+x+"-0") {
				rides = k
			}
		}
	}
	if rides < 0 || rides == full {
		t.Fatalf("the late pallet rides previous route %d, want one with room (not %d)", rides, full)
	}
	for _, c := range plan.Changes.Stores {
		if c.Store != x && (c.Has(Moved) || c.Has(Retimed)) {
			t.Errorf("store %s: %v, want only %s changed", c.Store, c.Kinds, x)
		}
	}
}

// TestReplanKeepsTheTimesOfTripsThatOnlyLostPallets: one driver drives
// two trips on the one trailer unit, the second loading after the unit
// is back and turned. A night that takes pallets off both trips, or every
// pallet of the first, re-plans the same trips on the same unit and
// shift with every kept stop reached and unloaded when it was: only the
// pallet counts change, and the second trip, renumbered where the first
// is gone, has not moved.
func TestReplanKeepsTheTimesOfTripsThatOnlyLostPallets(t *testing.T) {
	req := packingRequest(2, 1, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 1)})
	fullMorningLoads(&req)
	req.Shifts[0].MaxTrips = 2
	prev := planOK(t, req)
	if len(prev.Routes) != 2 || prev.Metrics.Pallets != 60 {
		t.Fatalf("the first plan: %d pallets on %d routes, want 60 on 2", prev.Metrics.Pallets, len(prev.Routes))
	}
	first := prev.Routes[0].Stops[0].Store
	if prev.Routes[1].Trip == 1 {
		first = prev.Routes[1].Stops[0].Store
	}
	for _, c := range []struct {
		name string
		gone func(p Pallet) bool
		want map[string]string // store: kinds
	}{
		{"a few pallets off each trip", func(p Pallet) bool { return strings.HasSuffix(p.ID, "7") }, nil},
		{"the first trip's store cancelled", func(p Pallet) bool { return p.Store == first || strings.HasSuffix(p.ID, "7") },
			map[string]string{first: "REMOVED"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			again := req
			again.Previous = &prev
			again.Pallets = slices.DeleteFunc(slices.Clone(req.Pallets), c.gone)
			plan := planOK(t, again)
			for _, ch := range plan.Changes.Stores {
				var kinds []string
				for _, k := range ch.Kinds {
					kinds = append(kinds, k.String())
				}
				want := "PALLETS_CHANGED"
				if w, ok := c.want[ch.Store]; ok {
					want = w
				}
				if got := strings.Join(kinds, "+"); got != want {
					t.Errorf("store %s: %s from %v to %v, want %s", ch.Store, got, ch.From, ch.To, want)
				}
			}
			was := map[string]Stop{}
			for _, r := range prev.Routes {
				for _, st := range r.Stops {
					was[st.Store] = st
				}
			}
			for _, r := range plan.Routes {
				if r.Shift != prev.Routes[0].Shift || r.TrailerUnit != prev.Routes[0].TrailerUnit {
					t.Errorf("route %s on shift %s, unit %s; want the previous ones", r.ID, r.Shift, r.TrailerUnit)
				}
				for _, st := range r.Stops {
					if w := was[st.Store]; !st.Arrival.Equal(w.Arrival) || !st.Start.Equal(w.Start) {
						t.Errorf("store %s reached %s, unloaded from %s; previously %s, %s", st.Store,
							st.Arrival.Format("15:04:05"), st.Start.Format("15:04:05"), w.Arrival.Format("15:04:05"), w.Start.Format("15:04:05"))
					}
				}
			}
		})
	}
}
