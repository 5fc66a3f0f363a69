package loadplan

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

func half(id string, stop int) Pallet {
	return Pallet{ID: id, Stop: stop, LengthMM: 1219, WidthMM: 508, HeightMM: 1200, WeightKg: 300, VolumeM3: 0.7}
}

func quarter(id string, stop int) Pallet {
	return Pallet{ID: id, Stop: stop, LengthMM: 610, WidthMM: 508, HeightMM: 1000, WeightKg: 150, VolumeM3: 0.3}
}

// TestHalvesShareAPosition: 30 full pallets fill a 30-position floor; with
// 20 half pallets of the same stops in their place, 10 full pallets and
// the halves take 20 positions, two halves in each shared one, and the
// layout passes Validate.
func TestHalvesShareAPosition(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	var ps []Pallet
	for i := range 10 {
		ps = append(ps, std(fmt.Sprint("f", i), i%3, 500, constraints.Ambient))
	}
	for i := range 20 {
		ps = append(ps, half(fmt.Sprint("h", i), i%3))
	}
	lay, err := PlanTrailer(tr, ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	if vs := Validate(tr, ps, 3, lay); len(vs) > 0 {
		t.Fatalf("layout fails Validate: %v", vs)
	}
	if lay.Load.Positions != 20 {
		t.Errorf("%d positions used, want 20 (10 full pallets, 20 halves two to a position)", lay.Load.Positions)
	}
	type key struct {
		row  int
		side Side
	}
	per := map[key]int{}
	for _, pl := range lay.Placements {
		if pl.Pallet[0] == 'h' {
			per[key{pl.Row, pl.Side}]++
		}
	}
	if len(per) != 10 {
		t.Errorf("the 20 halves stand in %d positions, want 10: %v", len(per), per)
	}
}

// TestQuartersShareAPosition: eight quarter pallets of one stop take two
// positions, four to each, and a half with two quarters take one.
func TestQuartersShareAPosition(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	for _, tc := range []struct {
		name      string
		pallets   []Pallet
		positions int
	}{
		{"eight quarters", func() []Pallet {
			var ps []Pallet
			for i := range 8 {
				ps = append(ps, quarter(fmt.Sprint("q", i), 0))
			}
			return ps
		}(), 2},
		{"a half and two quarters", []Pallet{half("h", 0), quarter("q0", 0), quarter("q1", 0)}, 1},
		{"two halves of two stops", []Pallet{half("h0", 0), half("h1", 1)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lay, err := PlanTrailer(tr, tc.pallets, 2)
			if err != nil {
				t.Fatal(err)
			}
			if vs := Validate(tr, tc.pallets, 2, lay); len(vs) > 0 {
				t.Fatalf("layout fails Validate: %v", vs)
			}
			if lay.Load.Positions != tc.positions {
				t.Errorf("%d positions used, want %d: %+v", lay.Load.Positions, tc.positions, lay.Placements)
			}
		})
	}
}

// TestHalvesOfConsecutiveStopsPair: one half for each of three stops and
// nothing else; the halves of the last two stops in unloading order share
// the nose position, the first stop's stands alone nearest the door.
func TestHalvesOfConsecutiveStopsPair(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	ps := []Pallet{half("a", 0), half("b", 1), half("c", 2)}
	lay, err := PlanTrailer(tr, ps, 3)
	if err != nil {
		t.Fatal(err)
	}
	if vs := Validate(tr, ps, 3, lay); len(vs) > 0 {
		t.Fatalf("layout fails Validate: %v", vs)
	}
	b, c, a := lay.Placements[placementOf(t, lay, "b")], lay.Placements[placementOf(t, lay, "c")], lay.Placements[placementOf(t, lay, "a")]
	if b.Row != c.Row || b.Side != c.Side || a.XMM < b.XMM {
		t.Errorf("want b and c (stops 1, 2) in one position and a (stop 0) nearest the door; got %+v", lay.Placements)
	}
}

// sharedFloor is a hand-made layout of two halves side by side on the left
// of row 0 and a full pallet on the right, on a straight floor.
func sharedFloor() (Trailer, []Pallet, *Layout) {
	tr := testTrailer(constraints.DryVan)
	ps := []Pallet{half("h0", 0), half("h1", 0), std("f", 0, 300, constraints.Ambient)}
	lay := &Layout{
		Zones: []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 0}},
		Placements: []Placement{
			{Pallet: "h0", Row: 0, Side: Left, XMM: 0},
			{Pallet: "h1", Row: 0, Side: Left, XMM: 0, Slot: 1},
			{Pallet: "f", Row: 0, Side: Right, XMM: 0},
		},
	}
	lay.Axles, _ = axleLoads(tr, ps, []int{0, 1, 2}, lay.Placements, 1)
	return tr, ps, lay
}

func TestValidateAcceptsHalvesSideBySide(t *testing.T) {
	tr, ps, lay := sharedFloor()
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatalf("two halves side by side fail: %v", vs)
	}
	tr.Positions = 2
	if vs := Validate(tr, ps, 1, lay); len(vs) > 0 {
		t.Fatalf("two halves and a full pallet take two positions, yet: %v", vs)
	}
}

func TestValidateCatchesBrokenSharing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(tr *Trailer, ps []Pallet, l *Layout) []Pallet
		code   string
	}{
		{"two halves in one slot", func(_ *Trailer, ps []Pallet, l *Layout) []Pallet { l.Placements[1].Slot = 0; return ps }, CodeOverlap},
		{"a slot past the second", func(_ *Trailer, ps []Pallet, l *Layout) []Pallet { l.Placements[1].Slot = 2; return ps }, CodeSharing},
		{"a full pallet sharing with a half", func(_ *Trailer, ps []Pallet, l *Layout) []Pallet {
			l.Placements[2].Side, l.Placements[2].Slot = Left, 1
			l.Placements[1].Side, l.Placements[1].Slot = Right, 0
			ps[2].WidthMM = 1016
			return ps
		}, CodeSharing},
		{"three halves in one position", func(_ *Trailer, ps []Pallet, l *Layout) []Pallet {
			ps[2] = half("f", 0)
			l.Placements[2] = Placement{Pallet: "f", Row: 0, Side: Left, XMM: 1219}
			return ps
		}, CodeSharing},
		{"a slot on a CENTER side", func(_ *Trailer, ps []Pallet, l *Layout) []Pallet {
			l.Placements[2].Side, l.Placements[2].Slot, l.Placements[2].Row = Center, 1, 0
			return ps
		}, CodeSharing},
		{"a slot beyond the floor", func(tr *Trailer, ps []Pallet, l *Layout) []Pallet {
			tr.WidthMM = 2100
			l.Placements[2] = Placement{Pallet: "f", Row: 1, Side: Right, XMM: 1219, Slot: 1, Turned: true}
			l.Zones[0].LastRow = 1
			return ps
		}, CodeOutsideFloor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, ps, lay := sharedFloor()
			ps = tc.break_(&tr, ps, lay)
			lay.Axles, _ = axleLoads(tr, ps, []int{0, 1, 2}, lay.Placements, 1)
			vs := Validate(tr, ps, 1, lay)
			found := false
			for _, v := range vs {
				found = found || v.Code == tc.code
			}
			if !found {
				t.Errorf("want %s, got %v", tc.code, vs)
			}
		})
	}
}

// TestSharingFallsBackWhenTheFloorIsShort: four halves of four stops
// share two positions, which stand 1,219 mm deep (the pair of stops 3 and
// 2 straight beside the pair of stops 1 and 0); on a floor 1,100 mm long
// PlanTrailer lays them out unshared instead, two turned halves to a row
// of 508 mm.
func TestSharingFallsBackWhenTheFloorIsShort(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.WidthMM, tr.Positions = 2540, 0
	ps := []Pallet{half("a", 0), half("b", 1), half("c", 2), half("d", 3)}
	lay, err := PlanTrailer(tr, ps, 4)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Load.Positions != 2 || lay.LengthMM < 1219 {
		t.Fatalf("on a long floor: %d positions, %d mm; want 2 shared positions 1,219 mm deep: %+v", lay.Load.Positions, lay.LengthMM, lay.Placements)
	}
	tr.LengthMM = 1100
	tr.Axles = constraints.AxleGeometry{KingpinMM: 100, AxleGroupMM: 1000, TareKg: 600, TareCentreMM: 550, KingpinLimitKg: 1e6, AxleGroupLimitKg: 1e6}
	lay, err = PlanTrailer(tr, ps, 4)
	if err != nil {
		t.Fatal(err)
	}
	if vs := Validate(tr, ps, 4, lay); len(vs) > 0 {
		t.Fatalf("layout fails Validate: %v", vs)
	}
	if lay.Load.Positions != 4 {
		t.Errorf("%d positions on the short floor, want 4 (no sharing): %+v", lay.Load.Positions, lay.Placements)
	}
}
