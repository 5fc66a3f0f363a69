package loadplan

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// heavyLight: ten stores of six 1,000 kg pallets alternate with ten stores
// of twelve 100 kg pallets, on 30-position trailers with 20,000 kg of
// payload. 180 pallets need 6 trailers by positions, and 6 do: ten heavy
// and twenty light pallets each (12,000 kg). First-fit in store order fills
// three trailers with twenty heavy pallets each (their payload used up,
// ten positions left empty that no pallet can use) and needs four more for
// the light ones: 7. First-fit followed by emptying trailers also needs 7,
// as no trailer can be emptied into payload-full ones.
func heavyLight() []Pallet {
	var ps []Pallet
	for s := range 20 {
		if s%2 == 0 {
			for j := range 6 {
				ps = append(ps, storePallet(fmt.Sprint("h", s, "-", j), fmt.Sprint("S", s), 1000, constraints.Ambient))
			}
		} else {
			for j := range 12 {
				ps = append(ps, storePallet(fmt.Sprint("l", s, "-", j), fmt.Sprint("S", s), 100, constraints.Ambient))
			}
		}
	}
	return ps
}

func TestPackFleetBeatsFirstFit(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 10}}
	ps := heavyLight()
	if ff, _ := firstFitCount(fleet, ps); ff != 7 {
		t.Fatalf("first-fit uses %d trailers; the instance is meant to need 7 there", ff)
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if len(plan.Loads) != 6 || plan.LowerBound != 6 || !plan.Optimal {
		t.Fatalf("%d trailers, bound %d, optimal %v; want 6 proven", len(plan.Loads), plan.LowerBound, plan.Optimal)
	}
}

// TestPackFleetMixedMeetsBound: the benchmark's mixed fleet and freight
// (400 pallets, 48 stores, three classes, half pallets, stacking). The
// bound is 13 and the plan meets it; store-order first-fit alone needs 14
// on this instance (seed 1).
func TestPackFleetMixedMeetsBound(t *testing.T) {
	fleet := mixedFleet()
	ps := mixedPallets(400, 48, 1)
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if len(plan.Unplaced) != 0 || len(plan.Loads) != 13 || plan.LowerBound != 13 || !plan.Optimal {
		t.Fatalf("%d trailers, bound %d, optimal %v, %d unplaced; want 13 proven", len(plan.Loads), plan.LowerBound, plan.Optimal, len(plan.Unplaced))
	}
	if ff, _ := firstFitCount(fleet, ps); ff <= len(plan.Loads) {
		t.Fatalf("first-fit alone uses %d trailers: the instance no longer shows the gain", ff)
	}
}

// TestPackFleetMultiTemp: 20 frozen and 20 chilled pallets, one
// single-temperature reefer and one three-zone reefer. Neither class fits
// one trailer alone with the other, so only a plan that puts part of
// one class with the other in the three-zone reefer uses two trailers.
func TestPackFleetMultiTemp(t *testing.T) {
	reefer, multi := testTrailer(constraints.Reefer), testTrailer(constraints.MultiTempReefer)
	reefer.ID, multi.ID = "R", "M"
	fleet := []FleetTrailer{{Trailer: reefer, Count: 1}, {Trailer: multi, Count: 1}}
	var ps []Pallet
	for i := range 40 {
		c := constraints.Frozen
		if i%2 == 1 {
			c = constraints.Chilled
		}
		ps = append(ps, storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%5), 300, c))
	}
	plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if len(plan.Unplaced) != 0 || len(plan.Loads) != 2 || !plan.Optimal {
		t.Fatalf("%d trailers, %d unplaced %v, optimal %v; want all on two", len(plan.Loads), len(plan.Unplaced), plan.Unplaced, plan.Optimal)
	}
}

// TestPackFleetDeterministic: the same input gives the same plan when the
// time limit does not stop the search.
func TestPackFleetDeterministic(t *testing.T) {
	fleet := mixedFleet()
	ps := mixedPallets(150, 20, 5)
	var first []string
	for run := range 2 {
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range plan.Loads {
			ids := []string{l.Trailer}
			for _, p := range l.Pallets {
				ids = append(ids, p.ID)
			}
			got = append(got, fmt.Sprint(ids))
		}
		if run == 1 && !slices.Equal(got, first) {
			t.Fatalf("two runs differ:\n%v\n%v", first, got)
		}
		first = got
	}
}

// TestPackFleetCancelled: whenever ctx ends, every load returned is legal
// and every pallet is accounted for once.
func TestPackFleetCancelled(t *testing.T) {
	fleet := mixedFleet()
	ps := mixedPallets(300, 40, 9)
	for _, d := range []time.Duration{time.Microsecond, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		plan, err := PackFleet(ctx, fleet, ps, FleetOptions{})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
	}
}

// TestPackFleetCountsShort: one 53 ft trailer and many short ones; the
// bins of the binpack-guided packing, sized for the 53 ft trailer, must be
// cut down to the short ones, and every phase's packing must be legal.
func TestPackFleetCountsShort(t *testing.T) {
	long, short := testTrailer(constraints.DryVan), testTrailer(constraints.DryVan)
	short.ID, short.LengthMM, short.Positions = "T28", 8500, 16
	short.Axles.AxleGroupMM, short.Axles.TareCentreMM = 7000, 4000
	fleet := []FleetTrailer{{Trailer: long, Count: 1}, {Trailer: short, Count: 8}}
	ps := heavyLight()[:100]
	f := newFleetPacker(context.Background(), fleet, ps, farFuture)
	todo := f.screen(&FleetPlan{})
	b, ok := f.binpackFirst(todo, f.end, 1)
	if !ok {
		t.Fatal("binpack-guided packing did not finish")
	}
	plan := &FleetPlan{}
	f.finish(plan, b)
	checkFleetPlan(t, fleet, ps, plan)
	f.improve(b, f.end)
	plan = &FleetPlan{}
	f.finish(plan, b)
	checkFleetPlan(t, fleet, ps, plan)
	if len(plan.Unplaced) != 0 {
		t.Fatalf("%d pallets left although the fleet holds them: %v", len(plan.Unplaced), plan.Unplaced)
	}
}

// drawFleet draws a fleet of one to four types of any equipment, sizes,
// position limits and counts, at least one trailer in all.
func drawFleet(t *rapid.T) []FleetTrailer {
	var fleet []FleetTrailer
	for k := range rapid.IntRange(1, 4).Draw(t, "types") {
		kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
		tr := testTrailer(kind)
		tr.ID = fmt.Sprint("T", k)
		if kind == constraints.MultiTempReefer {
			tr.Equipment.MaxZones = rapid.IntRange(2, 3).Draw(t, "zones")
		}
		tr.LengthMM = rapid.IntRange(6000, 16000).Draw(t, "length")
		tr.WidthMM = rapid.OneOf(rapid.IntRange(2000, 2600), rapid.IntRange(2235, 2437)).Draw(t, "width")
		tr.Positions = rapid.IntRange(0, 30).Draw(t, "positions")
		tr.PayloadKg = rapid.Float64Range(2000, 20000).Draw(t, "payload")
		tr.Axles.AxleGroupMM = float64(tr.LengthMM) - 1500
		tr.Axles.TareCentreMM = float64(tr.LengthMM) / 2
		fleet = append(fleet, FleetTrailer{Trailer: tr, Count: rapid.IntRange(0, 4).Draw(t, "count")})
	}
	fleet[0].Count = max(fleet[0].Count, 1)
	return fleet
}

// drawPallets draws up to n pallets of the given number of stores.
func drawPallets(t *rapid.T, n, stores int) []Pallet {
	var ps []Pallet
	for i := range rapid.IntRange(0, n).Draw(t, "n") {
		p := storePallet(fmt.Sprint("p", i), fmt.Sprint("S", rapid.IntRange(0, stores-1).Draw(t, "store")),
			rapid.Float64Range(0, 1000).Draw(t, "kg"), constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp")))
		switch rapid.IntRange(0, 3).Draw(t, "footprint") {
		case 0:
			p.WidthMM = 508 // half pallet
		case 2:
			p.LengthMM, p.WidthMM = 610, 508 // quarter pallet
		case 1:
			p.WidthMM = rapid.IntRange(500, 1300).Draw(t, "w")
			p.LengthMM = rapid.IntRange(p.WidthMM, 1400).Draw(t, "l")
		}
		p.HeightMM = rapid.IntRange(200, 1400).Draw(t, "h")
		p.VolumeM3 = rapid.Float64Range(0, 2).Draw(t, "m3")
		p.MayBeStacked, p.MayCarry = rapid.Bool().Draw(t, "mayBeStacked"), rapid.Bool().Draw(t, "mayCarry")
		ps = append(ps, p)
	}
	return ps
}

// TestPackFleetPhasesProperty checks every phase's packing on its own, not
// only the one PackFleet keeps: first-fit, the binpack-guided packing and
// each after the improvement phase are legal, account for every pallet,
// and never beat the bounds (FleetLowerBound, and countBound where the
// search stops).
func TestPackFleetPhasesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fleet := drawFleet(t)
		ps := drawPallets(t, 60, rapid.IntRange(1, 8).Draw(t, "stores"))
		f := newFleetPacker(context.Background(), fleet, ps, farFuture)
		screened := &FleetPlan{}
		todo := f.screen(screened)
		a, done := f.firstFit(f.storeOrder(todo))
		if done != len(todo) {
			t.Fatalf("first-fit stopped at %d of %d without a cancelled context", done, len(todo))
		}
		b, ok := f.binpackFirst(todo, f.end, 1)
		if !ok {
			t.Fatal("binpack-guided packing stopped without a cancelled context or deadline")
		}
		check := func(name string, s *packing) {
			plan := &FleetPlan{Unplaced: slices.Clone(screened.Unplaced)}
			f.finish(plan, s)
			checkFleetPlan(t, fleet, ps, plan)
			if len(s.loads) < f.lowerBound(s) || len(s.loads) < f.countBound(s) {
				t.Fatalf("%s: %d loads under the bounds %d, %d", name, len(s.loads), f.lowerBound(s), f.countBound(s))
			}
		}
		check("first-fit", a)
		check("binpack", b)
		nb := len(b.loads) + len(b.noRoom)
		f.improve(a, f.end)
		f.improve(b, f.end)
		check("first-fit improved", a)
		check("binpack improved", b)
		if len(b.loads) > nb {
			t.Fatalf("improvement went from %d to %d loads", nb, len(b.loads))
		}
	})
}

// weightTight cuts ten trailers' worth of freight: per trailer 30 standard
// pallets whose weights, drawn at random, add up to 19,500 kg of the
// 20,000 kg payload; the 300 pallets go to 25 stores and are shuffled.
// Ten trailers hold them, each exactly full in positions and nearly in
// payload.
func weightTight(seed uint64) []Pallet {
	rng := rand.New(rand.NewPCG(seed, 3))
	var ps []Pallet
	for k := range 10 {
		ws := make([]float64, 30)
		sum := 0.0
		for j := range ws {
			ws[j] = 0.2 + rng.Float64()*rng.Float64()*3
			sum += ws[j]
		}
		for j := range ws {
			p := std(fmt.Sprint("k", k, "-", j), 0, math.Floor(ws[j]/sum*19500), constraints.Ambient)
			p.Store = fmt.Sprint("S", rng.IntN(25))
			ps = append(ps, p)
		}
	}
	rng.Shuffle(len(ps), func(a, b int) { ps[a], ps[b] = ps[b], ps[a] })
	return ps
}

// TestPackFleetWeightTight: on weightTight freight, first-fit and
// first-fit followed by emptying use 11 trailers; spreading the pallets over
// ten, and where a bin does not lay out, emptying a trailer by swapping
// pallets between the others, finds the ten the bound asks for.
func TestPackFleetWeightTight(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 14}}
	for _, seed := range []uint64{1, 4} {
		ps := weightTight(seed)
		if ff, _ := firstFitCount(fleet, ps); ff != 11 {
			t.Fatalf("seed %d: first-fit uses %d trailers; the instance is meant to need 11 there", seed, ff)
		}
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		if len(plan.Loads) != 10 || plan.LowerBound != 10 || !plan.Optimal {
			t.Fatalf("seed %d: %d trailers, bound %d, optimal %v; want 10 proven", seed, len(plan.Loads), plan.LowerBound, plan.Optimal)
		}
	}
}

// TestPackFleetLayoutBudget: with a layout budget that ends the search
// long before the time limit, two runs give the same plan, and the phases
// stop close to the budget.
func TestPackFleetLayoutBudget(t *testing.T) {
	fleet := mixedFleet()
	ps := mixedPallets(250, 30, 7)
	plans := func(budget int) []string {
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, MaxLayouts: budget})
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		var out []string
		for _, l := range plan.Loads {
			ids := []string{l.Trailer}
			for _, p := range l.Pallets {
				ids = append(ids, p.ID)
			}
			out = append(out, fmt.Sprint(ids))
		}
		return out
	}
	for _, budget := range []int{1, 60, 400, math.MaxInt} {
		if a, b := plans(budget), plans(budget); !slices.Equal(a, b) {
			t.Fatalf("budget %d: two runs differ:\n%v\n%v", budget, a, b)
		}
	}

	f := newFleetPacker(context.Background(), fleet, ps, farFuture)
	a, _ := f.firstFit(f.storeOrder(f.screen(&FleetPlan{})))
	start := f.calls
	f.improve(a, limit{at: farFuture, layouts: start + 20})
	// A phase checks the budget before each move; a move lays out at most
	// a few loads per trailer. 20 layouts are far from the end of the
	// search here (it takes about 90).
	if over := f.calls - start - 20; over > 4*len(a.loads) {
		t.Fatalf("improve made %d layouts on a budget of 20", f.calls-start)
	}
}
