package loadplan

import (
	"fmt"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// TestUtilisationAndLoad: the issue asks for the utilisation of
// positions, weight and volume per trailer; nothing checked the numbers.
func TestUtilisationAndLoad(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.VolumeM3 = 80
	var ps []Pallet
	for i := range 6 {
		p := sizedPallet(fmt.Sprint("p", i), i%2, 1219, 1016, 1500, 1000+100*float64(i), constraints.Ambient)
		p.VolumeM3 = 2
		ps = append(ps, p)
	}
	// One pallet too wide to pair (1,500 + 1,016 > 2,490) takes a whole
	// row: two positions.
	wide := sizedPallet("wide", 0, 1500, 1500, 1500, 500, constraints.Ambient)
	ps = append(ps, wide)
	lay := planValid(t, tr, ps, 2)
	wantW := 1000 + 1100 + 1200 + 1300 + 1400 + 1500 + 500.0
	if lay.Load.Positions != 8 || math.Abs(lay.Load.WeightKg-wantW) > 1e-9 || math.Abs(lay.Load.VolumeM3-13) > 1e-9 {
		t.Fatalf("load %+v, want 8 positions, %.0f kg, 13 m³", lay.Load, wantW)
	}
	if math.Abs(lay.PositionsUsed-8.0/30) > 1e-12 || math.Abs(lay.WeightUsed-wantW/20000) > 1e-12 || math.Abs(lay.VolumeUsed-13.0/80) > 1e-12 {
		t.Fatalf("utilisation positions %v weight %v volume %v, want %v %v %v", lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed, 8.0/30, wantW/20000, 13.0/80)
	}
	// No positions cap: the positions share is 0, not a division by zero.
	tr.Positions = 0
	if lay := planValid(t, tr, ps, 2); lay.PositionsUsed != 0 || lay.Load.Positions != 8 {
		t.Fatalf("uncapped: positions used %v, load %+v", lay.PositionsUsed, lay.Load)
	}
}

// TestRowsAndLength: Layout.Rows and LengthMM as the doc defines
// them, with a wide pallet alone in a row.
func TestRowsAndLength(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	ps := []Pallet{
		sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient),
		sizedPallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient),
		sizedPallet("wide", 0, 1500, 1500, 1000, 100, constraints.Ambient),
	}
	lay := planValid(t, tr, ps, 1)
	// The wide one alone (1,500 + 1,016 > 2,490; more than half the floor,
	// so in the centre), then a and b turned side by side (1,016 mm).
	if lay.Rows != 2 || lay.LengthMM != 1016+1500 {
		t.Fatalf("rows %d length %d, want 2 rows in %d mm: %+v", lay.Rows, lay.LengthMM, 1016+1500, lay.Placements)
	}
	for _, p := range lay.Placements {
		if p.Pallet == "wide" && p.Side != Center {
			t.Fatalf("wide pallet on side %v, want CENTER", p.Side)
		}
	}
}

// TestPositionsCapZeroAndCenter: a pallet too wide to share its row
// stands in the centre and takes two positions, in PlanTrailer and Validate.
func TestPositionsCapZeroAndCenter(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.Positions = 2
	// 1,500 + 1,016 > 2,490: the square pallet shares its row with nothing.
	ps := []Pallet{sizedPallet("sq", 0, 1500, 1500, 1000, 100, constraints.Ambient), sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	// sq needs 2 positions, a one more: 3 > 2.
	if _, err := PlanTrailer(tr, ps, 1); !constraints.AsViolations(err).Has(CodePositions) {
		t.Fatalf("want %s, got %v", CodePositions, err)
	}
	// Validate counts a CENTER pallet as two positions too.
	tr.Positions = 3
	lay := planValid(t, tr, ps, 1)
	tr.Positions = 2
	if vs := Validate(tr, ps, 1, lay); !vs.Has(CodePositions) {
		t.Fatalf("Validate on 2 positions: want %s, got %v", CodePositions, vs)
	}
}

// TestVolumeAndWidthReasons: the volume limit and odd footprints
// give their own codes (the property test never exceeds the volume).
func TestVolumeAndWidthReasons(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.VolumeM3 = 3
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient), sizedPallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	ps[0].VolumeM3, ps[1].VolumeM3 = 2, 1.5
	if _, err := PlanTrailer(tr, ps, 1); !constraints.AsViolations(err).Has(CodeVolume) {
		t.Fatalf("3.5 m³ in 3 m³: want %s, got %v", CodeVolume, err)
	}
	// Validate agrees on a layout made for a larger trailer.
	big := tr
	big.VolumeM3 = 4
	lay := planValid(t, big, ps, 1)
	if vs := Validate(tr, ps, 1, lay); !vs.Has(CodeVolume) {
		t.Fatalf("Validate: want %s, got %v", CodeVolume, vs)
	}
}

// TestExactWidths: pallets exactly as wide as the floor, and pairs
// exactly filling it, are legal and laid out as such.
func TestExactWidths(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.WidthMM = 2032 // two 48×40 pallets straight, exactly
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient), sizedPallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	lay := planValid(t, tr, ps, 1)
	if lay.Rows != 1 || lay.LengthMM != 1219 {
		t.Fatalf("two straight pallets on 2,032 mm: rows %d length %d, want 1 row of 1,219 mm", lay.Rows, lay.LengthMM)
	}
	// A square pallet exactly the floor's width stands in the centre.
	tr.WidthMM = 1500
	sq := []Pallet{sizedPallet("sq", 0, 1500, 1500, 1000, 100, constraints.Ambient)}
	lay = planValid(t, tr, sq, 1)
	if lay.Placements[0].Side != Center {
		t.Fatalf("square pallet: %+v", lay.Placements)
	}
	// One millimetre wider than the floor: too wide, said so.
	sq[0].LengthMM, sq[0].WidthMM = 1501, 1501
	if _, err := PlanTrailer(tr, sq, 1); !constraints.AsViolations(err).Has(CodeTooWide) {
		t.Fatalf("want %s, got %v", CodeTooWide, err)
	}
}

// TestHugeDimensionsDoNotWrap: dimensions near the int range wrap
// the planner's sums of lengths; PlanTrailer must refuse them (or plan
// correctly), never return a layout Validate rejects.
func TestHugeDimensionsDoNotWrap(t *testing.T) {
	tr := Trailer{ID: "huge", LengthMM: 1<<62 + 1<<61, WidthMM: 1000, HeightMM: 3000, PayloadKg: 1000,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		Axles: constraints.AxleGeometry{KingpinMM: 0, AxleGroupMM: 1e12, TareKg: 1000, TareCentreMM: 5e11,
			KingpinLimitKg: 1e6, AxleGroupLimitKg: 1e6}}
	var ps []Pallet
	for i := range 3 {
		ps = append(ps, Pallet{ID: fmt.Sprint("p", i), LengthMM: 1 << 62, WidthMM: 600, HeightMM: 1000, Temperature: constraints.Ambient})
	}
	lay, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		return // refused: fine
	}
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatal("PlanTrailer accepted dimensions whose sums overflow and returned a layout Validate rejects: " + vs.Error())
	}
}

// TestHalfPalletsAndOddFloors: a property test on the footprints the
// issue names (48×40 in, half pallets 1,016 × 610, custom), on
// floors around the pairing and pinwheel thresholds, with stacking,
// three classes and tight kingpin limits: PlanTrailer's layouts always
// pass Validate, and a failure is always explained.
func TestHalfPalletsAndOddFloors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
		tr := trailer53(kind)
		tr.WidthMM = rapid.SampledFrom([]int{1016, 1219, 1220, 1626, 2031, 2032, 2235, 2236, 2400, 2437, 2438, 2490, 2500}).Draw(t, "width")
		tr.LengthMM = rapid.IntRange(13000, 16200).Draw(t, "length")
		tr.Positions = rapid.IntRange(0, 34).Draw(t, "positions")
		tr.HeightMM = rapid.IntRange(1800, 2800).Draw(t, "height")
		tr.Axles.KingpinLimitKg = rapid.Float64Range(4000, 12000).Draw(t, "kp")
		tr.Axles.AxleGroupLimitKg = rapid.Float64Range(6000, 16000).Draw(t, "ax")
		if kind == constraints.MultiTempReefer {
			tr.Equipment.MaxZones = rapid.IntRange(2, 3).Draw(t, "maxZones")
		}
		stops := rapid.IntRange(1, 5).Draw(t, "stops")
		class := constraints.Temperature(0)
		if kind == constraints.Reefer {
			class = constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "class"))
		}
		var ps []Pallet
		for i := range rapid.IntRange(0, 36).Draw(t, "n") {
			l, w := 1219, 1016
			switch rapid.IntRange(0, 2).Draw(t, "foot") {
			case 1:
				l, w = 1016, 610
			case 2:
				w = rapid.IntRange(300, 1300).Draw(t, "w")
				l = rapid.IntRange(w, 1500).Draw(t, "l")
			}
			c := class
			if kind == constraints.MultiTempReefer {
				c = constraints.Temperature(rapid.IntRange(0, 2).Draw(t, "temp"))
			}
			ps = append(ps, Pallet{ID: fmt.Sprint("p", i), Stop: rapid.IntRange(0, stops-1).Draw(t, "stop"),
				LengthMM: l, WidthMM: w, HeightMM: rapid.IntRange(100, 1400).Draw(t, "h"),
				WeightKg: rapid.SampledFrom([]float64{0, 1, 250, 500, 900}).Draw(t, "kg"), VolumeM3: 1, Temperature: c,
				MayBeStacked: rapid.Bool().Draw(t, "s"), MayCarry: rapid.Bool().Draw(t, "c")})
		}
		lay, err := PlanTrailer(tr, ps, stops)
		if err != nil {
			vs := constraints.AsViolations(err)
			if len(vs) == 0 {
				t.Fatalf("error without violations: %v", err)
			}
			for _, v := range vs {
				if v.Message == "" || v.Code == "" {
					t.Fatalf("unexplained violation %+v", v)
				}
			}
			return
		}
		if vs := Validate(tr, ps, stops, lay); len(vs) > 0 {
			t.Fatalf("layout fails Validate: %v\n%+v", vs, lay.Placements)
		}
		if len(lay.Axles) != stops+1 {
			t.Fatalf("axles %d, want %d", len(lay.Axles), stops+1)
		}
	})
}

// TestHugeStopCountDoesNotPanic: stops is user input; PlanTrailer
// allocates one axle state per stop before looking at it, so a huge count
// panics (makeslice) instead of returning a violation. Validate loops over the
// same count (and would run for ever on 1<<50).
func TestHugeStopCountDoesNotPanic(t *testing.T) {
	var panicked any
	func() {
		defer func() { panicked = recover() }()
		_, _ = PlanTrailer(trailer53(constraints.DryVan), nil, 1<<50)
	}()
	if panicked != nil {
		t.Fatalf("PlanTrailer(tr, nil, 1<<50) panics: %v", panicked)
	}
}

// TestGreedyPairingMissesLayout: the planner pairs pallets in stop
// order, ties by input order, so two 1,300 mm squares meet first, cannot
// share a row, and the first takes a row (two positions) alone: 5
// positions. Pairing each square with a 1,100 mm one needs 4, and the
// layout built here passes Validate. PlanTrailer reports POSITIONS: the
// "explain exactly why it cannot be done" of the issue does not hold.
func TestGreedyPairingMissesLayout(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.Positions = 4
	ps := []Pallet{
		sizedPallet("A", 0, 1300, 1300, 1000, 100, constraints.Ambient),
		sizedPallet("B", 0, 1300, 1300, 1000, 100, constraints.Ambient),
		sizedPallet("C", 0, 1100, 1100, 1000, 100, constraints.Ambient),
		sizedPallet("D", 0, 1100, 1100, 1000, 100, constraints.Ambient),
	}
	lay := &Layout{Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 1}},
		Placements: []Placement{{Pallet: "A", Side: Left}, {Pallet: "C", Side: Right}, {Pallet: "B", Side: Left, Row: 1, XMM: 1300}, {Pallet: "D", Side: Right, Row: 1, XMM: 1300}}}
	lay.Axles, _ = axleLoads(tr, ps, []int{0, 2, 1, 3}, lay.Placements, 1)
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatalf("the hand-made layout should be legal: %v", vs)
	}
	got, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal("PlanTrailer's row pairing reports a violation for a loadable trailer: " + err.Error())
	}
	if vs := Validate(tr, ps, 1, got); len(vs) > 0 {
		t.Fatal(vs)
	}
}

// TestPlanTrailerRejectsBadInput: every input fault is named with
// its path, none is planned around.
func TestPlanTrailerRejectsBadInput(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	good := func() []Pallet {
		return []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 300, constraints.Ambient), sizedPallet("b", 1, 1219, 1016, 1000, 300, constraints.Ambient)}
	}
	cases := []struct {
		name string
		tr   func(*Trailer)
		ps   func([]Pallet)
		path string
	}{
		{"stop beyond the trip", nil, func(ps []Pallet) { ps[1].Stop = 2 }, "pallets[1].stop"},
		{"negative stop", nil, func(ps []Pallet) { ps[1].Stop = -1 }, "pallets[1].stop"},
		{"width above length", nil, func(ps []Pallet) { ps[0].WidthMM = 1300 }, "pallets[0]"},
		{"negative weight", nil, func(ps []Pallet) { ps[0].WeightKg = -1 }, "pallets[0]"},
		{"NaN weight", nil, func(ps []Pallet) { ps[0].WeightKg = math.NaN() }, "pallets[0]"},
		{"NaN volume", nil, func(ps []Pallet) { ps[1].VolumeM3 = math.NaN() }, "pallets[1]"},
		{"unknown class", nil, func(ps []Pallet) { ps[1].Temperature = 7 }, "pallets[1].temperature"},
		{"negative positions", func(tr *Trailer) { tr.Positions = -1 }, nil, "trailer.positions"},
		{"NaN payload", func(tr *Trailer) { tr.PayloadKg = math.NaN() }, nil, "trailer.payloadKg"},
		{"zero width", func(tr *Trailer) { tr.WidthMM = 0 }, nil, "trailer"},
		{"axle group ahead of the kingpin", func(tr *Trailer) { tr.Axles.AxleGroupMM = 500 }, nil, "trailer.axles.axleGroupMM"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, ps := tr, good()
			if tc.tr != nil {
				tc.tr(&tr)
			}
			if tc.ps != nil {
				tc.ps(ps)
			}
			_, err := PlanTrailer(tr, ps, 2)
			found := false
			for _, v := range constraints.AsViolations(err) {
				found = found || (v.Code == CodeInvalid && v.Path == tc.path)
			}
			if !found {
				t.Fatalf("want %s at %s, got %v", CodeInvalid, tc.path, err)
			}
		})
	}
	if _, err := PlanTrailer(tr, good(), -1); !constraints.AsViolations(err).Has(CodeInvalid) {
		t.Fatalf("negative stops: %v", err)
	}
}
