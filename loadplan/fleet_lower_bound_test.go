package loadplan

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// TestFleetBoundMatchesPayloadTolerance: PlanTrailer and Validate accept
// a load up to PayloadKg·(1+1e-9), while FleetLowerBound rounds the
// capacity to ceil(PayloadKg); from 1e9 kg up that slack exceeds a
// kilogram and the "proven" bound exceeds a packing PlanTrailer finds.
func TestFleetBoundMatchesPayloadTolerance(t *testing.T) {
	tr := Trailer{ID: "big", LengthMM: 60000, WidthMM: 2490, HeightMM: 2700, PayloadKg: 1e11,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 50000, TareKg: 6000, TareCentreMM: 25000,
			KingpinLimitKg: 1e12, AxleGroupLimitKg: 1e12}}
	var ps []Pallet
	for i := range 100 {
		ps = append(ps, sizedPallet(fmt.Sprint("p", i), 0, 1219, 1016, 1000, 1e9, constraints.Ambient))
	}
	ps = append(ps, sizedPallet("small", 0, 1219, 1016, 1000, 50, constraints.Ambient))
	planValid(t, tr, ps, 1) // one trailer carries them all
	if lb := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 2}}, ps); lb > 1 {
		t.Fatalf("FleetLowerBound = %d, but one trailer carries the pallets within PlanTrailer's 1e-9 payload tolerance", lb)
	}
}

// mustValidate fills in the axle states and insists that Validate accepts a
// hand-made layout.
func mustValidate(t *testing.T, tr Trailer, ps []Pallet, stops int, lay *Layout) {
	t.Helper()
	fillAxles(tr, ps, stops, lay)
	if vs := Validate(tr, ps, stops, lay); len(vs) > 0 {
		t.Fatalf("hand-made layout is not legal: %v", vs)
	}
}

// crossStoreStack is one legal trailer load that stacks across stores: 30
// pallets of the second stop fill the 30 positions, and the two pallets
// of the first stop ride on the last row, nearest the door, so they come
// off first and nothing for the later stop stands between them and the
// door. Validate allows it; PlanTrailer stacks at most two pairs across
// one boundary between stops.
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
	mustValidate(t, tr, ps, 2, lay)
	return tr, ps
}

// TestFleetBoundCrossStoreStacking: FleetLowerBound counts stacked
// pairs per class, not per store, so a legal cross-store stack in one
// trailer is not ruled out.
func TestFleetBoundCrossStoreStacking(t *testing.T) {
	tr, ps := crossStoreStack(t)
	if got := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 3}}, ps); got > 1 {
		t.Fatalf("bound %d, but Validate accepts all %d pallets on one trailer", got, len(ps))
	}
}

// TestFleetBoundLegalLayouts: hand-made legal layouts the bound must
// not rule out: CENTER pallets (two positions each), half pallets four to
// a row, three classes in one multi-temperature reefer, and a trailer
// whose Positions is 0 beside one that states 30.
func TestFleetBoundLegalLayouts(t *testing.T) {
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
		mustValidate(t, tr, ps, 1, lay)
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
		mustValidate(t, tr, ps, 1, lay)
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
		mustValidate(t, tr, ps, 1, lay)
		if got := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 2}}, ps); got != 1 {
			t.Fatalf("bound %d, want 1", got)
		}
	})
}

// TestFleetBoundBelowLegalPackings: PlanTrailer's layouts of random
// pallet sets on random trailers, each accepted by Validate, form a legal
// packing of k trailers; FleetLowerBound of their pallets against a fleet
// of exactly those trailers (and against one with spare types) is at most
// k.
func TestFleetBoundBelowLegalPackings(t *testing.T) {
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

// TestFleetBoundIgnoresUncarriedClasses: pallets of a class no free
// type carries count in no bound, not even in the bound over all pallets
// against all types (as they once did).
func TestFleetBoundIgnoresUncarriedClasses(t *testing.T) {
	dry := testTrailer(constraints.DryVan)
	ps := []Pallet{storePallet("a", "A", 100, constraints.Ambient)}
	for i := range 40 {
		ps = append(ps, storePallet(fmt.Sprint("f", i), "A", 100, constraints.Frozen))
	}
	if got := FleetLowerBound([]FleetTrailer{{Trailer: dry, Count: 5}}, ps); got != 1 {
		t.Fatalf("FleetLowerBound counts 40 frozen pallets no dry van carries: bound %d, want 1", got)
	}
}

// TestFleetBoundHugeCount: a fleet count near math.MaxInt (valid:
// PackFleet rejects only negative counts) once overflowed the
// multi-temperature allowance Count × (Zones−1) in the class sum: three
// pallets, one of each class, that one 3-zone reefer carries got a bound
// of 5, and PackFleet's one-trailer plan reported it.
func TestFleetBoundHugeCount(t *testing.T) {
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

// TestFleetLowerBound checks the bound on cases worked out by hand.
func TestFleetLowerBound(t *testing.T) {
	dry, reefer, multi := testTrailer(constraints.DryVan), testTrailer(constraints.Reefer), testTrailer(constraints.MultiTempReefer)
	multi.Equipment.MaxZones = 3
	small := dry
	small.Positions = 10
	many := func(n int, temp constraints.Temperature, kg float64) []Pallet {
		var ps []Pallet
		for i := range n {
			ps = append(ps, std(fmt.Sprint("p", i), 0, kg, temp))
		}
		return ps
	}
	cases := []struct {
		name    string
		fleet   []FleetTrailer
		pallets []Pallet
		want    int
	}{
		{"none", []FleetTrailer{{dry, 3}}, nil, 0},
		// 31 pallets on 30 positions.
		{"positions", []FleetTrailer{{dry, 3}}, many(31, constraints.Ambient, 100), 2},
		// 21 pallets of 1,000 kg against 20,000 kg of payload.
		{"weight", []FleetTrailer{{dry, 3}}, many(21, constraints.Ambient, 1000), 2},
		// Stackable pallets may ride on others: no floor, no position.
		{"stacked", []FleetTrailer{{dry, 3}}, func() []Pallet {
			ps := many(40, constraints.Ambient, 100)
			for i := range ps {
				ps[i].MayBeStacked, ps[i].MayCarry = true, true
			}
			return ps
		}(), 1},
		// Pallets that may be stacked but none that may carry: all 40 stand
		// on the floor.
		{"nothing carries", []FleetTrailer{{dry, 3}}, func() []Pallet {
			ps := many(40, constraints.Ambient, 100)
			for i := range ps {
				ps[i].MayBeStacked = true
			}
			return ps
		}(), 2},
		// One 30-position trailer and five of 10: 45 pallets need three
		// (30 + 10 + 10), where dividing by the largest says two.
		{"count", []FleetTrailer{{dry, 1}, {small, 5}}, many(45, constraints.Ambient, 10), 3},
		// 20 ambient and 10 frozen pallets fill one trailer by size, but
		// no type here carries both classes on one trip: 2.
		{"class", []FleetTrailer{{dry, 3}, {reefer, 1}}, append(many(20, constraints.Ambient, 100), many(10, constraints.Frozen, 100)...), 2},
		// A multi-temperature reefer may carry both: 1.
		{"class with multi-temp", []FleetTrailer{{dry, 3}, {multi, 1}}, append(many(20, constraints.Ambient, 100), many(10, constraints.Frozen, 100)...), 1},
		// 40 chilled pallets need two trailers by floor, 21 frozen ones of
		// 1,000 kg two by weight (20,000 kg payload): four single-class trips.
		{"class sum", []FleetTrailer{{reefer, 4}}, append(many(40, constraints.Chilled, 100), many(21, constraints.Frozen, 1000)...), 4},
		// With one 3-zone reefer among them, one trip may carry both: 3.
		{"class sum with multi-temp", []FleetTrailer{{reefer, 4}, {multi, 1}}, append(many(40, constraints.Chilled, 100), many(21, constraints.Frozen, 1000)...), 3},
		// 31 frozen pallets: only the reefer carries them.
		{"class positions", []FleetTrailer{{dry, 3}, {reefer, 1}}, many(31, constraints.Frozen, 100), 2},
		// A type with no trailer left does not count.
		{"no free type", []FleetTrailer{{reefer, 0}}, many(5, constraints.Frozen, 100), 0},
	}
	for _, c := range cases {
		if got := FleetLowerBound(c.fleet, c.pallets); got != c.want {
			t.Errorf("%s: bound %d, want %d", c.name, got, c.want)
		}
	}
}

// TestFleetBoundTopsNeedCarryingBottoms: a top stands on a pallet that may
// carry, and the two are distinct pallets of those that may stack at all:
// four pallets that may both carry and be stacked make two stacks, not
// four, so 4 + 29 pallets need 31 floor positions and two 30-position
// trailers.
func TestFleetBoundTopsNeedCarryingBottoms(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	if tr.Positions != 30 {
		t.Fatalf("test trailer has %d positions, the test assumes 30", tr.Positions)
	}
	var ps []Pallet
	for i := range 4 {
		p := std(fmt.Sprint("s", i), 0, 300, constraints.Ambient)
		p.HeightMM, p.MayCarry, p.MayBeStacked = 1000, true, true
		ps = append(ps, p)
	}
	for i := range 29 {
		ps = append(ps, std(fmt.Sprint("p", i), 0, 300, constraints.Ambient))
	}
	if got := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 3}}, ps); got != 2 {
		t.Fatalf("FleetLowerBound = %d, want 2: at most two of the four stackable pallets ride on the other two", got)
	}
	planValid(t, tr, ps[:4+26], 1) // the bound's count is met: 2 stacks, 28 positions
}
