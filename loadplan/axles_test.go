package loadplan

import (
	"math"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestAxleStatesPerStop: the pallets of stop i count at departure
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
func TestAxleStatesPerStop(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.WidthMM = 1300 // one pallet per row
	ps := []Pallet{sizedPallet("far", 0, 1219, 1016, 1000, 1000, constraints.Ambient), sizedPallet("near", 1, 1219, 1016, 1000, 1000, constraints.Ambient)}
	lay := planValid(t, tr, ps, 2)
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

// TestAxleLimitsEachWay: a layout legal by position but over each
// axle limit, or lifting the nose, is caught by Validate and refused by
// PlanTrailer with the matching code.
func TestAxleLimitsEachWay(t *testing.T) {
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 3000, constraints.Ambient), sizedPallet("b", 0, 1219, 1016, 1000, 3000, constraints.Ambient)}
	loose := trailer53(constraints.DryVan)
	loose.Axles.KingpinLimitKg, loose.Axles.AxleGroupLimitKg = 1e6, 1e6
	atNose := planValid(t, loose, ps, 1)
	// Slid behind the axle group, the load lifts the kingpin of a trailer
	// with next to no tare.
	behind := *atNose
	behind.Placements = append([]Placement(nil), atNose.Placements...)
	for i := range behind.Placements {
		behind.Placements[i].XMM = loose.LengthMM - 1016
	}
	behind.Zones = []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 0}}
	noTare := loose
	noTare.Axles.TareKg = 1
	behind.Axles, _ = axleLoads(noTare, ps, []int{0, 1}, behind.Placements, 1)
	if vs := Validate(noTare, ps, 1, &behind); !vs.Has(CodeKingpin) {
		t.Fatalf("load behind the axles, 1 kg tare: want %s, got %v", CodeKingpin, vs)
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

// TestSlideFindsLegalOffset: the only legal positions of the load lie
// between the five offsets the planner tries, so it reports an axle
// violation although a legal layout exists (built here and accepted by
// Validate). The axle loads are linear in the offset, so the legal offsets
// form an interval that can be computed exactly.
//
// Two 5,000 kg pallets side by side turned (one row, 1,016 mm). Centre at
// offset o + 508: axle = (36,600,000 + 10,000·(o − 392)) / 12,100. Kingpin
// ≤ 12,000 needs axle ≥ 4,000, so o ≥ 1,572; axle ≤ 4,500 needs
// o ≤ 2,177. The planner tries o = 0, 3,746, 7,492, … (slack 14,984 / 4).
func TestSlideFindsLegalOffset(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.Axles.KingpinLimitKg, tr.Axles.AxleGroupLimitKg = 12000, 4500
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 5000, constraints.Ambient), sizedPallet("b", 0, 1219, 1016, 1000, 5000, constraints.Ambient)}
	loose := tr
	loose.Axles.KingpinLimitKg, loose.Axles.AxleGroupLimitKg = 1e6, 1e6
	lay := planValid(t, loose, ps, 1)
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

// TestSlideToAMiddleOffset: the kingpin needs the load slid back,
// the axle group forbids sliding it all the way; with two zones the
// bulkheads slide with the load, and the zones still cover the floor from
// the nose to the door.
//
// Four 2,500 kg pallets, two frozen and two chilled, in two rows of two
// turned (2,032 mm). Centre of mass at offset o + 1,016: axle = (36,600,000
// + 10,000·(o + 116)) / 12,100. Kingpin ≤ 12,000 needs axle ≥ 4,000, so
// o ≥ 1,064; axle ≤ 8,000 needs o ≤ 5,904. Slack 13,968: the planner's
// offsets 0 and 13,968 fail, 3,492 is legal.
func TestSlideToAMiddleOffset(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	tr.Axles.KingpinLimitKg, tr.Axles.AxleGroupLimitKg = 12000, 8000
	ps := []Pallet{
		sizedPallet("f1", 0, 1219, 1016, 1000, 2500, constraints.Frozen), sizedPallet("f2", 0, 1219, 1016, 1000, 2500, constraints.Frozen),
		sizedPallet("c1", 0, 1219, 1016, 1000, 2500, constraints.Chilled), sizedPallet("c2", 0, 1219, 1016, 1000, 2500, constraints.Chilled),
	}
	lay := planValid(t, tr, ps, 1)
	x := lay.Placements[0].XMM
	if x < 1064 || x > 5904 {
		t.Fatalf("block at %d mm, want within 1,064–5,904", x)
	}
	if len(lay.Zones) != 2 || lay.Zones[0].FromMM != 0 || lay.Zones[1].ToMM != tr.LengthMM || lay.Zones[0].ToMM != lay.Zones[1].FromMM ||
		lay.Zones[0].ToMM != x+1016 {
		t.Fatalf("zones %+v for a block at %d mm: want the bulkhead at %d and the zones from nose to door", lay.Zones, x, x+1016)
	}
}
