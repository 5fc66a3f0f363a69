package loadplan

import (
	"fmt"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// testTrailer is a 53 ft trailer of the given kind; a multi-temperature
// reefer has a curbside door for its nose compartment (noseCurbDoor).
func testTrailer(kind constraints.EquipmentKind) Trailer {
	tr := Trailer{
		ID: "T53", LengthMM: 16000, WidthMM: 2490, HeightMM: 2700, Positions: 30, PayloadKg: 20000,
		Equipment: constraints.Equipment{Kind: kind},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 13000, TareKg: 6000, TareCentreMM: 7000,
			KingpinLimitKg: 12000, AxleGroupLimitKg: 15422},
	}
	if kind == constraints.MultiTempReefer {
		tr.Doors = noseCurbDoor
	}
	return tr
}

// cloneLayout copies a layout deeply enough for a test to break the copy.
func cloneLayout(l *Layout) *Layout {
	c := *l
	c.Placements = append([]Placement(nil), l.Placements...)
	c.Zones = append([]Zone(nil), l.Zones...)
	c.Axles = append([]AxleLoad(nil), l.Axles...)
	return &c
}

// placementOf returns the index of pallet id's placement in l.
func placementOf(t testing.TB, l *Layout, id string) int {
	t.Helper()
	for i, p := range l.Placements {
		if p.Pallet == id {
			return i
		}
	}
	t.Fatalf("no placement for %s", id)
	return -1
}

func std(id string, stop int, kg float64, t constraints.Temperature) Pallet {
	return Pallet{ID: id, Stop: stop, LengthMM: 1219, WidthMM: 1016, HeightMM: 1500, WeightKg: kg, VolumeM3: 1.5, Temperature: t}
}

// TestAxleLoadsWorkedExample checks the lever rule against numbers worked
// out by hand: two 500 kg pallets side by side, turned, against the nose
// (centre 508 mm from the nose); kingpin at 900 mm, axle group at 13,000 mm,
// 6,000 kg tare centred at 7,000 mm.
//
//	moment about the kingpin = 6000·(7000−900) + 1000·(508−900) = 36,208,000 kg·mm
//	axle group = 36,208,000 / 12,100 = 2,992.397 kg; kingpin = 7,000 − 2,992.397 = 4,007.603 kg
//	after the stop, tare alone: axle = 36,600,000 / 12,100 = 3,024.793 kg; kingpin = 2,975.207 kg
func TestAxleLoadsWorkedExample(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	lay, err := PlanTrailer(tr, []Pallet{std("a", 0, 500, constraints.Ambient), std("b", 0, 500, constraints.Ambient)}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Rows != 1 || !lay.Placements[0].Turned || lay.Placements[0].XMM != 0 {
		t.Fatalf("want one turned row at the nose, got %+v", lay.Placements)
	}
	want := []AxleLoad{{-1, 4007.603, 2992.397}, {0, 2975.207, 3024.793}}
	for i, w := range want {
		g := lay.Axles[i]
		if g.AfterStop != w.AfterStop || math.Abs(g.KingpinKg-w.KingpinKg) > 0.001 || math.Abs(g.AxleGroupKg-w.AxleGroupKg) > 0.001 {
			t.Errorf("axles[%d] = %+v, want %+v", i, g, w)
		}
	}
	if vs := Validate(tr, []Pallet{std("a", 0, 500, constraints.Ambient), std("b", 0, 500, constraints.Ambient)}, 1, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

func TestFullTrailerHolds30TurnedPallets(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	var ps []Pallet
	for i := range 30 {
		ps = append(ps, std(fmt.Sprint(i), i/10, 600, constraints.Ambient))
	}
	lay, err := PlanTrailer(tr, ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Rows != 15 || lay.LengthMM != 15*1016 {
		t.Fatalf("rows %d length %d, want 15 rows of 1016 mm", lay.Rows, lay.LengthMM)
	}
	if vs := Validate(tr, ps, 3, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
	ps = append(ps, std("extra", 0, 10, constraints.Ambient))
	if _, err := PlanTrailer(tr, ps, 3); !constraints.AsViolations(err).Has(CodePositions) {
		t.Fatalf("31 pallets on 30 positions: want %s, got %v", CodePositions, err)
	}
}

func TestPlanTrailerExplainsWhy(t *testing.T) {
	tests := []struct {
		name    string
		kind    constraints.EquipmentKind
		pallets []Pallet
		code    string
	}{
		{"frozen on a dry van", constraints.DryVan, []Pallet{std("f", 0, 100, constraints.Frozen)}, CodeTemperature},
		{"two classes in a reefer", constraints.Reefer, []Pallet{std("f", 0, 100, constraints.Frozen), std("c", 0, 100, constraints.Chilled)}, CodeTooManyZones},
		{"overweight", constraints.DryVan, []Pallet{std("a", 0, 15000, constraints.Ambient), std("b", 0, 6000, constraints.Ambient)}, CodePayload},
		{"too tall", constraints.DryVan, []Pallet{{ID: "t", LengthMM: 1219, WidthMM: 1016, HeightMM: 2800, WeightKg: 1, Temperature: constraints.Ambient}}, CodeTooTall},
		{"too wide", constraints.DryVan, []Pallet{{ID: "w", LengthMM: 3000, WidthMM: 2600, HeightMM: 100, WeightKg: 1, Temperature: constraints.Ambient}}, CodeTooWide},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlanTrailer(testTrailer(tc.kind), tc.pallets, 1)
			if !constraints.AsViolations(err).Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, err)
			}
		})
	}
}

// TestKingpinOverloadSlidesLoadBack: heavy pallets against the nose
// overload the kingpin; the planner slides the block towards the door.
func TestKingpinOverloadSlidesLoadBack(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.Axles.KingpinLimitKg = 9000
	ps := []Pallet{std("a", 0, 2000, constraints.Ambient), std("b", 0, 2000, constraints.Ambient), std("c", 0, 2000, constraints.Ambient), std("d", 0, 2000, constraints.Ambient)}
	lay, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Placements[0].XMM == 0 {
		t.Fatalf("expected the block slid back from the nose, got x=0")
	}
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

func TestMultiTempZonesColdAtNose(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	ps := []Pallet{std("a", 0, 300, constraints.Ambient), std("f", 1, 300, constraints.Frozen), std("c", 0, 300, constraints.Chilled), std("f2", 0, 300, constraints.Frozen)}
	lay, err := PlanTrailer(tr, ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(lay.Zones) != 3 || lay.Zones[0].Temperature != constraints.Frozen || lay.Zones[2].Temperature != constraints.Ambient {
		t.Fatalf("zones %+v", lay.Zones)
	}
	if vs := Validate(tr, ps, 2, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

func TestValidateCatchesBrokenLayouts(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	ps := []Pallet{std("a", 0, 300, constraints.Chilled), std("b", 1, 300, constraints.Chilled), std("c", 1, 300, constraints.Chilled), std("f", 0, 300, constraints.Frozen)}
	good, err := PlanTrailer(tr, ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	clone := func() *Layout { return cloneLayout(good) }
	find := func(l *Layout, id string) int { return placementOf(t, l, id) }
	tests := []struct {
		name   string
		break_ func(l *Layout)
		code   string
	}{
		{"missing pallet", func(l *Layout) { l.Placements = l.Placements[1:] }, CodeMissing},
		{"overlap", func(l *Layout) {
			i, j := find(l, "a"), find(l, "b")
			l.Placements[i].Row, l.Placements[i].Side, l.Placements[i].XMM = l.Placements[j].Row, l.Placements[j].Side, l.Placements[j].XMM
		}, CodeOverlap},
		{"unloading order", func(l *Layout) {
			// a (stop 0) to the nose-most chilled row, b and c (stop 1) behind it.
			i, j := find(l, "a"), find(l, "b")
			l.Placements[i].Row, l.Placements[j].Row = l.Placements[j].Row, l.Placements[i].Row
			l.Placements[i].XMM, l.Placements[j].XMM = l.Placements[j].XMM, l.Placements[i].XMM
		}, CodeUnloadingOrder},
		{"wrong zone", func(l *Layout) { i := find(l, "f"); l.Placements[i].Zone = 1 }, CodeTemperature},
		{"outside floor", func(l *Layout) { l.Placements[0].XMM = 15500 }, CodeOutsideFloor},
		{"lying about axles", func(l *Layout) { l.Axles[0].KingpinKg += 100 }, CodeAxleReport},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := clone()
			tc.break_(l)
			if vs := Validate(tr, ps, 2, l); !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestPlanTrailerProperty: whatever the pallets, PlanTrailer either returns
// a layout that the independent Validate accepts, or says why it cannot.
func TestPlanTrailerProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
		tr := testTrailer(kind)
		// 2,235–2,437 mm is where 48×40 pallets pinwheel.
		tr.WidthMM = rapid.OneOf(rapid.IntRange(2000, 2600), rapid.IntRange(2235, 2437)).Draw(t, "width")
		tr.Positions = rapid.IntRange(0, 30).Draw(t, "positions")
		tr.Axles.KingpinLimitKg = rapid.Float64Range(5000, 15000).Draw(t, "kingpinLimit")
		tr.Doors = drawDoors(t, tr.LengthMM)
		stops := rapid.IntRange(1, 6).Draw(t, "stops")
		n := rapid.IntRange(0, 34).Draw(t, "n")
		anyTemp := rapid.IntRange(0, 9).Draw(t, "anyTemp") == 0
		var ps []Pallet
		for i := range n {
			w, l := 1016, 1219
			switch rapid.IntRange(0, 3).Draw(t, "footprint") {
			case 1:
				w = rapid.IntRange(500, 1300).Draw(t, "w")
				l = rapid.IntRange(w, 1400).Draw(t, "l")
			case 2:
				w = 508 // half pallet
			case 3:
				l, w = 610, 508 // quarter pallet
			}
			ps = append(ps, Pallet{
				ID: fmt.Sprint("p", i), Stop: rapid.IntRange(0, stops-1).Draw(t, "stop"),
				LengthMM: l, WidthMM: w, HeightMM: rapid.OneOf(rapid.IntRange(200, 1350), rapid.IntRange(200, 2700)).Draw(t, "h"),
				WeightKg: rapid.Float64Range(0, 1200).Draw(t, "kg"), VolumeM3: rapid.Float64Range(0, 2).Draw(t, "m3"),
				Temperature:  temp(t, kind, anyTemp),
				MayBeStacked: rapid.Bool().Draw(t, "mayBeStacked"),
				MayCarry:     rapid.Bool().Draw(t, "mayCarry"),
			})
		}
		lay, err := PlanTrailer(tr, ps, stops)
		if err != nil {
			vs := constraints.AsViolations(err)
			if len(vs) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
			for _, v := range vs {
				if !knownCodes[v.Code] || v.Message == "" {
					t.Fatalf("violation %v does not say why in a known code", v)
				}
			}
			return
		}
		if vs := Validate(tr, ps, stops, lay); len(vs) > 0 {
			t.Fatalf("layout fails the check: %v", vs)
		}
	})
}

// narrowTrailer is 2,400 mm wide inside: two 48×40 pallets turned (2 ×
// 1,219 mm) do not fit side by side, one turned beside one straight
// (1,219 + 1,016 mm) does, so pinwheel blocks gain floor.
func narrowTrailer() Trailer {
	tr := testTrailer(constraints.DryVan)
	tr.WidthMM, tr.Positions = 2400, 30
	return tr
}

// TestPinwheelWorkedExample: four 500 kg 48×40 pallets on a 2,400 mm
// floor take one pinwheel block 1,219 + 1,016 = 2,235 mm long instead of
// two straight rows (2 × 1,219 = 2,438 mm). LEFT: a straight at 0 (centre
// 609.5), c turned at 1,219 (centre 1,727); RIGHT: b turned at 0 (centre
// 508), d straight at 1,016 (centre 1,625.5). Same trailer as the first
// worked example:
//
//	Σ (x − 900) = −290.5 + 827 − 392 + 725.5 = 870 mm, × 500 kg = 435,000 kg·mm
//	axle = (36,600,000 + 435,000) / 12,100 = 3,060.744 kg; kingpin = 8,000 − 3,060.744 = 4,939.256 kg
//	after the stop, tare alone: axle 3,024.793 kg, kingpin 2,975.207 kg
func TestPinwheelWorkedExample(t *testing.T) {
	tr := narrowTrailer()
	ps := []Pallet{std("a", 0, 500, constraints.Ambient), std("b", 0, 500, constraints.Ambient), std("c", 0, 500, constraints.Ambient), std("d", 0, 500, constraints.Ambient)}
	lay, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Placement{
		{Pallet: "a", Row: 0, Side: Left, Turned: false, XMM: 0},
		{Pallet: "b", Row: 0, Side: Right, Turned: true, XMM: 0},
		{Pallet: "c", Row: 1, Side: Left, Turned: true, XMM: 1219},
		{Pallet: "d", Row: 1, Side: Right, Turned: false, XMM: 1016},
	}
	if fmt.Sprint(lay.Placements) != fmt.Sprint(want) || lay.LengthMM != 2235 || lay.Rows != 2 {
		t.Fatalf("placements %+v length %d rows %d, want %+v in 2235 mm and 2 rows", lay.Placements, lay.LengthMM, lay.Rows, want)
	}
	wantAxles := []AxleLoad{{-1, 4939.256, 3060.744}, {0, 2975.207, 3024.793}}
	for i, w := range wantAxles {
		g := lay.Axles[i]
		if g.AfterStop != w.AfterStop || math.Abs(g.KingpinKg-w.KingpinKg) > 0.001 || math.Abs(g.AxleGroupKg-w.AxleGroupKg) > 0.001 {
			t.Errorf("axles[%d] = %+v, want %+v", i, g, w)
		}
	}
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

// TestPinwheelGainsPositions: 16,000 mm of a 2,400 mm floor hold 26
// pallets in straight rows, 28 pinwheeled; a 29th does not fit.
func TestPinwheelGainsPositions(t *testing.T) {
	tr := narrowTrailer()
	var ps []Pallet
	for i := range 28 {
		ps = append(ps, std(fmt.Sprint(i), i/7, 500, constraints.Ambient))
	}
	lay, err := PlanTrailer(tr, ps, 4)
	if err != nil {
		t.Fatal(err)
	}
	if lay.LengthMM != 7*2235 {
		t.Fatalf("length %d, want 7 pinwheel blocks of 2235 mm", lay.LengthMM)
	}
	if vs := Validate(tr, ps, 4, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
	ps = append(ps, std("extra", 0, 10, constraints.Ambient))
	if _, err := PlanTrailer(tr, ps, 4); !constraints.AsViolations(err).Has(CodeFloorLength) {
		t.Fatalf("29 pallets: want %s, got %v", CodeFloorLength, err)
	}
}

// TestStackingWorkedExample: a 400 kg pallet on an 800 kg one, on a
// trailer that allows one floor position. Both turned on the left, centre
// 508 mm from the nose:
//
//	moment = 36,600,000 + 1,200 · (508 − 900) = 36,129,600 kg·mm
//	axle = 36,129,600 / 12,100 = 2,985.917 kg; kingpin = 7,200 − 2,985.917 = 4,214.083 kg
//	after the stop, tare alone: axle 3,024.793 kg, kingpin 2,975.207 kg
func TestStackingWorkedExample(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.Positions = 1
	bottom := std("bottom", 0, 800, constraints.Ambient)
	bottom.HeightMM, bottom.MayCarry = 1300, true
	top := std("top", 0, 400, constraints.Ambient)
	top.HeightMM, top.MayBeStacked = 1300, true
	ps := []Pallet{top, bottom}
	lay, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Placement{
		{Pallet: "bottom", Side: Left, Turned: true},
		{Pallet: "top", Side: Left, Turned: true, Level: 1},
	}
	if fmt.Sprint(lay.Placements) != fmt.Sprint(want) || lay.Load.Positions != 1 {
		t.Fatalf("placements %+v positions %d, want %+v on 1 position", lay.Placements, lay.Load.Positions, want)
	}
	wantAxles := []AxleLoad{{-1, 4214.083, 2985.917}, {0, 2975.207, 3024.793}}
	for i, w := range wantAxles {
		g := lay.Axles[i]
		if g.AfterStop != w.AfterStop || math.Abs(g.KingpinKg-w.KingpinKg) > 0.001 || math.Abs(g.AxleGroupKg-w.AxleGroupKg) > 0.001 {
			t.Errorf("axles[%d] = %+v, want %+v", i, g, w)
		}
	}
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
	// With room on the floor nothing is stacked.
	tr.Positions = 2
	lay, err = PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range lay.Placements {
		if p.Level != 0 {
			t.Fatalf("stacked with free floor: %+v", lay.Placements)
		}
	}
	// Too tall together: the planner says so instead of stacking.
	tr.Positions = 1
	ps[0].HeightMM = 1500
	if _, err := PlanTrailer(tr, ps, 1); !constraints.AsViolations(err).Has(CodePositions) {
		t.Fatalf("want %s, got %v", CodePositions, err)
	}
}

// TestValidateCatchesBrokenStacking breaks each stacking rule in turn.
func TestValidateCatchesBrokenStacking(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.Positions = 2
	mk := func(id string, stop int, kg float64, carry, stack bool) Pallet {
		p := std(id, stop, kg, constraints.Ambient)
		p.HeightMM, p.MayCarry, p.MayBeStacked = 1300, carry, stack
		return p
	}
	base := func() []Pallet {
		return []Pallet{mk("b", 1, 800, true, false), mk("t", 0, 400, false, true), mk("c", 0, 300, true, true)}
	}
	good := &Layout{
		Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 0}},
		Placements: []Placement{
			{Pallet: "b", Side: Left, Turned: true},
			{Pallet: "t", Side: Left, Turned: true, Level: 1},
			{Pallet: "c", Side: Right, Turned: true},
		},
	}
	fix := func(l *Layout, ps []Pallet) {
		// Report the true axle loads so only the broken rule shows.
		idx := map[string]int{}
		for i, p := range ps {
			idx[p.ID] = i
		}
		l.Axles = nil
		for after := -1; after < 2; after++ {
			var loads []constraints.PointLoad
			for _, pl := range l.Placements {
				p := ps[idx[pl.Pallet]]
				if p.Stop > after {
					loads = append(loads, constraints.PointLoad{XMM: float64(pl.XMM) + float64(along(p, pl.Turned))/2, Kg: p.WeightKg})
				}
			}
			kp, ax := tr.Axles.Loads(loads)
			l.Axles = append(l.Axles, AxleLoad{after, kp, ax})
		}
	}
	l := *good
	fix(&l, base())
	if vs := Validate(tr, base(), 2, &l); len(vs) > 0 {
		t.Fatalf("the good layout fails: %v", vs)
	}
	tests := []struct {
		name   string
		break_ func(l *Layout, ps []Pallet)
		code   string
	}{
		{"bottom may not carry", func(l *Layout, ps []Pallet) { ps[0].MayCarry = false }, CodeStacking},
		{"top may not be stacked", func(l *Layout, ps []Pallet) { ps[1].MayBeStacked = false }, CodeStacking},
		{"top heavier", func(l *Layout, ps []Pallet) { ps[1].WeightKg = 900 }, CodeStacking},
		{"together too tall", func(l *Layout, ps []Pallet) { ps[1].HeightMM = 1500 }, CodeTooTall},
		{"top off after bottom", func(l *Layout, ps []Pallet) { ps[1].Stop, ps[0].Stop = 1, 0 }, CodeStacking},
		{"top hangs over", func(l *Layout, ps []Pallet) { l.Placements[1].XMM = 100 }, CodeStacking},
		{"top in the air", func(l *Layout, ps []Pallet) { l.Placements[1].XMM = 3000 }, CodeStacking},
		{"other side", func(l *Layout, ps []Pallet) { l.Placements[1].Side = Right }, CodeStacking},
		{"two on one", func(l *Layout, ps []Pallet) {
			l.Placements[2] = Placement{Pallet: "c", Side: Left, Turned: true, Level: 1}
		}, CodeStacking},
		{"level two", func(l *Layout, ps []Pallet) { l.Placements[1].Level = 2 }, CodeStacking},
		{"stacked overlap", func(l *Layout, ps []Pallet) {
			l.Placements[2] = Placement{Pallet: "c", Side: Left, Turned: true, Level: 1, XMM: 10}
		}, CodeOverlap},
		{"stacked counts no position", func(l *Layout, ps []Pallet) {}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := base()
			l := *good
			l.Placements = append([]Placement(nil), good.Placements...)
			tc.break_(&l, ps)
			fix(&l, ps)
			vs := Validate(tr, ps, 2, &l)
			if tc.code == "" {
				if len(vs) > 0 {
					t.Fatalf("want no violation, got %v", vs)
				}
				return
			}
			if !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestValidateCatchesBrokenPinwheels breaks a pinwheel layout and zone ranges.
func TestValidateCatchesBrokenPinwheels(t *testing.T) {
	tr := narrowTrailer()
	tr.Equipment.Kind = constraints.MultiTempReefer
	tr.Doors = noseCurbDoor
	ps := []Pallet{
		std("f", 0, 300, constraints.Frozen),
		std("a", 1, 300, constraints.Chilled), std("b", 1, 300, constraints.Chilled),
		std("c", 0, 300, constraints.Chilled), std("d", 0, 300, constraints.Chilled),
	}
	good, err := PlanTrailer(tr, ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	if vs := Validate(tr, ps, 2, good); len(vs) > 0 {
		t.Fatal(vs)
	}
	find := func(l *Layout, id string) int { return placementOf(t, l, id) }
	// The chilled zone is one pinwheel block: its two sides start rows at
	// different places.
	if c, d := good.Placements[find(good, "c")], good.Placements[find(good, "d")]; c.Row != d.Row || c.XMM == d.XMM {
		t.Fatalf("want a pinwheel for a, b, c, d: %+v", good.Placements)
	}
	tests := []struct {
		name   string
		break_ func(l *Layout)
		code   string
	}{
		{"pinwheel overlap", func(l *Layout) {
			// Turn the straight pallet of the second row: it now reaches
			// across into the other side's turned pallet.
			for i, p := range l.Placements {
				if p.Zone == 1 && p.Row == l.Zones[1].LastRow && !p.Turned {
					l.Placements[i].Turned = true
				}
			}
		}, CodeOverlap},
		{"unloading order across sides", func(l *Layout) {
			// c (stop 0) into a's place, a (stop 1) into c's: a now starts
			// nearer the door than c, on the other side.
			i, j := find(l, "a"), find(l, "c")
			l.Placements[i].Pallet, l.Placements[j].Pallet = "c", "a"
		}, CodeUnloadingOrder},
		{"rows out of order on one side", func(l *Layout) {
			i, j := find(l, "a"), find(l, "c")
			if l.Placements[i].Side != l.Placements[j].Side {
				j = find(l, "d")
			}
			l.Placements[i].Row, l.Placements[j].Row = l.Placements[j].Row, l.Placements[i].Row
		}, CodeRowOrder},
		{"pallet outside its zone's range", func(l *Layout) { l.Zones[1].ToMM = l.Zones[1].FromMM + 1500 }, CodeZone},
		{"zone ranges overlap", func(l *Layout) { l.Zones[0].ToMM = l.Zones[1].FromMM + 100 }, CodeZone},
		{"empty range", func(l *Layout) { l.Zones[0].FromMM, l.Zones[0].ToMM = 500, 400 }, CodeZone},
		{"derived ranges overlap", func(l *Layout) {
			// Without stated ranges the frozen pallet, moved beside the
			// chilled block's second row, shares floor length with it.
			for zi := range l.Zones {
				l.Zones[zi].FromMM, l.Zones[zi].ToMM = 0, 0
			}
			l.Placements[find(l, "f")].XMM = l.Placements[find(l, "c")].XMM + 1300
		}, CodeZone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := *good
			l.Placements = append([]Placement(nil), good.Placements...)
			l.Zones = append([]Zone(nil), good.Zones...)
			tc.break_(&l)
			if vs := Validate(tr, ps, 2, &l); !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestGeometricUnloadingOrderAcceptsRows: the XMM rule accepts what the
// row rule accepted for side-by-side rows, and the layout keeps working
// without stated zone ranges (as engine's JSON form carries none).
func TestGeometricUnloadingOrderAcceptsRows(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	ps := []Pallet{std("a", 0, 300, constraints.Chilled), std("b", 1, 300, constraints.Chilled), std("c", 2, 300, constraints.Chilled), std("d", 1, 300, constraints.Chilled), std("f", 0, 300, constraints.Frozen)}
	lay, err := PlanTrailer(tr, ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	for zi := range lay.Zones {
		lay.Zones[zi].FromMM, lay.Zones[zi].ToMM = 0, 0
	}
	if vs := Validate(tr, ps, 3, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

var knownCodes = map[string]bool{
	CodeTemperature: true, CodeTooManyZones: true, CodeTooTall: true, CodeTooWide: true, CodePositions: true,
	CodePayload: true, CodeVolume: true, CodeFloorLength: true, CodeKingpin: true, CodeAxleGroup: true,
	CodeInvalid: true, CodeDuplicate: true, CodeUnloadingOrder: true,
}

// drawDoors draws a door list for a floor length long: none (the rear
// door), the rear and a curbside door at the nose, or the rear and a
// curbside or roadside door anywhere.
func drawDoors(t *rapid.T, length int) []constraints.Door {
	switch rapid.IntRange(0, 2).Draw(t, "doors") {
	case 1:
		return noseCurbDoor
	case 2:
		from := rapid.IntRange(0, length-500).Draw(t, "doorFrom")
		to := rapid.IntRange(from+500, min(length, from+4000)).Draw(t, "doorTo")
		side := constraints.CurbDoor + constraints.DoorSide(rapid.IntRange(0, 1).Draw(t, "doorSide"))
		return []constraints.Door{{Side: constraints.RearDoor}, {Side: side, FromMM: from, ToMM: to}}
	}
	return nil
}

// temp draws a temperature class: any when anyTemp, otherwise one the
// equipment can carry, so that most drawn problems reach the layout.
func temp(t *rapid.T, kind constraints.EquipmentKind, anyTemp bool) constraints.Temperature {
	switch {
	case anyTemp || kind == constraints.MultiTempReefer:
		return constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp"))
	case kind == constraints.DryVan:
		return constraints.Ambient
	}
	return constraints.Chilled
}

// trailer53 is a 53 ft trailer of the given kind; a multi-temperature
// reefer has a curbside door over its first 2,500 mm besides the rear door.
func trailer53(kind constraints.EquipmentKind) Trailer {
	tr := Trailer{
		ID: "R4", LengthMM: 16000, WidthMM: 2490, HeightMM: 2700, Positions: 30, PayloadKg: 20000,
		Equipment: constraints.Equipment{Kind: kind},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 13000, TareKg: 6000, TareCentreMM: 7000,
			KingpinLimitKg: 12000, AxleGroupLimitKg: 15422},
	}
	if kind == constraints.MultiTempReefer {
		tr.Doors = noseCurbDoor
	}
	return tr
}

// noseCurbDoor is the rear door and a curbside door over the first
// 2,500 mm of the floor.
var noseCurbDoor = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 0, ToMM: 2500}}

func sizedPallet(id string, stop int, l, w, h int, kg float64, t constraints.Temperature) Pallet {
	return Pallet{ID: id, Stop: stop, LengthMM: l, WidthMM: w, HeightMM: h, WeightKg: kg, VolumeM3: 1, Temperature: t}
}

// planValid plans and insists that Validate accepts what PlanTrailer returns.
func planValid(t *testing.T, tr Trailer, ps []Pallet, stops int) *Layout {
	t.Helper()
	lay, err := PlanTrailer(tr, ps, stops)
	if err != nil {
		t.Fatalf("PlanTrailer: %v", err)
	}
	if vs := Validate(tr, ps, stops, lay); len(vs) > 0 {
		t.Fatalf("PlanTrailer's layout fails Validate: %v\nplacements %+v\nzones %+v", vs, lay.Placements, lay.Zones)
	}
	return lay
}
