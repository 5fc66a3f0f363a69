package loadplan

// Tests written by an adversarial review of issue 4 (loadplan). Each one
// either pins behaviour that no other test pinned (a mutation of the code
// survived the suite) or showed a bug, since fixed.

import (
	"fmt"
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

func r4Trailer(kind constraints.EquipmentKind) Trailer {
	return Trailer{
		ID: "R4", LengthMM: 16000, WidthMM: 2490, HeightMM: 2700, Positions: 30, PayloadKg: 20000,
		Equipment: constraints.Equipment{Kind: kind},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 13000, TareKg: 6000, TareCentreMM: 7000,
			KingpinLimitKg: 12000, AxleGroupLimitKg: 15422},
	}
}

func r4Pallet(id string, stop int, l, w, h int, kg float64, t constraints.Temperature) Pallet {
	return Pallet{ID: id, Stop: stop, LengthMM: l, WidthMM: w, HeightMM: h, WeightKg: kg, VolumeM3: 1, Temperature: t}
}

// r4Plan plans and insists that Validate accepts what PlanTrailer returns.
func r4Plan(t *testing.T, tr Trailer, ps []Pallet, stops int) *Layout {
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

// TestReviewUtilisationAndLoad: the issue asks for the utilisation of
// positions, weight and volume per trailer; nothing checked the numbers.
func TestReviewUtilisationAndLoad(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.VolumeM3 = 80
	var ps []Pallet
	for i := range 6 {
		p := r4Pallet(fmt.Sprint("p", i), i%2, 1219, 1016, 1500, 1000+100*float64(i), constraints.Ambient)
		p.VolumeM3 = 2
		ps = append(ps, p)
	}
	// One pallet too wide to pair (1,500 + 1,016 > 2,490) takes a whole
	// row: two positions.
	wide := r4Pallet("wide", 0, 1500, 1500, 1500, 500, constraints.Ambient)
	ps = append(ps, wide)
	lay := r4Plan(t, tr, ps, 2)
	wantW := 1000 + 1100 + 1200 + 1300 + 1400 + 1500 + 500.0
	if lay.Load.Positions != 8 || math.Abs(lay.Load.WeightKg-wantW) > 1e-9 || math.Abs(lay.Load.VolumeM3-13) > 1e-9 {
		t.Fatalf("load %+v, want 8 positions, %.0f kg, 13 m³", lay.Load, wantW)
	}
	if math.Abs(lay.PositionsUsed-8.0/30) > 1e-12 || math.Abs(lay.WeightUsed-wantW/20000) > 1e-12 || math.Abs(lay.VolumeUsed-13.0/80) > 1e-12 {
		t.Fatalf("utilisation positions %v weight %v volume %v, want %v %v %v", lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed, 8.0/30, wantW/20000, 13.0/80)
	}
	// No positions cap: the positions share is 0, not a division by zero.
	tr.Positions = 0
	if lay := r4Plan(t, tr, ps, 2); lay.PositionsUsed != 0 || lay.Load.Positions != 8 {
		t.Fatalf("uncapped: positions used %v, load %+v", lay.PositionsUsed, lay.Load)
	}
}

// TestReviewRowsAndLength: Layout.Rows and LengthMM as the doc defines
// them, with a wide pallet alone in a row.
func TestReviewRowsAndLength(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	ps := []Pallet{
		r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient),
		r4Pallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient),
		r4Pallet("wide", 0, 1500, 1500, 1000, 100, constraints.Ambient),
	}
	lay := r4Plan(t, tr, ps, 1)
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

// TestReviewPositionsCapZeroAndCenter: a pallet too wide to share its row
// stands in the centre and takes two positions, in PlanTrailer and Validate.
func TestReviewPositionsCapZeroAndCenter(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.Positions = 2
	// 1,500 + 1,016 > 2,490: the square pallet shares its row with nothing.
	ps := []Pallet{r4Pallet("sq", 0, 1500, 1500, 1000, 100, constraints.Ambient), r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	// sq needs 2 positions, a one more: 3 > 2.
	if _, err := PlanTrailer(tr, ps, 1); !constraints.AsViolations(err).Has(CodePositions) {
		t.Fatalf("want %s, got %v", CodePositions, err)
	}
	// Validate counts a CENTER pallet as two positions too.
	tr.Positions = 3
	lay := r4Plan(t, tr, ps, 1)
	tr.Positions = 2
	if vs := Validate(tr, ps, 1, lay); !vs.Has(CodePositions) {
		t.Fatalf("Validate on 2 positions: want %s, got %v", CodePositions, vs)
	}
}

// TestReviewVolumeAndWidthReasons: the volume limit and odd footprints
// give their own codes (the property test never exceeds the volume).
func TestReviewVolumeAndWidthReasons(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.VolumeM3 = 3
	ps := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient), r4Pallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	ps[0].VolumeM3, ps[1].VolumeM3 = 2, 1.5
	if _, err := PlanTrailer(tr, ps, 1); !constraints.AsViolations(err).Has(CodeVolume) {
		t.Fatalf("3.5 m³ in 3 m³: want %s, got %v", CodeVolume, err)
	}
	// Validate agrees on a layout made for a larger trailer.
	big := tr
	big.VolumeM3 = 4
	lay := r4Plan(t, big, ps, 1)
	if vs := Validate(tr, ps, 1, lay); !vs.Has(CodeVolume) {
		t.Fatalf("Validate: want %s, got %v", CodeVolume, vs)
	}
}

// TestReviewExactWidths: pallets exactly as wide as the floor, and pairs
// exactly filling it, are legal and laid out as such.
func TestReviewExactWidths(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.WidthMM = 2032 // two 48×40 pallets straight, exactly
	ps := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient), r4Pallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	lay := r4Plan(t, tr, ps, 1)
	if lay.Rows != 1 || lay.LengthMM != 1219 {
		t.Fatalf("two straight pallets on 2,032 mm: rows %d length %d, want 1 row of 1,219 mm", lay.Rows, lay.LengthMM)
	}
	// A square pallet exactly the floor's width stands in the centre.
	tr.WidthMM = 1500
	sq := []Pallet{r4Pallet("sq", 0, 1500, 1500, 1000, 100, constraints.Ambient)}
	lay = r4Plan(t, tr, sq, 1)
	if lay.Placements[0].Side != Center {
		t.Fatalf("square pallet: %+v", lay.Placements)
	}
	// One millimetre wider than the floor: too wide, said so.
	sq[0].LengthMM, sq[0].WidthMM = 1501, 1501
	if _, err := PlanTrailer(tr, sq, 1); !constraints.AsViolations(err).Has(CodeTooWide) {
		t.Fatalf("want %s, got %v", CodeTooWide, err)
	}
}

// TestReviewMultiTempThreeClassesFewRows: three classes of one pallet each
// take three zones of one row each, frozen at the nose, and Validate rejects
// the same layout on a reefer limited to two zones.
func TestReviewMultiTempThreeClassesFewRows(t *testing.T) {
	tr := r4Trailer(constraints.MultiTempReefer)
	ps := []Pallet{
		r4Pallet("amb", 0, 1219, 1016, 1000, 300, constraints.Ambient),
		r4Pallet("chl", 1, 1219, 1016, 1000, 300, constraints.Chilled),
		r4Pallet("frz", 0, 1219, 1016, 1000, 300, constraints.Frozen),
	}
	lay := r4Plan(t, tr, ps, 2)
	if len(lay.Zones) != 3 || lay.Rows != 3 {
		t.Fatalf("zones %+v rows %d", lay.Zones, lay.Rows)
	}
	want := []constraints.Temperature{constraints.Frozen, constraints.Chilled, constraints.Ambient}
	for zi, z := range lay.Zones {
		if z.Temperature != want[zi] || z.FirstRow != zi || z.LastRow != zi {
			t.Fatalf("zones %+v, want one row each, frozen first", lay.Zones)
		}
	}
	two := tr
	two.Equipment.MaxZones = 2
	if _, err := PlanTrailer(two, ps, 2); !constraints.AsViolations(err).Has(CodeTooManyZones) {
		t.Fatalf("three classes in a two-zone reefer: want %s, got %v", CodeTooManyZones, err)
	}
	if vs := Validate(two, ps, 2, lay); !vs.Has(CodeTooManyZones) {
		t.Fatalf("Validate on a two-zone reefer: want %s, got %v", CodeTooManyZones, vs)
	}
	// Two zones of one class, or a warmer zone nearer the nose, are wrong.
	bad := *lay
	bad.Zones = append([]Zone(nil), lay.Zones...)
	bad.Zones[1].Temperature = constraints.Frozen
	if vs := Validate(tr, ps, 2, &bad); !vs.Has(CodeZone) {
		t.Fatalf("two frozen zones: want %s, got %v", CodeZone, vs)
	}
	// A dry van and a single-temperature reefer hold one zone.
	one := tr
	one.Equipment.Kind = constraints.Reefer
	if vs := Validate(one, ps, 2, lay); !vs.Has(CodeTooManyZones) {
		t.Fatalf("reefer with three zones: want %s, got %v", CodeTooManyZones, vs)
	}
	// A zone of a class the equipment cannot hold is refused even when
	// no pallet stands in it.
	dry := r4Trailer(constraints.DryVan)
	amb := []Pallet{ps[0]}
	l2 := r4Plan(t, dry, amb, 2)
	l2.Zones[0].Temperature = constraints.Frozen
	if vs := Validate(dry, amb, 2, l2); !vs.Has(CodeTemperature) {
		t.Fatalf("frozen zone on a dry van: want %s, got %v", CodeTemperature, vs)
	}
}

// TestReviewZoneRangesAndRows: zone bookkeeping that no test broke.
func TestReviewZoneRangesAndRows(t *testing.T) {
	tr := r4Trailer(constraints.MultiTempReefer)
	ps := []Pallet{
		r4Pallet("c1", 1, 1219, 1016, 1000, 300, constraints.Chilled),
		r4Pallet("c2", 0, 1219, 1016, 1000, 300, constraints.Chilled),
		r4Pallet("c3", 0, 1219, 1016, 1000, 300, constraints.Chilled),
		r4Pallet("f1", 0, 1219, 1016, 1000, 300, constraints.Frozen),
	}
	good := r4Plan(t, tr, ps, 2)
	if good.Zones[0].FromMM != 0 || good.Zones[len(good.Zones)-1].ToMM != tr.LengthMM {
		t.Fatalf("zones should cover the floor from the nose to the door: %+v", good.Zones)
	}
	clone := func() *Layout { return cloneLayout(good) }
	idx := func(l *Layout, id string) int { return placementOf(t, l, id) }
	cases := []struct {
		name   string
		break_ func(l *Layout)
		code   string
	}{
		{"row outside its zone's rows", func(l *Layout) { l.Placements[idx(l, "f1")].Row = l.Zones[1].LastRow + 5 }, CodeZone},
		{"zone rows empty", func(l *Layout) { l.Zones[0].LastRow = l.Zones[0].FirstRow - 1 }, CodeZone},
		{"zone rows overlap", func(l *Layout) { l.Zones[1].FirstRow = l.Zones[0].LastRow }, CodeZone},
		{"zone range beyond the door", func(l *Layout) { l.Zones[1].ToMM = tr.LengthMM + 1 }, CodeZone},
		{"pallet beyond its zone's door-side end", func(l *Layout) { l.Zones[1].ToMM = l.Placements[idx(l, "c1")].XMM + 500 }, CodeZone},
		{"negative row", func(l *Layout) { l.Placements[idx(l, "f1")].Row = -1 }, CodeRowOrder},
		{"missing axle state", func(l *Layout) { l.Axles = l.Axles[:len(l.Axles)-1] }, CodeAxleReport},
		{"axle group reported wrong", func(l *Layout) { l.Axles[1].AxleGroupKg += 100 }, CodeAxleReport},
		{"axle state for the wrong stop", func(l *Layout) { l.Axles[2].AfterStop = 0 }, CodeAxleReport},
		{"pallet twice", func(l *Layout) { l.Placements = append(l.Placements, l.Placements[0]) }, CodeDuplicate},
		{"unknown pallet", func(l *Layout) { l.Placements[0].Pallet = "ghost" }, CodeUnknown},
		{"beyond the door", func(l *Layout) { l.Placements[idx(l, "c1")].XMM = tr.LengthMM - 1000 }, CodeOutsideFloor},
		{"bad side", func(l *Layout) { l.Placements[0].Side = Side(7) }, CodeInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := clone()
			tc.break_(l)
			if vs := Validate(tr, ps, 2, l); !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestReviewCheckGeometry: hand-made layouts whose sides, orientation and
// lanes matter.
func TestReviewCheckGeometry(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.WidthMM = 2400
	a := r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)
	b := r4Pallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)
	ps := []Pallet{a, b}
	zones := []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 3}}
	mk := func(pl ...Placement) *Layout {
		l := &Layout{Zones: zones, Placements: pl}
		l.Axles, _ = axleLoads(tr, ps, []int{0, 1}, pl, 1)
		return l
	}
	cases := []struct {
		name string
		lay  *Layout
		code string // "" = legal
	}{
		// Straight beside turned fits 2,400 mm (1,016 + 1,219).
		{"straight beside turned", mk(Placement{Pallet: "a", Side: Left}, Placement{Pallet: "b", Side: Right, Turned: true}), ""},
		// Two turned need 2,438 mm: they overlap across.
		{"two turned overlap", mk(Placement{Pallet: "a", Side: Left, Turned: true}, Placement{Pallet: "b", Side: Right, Turned: true}), CodeOverlap},
		// A CENTER pallet overlaps anything beside it.
		{"center beside left", mk(Placement{Pallet: "a", Side: Center}, Placement{Pallet: "b", Side: Left, XMM: 500}), CodeOverlap},
		{"center then left", mk(Placement{Pallet: "a", Side: Center}, Placement{Pallet: "b", Side: Left, Row: 1, XMM: 1219}), ""},
		// Rows on one side run from the nose.
		{"rows reversed", mk(Placement{Pallet: "a", Side: Left, Row: 1}, Placement{Pallet: "b", Side: Left, XMM: 1219}), CodeRowOrder},
		// At the door a turned pallet (1,016 mm along) fits where a straight one does not.
		{"turned at the door", mk(Placement{Pallet: "a", Side: Left, Turned: true, XMM: 14984}, Placement{Pallet: "b", Side: Right, XMM: 14781}), ""},
		{"straight past the door", mk(Placement{Pallet: "a", Side: Left, XMM: 14984}, Placement{Pallet: "b", Side: Right, XMM: 14781}), CodeOutsideFloor},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vs := Validate(tr, ps, 1, tc.lay)
			if tc.code == "" && len(vs) > 0 {
				t.Fatalf("want legal, got %v", vs)
			}
			if tc.code != "" && !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestReviewStackingNeedsPlanner: the planner refuses to stack against
// each rule in turn, so it reports the floor shortage instead.
func TestReviewStackingRulesInPlanner(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.Positions = 1
	base := func() []Pallet {
		b := r4Pallet("bottom", 0, 1219, 1016, 1300, 800, constraints.Ambient)
		b.MayCarry = true
		tp := r4Pallet("top", 0, 1219, 1016, 1300, 400, constraints.Ambient)
		tp.MayBeStacked = true
		return []Pallet{b, tp}
	}
	r4Plan(t, tr, base(), 1) // stackable as given
	cases := []struct {
		name string
		mod  func(ps []Pallet)
	}{
		{"top heavier", func(ps []Pallet) { ps[1].WeightKg = 900 }},
		{"together too tall", func(ps []Pallet) { ps[1].HeightMM = 1500 }},
		{"top larger", func(ps []Pallet) { ps[1].LengthMM = 1300 }},
		{"top may not be stacked", func(ps []Pallet) { ps[1].MayBeStacked = false }},
		{"bottom may not carry", func(ps []Pallet) { ps[0].MayCarry = false }},
		{"different stops", func(ps []Pallet) { ps[0].Stop = 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := base()
			tc.mod(ps)
			lay, err := PlanTrailer(tr, ps, 2)
			if err == nil {
				t.Fatalf("stacked against the rules: %+v", lay.Placements)
			}
			if !constraints.AsViolations(err).Has(CodePositions) {
				t.Fatalf("want %s, got %v", CodePositions, err)
			}
		})
	}
	// Only as much stacking as the floor needs: two of four stackable
	// pallets on three positions.
	tr.Positions = 3
	var ps []Pallet
	for i := range 4 {
		p := r4Pallet(fmt.Sprint("s", i), 0, 1219, 1016, 1300, 800-float64(i)*100, constraints.Ambient)
		p.MayCarry, p.MayBeStacked = true, true
		ps = append(ps, p)
	}
	lay := r4Plan(t, tr, ps, 1)
	stacked := 0
	for _, p := range lay.Placements {
		stacked += p.Level
	}
	if stacked != 1 || lay.Load.Positions != 3 {
		t.Fatalf("want exactly one pallet stacked on 3 positions, got %d stacked: %+v", stacked, lay.Placements)
	}
}

// TestReviewAxleStatesPerStop: the pallets of stop i count at departure
// and up to stop i-1, not after stop i; a worked example with two stops.
//
// Trailer as in the other worked examples (kingpin 900, axle group 13,000,
// tare 6,000 kg at 7,000), 1,300 mm wide so each pallet has a row to
// itself. Pallet "near" (stop 1, 1,000 kg) turned at 0–1,016 (centre 508);
// "far" (stop 0, 1,000 kg) turned at 1,016–2,032 (centre 1,524).
//
//	departure: moment 36,600,000 + 1,000·(508−900) + 1,000·(1,524−900) = 36,832,000
//	           axle 3,043.967, kingpin 8,000 − 3,043.967 = 4,956.033
//	after 0:   moment 36,600,000 − 392,000 = 36,208,000; axle 2,992.397, kingpin 4,007.603
//	after 1:   tare only: axle 3,024.793, kingpin 2,975.207
func TestReviewAxleStatesPerStop(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.WidthMM = 1300 // one pallet per row
	ps := []Pallet{r4Pallet("far", 0, 1219, 1016, 1000, 1000, constraints.Ambient), r4Pallet("near", 1, 1219, 1016, 1000, 1000, constraints.Ambient)}
	lay := r4Plan(t, tr, ps, 2)
	want := []AxleLoad{{-1, 4956.033, 3043.967}, {0, 4007.603, 2992.397}, {1, 2975.207, 3024.793}}
	if len(lay.Axles) != len(want) {
		t.Fatalf("axles %+v", lay.Axles)
	}
	for i, w := range want {
		g := lay.Axles[i]
		if g.AfterStop != w.AfterStop || math.Abs(g.KingpinKg-w.KingpinKg) > 0.001 || math.Abs(g.AxleGroupKg-w.AxleGroupKg) > 0.001 {
			t.Errorf("axles[%d] = %+v, want %+v (placements %+v)", i, g, w, lay.Placements)
		}
	}
	// Validate recomputes the same: a report shifted by one stop fails.
	bad := *lay
	bad.Axles = []AxleLoad{lay.Axles[0], {0, lay.Axles[0].KingpinKg, lay.Axles[0].AxleGroupKg}, lay.Axles[2]}
	if vs := Validate(tr, ps, 2, &bad); !vs.Has(CodeAxleReport) {
		t.Fatalf("want %s, got %v", CodeAxleReport, vs)
	}
}

// TestReviewAxleLimitsEachWay: a layout legal by position but over each
// axle limit, or lifting the nose, is caught by Validate and refused by
// PlanTrailer with the matching code.
func TestReviewAxleLimitsEachWay(t *testing.T) {
	ps := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 3000, constraints.Ambient), r4Pallet("b", 0, 1219, 1016, 1000, 3000, constraints.Ambient)}
	loose := r4Trailer(constraints.DryVan)
	loose.Axles.KingpinLimitKg, loose.Axles.AxleGroupLimitKg = 1e6, 1e6
	atNose := r4Plan(t, loose, ps, 1)
	// Slid behind the axle group, the load lifts the kingpin with no tare.
	behind := *atNose
	behind.Placements = append([]Placement(nil), atNose.Placements...)
	for i := range behind.Placements {
		behind.Placements[i].XMM = loose.LengthMM - 1016
	}
	behind.Zones = []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 0}}
	noTare := loose
	noTare.Axles.TareKg = 0
	behind.Axles, _ = axleLoads(noTare, ps, []int{0, 1}, behind.Placements, 1)
	if vs := Validate(noTare, ps, 1, &behind); !vs.Has(CodeKingpin) {
		t.Fatalf("load behind the axles, no tare: want %s, got %v", CodeKingpin, vs)
	}

	kp := loose
	kp.Axles.KingpinLimitKg = atNose.Axles[0].KingpinKg - 1
	if vs := Validate(kp, ps, 1, atNose); !vs.Has(CodeKingpin) {
		t.Fatalf("kingpin 1 kg over: want %s, got %v", CodeKingpin, vs)
	}
	ax := loose
	ax.Axles.AxleGroupLimitKg = atNose.Axles[0].AxleGroupKg - 1
	if vs := Validate(ax, ps, 1, atNose); !vs.Has(CodeAxleGroup) {
		t.Fatalf("axle group 1 kg over: want %s, got %v", CodeAxleGroup, vs)
	}
	if _, err := PlanTrailer(ax, ps, 1); !constraints.AsViolations(err).Has(CodeAxleGroup) {
		t.Fatalf("PlanTrailer: want %s, got %v", CodeAxleGroup, err)
	}
}

// TestReviewSlideFindsLegalOffset: the only legal positions of the load lie
// between the five offsets the planner tries, so it reports an axle
// violation although a legal layout exists (built here and accepted by
// Validate). The axle loads are linear in the offset, so the legal offsets
// form an interval that can be computed exactly.
//
// Two 5,000 kg pallets side by side turned (one row, 1,016 mm). Centre at
// offset o + 508: axle = (36,600,000 + 10,000·(o − 392)) / 12,100. Kingpin
// ≤ 12,000 needs axle ≥ 4,000, so o ≥ 1,572; axle ≤ 4,500 needs
// o ≤ 2,177. The planner tries o = 0, 3,746, 7,492, … (slack 14,984 / 4).
func TestReviewSlideFindsLegalOffset(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.Axles.KingpinLimitKg, tr.Axles.AxleGroupLimitKg = 12000, 4500
	ps := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 5000, constraints.Ambient), r4Pallet("b", 0, 1219, 1016, 1000, 5000, constraints.Ambient)}
	loose := tr
	loose.Axles.KingpinLimitKg, loose.Axles.AxleGroupLimitKg = 1e6, 1e6
	lay := r4Plan(t, loose, ps, 1)
	for i := range lay.Placements {
		lay.Placements[i].XMM += 2000
	}
	lay.Axles, _ = axleLoads(tr, ps, []int{0, 1}, lay.Placements, 1)
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatalf("the hand-made layout at 2,000 mm should be legal: %v", vs)
	}
	got, err := PlanTrailer(tr, ps, 1)
	if err != nil {
		t.Fatal("PlanTrailer misses the legal slide offsets (1,572–2,177 mm): " + err.Error())
	}
	if vs := Validate(tr, ps, 1, got); len(vs) > 0 {
		t.Fatal(vs)
	}
}

// TestReviewHugeDimensionsDoNotWrap: dimensions near the int range wrap
// the planner's sums of lengths; PlanTrailer must refuse them (or plan
// correctly), never return a layout Validate rejects.
func TestReviewHugeDimensionsDoNotWrap(t *testing.T) {
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

// TestReviewCheckRejectsUnjudgeablePallets: Validate is the oracle of
// engine.Validate. A pallet whose stop is outside the trip never counts in
// the axle loads (Stop -1) and a negative or NaN weight hides payload, yet
// Validate accepts such layouts as legal.
func TestReviewCheckRejectsUnjudgeablePallets(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	ok := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 500, constraints.Ambient), r4Pallet("b", 0, 1219, 1016, 1000, 500, constraints.Ambient)}
	lay := r4Plan(t, tr, ok, 1)
	cases := []struct {
		name string
		mod  func(ps []Pallet)
	}{
		{"stop -1: 11 t at the nose not counted on the kingpin", func(ps []Pallet) { ps[0].Stop, ps[0].WeightKg = -1, 11000 }},
		{"stop beyond the trip", func(ps []Pallet) { ps[0].Stop = 5 }},
		// 10.5 t at the nose overloads the kingpin (13.8 t > 12 t); net 500 kg does not.
		{"negative weight hides a kingpin overload", func(ps []Pallet) { ps[0].WeightKg, ps[1].WeightKg = -10000, 10500 }},
		{"NaN weight", func(ps []Pallet) { ps[0].WeightKg = math.NaN() }},
	}
	var bugs []string
	for _, tc := range cases {
		ps := append([]Pallet(nil), ok...)
		tc.mod(ps)
		l := *lay
		l.Axles, _ = axleLoads(tr, ps, []int{0, 1}, lay.Placements, 1)
		// Report what Validate itself recomputes, so only the input matters.
		if vs := Validate(tr, ps, 1, &l); len(vs) == 0 {
			bugs = append(bugs, tc.name)
		}
	}
	if len(bugs) > 0 {
		t.Fatalf("Validate accepts pallets it cannot judge, with no CodeInvalid: %v", bugs)
	}
}

// TestReviewMaxZonesValidated: MaxZones is documented as 2 or 3; a
// negative value makes every trip fail with TOO_MANY_ZONES, even an empty
// one, instead of an INVALID_VALUE on the trailer.
func TestReviewMaxZonesValidated(t *testing.T) {
	tr := r4Trailer(constraints.MultiTempReefer)
	tr.Equipment.MaxZones = -1
	_, err := PlanTrailer(tr, nil, 1)
	vs := constraints.AsViolations(err)
	if !vs.Has(CodeInvalid) {
		t.Fatalf("Equipment.MaxZones -1 not reported as invalid; PlanTrailer(no pallets) = %v", err)
	}
}

// TestReviewHalfPalletsAndOddFloors: a property test on the footprints the
// review was asked about (48×40 in, half pallets 1,016 × 610, custom), on
// floors around the pairing and pinwheel thresholds, with stacking,
// three classes and tight kingpin limits: PlanTrailer's layouts always
// pass Validate, and a failure is always explained.
func TestReviewHalfPalletsAndOddFloors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := constraints.EquipmentKind(rapid.IntRange(0, 2).Draw(t, "kind"))
		tr := r4Trailer(kind)
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

// TestReviewFleetBoundMatchesPayloadTolerance: PlanTrailer and Validate accept
// a load up to PayloadKg·(1+1e-9), while FleetLowerBound rounds the
// capacity to ceil(PayloadKg); from 1e9 kg up that slack exceeds a
// kilogram and the "proven" bound exceeds a packing PlanTrailer finds.
func TestReviewFleetBoundMatchesPayloadTolerance(t *testing.T) {
	tr := Trailer{ID: "big", LengthMM: 60000, WidthMM: 2490, HeightMM: 2700, PayloadKg: 1e11,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		Axles: constraints.AxleGeometry{KingpinMM: 900, AxleGroupMM: 50000, TareKg: 6000, TareCentreMM: 25000,
			KingpinLimitKg: 1e12, AxleGroupLimitKg: 1e12}}
	var ps []Pallet
	for i := range 100 {
		ps = append(ps, r4Pallet(fmt.Sprint("p", i), 0, 1219, 1016, 1000, 1e9, constraints.Ambient))
	}
	ps = append(ps, r4Pallet("small", 0, 1219, 1016, 1000, 50, constraints.Ambient))
	r4Plan(t, tr, ps, 1) // one trailer carries them all
	if lb := FleetLowerBound([]FleetTrailer{{Trailer: tr, Count: 2}}, ps); lb > 1 {
		t.Fatalf("FleetLowerBound = %d, but one trailer carries the pallets within PlanTrailer's 1e-9 payload tolerance", lb)
	}
}

// TestReviewHugeStopCountDoesNotPanic: stops is user input; PlanTrailer
// allocates one axle state per stop before looking at it, so a huge count
// panics (makeslice) instead of returning a violation. Validate loops over the
// same count (and would run for ever on 1<<50).
func TestReviewHugeStopCountDoesNotPanic(t *testing.T) {
	var panicked any
	func() {
		defer func() { panicked = recover() }()
		_, _ = PlanTrailer(r4Trailer(constraints.DryVan), nil, 1<<50)
	}()
	if panicked != nil {
		t.Fatalf("PlanTrailer(tr, nil, 1<<50) panics: %v", panicked)
	}
}

// TestReviewGreedyPairingMissesLayout: the planner pairs pallets in stop
// order, ties by input order, so two 1,300 mm squares meet first, cannot
// share a row, and the first takes a row (two positions) alone: 5
// positions. Pairing each square with a 1,100 mm one needs 4, and the
// layout built here passes Validate. PlanTrailer reports POSITIONS: the
// "explain exactly why it cannot be done" of the issue does not hold.
func TestReviewGreedyPairingMissesLayout(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.Positions = 4
	ps := []Pallet{
		r4Pallet("A", 0, 1300, 1300, 1000, 100, constraints.Ambient),
		r4Pallet("B", 0, 1300, 1300, 1000, 100, constraints.Ambient),
		r4Pallet("C", 0, 1100, 1100, 1000, 100, constraints.Ambient),
		r4Pallet("D", 0, 1100, 1100, 1000, 100, constraints.Ambient),
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

// TestReviewCheckPalletFitsFloor: Validate's own height and width tests, on
// layouts PlanTrailer would never make.
func TestReviewCheckPalletFitsFloor(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	ps := []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	lay := r4Plan(t, tr, ps, 1)
	low := tr
	low.HeightMM = 900
	if vs := Validate(low, ps, 1, lay); !vs.Has(CodeTooTall) {
		t.Fatalf("1,000 mm pallet in a 900 mm trailer: want %s, got %v", CodeTooTall, vs)
	}
	// Turned on the left, 1,219 mm across a 1,100 mm floor: it leaves the
	// floor across, on the far wall's side.
	narrow := tr
	narrow.WidthMM = 1100
	l := &Layout{Zones: lay.Zones, Placements: []Placement{{Pallet: "a", Side: Left, Turned: true}}}
	l.Axles, _ = axleLoads(narrow, ps, []int{0}, l.Placements, 1)
	if vs := Validate(narrow, ps, 1, l); !vs.Has(CodeOutsideFloor) {
		t.Fatalf("want %s, got %v", CodeOutsideFloor, vs)
	}
}

// r4Axles fills in the axle states Validate recomputes, so that a hand-made
// layout fails only on what a test breaks.
func r4Axles(tr Trailer, ps []Pallet, stops int, l *Layout) {
	idx := map[string]int{}
	for i, p := range ps {
		idx[p.ID] = i
	}
	placed := make([]int, len(l.Placements))
	for k, pl := range l.Placements {
		placed[k] = idx[pl.Pallet]
	}
	l.Axles, _ = axleLoads(tr, ps, placed, l.Placements, stops)
}

// TestReviewCheckHandMadeLayouts: rules of Validate that only a hand-made
// layout can break, since PlanTrailer never does.
func TestReviewCheckHandMadeLayouts(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	tr.WidthMM = 2400
	amb := []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 3}}
	std := func(id string, stop int) Pallet {
		return r4Pallet(id, stop, 1219, 1016, 1000, 300, constraints.Ambient)
	}
	bottom := std("bottom", 1)
	bottom.MayCarry = true
	top := std("top", 0)
	top.MayBeStacked = true
	cases := []struct {
		name string
		ps   []Pallet
		lay  Layout
		code string
	}{
		// A later stop nearer the door on the other side still breaks the
		// (geometric) unloading order.
		{"unloading order across sides", []Pallet{std("a", 0), std("b", 1)}, Layout{Zones: amb, Placements: []Placement{
			{Pallet: "a", Side: Left}, {Pallet: "b", Side: Right, XMM: 2000}}}, CodeUnloadingOrder},
		// The top (stop 0) comes off first, but a floor pallet for stop 1
		// stands between it and the door.
		{"stacked pallet blocked by a floor pallet", []Pallet{bottom, top, std("c", 1)}, Layout{Zones: amb, Placements: []Placement{
			{Pallet: "bottom", Side: Left}, {Pallet: "top", Side: Left, Level: 1}, {Pallet: "c", Side: Left, Row: 1, XMM: 1219}}}, CodeUnloadingOrder},
		{"stacked legal", []Pallet{bottom, top, std("c", 0)}, Layout{Zones: amb, Placements: []Placement{
			{Pallet: "bottom", Side: Left}, {Pallet: "top", Side: Left, Level: 1}, {Pallet: "c", Side: Left, Row: 1, XMM: 1219}}}, ""},
		// Turned on a straight bottom: inside it along, 203 mm over across.
		{"top overhangs across", []Pallet{bottom, top}, Layout{Zones: amb, Placements: []Placement{
			{Pallet: "bottom", Side: Left}, {Pallet: "top", Side: Left, Turned: true, Level: 1}}}, CodeStacking},
		// A CENTER pallet reaches into the right lane too.
		{"center beside right", []Pallet{std("a", 0), std("b", 0)}, Layout{Zones: amb, Placements: []Placement{
			{Pallet: "a", Side: Center}, {Pallet: "b", Side: Right, XMM: 600}}}, CodeOverlap},
		{"payload", []Pallet{r4Pallet("h1", 0, 1219, 1016, 1000, 10001, constraints.Ambient), r4Pallet("h2", 0, 1219, 1016, 1000, 10000, constraints.Ambient)},
			Layout{Zones: amb, Placements: []Placement{{Pallet: "h1", Side: Left}, {Pallet: "h2", Side: Right, Turned: true}}}, CodePayload},
	}
	multi := r4Trailer(constraints.MultiTempReefer)
	multi.WidthMM = 2400
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.lay
			r4Axles(tr, tc.ps, 2, &l)
			vs := Validate(tr, tc.ps, 2, &l)
			if tc.code == "" && len(vs) > 0 {
				t.Fatalf("want legal, got %v", vs)
			}
			if tc.code != "" && !vs.Has(tc.code) {
				t.Fatalf("want %s, got %v", tc.code, vs)
			}
		})
	}
	// Zones without pallets: a frozen zone on a dry van, and an empty
	// ambient zone whose rows run backwards behind a chilled one.
	dry := r4Trailer(constraints.DryVan)
	l := &Layout{Zones: []Zone{{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0}}}
	r4Axles(dry, nil, 1, l)
	if vs := Validate(dry, nil, 1, l); !vs.Has(CodeTemperature) {
		t.Fatalf("empty frozen zone on a dry van: want %s, got %v", CodeTemperature, vs)
	}
	ps := []Pallet{r4Pallet("c", 0, 1219, 1016, 1000, 300, constraints.Chilled)}
	l = &Layout{Zones: []Zone{{Temperature: constraints.Chilled, FirstRow: 0, LastRow: 0}, {Temperature: constraints.Ambient, FirstRow: 5, LastRow: 4}},
		Placements: []Placement{{Pallet: "c", Side: Left}}}
	r4Axles(multi, ps, 1, l)
	if vs := Validate(multi, ps, 1, l); !vs.Has(CodeZone) {
		t.Fatalf("empty zone with rows 5–4: want %s, got %v", CodeZone, vs)
	}
}

// TestReviewSlideToAMiddleOffset: the kingpin needs the load slid back,
// the axle group forbids sliding it all the way; with two zones the
// bulkheads slide with the load, and the zones still cover the floor from
// the nose to the door.
//
// Four 2,500 kg pallets, two frozen and two chilled, in two rows of two
// turned (2,032 mm). Centre of mass at offset o + 1,016: axle = (36,600,000
// + 10,000·(o + 116)) / 12,100. Kingpin ≤ 12,000 needs axle ≥ 4,000, so
// o ≥ 1,064; axle ≤ 8,000 needs o ≤ 5,904. Slack 13,968: the planner's
// offsets 0 and 13,968 fail, 3,492 is legal.
func TestReviewSlideToAMiddleOffset(t *testing.T) {
	tr := r4Trailer(constraints.MultiTempReefer)
	tr.Axles.KingpinLimitKg, tr.Axles.AxleGroupLimitKg = 12000, 8000
	ps := []Pallet{
		r4Pallet("f1", 0, 1219, 1016, 1000, 2500, constraints.Frozen), r4Pallet("f2", 0, 1219, 1016, 1000, 2500, constraints.Frozen),
		r4Pallet("c1", 0, 1219, 1016, 1000, 2500, constraints.Chilled), r4Pallet("c2", 0, 1219, 1016, 1000, 2500, constraints.Chilled),
	}
	lay := r4Plan(t, tr, ps, 1)
	x := lay.Placements[0].XMM
	if x < 1064 || x > 5904 {
		t.Fatalf("block at %d mm, want within 1,064–5,904", x)
	}
	if len(lay.Zones) != 2 || lay.Zones[0].FromMM != 0 || lay.Zones[1].ToMM != tr.LengthMM || lay.Zones[0].ToMM != lay.Zones[1].FromMM ||
		lay.Zones[0].ToMM != x+1016 {
		t.Fatalf("zones %+v for a block at %d mm: want the bulkhead at %d and the zones from nose to door", lay.Zones, x, x+1016)
	}
}

// TestReviewPlanTrailerRejectsBadInput: every input fault is named with
// its path, none is planned around.
func TestReviewPlanTrailerRejectsBadInput(t *testing.T) {
	tr := r4Trailer(constraints.DryVan)
	good := func() []Pallet {
		return []Pallet{r4Pallet("a", 0, 1219, 1016, 1000, 300, constraints.Ambient), r4Pallet("b", 1, 1219, 1016, 1000, 300, constraints.Ambient)}
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
