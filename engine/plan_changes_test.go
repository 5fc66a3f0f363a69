package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// changesT0 is the start of the hand-made plans' day.
var changesT0 = time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)

// visit is a stop of a hand-made plan: a store, the minutes after
// changesT0 it is reached, and its pallets, "<store>-<n>" from n = from.
type visit struct {
	store       string
	at, pallets int
	from        int
}

func tripOf(id, unit, shift string, trip int, visits ...visit) Route {
	r := Route{ID: id, Trailer: strings.SplitN(unit, "-", 2)[0], TrailerUnit: unit, Shift: shift, Trip: trip}
	for _, v := range visits {
		st := Stop{Store: v.store, Arrival: changesT0.Add(time.Duration(v.at) * time.Minute)}
		for i := range v.pallets {
			st.Pallets = append(st.Pallets, fmt.Sprintf("%s-%d", v.store, v.from+i+1))
		}
		r.Stops = append(r.Stops, st)
	}
	return r
}

// basePlan: two trips of shift A on DRY-01 and one of shift B on DRY-02;
// S4 is split over A's first trip and B's.
func basePlan() Result {
	return Result{Routes: []Route{
		tripOf("R1", "DRY-01", "A", 1, visit{"S1", 30, 4, 0}, visit{"S2", 60, 3, 0}, visit{"S4", 90, 5, 0}),
		tripOf("R2", "DRY-02", "B", 1, visit{"S3", 40, 6, 0}, visit{"S4", 70, 2, 5}),
		tripOf("R3", "DRY-01", "A", 2, visit{"S5", 300, 8, 0}),
	}}
}

// kindsOf returns each changed store with its kinds: "S2:MOVED+RETIMED".
func kindsOf(pc PlanChanges) []string {
	var out []string
	for _, c := range pc.Stores {
		var ks []string
		for _, k := range c.Kinds {
			ks = append(ks, k.String())
		}
		out = append(out, c.Store+":"+strings.Join(ks, "+"))
	}
	return out
}

func TestChangesKinds(t *testing.T) {
	for _, c := range []struct {
		name          string
		edit          func(p *Result)
		want          []string
		routesChanged int
	}{
		{"nothing", func(p *Result) {}, nil, 0},
		{"route ids and order only", func(p *Result) {
			p.Routes[0].ID, p.Routes[1].ID, p.Routes[2].ID = "R9", "R7", "R8"
			slices.Reverse(p.Routes)
		}, nil, 0},
		{"added", func(p *Result) {
			p.Routes[2].Stops = append(p.Routes[2].Stops, tripOf("", "", "", 0, visit{"S6", 330, 2, 0}).Stops...)
		}, []string{"S6:ADDED"}, 1},
		{"removed", func(p *Result) { p.Routes[2].Stops = nil }, []string{"S5:REMOVED"}, 1},
		{"moved to another shift and unit", func(p *Result) {
			p.Routes[1].Stops = append(p.Routes[1].Stops, p.Routes[0].Stops[1])
			p.Routes[0].Stops = slices.Delete(p.Routes[0].Stops, 1, 2)
		}, []string{"S2:MOVED"}, 2},
		{"moved with the trailer unit alone", func(p *Result) { p.Routes[2].TrailerUnit = "DRY-03" }, []string{"S5:MOVED"}, 2},
		{"retimed beyond the tolerance", func(p *Result) {
			p.Routes[0].Stops[0].Arrival = p.Routes[0].Stops[0].Arrival.Add(16 * time.Minute)
		}, []string{"S1:RETIMED"}, 0},
		{"retimed earlier beyond the tolerance", func(p *Result) {
			p.Routes[2].Stops[0].Arrival = p.Routes[2].Stops[0].Arrival.Add(-2 * time.Hour)
		}, []string{"S5:RETIMED"}, 0},
		{"within the tolerance", func(p *Result) {
			p.Routes[0].Stops[0].Arrival = p.Routes[0].Stops[0].Arrival.Add(15 * time.Minute)
			p.Routes[1].Stops[0].Arrival = p.Routes[1].Stops[0].Arrival.Add(-14 * time.Minute)
		}, nil, 0},
		{"pallets changed", func(p *Result) {
			p.Routes[1].Stops[0].Pallets = append(p.Routes[1].Stops[0].Pallets, "S3-7")
		}, []string{"S3:PALLETS_CHANGED"}, 1},
		{"other pallets, as many", func(p *Result) { p.Routes[2].Stops[0].Pallets[0] = "S5-9" }, nil, 1},
		{"stops reordered", func(p *Result) {
			s := p.Routes[0].Stops
			s[0], s[1] = s[1], s[0]
		}, nil, 1},
		{"another trailer type on the same unit name", func(p *Result) { p.Routes[2].Trailer = "REEF" }, nil, 1},
		{"split store joined on one route", func(p *Result) {
			// Its first truck came at 05:10, the one left comes at 05:30.
			p.Routes[0].Stops[2].Pallets = append(p.Routes[0].Stops[2].Pallets, p.Routes[1].Stops[1].Pallets...)
			p.Routes[1].Stops = p.Routes[1].Stops[:1]
		}, []string{"S4:MOVED+RETIMED"}, 2},
		{"split store's last arrival retimed", func(p *Result) {
			p.Routes[0].Stops[2].Arrival = p.Routes[0].Stops[2].Arrival.Add(time.Hour)
		}, []string{"S4:RETIMED"}, 0},
		{"split store's arrivals swapped between its routes", func(p *Result) {
			p.Routes[0].Stops[2].Arrival, p.Routes[1].Stops[1].Arrival = p.Routes[1].Stops[1].Arrival, p.Routes[0].Stops[2].Arrival
		}, nil, 0},
		{"an earlier trip gone, the trip after it renumbered", func(p *Result) {
			p.Routes = p.Routes[1:]
			p.Routes[1].Trip = 1
		}, []string{"S1:REMOVED", "S2:REMOVED", "S4:MOVED+RETIMED+PALLETS_CHANGED"}, 2},
		{"a gone trip's number taken by a new trip", func(p *Result) {
			p.Routes[0].Stops = tripOf("", "", "", 0, visit{"S6", 30, 2, 0}).Stops
		}, []string{"S1:REMOVED", "S2:REMOVED", "S4:MOVED+RETIMED+PALLETS_CHANGED", "S6:ADDED"}, 1},
		{"a shift's trips swapped: the larger stays the same route", func(p *Result) {
			p.Routes[0].Stops, p.Routes[2].Stops = p.Routes[2].Stops, p.Routes[0].Stops
		}, []string{"S5:MOVED"}, 3},
		{"moved, retimed and more pallets", func(p *Result) {
			st := p.Routes[0].Stops[0]
			st.Arrival = st.Arrival.Add(5 * time.Hour)
			st.Pallets = append(slices.Clone(st.Pallets), "S1-5")
			p.Routes[2].Stops = append(p.Routes[2].Stops, st)
			p.Routes[0].Stops = p.Routes[0].Stops[1:]
		}, []string{"S1:MOVED+RETIMED+PALLETS_CHANGED"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			next := basePlan()
			c.edit(&next)
			pc, err := Changes(basePlan(), next, ChangeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := kindsOf(pc); !slices.Equal(got, c.want) {
				t.Errorf("changes %v, want %v", got, c.want)
			}
			if pc.Metrics.RoutesChanged != c.routesChanged {
				t.Errorf("%d routes changed, want %d", pc.Metrics.RoutesChanged, c.routesChanged)
			}
			if pc.Tolerance != DefaultChangeTolerance {
				t.Errorf("tolerance %v", pc.Tolerance)
			}
		})
	}
}

// TestChangesEntries: an entry's routes, arrivals and pallet counts are
// those of each plan, and the metrics count the entries.
func TestChangesEntries(t *testing.T) {
	next := basePlan()
	// S4 leaves B's trip for a trip of shift C at the same time, with a
	// pallet less; S5 goes; S6 comes.
	moved := next.Routes[1].Stops[1]
	moved.Pallets = moved.Pallets[:1]
	next.Routes[1].Stops = next.Routes[1].Stops[:1]
	next.Routes[2] = tripOf("R3", "DRY-03", "C", 1, visit{"S6", 40, 3, 0})
	next.Routes[2].Stops = append(next.Routes[2].Stops, moved)
	pc, err := Changes(basePlan(), next, ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kindsOf(pc), []string{"S4:MOVED+PALLETS_CHANGED", "S5:REMOVED", "S6:ADDED"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	s4 := pc.Stores[0]
	// By arrival: B's trip (05:10), then A's (05:30).
	wantFrom := []RouteRef{{ID: "R2", TrailerUnit: "DRY-02", Shift: "B", Trip: 1, NextTrip: 1}, {ID: "R1", TrailerUnit: "DRY-01", Shift: "A", Trip: 1, NextTrip: 1}}
	wantTo := []RouteRef{{ID: "R3", TrailerUnit: "DRY-03", Shift: "C", Trip: 1}, {ID: "R1", TrailerUnit: "DRY-01", Shift: "A", Trip: 1, PreviousTrip: 1}}
	if !reflect.DeepEqual(s4.From, wantFrom) || !reflect.DeepEqual(s4.To, wantTo) {
		t.Errorf("S4 from %+v to %+v", s4.From, s4.To)
	}
	if !s4.OldArrival.Equal(changesT0.Add(70*time.Minute)) || !s4.NewArrival.Equal(changesT0.Add(70*time.Minute)) ||
		!s4.OldLastArrival.Equal(changesT0.Add(90*time.Minute)) || !s4.NewLastArrival.Equal(changesT0.Add(90*time.Minute)) ||
		s4.OldPallets != 7 || s4.NewPallets != 6 {
		t.Errorf("S4 arrivals %v–%v → %v–%v, pallets %d → %d", s4.OldArrival, s4.OldLastArrival, s4.NewArrival, s4.NewLastArrival, s4.OldPallets, s4.NewPallets)
	}
	s5, s6 := pc.Stores[1], pc.Stores[2]
	if len(s5.To) != 0 || !s5.NewArrival.IsZero() || s5.NewPallets != 0 || s5.OldPallets != 8 || len(s5.From) != 1 {
		t.Errorf("removed S5: %+v", s5)
	}
	if len(s6.From) != 0 || !s6.OldArrival.IsZero() || s6.OldPallets != 0 || s6.NewPallets != 3 || s6.To[0].Shift != "C" {
		t.Errorf("added S6: %+v", s6)
	}
	want := ChangeMetrics{StoresCompared: 4, StoresAdded: 1, StoresRemoved: 1, StoresMoved: 1, StoresRetimed: 0,
		StoresMovedOrRetimed: 1, StoresPalletsChanged: 1, RoutesChanged: 3} // B's trip, A's second, C's
	if pc.Metrics != want {
		t.Errorf("metrics %+v, want %+v", pc.Metrics, want)
	}
}

// TestChangesNameRenumberedTrips: when a shift's first trip is gone, a
// store that comes off its second trip, now its first, is named by both
// numbers on both sides, so that a dispatcher finds the paperwork he
// holds and the one he hands out.
func TestChangesNameRenumberedTrips(t *testing.T) {
	next := basePlan()
	next.Routes = next.Routes[1:]
	next.Routes[1].Trip = 1
	// Half of S5's pallets leave A's trip for B's.
	s5 := next.Routes[1].Stops[0]
	next.Routes[1].Stops[0].Pallets = s5.Pallets[:4]
	s5.Pallets = s5.Pallets[4:]
	s5.Arrival = changesT0.Add(100 * time.Minute)
	next.Routes[0].Stops = append(next.Routes[0].Stops, s5)
	pc, err := Changes(basePlan(), next, ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var c *StoreChange
	for i := range pc.Stores {
		if pc.Stores[i].Store == "S5" {
			c = &pc.Stores[i]
		}
	}
	if c == nil || !c.Has(Moved) {
		t.Fatalf("S5 not moved: %+v", pc.Stores)
	}
	var from, to []string
	for _, r := range c.From {
		from = append(from, r.String())
	}
	for _, r := range c.To {
		to = append(to, r.String())
	}
	wantFrom := []string{"R3 (DRY-01, A trip 2, now trip 1)"}
	wantTo := []string{"R2 (DRY-02, B trip 1)", "R3 (DRY-01, A trip 1, was trip 2)"}
	if !slices.Equal(from, wantFrom) || !slices.Equal(to, wantTo) {
		t.Errorf("S5 from %q to %q, want from %q to %q", from, to, wantFrom, wantTo)
	}
	// A trip the next plan no longer runs has no next trip.
	for _, c := range pc.Stores {
		if c.Store == "S1" && (len(c.From) != 1 || c.From[0].NextTrip != 0 || c.From[0].String() != "R1 (DRY-01, A trip 1)") {
			t.Errorf("S1 from %+v", c.From)
		}
	}
}

func TestChangesTolerance(t *testing.T) {
	next := basePlan()
	next.Routes[0].Stops[0].Arrival = next.Routes[0].Stops[0].Arrival.Add(5 * time.Minute)
	for _, c := range []struct {
		tol  time.Duration
		want []string
	}{{0, nil}, {time.Second, []string{"S1:RETIMED"}}, {5 * time.Minute, nil}, {4 * time.Minute, []string{"S1:RETIMED"}}} {
		pc, err := Changes(basePlan(), next, ChangeOptions{Tolerance: c.tol})
		if err != nil {
			t.Fatal(err)
		}
		if got := kindsOf(pc); !slices.Equal(got, c.want) {
			t.Errorf("tolerance %v: %v, want %v", c.tol, got, c.want)
		}
	}
}

// TestChangesRejectsAmbiguousPlans: two routes with one trailer unit,
// shift and trip cannot be told apart; every such route is named.
func TestChangesRejectsAmbiguousPlans(t *testing.T) {
	prev, next := basePlan(), basePlan()
	prev.Routes[2].Trip = 1
	next.Routes = append(next.Routes, next.Routes[1], next.Routes[1])
	_, err := Changes(prev, next, ChangeOptions{Tolerance: -time.Minute})
	var got []string
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+"@"+v.Path)
	}
	want := []string{"INVALID_VALUE@tolerance", "DUPLICATE_ID@previous.routes[2]", "DUPLICATE_ID@next.routes[3]", "DUPLICATE_ID@next.routes[4]"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (%v)", got, want, err)
	}
}

// TestChangesOfAPlannedDay: a plan Plan made has no changes against
// itself, and against itself with a late stop every change is that stop's.
func TestChangesOfAPlannedDay(t *testing.T) {
	_, plan := sample(t)
	pc, err := Changes(plan, plan, ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stores := map[string]bool{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			stores[st.Store] = true
		}
	}
	if len(pc.Stores) != 0 || pc.Metrics != (ChangeMetrics{StoresCompared: len(stores)}) {
		t.Fatalf("a plan against itself: %v, %+v", kindsOf(pc), pc.Metrics)
	}
	late := clonePlan(t, plan)
	st := &late.Routes[len(late.Routes)-1].Stops[0]
	st.Arrival = st.Arrival.Add(time.Hour)
	pc, err = Changes(plan, late, ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := kindsOf(pc); len(got) != 1 || got[0] != st.Store+":RETIMED" {
		t.Fatalf("one stop an hour late: %v", got)
	}
}

// genChangesPlan draws a plan of routes on a few trailer units and
// shifts, each (unit, shift, trip) once, stores possibly split.
func genChangesPlan(t *rapid.T) Result {
	var p Result
	used := map[routeKey]bool{}
	n := rapid.IntRange(0, 8).Draw(t, "routes")
	for i := range n {
		k := routeKey{
			unit:  fmt.Sprintf("DRY-%02d", rapid.IntRange(1, 3).Draw(t, "unit")),
			shift: rapid.SampledFrom([]string{"A", "B", "C"}).Draw(t, "shift"),
			trip:  rapid.IntRange(1, 3).Draw(t, "trip"),
		}
		if used[k] {
			continue
		}
		used[k] = true
		var vs []visit
		for j := range rapid.IntRange(0, 4).Draw(t, "stops") {
			vs = append(vs, visit{store: fmt.Sprintf("S%d", rapid.IntRange(1, 6).Draw(t, "store")),
				at: rapid.IntRange(0, 600).Draw(t, "at"), pallets: rapid.IntRange(1, 5).Draw(t, "pallets"), from: 10*i + j})
		}
		p.Routes = append(p.Routes, tripOf(fmt.Sprintf("R%d", i+1), k.unit, k.shift, k.trip, vs...))
	}
	return p
}

// TestChangesIgnoreRouteIDs: relabelling and reordering a plan's routes
// changes nothing a dispatcher sees.
func TestChangesIgnoreRouteIDs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genChangesPlan(t)
		q := clonePlanValue(p)
		ids := rapid.Permutation(func() []string {
			var ids []string
			for i := range q.Routes {
				ids = append(ids, fmt.Sprintf("X%d", i))
			}
			return ids
		}()).Draw(t, "ids")
		for i := range q.Routes {
			q.Routes[i].ID = ids[i]
		}
		q.Routes = rapid.Permutation(q.Routes).Draw(t, "order")
		pc, err := Changes(p, q, ChangeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(pc.Stores) != 0 || pc.Metrics.RoutesChanged != 0 || pc.Metrics.StoresMovedOrRetimed != 0 {
			t.Fatalf("relabelled plan: %v, %+v", kindsOf(pc), pc.Metrics)
		}
	})
}

// TestChangesAreSymmetric: comparing the other way round swaps ADDED and
// REMOVED, from and to (but the previous trip a next plan's route was),
// old and new; the other kinds and the counts of routes and compared
// stores stay: the same routes pair either way.
func TestChangesAreSymmetric(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, q := genChangesPlan(t), genChangesPlan(t)
		ab, err := Changes(p, q, ChangeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ba, err := Changes(q, p, ChangeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ab.Stores) != len(ba.Stores) {
			t.Fatalf("%v one way, %v the other", kindsOf(ab), kindsOf(ba))
		}
		swap := map[ChangeKind]ChangeKind{Added: Removed, Removed: Added, Moved: Moved, Retimed: Retimed, PalletsChanged: PalletsChanged}
		for i, c := range ab.Stores {
			d := ba.Stores[i]
			var kinds []ChangeKind
			for _, k := range c.Kinds {
				kinds = append(kinds, swap[k])
			}
			if d.Store != c.Store || !slices.Equal(d.Kinds, kinds) || !reflect.DeepEqual(d.From, asFrom(c.To)) || !reflect.DeepEqual(asFrom(d.To), c.From) ||
				!d.OldArrival.Equal(c.NewArrival) || !d.NewLastArrival.Equal(c.OldLastArrival) || d.OldPallets != c.NewPallets || d.NewPallets != c.OldPallets {
				t.Fatalf("%+v one way, %+v the other", c, d)
			}
		}
		m, n := ab.Metrics, ba.Metrics
		if m.RoutesChanged != n.RoutesChanged || m.StoresCompared != n.StoresCompared || m.StoresAdded != n.StoresRemoved ||
			m.StoresMoved != n.StoresMoved || m.StoresRetimed != n.StoresRetimed {
			t.Fatalf("metrics %+v one way, %+v the other", m, n)
		}
	})
}

// asFrom is the routes refs, of a next plan, as the routes of a previous
// plan name them: the previous trip each was is the next trip each is.
func asFrom(refs []RouteRef) []RouteRef {
	out := slices.Clone(refs)
	for i := range out {
		out[i].NextTrip, out[i].PreviousTrip = out[i].PreviousTrip, 0
	}
	return out
}

// clonePlanValue copies the routes and stops of a hand-made plan.
func clonePlanValue(p Result) Result {
	q := Result{Routes: slices.Clone(p.Routes)}
	for i := range q.Routes {
		q.Routes[i].Stops = slices.Clone(q.Routes[i].Stops)
	}
	return q
}

// TestPlanChangesJSON: the changes' JSON form names kinds and writes the
// tolerance as a duration and leaves out an arrival a plan does not have;
// it reads back equal, and a bad document gets every problem with its path.
func TestPlanChangesJSON(t *testing.T) {
	next := basePlan()
	next.Routes[2] = tripOf("R3", "DRY-03", "C", 1, visit{"S6", 200, 3, 0}, visit{"S4", 130, 1, 9})
	pc, err := Changes(basePlan(), next, ChangeOptions{Tolerance: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	out, err := MarshalIndent(pc)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"tolerance": "10m0s"`, `"kinds": [
        "MOVED",
        "RETIMED",
        "PALLETS_CHANGED"
      ]`, `"kinds": [
        "ADDED"
      ]`, `"trailerUnit": "DRY-03"`, `"oldArrival": "2026-11-24T05:10:00Z"`, `"newLastArrival": "2026-11-24T06:10:00Z"`, `"storesMoved": 1`, `"routesChanged": 2`, `"nextTrip": 1`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("changes lack %s:\n%s", want, out)
		}
	}
	if bytes.Contains(out, []byte("0001-01-01")) {
		t.Errorf("an absent arrival is written:\n%s", out)
	}
	var back PlanChanges
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, pc) {
		t.Fatalf("round trip:\n%+v\n%+v", back, pc)
	}
	err = json.Unmarshal([]byte(`{"tolerance":"soon","stores":[{"store":"S1","kinds":["MOVED","LATE"],"to":[{"trip":"2"}]}],"metrics":{"moved":1}}`), &back)
	var got []string
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+"@"+v.Path)
	}
	want := []string{"INVALID_VALUE@tolerance", "INVALID_VALUE@stores[0].kinds[1]", "INVALID_TYPE@stores[0].to[0].trip", "UNKNOWN_MEMBER@metrics.moved"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (%v)", got, want, err)
	}
}

// FuzzPlanChangesJSON: reading arbitrary bytes as plan changes never
// panics, accepts nothing encoding/json rejects, gives every problem a
// code, and what it accepts is written in a form that reads back equal.
func FuzzPlanChangesJSON(f *testing.F) {
	f.Add([]byte(`{"tolerance":"15m0s","stores":[],"metrics":{"storesCompared":3}}`))
	f.Add([]byte(`{"tolerance":900,"stores":[{"store":"S1","kinds":["MOVED","RETIMED"],"from":[{"id":"R1","trailerUnit":"DRY-01","shift":"A","trip":1}],"to":[],"oldArrival":"2026-11-24T04:30:00Z","oldPallets":4,"newPallets":4}]}`))
	f.Add([]byte(`{"stores":[{"kinds":["LATE",null,3]},null],"metrics":{"routesChanged":-1.5}}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var pc PlanChanges
		err := pc.UnmarshalJSON(doc)
		if !json.Valid(doc) {
			if err == nil {
				t.Fatalf("accepted what is not JSON: %q", doc)
			}
			return
		}
		if err != nil {
			if vs := constraints.AsViolations(err); len(vs) == 0 {
				t.Fatalf("error %v is no list of violations", err)
			} else {
				for _, v := range vs {
					if v.Code == "" || v.Message == "" {
						t.Fatalf("violation without code or message: %+v", v)
					}
				}
			}
			return
		}
		out, err := json.Marshal(pc)
		if err != nil {
			return // an instant beyond year 9999 has no JSON form
		}
		var back PlanChanges
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(normalChanges(back), normalChanges(pc)) {
			t.Fatalf("round trip: %v\n%s", err, out)
		}
	})
}

// normalChanges puts instants in UTC, which the JSON form does not keep
// apart from the same instant in another zone.
func normalChanges(pc PlanChanges) PlanChanges {
	for i := range pc.Stores {
		c := &pc.Stores[i]
		c.OldArrival, c.NewArrival = c.OldArrival.UTC(), c.NewArrival.UTC()
		c.OldLastArrival, c.NewLastArrival = c.OldLastArrival.UTC(), c.NewLastArrival.UTC()
	}
	return pc
}
