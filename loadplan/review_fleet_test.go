package loadplan

// Tests from the adversarial review of PackFleet and FleetLowerBound
// (review-fleet). The bound must hold under Validate's rules, not only under
// PlanTrailer's habits, so several tests build legal packings by hand or
// from PlanTrailer's layouts on random pallet sets and hold the bound
// against them.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// rfCheck fills in the axle states and insists that Validate accepts a
// hand-made layout.
func rfCheck(t *testing.T, tr Trailer, ps []Pallet, stops int, lay *Layout) {
	t.Helper()
	r4Axles(tr, ps, stops, lay)
	if vs := Validate(tr, ps, stops, lay); len(vs) > 0 {
		t.Fatalf("hand-made layout is not legal: %v", vs)
	}
}

// crossStoreStack is one legal trailer load that stacks across stores: 30
// pallets of the second stop fill the 30 positions, and the two pallets
// of the first stop ride on the last row, nearest the door, so they come
// off first and nothing for the later stop stands between them and the
// door. Validate allows it; PlanTrailer never stacks across stores.
func crossStoreStack(t *testing.T) (Trailer, []Pallet) {
	tr := testTrailer(constraints.DryVan)
	var ps []Pallet
	lay := &Layout{Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 14}}}
	for i := range 30 {
		p := Pallet{ID: fmt.Sprint("b", i), Store: "B", Stop: 1, LengthMM: 1219, WidthMM: 1016, HeightMM: 1200, WeightKg: 400, VolumeM3: 1, MayCarry: true}
		ps = append(ps, p)
		side := Side(i % 2) // turned, two to a row: 15 rows of 1,016 mm
		lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: i / 2, Side: side, Turned: true, XMM: (i / 2) * 1016})
	}
	for i := range 2 {
		p := Pallet{ID: fmt.Sprint("a", i), Store: "A", Stop: 0, LengthMM: 1219, WidthMM: 1016, HeightMM: 1200, WeightKg: 300, VolumeM3: 1, MayBeStacked: true}
		ps = append(ps, p)
		lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: 14, Side: Side(i), Turned: true, XMM: 14 * 1016, Level: 1})
	}
	rfCheck(t, tr, ps, 2, lay)
	return tr, ps
}

// TestReviewFleetBoundCrossStoreStacking: FleetLowerBound counts stacked
// pairs per class, not per store, so a legal cross-store stack in one
// trailer is not ruled out.
func TestReviewFleetBoundCrossStoreStacking(t *testing.T) {
	tr, ps := crossStoreStack(t)
	if got := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 3}}, ps); got > 1 {
		t.Fatalf("bound %d, but Validate accepts all %d pallets on one trailer", got, len(ps))
	}
}

// TestReviewFleetBoundLegalLayouts: hand-made legal layouts the bound must
// not rule out: CENTER pallets (two positions each), half pallets four to
// a row, three classes in one multi-temperature reefer, and a trailer
// whose Positions is 0 beside one that states 30.
func TestReviewFleetBoundLegalLayouts(t *testing.T) {
	t.Run("half pallets", func(t *testing.T) {
		tr := testTrailer(constraints.DryVan)
		tr.Positions = 0
		var ps []Pallet
		lay := &Layout{Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 25}}}
		// 1016 × 610 mm half pallets turned (610 mm along), two to a
		// row: 26 rows fill 15,860 mm, 52 positions.
		for i := range 52 {
			p := Pallet{ID: fmt.Sprint("h", i), Store: "S", LengthMM: 1016, WidthMM: 610, HeightMM: 1000, WeightKg: 200, VolumeM3: 0.5}
			ps = append(ps, p)
			lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: i / 2, Side: Side(i % 2), Turned: true, XMM: (i / 2) * 610})
		}
		rfCheck(t, tr, ps, 1, lay)
		small := testTrailer(constraints.DryVan) // 30 positions
		if got := FleetLowerBound([]FleetTrailer{{Trailer: small, Count: 3}, {Trailer: tr, Count: 1}}, ps); got > 1 {
			t.Fatalf("bound %d for 52 half pallets that one trailer without a position limit takes", got)
		}
	})
	t.Run("three classes", func(t *testing.T) {
		tr := testTrailer(constraints.MultiTempReefer)
		var ps []Pallet
		lay := &Layout{}
		classes := []constraints.Temperature{constraints.Frozen, constraints.Chilled, constraints.Ambient}
		for z, c := range classes {
			lay.Zones = append(lay.Zones, Zone{Temperature: c, FirstRow: 2 * z, LastRow: 2*z + 1})
			for i := range 4 {
				p := Pallet{ID: fmt.Sprint(c, i), Store: "S", LengthMM: 1219, WidthMM: 1016, HeightMM: 1000, WeightKg: 300, VolumeM3: 1, Temperature: c}
				ps = append(ps, p)
				row := 2*z + i/2
				lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: row, Side: Side(i % 2), Zone: z, XMM: row * 1219})
			}
		}
		rfCheck(t, tr, ps, 1, lay)
		reefer := testTrailer(constraints.Reefer)
		if got := FleetLowerBound([]FleetTrailer{{Trailer: reefer, Count: 5}, {Trailer: tr, Count: 1}}, ps); got > 1 {
			t.Fatalf("bound %d for three classes one 3-zone reefer carries", got)
		}
	})
	t.Run("center", func(t *testing.T) {
		tr := testTrailer(constraints.DryVan)
		tr.Positions = 30
		var ps []Pallet
		lay := &Layout{Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 9}}}
		// Ten 1,400 mm wide pallets alone in their rows: 20 positions.
		for i := range 10 {
			p := Pallet{ID: fmt.Sprint("w", i), Store: "S", LengthMM: 1500, WidthMM: 1400, HeightMM: 1000, WeightKg: 500, VolumeM3: 1}
			ps = append(ps, p)
			lay.Placements = append(lay.Placements, Placement{Pallet: p.ID, Row: i, Side: Center, XMM: i * 1500})
		}
		rfCheck(t, tr, ps, 1, lay)
		if got := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 2}}, ps); got != 1 {
			t.Fatalf("bound %d, want 1", got)
		}
	})
}

// TestReviewFleetBoundBelowLegalPackings: PlanTrailer's layouts of random
// pallet sets on random trailers, each accepted by Validate, form a legal
// packing of k trailers; FleetLowerBound of their pallets against a fleet
// of exactly those trailers (and against one with spare types) is at most
// k.
func TestReviewFleetBoundBelowLegalPackings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kinds := drawFleet(t)
		var all []Pallet
		used := make([]int, len(kinds))
		k := 0
		for j := range rapid.IntRange(1, 6).Draw(t, "trailers") {
			kind := rapid.IntRange(0, len(kinds)-1).Draw(t, "kind")
			tr := kinds[kind].Trailer
			stops := rapid.IntRange(1, 4).Draw(t, "stops")
			ps := drawPallets(t, 40, stops)
			var on []Pallet
			for i, p := range ps {
				p.ID = fmt.Sprint("t", j, "p", i)
				fmt.Sscanf(p.Store, "S%d", &p.Stop)
				if tr.Equipment.Kind == constraints.DryVan {
					p.Temperature = constraints.Ambient
				}
				if tr.Equipment.Kind == constraints.Reefer {
					p.Temperature = constraints.Chilled
				}
				on = append(on, p)
			}
			// Halve the set until it lays out, so most draws give a load.
			lay, err := PlanTrailer(tr, on, stops)
			for err != nil && len(on) > 1 {
				on = on[:len(on)/2]
				lay, err = PlanTrailer(tr, on, stops)
			}
			if err != nil || len(on) == 0 {
				continue
			}
			if vs := Validate(tr, on, stops, lay); len(vs) > 0 {
				t.Fatalf("PlanTrailer's layout fails Validate: %v", vs)
			}
			all = append(all, on...)
			used[kind]++
			k++
		}
		exact := make([]FleetTrailer, len(kinds))
		spare := make([]FleetTrailer, len(kinds))
		for i := range kinds {
			exact[i] = FleetTrailer{Trailer: kinds[i].Trailer, Count: used[i]}
			spare[i] = FleetTrailer{Trailer: kinds[i].Trailer, Count: used[i] + rapid.IntRange(0, 3).Draw(t, "spare")}
		}
		for _, fleet := range [][]FleetTrailer{exact, spare} {
			if b := FleetLowerBound(fleet, all); b > k {
				t.Fatalf("bound %d over a legal packing of %d trailers (used %v)", b, k, used)
			}
		}
	})
}

// TestReviewFleetBoundIgnoresUncarriedClasses: pallets of a class no free
// type carries count in no bound, not even in the bound over all pallets
// against all types (as they once did).
func TestReviewFleetBoundIgnoresUncarriedClasses(t *testing.T) {
	dry := testTrailer(constraints.DryVan)
	ps := []Pallet{storePallet("a", "A", 100, constraints.Ambient)}
	for i := range 40 {
		ps = append(ps, storePallet(fmt.Sprint("f", i), "A", 100, constraints.Frozen))
	}
	if got := FleetLowerBound([]FleetTrailer{{Trailer: dry, Count: 5}}, ps); got != 1 {
		t.Fatalf("FleetLowerBound counts 40 frozen pallets no dry van carries: bound %d, want 1", got)
	}
}

// TestReviewFleetEdgeInputs: no trailer, no free trailer, no pallet, one
// pallet, nothing placeable, a store whose pallets are not contiguous and
// a store with no name: no panic, every load legal, Optimal as defined.
func TestReviewFleetEdgeInputs(t *testing.T) {
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

// TestReviewFleetBudgetIgnoresTimeLimit: with MaxLayouts the plan is the
// same whatever the time limit (as long as it does not end the call) and
// from run to run.
func TestReviewFleetBudgetIgnoresTimeLimit(t *testing.T) {
	fleet := scarceFleet()
	ps := mixedPallets(200, 25, 11)
	sig := func(limit time.Duration) string {
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: limit, MaxLayouts: 500, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		s := fmt.Sprint(plan.LowerBound, plan.Optimal, len(plan.Unplaced))
		for _, l := range plan.Loads {
			s += fmt.Sprint(l.Trailer, l.Stores)
			for _, p := range l.Pallets {
				s += p.ID + " "
			}
		}
		return s
	}
	a := sig(time.Minute)
	if b := sig(10 * time.Minute); a != b {
		t.Fatal("same budget, other time limit: other plan")
	}
	if b := sig(time.Minute); a != b {
		t.Fatal("same budget: two runs differ")
	}
}

// TestReviewFleetOptimalOnlyWhenProven: a fleet too small for the freight
// leaves pallets without room; the plan must not claim optimality even
// where its loads meet the bound of what it packed.
func TestReviewFleetOptimalOnlyWhenProven(t *testing.T) {
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

// TestReviewFleetCancelledIsNotOptimal: pallets left because ctx ended
// before they were packed mean the plan proves nothing; with nothing
// packed, zero loads meet the bound of zero all the same.
func TestReviewFleetCancelledIsNotOptimal(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 3}}
	var ps []Pallet
	for i := range 20 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), "S", 100, constraints.Ambient))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan, err := PackFleet(ctx, fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if plan.Optimal || len(plan.Unplaced) != len(ps) {
		t.Fatalf("cancelled before packing: %d unplaced, optimal %v; want %d, false", len(plan.Unplaced), plan.Optimal, len(ps))
	}
}

// TestReviewFleetReportedBound: FleetPlan.LowerBound is FleetLowerBound of
// the pallets in Loads, recomputed here from the plan alone.
func TestReviewFleetReportedBound(t *testing.T) {
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

// TestReviewFleetBudgetBinds: MaxLayouts bounds the search. On this
// instance first-fit needs 14 trailers and the search finds 13 within a
// few hundred layouts; five layouts are not enough to move, so a budget
// that is ignored shows as 13.
func TestReviewFleetBudgetBinds(t *testing.T) {
	fleet, ps := mixedFleet(), mixedPallets(400, 48, 2)
	ff, _ := firstFitCount(fleet, ps)
	small, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, MaxLayouts: 5})
	if err != nil {
		t.Fatal(err)
	}
	large, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, MaxLayouts: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, small)
	if len(small.Loads) != ff || len(large.Loads) >= ff {
		t.Fatalf("first-fit %d; budget 5: %d trailers, budget 100,000: %d; want %d and fewer", ff, len(small.Loads), len(large.Loads), ff)
	}
}

// TestReviewFleetKeepsTheBetterStart: PackFleet returns the best of its
// two packings after improvement, so it is never worse (pallets without
// room, then trailers) than either start before it.
func TestReviewFleetKeepsTheBetterStart(t *testing.T) {
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

// rfCountdown is a context that ends after its Err has said nil n times,
// so a test can end it at an exact point of PackFleet without a clock.
type rfCountdown struct {
	context.Context
	n int
}

func (c *rfCountdown) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestReviewFleetStopsAfterFirstPacking: a deadline already past when the
// first packing completes, or a context that ends right then, stops the
// search there: the plan is first-fit's 14 trailers where the search would
// find 13. Neither needs a clock: the deadline is a nanosecond, and the
// context ends after as many checks as first-fit makes.
func TestReviewFleetStopsAfterFirstPacking(t *testing.T) {
	fleet, ps := mixedFleet(), mixedPallets(400, 48, 2)
	counter := &rfCountdown{Context: context.Background(), n: 1 << 30}
	f := newFleetPacker(counter, fleet, ps, farFuture)
	a, _ := f.firstFit(f.storeOrder(f.screen(&FleetPlan{})))
	checks := 1<<30 - counter.n
	for name, run := range map[string]func() (*FleetPlan, error){
		"time limit": func() (*FleetPlan, error) {
			return PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Nanosecond})
		},
		"context": func() (*FleetPlan, error) {
			return PackFleet(&rfCountdown{Context: context.Background(), n: checks}, fleet, ps, FleetOptions{TimeLimit: time.Minute})
		},
	} {
		plan, err := run()
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		if len(plan.Loads) != len(a.loads) || len(plan.Unplaced) != 0 {
			t.Errorf("%s: %d trailers, %d unplaced; want first-fit's %d and none", name, len(plan.Loads), len(plan.Unplaced), len(a.loads))
		}
	}
}

// TestReviewFleetFullPayload: loads exactly at the payload are legal, and
// the cheap checks must not turn them away: 40 pallets of 500 kg on
// 30-position 10,000 kg trailers take exactly two, both full.
func TestReviewFleetFullPayload(t *testing.T) {
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

// TestReviewFleetBoundHugeCount: a fleet count near math.MaxInt (valid:
// PackFleet rejects only negative counts) once overflowed the
// multi-temperature allowance Count × (Zones−1) in the class sum: three
// pallets, one of each class, that one 3-zone reefer carries got a bound
// of 5, and PackFleet's one-trailer plan reported it.
func TestReviewFleetBoundHugeCount(t *testing.T) {
	multi := testTrailer(constraints.MultiTempReefer)
	ps := []Pallet{storePallet("a", "S", 100, constraints.Ambient), storePallet("c", "S", 100, constraints.Chilled), storePallet("f", "S", 100, constraints.Frozen)}
	fleet := []FleetTrailer{{Trailer: multi, Count: math.MaxInt}}
	if got := FleetLowerBound(fleet, ps); got > 1 {
		t.Fatalf("FleetLowerBound with Count math.MaxInt: bound %d where one trailer carries all", got)
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
}

// TestReviewFleetFreeCounts: after each phase the free trailers of each
// type plus its loads make up its count, so no move can give back a
// trailer twice or take one that is not there.
func TestReviewFleetFreeCounts(t *testing.T) {
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
