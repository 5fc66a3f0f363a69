package loadplan

import (
	"fmt"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

func testTrailer(kind constraints.EquipmentKind) Trailer {
	return Trailer{
		ID: "T53", LengthMM: 16000, WidthMM: 2490, HeightMM: 2700, Positions: 30, PayloadKg: 20000,
		Equipment: constraints.Equipment{Kind: kind},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 13000, TareKg: 6000, TareCentreMM: 7000,
			KingpinLimitKg: 12000, AxleGroupLimitKg: 15422},
	}
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
	if vs := Check(tr, []Pallet{std("a", 0, 500, constraints.Ambient), std("b", 0, 500, constraints.Ambient)}, 1, lay); len(vs) > 0 {
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
	if vs := Check(tr, ps, 3, lay); len(vs) > 0 {
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
	if vs := Check(tr, ps, 1, lay); len(vs) > 0 {
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
	if vs := Check(tr, ps, 2, lay); len(vs) > 0 {
		t.Fatal(vs)
	}
}

func TestCheckCatchesBrokenLayouts(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	ps := []Pallet{std("a", 0, 300, constraints.Chilled), std("b", 1, 300, constraints.Chilled), std("c", 1, 300, constraints.Chilled), std("f", 0, 300, constraints.Frozen)}
	good, err := PlanTrailer(tr, ps, 2)
	if err != nil {
		t.Fatal(err)
	}
	clone := func() *Layout {
		c := *good
		c.Placements = append([]Placement(nil), good.Placements...)
		c.Zones = append([]Zone(nil), good.Zones...)
		c.Axles = append([]AxleLoad(nil), good.Axles...)
		return &c
	}
	find := func(l *Layout, id string) int {
		for i, p := range l.Placements {
			if p.Pallet == id {
				return i
			}
		}
		t.Fatalf("no placement for %s", id)
		return -1
	}
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
			if vs := Check(tr, ps, 2, l); !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestPlanTrailerProperty: whatever the pallets, PlanTrailer either returns
// a layout that the independent Check accepts, or says why it cannot.
func TestPlanTrailerProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
		tr := testTrailer(kind)
		tr.WidthMM = rapid.IntRange(2000, 2600).Draw(t, "width")
		tr.Axles.KingpinLimitKg = rapid.Float64Range(5000, 15000).Draw(t, "kingpinLimit")
		stops := rapid.IntRange(1, 6).Draw(t, "stops")
		n := rapid.IntRange(0, 34).Draw(t, "n")
		var ps []Pallet
		for i := range n {
			w := rapid.IntRange(500, 1300).Draw(t, "w")
			l := rapid.IntRange(w, 1400).Draw(t, "l")
			ps = append(ps, Pallet{
				ID: fmt.Sprint("p", i), Stop: rapid.IntRange(0, stops-1).Draw(t, "stop"),
				LengthMM: l, WidthMM: w, HeightMM: rapid.IntRange(200, 2700).Draw(t, "h"),
				WeightKg: rapid.Float64Range(0, 1200).Draw(t, "kg"), VolumeM3: rapid.Float64Range(0, 2).Draw(t, "m3"),
				Temperature: constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp")),
			})
		}
		lay, err := PlanTrailer(tr, ps, stops)
		if err != nil {
			if len(constraints.AsViolations(err)) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
			return
		}
		if vs := Check(tr, ps, stops, lay); len(vs) > 0 {
			t.Fatalf("layout fails the check: %v", vs)
		}
	})
}
