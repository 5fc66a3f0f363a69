package loadplan

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

func storePallet(id, store string, kg float64, t constraints.Temperature) Pallet {
	p := std(id, 0, kg, t)
	p.Store = store
	return p
}

func TestPackFleetProvesTwoTrailers(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 5}}
	var ps []Pallet
	for i := range 45 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%4), 300, constraints.Ambient))
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Loads) != 2 || plan.LowerBound != 2 || !plan.Optimal || len(plan.Unplaced) != 0 {
		t.Fatalf("loads %d bound %d optimal %v unplaced %v; want 2 proven optimal", len(plan.Loads), plan.LowerBound, plan.Optimal, plan.Unplaced)
	}
	checkFleetPlan(t, fleet, ps, plan)
}

func TestPackFleetReasons(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 1}}
	ps := []Pallet{storePallet("f", "S1", 100, constraints.Frozen)}
	for i := range 31 {
		ps = append(ps, storePallet(fmt.Sprint("a", i), "S2", 100, constraints.Ambient))
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, u := range plan.Unplaced {
		codes[u.Code]++
	}
	if codes[CodeTemperature] != 1 || codes[CodeNoTrailer] != 1 || plan.Optimal {
		t.Fatalf("unplaced %+v optimal %v: want one %s, one %s, not optimal", plan.Unplaced, plan.Optimal, CodeTemperature, CodeNoTrailer)
	}
	checkFleetPlan(t, fleet, ps, plan)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan, err = PackFleet(ctx, fleet, ps[1:], FleetOptions{})
	if err != nil || len(plan.Loads) != 0 || len(plan.Unplaced) != 31 || plan.Unplaced[0].Code != CodeCancelled {
		t.Fatalf("cancelled: err %v, %d loads, unplaced %v", err, len(plan.Loads), plan.Unplaced)
	}

	bad := []FleetTrailer{{Trailer: Trailer{ID: "x"}, Count: -1}}
	_, err = PackFleet(context.Background(), bad, []Pallet{{ID: "p"}, {ID: "p"}}, FleetOptions{})
	vs := constraints.AsViolations(err)
	for _, path := range []string{"fleet[0].trailer", "fleet[0].count", "pallets[0]", "pallets[1].id"} {
		found := false
		for _, v := range vs {
			found = found || v.Path == path
		}
		if !found {
			t.Errorf("no violation at %s in %v", path, vs)
		}
	}
}

// checkFleetPlan is the independent check of a fleet plan: every pallet
// once, types within their counts, each load's stops by first appearance
// and its layout accepted by Validate, the bound below the trailers used.
func checkFleetPlan(t interface {
	Fatalf(string, ...any)
	Helper()
}, fleet []FleetTrailer, ps []Pallet, plan *FleetPlan) {
	t.Helper()
	seen := map[string]int{}
	for _, u := range plan.Unplaced {
		seen[u.Pallet]++
		if u.Code == "" || u.Reason == "" {
			t.Fatalf("unplaced %+v without a reason", u)
		}
	}
	first := map[string]int{}
	byID := map[string]Pallet{}
	for i, p := range ps {
		if _, ok := first[p.Store]; !ok {
			first[p.Store] = i
		}
		byID[p.ID] = p
	}
	used := make([]int, len(fleet))
	for li, l := range plan.Loads {
		used[l.Fleet]++
		if l.Trailer != fleet[l.Fleet].Trailer.ID {
			t.Fatalf("loads[%d] names trailer %q, type %d is %q", li, l.Trailer, l.Fleet, fleet[l.Fleet].Trailer.ID)
		}
		for s := 1; s < len(l.Stores); s++ {
			if first[l.Stores[s-1]] >= first[l.Stores[s]] {
				t.Fatalf("loads[%d] stops %v not in order of first appearance", li, l.Stores)
			}
		}
		for _, p := range l.Pallets {
			seen[p.ID]++
			in := byID[p.ID]
			if p.Store != in.Store || p.WeightKg != in.WeightKg || p.Stop < 0 || p.Stop >= len(l.Stores) || l.Stores[p.Stop] != p.Store {
				t.Fatalf("loads[%d] pallet %+v does not match input %+v and stops %v", li, p, in, l.Stores)
			}
		}
		if vs := Validate(fleet[l.Fleet].Trailer, l.Pallets, len(l.Stores), l.Layout); len(vs) > 0 {
			t.Fatalf("loads[%d] fails the check: %v", li, vs)
		}
	}
	for k, n := range used {
		if n > fleet[k].Count {
			t.Fatalf("type %d used %d times, %d available", k, n, fleet[k].Count)
		}
	}
	for _, p := range ps {
		if seen[p.ID] != 1 {
			t.Fatalf("pallet %q appears %d times", p.ID, seen[p.ID])
		}
	}
	if len(plan.Loads) < plan.LowerBound {
		t.Fatalf("%d trailers beat the lower bound %d", len(plan.Loads), plan.LowerBound)
	}
	if plan.Optimal && len(plan.Loads) != plan.LowerBound {
		t.Fatalf("optimal with %d trailers over a bound of %d", len(plan.Loads), plan.LowerBound)
	}
}

// TestPackFleetProperty: random fleets (dry vans, reefers, multi-zone
// reefers with two or three zones; counts that often run short) and
// random freight (three classes, half and custom pallets, stacking): every
// load passes Validate, every pallet is accounted for once, the plan never
// beats its bound and claims optimality only when it meets it.
func TestPackFleetProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 60, rapid.IntRange(1, 8).Draw(t, "stores"))
		for i := range ps {
			ps[i].Stop = rapid.IntRange(-5, 5).Draw(t, "ignoredStop")
		}
		opts := FleetOptions{TimeLimit: time.Minute, Seed: rapid.Uint64().Draw(t, "seed")}
		plan, err := PackFleet(context.Background(), fleet, ps, opts)
		if err != nil {
			t.Fatalf("valid input rejected: %v", err)
		}
		checkFleetPlan(t, fleet, ps, plan)
	})
}

// TestPackFleetStacks: 60 pallets, half of them stackable on the other
// half, ride on one 30-position trailer, and the bound (which lets a
// stackable pallet take no floor) proves it.
func TestPackFleetStacks(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 3}}
	var ps []Pallet
	for i := range 60 {
		p := storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%3), 300, constraints.Ambient)
		p.HeightMM = 1300
		if i%2 == 0 {
			p.MayCarry = true
		} else {
			p.MayBeStacked, p.WeightKg = true, 200
		}
		ps = append(ps, p)
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Loads) != 1 || !plan.Optimal {
		t.Fatalf("%d loads, bound %d, optimal %v; want one proven trailer", len(plan.Loads), plan.LowerBound, plan.Optimal)
	}
	stacked := 0
	for _, p := range plan.Loads[0].Layout.Placements {
		stacked += p.Level
	}
	if stacked != 30 {
		t.Fatalf("%d pallets stacked, want 30", stacked)
	}
	checkFleetPlan(t, fleet, ps, plan)
}

// TestPackFleetEdgeInputs: no trailer, no free trailer, no pallet, one
// pallet, nothing placeable, a store whose pallets are not contiguous and
// a store with no name: no panic, every load legal, Optimal as defined.
func TestPackFleetEdgeInputs(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	one := []Pallet{storePallet("a", "S", 100, constraints.Ambient)}
	cases := []struct {
		name    string
		fleet   []FleetTrailer
		ps      []Pallet
		loads   int
		optimal bool
	}{
		{"no fleet", nil, one, 0, false},
		{"no free trailer", []FleetTrailer{{tr, 0}}, one, 0, false},
		{"no pallets", []FleetTrailer{{tr, 1}}, nil, 0, true},
		{"one pallet", []FleetTrailer{{tr, 1}}, one, 1, true},
		{"nothing placeable", []FleetTrailer{{tr, 3}}, []Pallet{storePallet("f", "S", 100, constraints.Frozen), storePallet("h", "S", 1e6, constraints.Ambient)}, 0, true},
		{"interleaved stores", []FleetTrailer{{tr, 3}}, []Pallet{storePallet("a", "A", 100, 0), storePallet("b", "B", 100, 0), storePallet("c", "A", 100, 0), storePallet("d", "", 100, 0)}, 1, true},
	}
	for _, c := range cases {
		plan, err := PackFleet(context.Background(), c.fleet, c.ps, FleetOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkFleetPlan(t, c.fleet, c.ps, plan)
		if len(plan.Loads) != c.loads || plan.Optimal != c.optimal {
			t.Errorf("%s: %d loads, optimal %v; want %d, %v", c.name, len(plan.Loads), plan.Optimal, c.loads, c.optimal)
		}
	}
	// Stops follow first appearance: A, B, then the nameless store.
	plan, _ := PackFleet(context.Background(), cases[5].fleet, cases[5].ps, FleetOptions{})
	if got := plan.Loads[0].Stores; !slices.Equal(got, []string{"A", "B", ""}) {
		t.Fatalf("stops %q, want A, B, \"\"", got)
	}
}

// TestPackFleetOptimalOnlyWhenProven: a fleet too small for the freight
// leaves pallets without room; the plan must not claim optimality even
// where its loads meet the bound of what it packed.
func TestPackFleetOptimalOnlyWhenProven(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	var ps []Pallet
	for i := range 45 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%3), 100, constraints.Ambient))
	}
	plan, err := PackFleet(context.Background(), []FleetTrailer{{tr, 1}}, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, []FleetTrailer{{tr, 1}}, ps, plan)
	if len(plan.Loads) != 1 || plan.LowerBound != 1 || len(plan.Unplaced) != 15 || plan.Optimal {
		t.Fatalf("%d loads, bound %d, %d unplaced, optimal %v; want 1, 1, 15, false", len(plan.Loads), plan.LowerBound, len(plan.Unplaced), plan.Optimal)
	}
}

// TestPackFleetReportedBound: FleetPlan.LowerBound is FleetLowerBound of
// the pallets in Loads, recomputed here from the plan alone.
func TestPackFleetReportedBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 50, rapid.IntRange(1, 6).Draw(t, "stores"))
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, Seed: rapid.Uint64().Draw(t, "seed")})
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		var loaded []Pallet
		for _, l := range plan.Loads {
			loaded = append(loaded, l.Pallets...)
		}
		if want := FleetLowerBound(fleet, loaded); plan.LowerBound != want {
			t.Fatalf("reported bound %d, FleetLowerBound of the loaded pallets %d", plan.LowerBound, want)
		}
	})
}

// TestPackFleetKeepsTheBetterStart: PackFleet returns the best of its
// two packings after improvement, so it is never worse (pallets without
// room, then trailers) than either start before it.
func TestPackFleetKeepsTheBetterStart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 60, rapid.IntRange(1, 8).Draw(t, "stores"))
		seed := rapid.Uint64().Draw(t, "seed")
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		f := newFleetPacker(context.Background(), fleet, ps, farFuture)
		todo := f.screen(&FleetPlan{})
		starts := []*packing{}
		a, _ := f.firstFit(f.storeOrder(todo))
		starts = append(starts, a)
		if b, ok := f.binpackFirst(todo, f.end, seed); ok {
			starts = append(starts, b)
		}
		noRoom := 0
		for _, u := range plan.Unplaced {
			if u.Code == CodeNoTrailer {
				noRoom++
			}
		}
		for n, s := range starts {
			if noRoom > len(s.noRoom) || noRoom == len(s.noRoom) && len(plan.Loads) > len(s.loads) {
				t.Fatalf("start %d: %d trailers, %d without room; PackFleet: %d trailers, %d without room", n, len(s.loads), len(s.noRoom), len(plan.Loads), noRoom)
			}
		}
	})
}

// TestPackFleetFullPayload: loads exactly at the payload are legal, and
// the cheap checks must not turn them away: 40 pallets of 500 kg on
// 30-position 10,000 kg trailers take exactly two, both full.
func TestPackFleetFullPayload(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.PayloadKg = 10000
	fleet := []FleetTrailer{{Trailer: tr, Count: 6}}
	var ps []Pallet
	for i := range 40 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%4), 500, constraints.Ambient))
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if len(plan.Loads) != 2 || !plan.Optimal {
		t.Fatalf("%d trailers, bound %d, optimal %v; want 2 proven", len(plan.Loads), plan.LowerBound, plan.Optimal)
	}
}

// TestPackFleetFreeCounts: after each phase the free trailers of each
// type plus its loads make up its count, so no move can give back a
// trailer twice or take one that is not there.
func TestPackFleetFreeCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 60, rapid.IntRange(1, 8).Draw(t, "stores"))
		f := newFleetPacker(context.Background(), fleet, ps, farFuture)
		todo := f.screen(&FleetPlan{})
		a, _ := f.firstFit(f.storeOrder(todo))
		b, _ := f.binpackFirst(todo, f.end, 1)
		check := func(name string, s *packing) {
			for k, ft := range fleet {
				n := 0
				for _, l := range s.loads {
					if l.kind == k {
						n++
					}
				}
				if n+s.left[k] != ft.Count {
					t.Fatalf("%s: type %d has %d loads and %d free, count %d", name, k, n, s.left[k], ft.Count)
				}
			}
		}
		check("first-fit", a)
		f.improve(a, f.end)
		check("first-fit improved", a)
		if b != nil {
			check("binpack", b)
			f.improve(b, f.end)
			check("binpack improved", b)
		}
	})
}
