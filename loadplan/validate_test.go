package loadplan

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestValidateGeometry: hand-made layouts whose sides, orientation and
// lanes matter.
func TestValidateGeometry(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.WidthMM = 2400
	a := sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)
	b := sizedPallet("b", 0, 1219, 1016, 1000, 100, constraints.Ambient)
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

// TestValidateRejectsUnjudgeablePallets: Validate is the oracle of
// engine.Validate. A pallet whose stop is outside the trip never counts in
// the axle loads (Stop -1) and a negative or NaN weight hides payload, yet
// Validate accepts such layouts as legal.
func TestValidateRejectsUnjudgeablePallets(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	ok := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 500, constraints.Ambient), sizedPallet("b", 0, 1219, 1016, 1000, 500, constraints.Ambient)}
	lay := planValid(t, tr, ok, 1)
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

// TestValidatePalletFitsFloor: Validate's own height and width tests, on
// layouts PlanTrailer would never make.
func TestValidatePalletFitsFloor(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 100, constraints.Ambient)}
	lay := planValid(t, tr, ps, 1)
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

// fillAxles fills in the axle states Validate recomputes, so that a hand-made
// layout fails only on what a test breaks.
func fillAxles(tr Trailer, ps []Pallet, stops int, l *Layout) {
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

// TestValidateHandMadeLayouts: rules of Validate that only a hand-made
// layout can break, since PlanTrailer never does.
func TestValidateHandMadeLayouts(t *testing.T) {
	tr := trailer53(constraints.DryVan)
	tr.WidthMM = 2400
	amb := []Zone{{Temperature: constraints.Ambient, FirstRow: 0, LastRow: 3}}
	std := func(id string, stop int) Pallet {
		return sizedPallet(id, stop, 1219, 1016, 1000, 300, constraints.Ambient)
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
		{"payload", []Pallet{sizedPallet("h1", 0, 1219, 1016, 1000, 10001, constraints.Ambient), sizedPallet("h2", 0, 1219, 1016, 1000, 10000, constraints.Ambient)},
			Layout{Zones: amb, Placements: []Placement{{Pallet: "h1", Side: Left}, {Pallet: "h2", Side: Right, Turned: true}}}, CodePayload},
	}
	multi := trailer53(constraints.MultiTempReefer)
	multi.WidthMM = 2400
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.lay
			fillAxles(tr, tc.ps, 2, &l)
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
	dry := trailer53(constraints.DryVan)
	l := &Layout{Zones: []Zone{{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0}}}
	fillAxles(dry, nil, 1, l)
	if vs := Validate(dry, nil, 1, l); !vs.Has(CodeTemperature) {
		t.Fatalf("empty frozen zone on a dry van: want %s, got %v", CodeTemperature, vs)
	}
	ps := []Pallet{sizedPallet("c", 0, 1219, 1016, 1000, 300, constraints.Chilled)}
	l = &Layout{Zones: []Zone{{Temperature: constraints.Chilled, FirstRow: 0, LastRow: 0}, {Temperature: constraints.Ambient, FirstRow: 5, LastRow: 4}},
		Placements: []Placement{{Pallet: "c", Side: Left}}}
	fillAxles(multi, ps, 1, l)
	if vs := Validate(multi, ps, 1, l); !vs.Has(CodeZone) {
		t.Fatalf("empty zone with rows 5–4: want %s, got %v", CodeZone, vs)
	}
}

// TestValidateDoors: a frozen row at the nose behind a chilled row for a
// later stop comes off through a side door whose opening holds it, the
// pallet against that wall first; through the rear door or a door that
// misses it, it does not, and Validate names its zone and stop.
func TestValidateDoors(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	pal := func(id string, stop int, temp constraints.Temperature) Pallet {
		return sizedPallet(id, stop, 1219, 1016, 1000, 300, temp)
	}
	zones := []Zone{{Temperature: constraints.Frozen, FirstRow: 0, LastRow: 0}, {Temperature: constraints.Chilled, FirstRow: 1, LastRow: 1}}
	layout := []Placement{
		{Pallet: "curb", Side: Right, Turned: true},
		{Pallet: "road", Side: Left, Turned: true},
		{Pallet: "c1", Row: 1, Side: Left, Turned: true, Zone: 1, XMM: 1016},
		{Pallet: "c2", Row: 1, Side: Right, Turned: true, Zone: 1, XMM: 1016},
	}
	door := func(side constraints.DoorSide, from, to int) []constraints.Door {
		return []constraints.Door{{Side: constraints.RearDoor}, {Side: side, FromMM: from, ToMM: to}}
	}
	cases := []struct {
		name     string
		doors    []constraints.Door
		curbStop int      // the frozen pallet against the curbside wall; the other is stop 0's
		stuck    []string // placements reported, by pallet
	}{
		{"rear door only", nil, 0, []string{"curb", "road"}},
		{"curbside door over the row", door(constraints.CurbDoor, 0, 2500), 0, nil},
		{"curbside door the exact row", door(constraints.CurbDoor, 0, 1016), 0, nil},
		{"curbside door a millimetre short", door(constraints.CurbDoor, 1, 2500), 0, []string{"curb", "road"}},
		{"roadside door over the row", door(constraints.RoadDoor, 0, 2500), 0, nil},
		{"curbside door, the later stop against it", door(constraints.CurbDoor, 0, 2500), 1, []string{"road"}},
		{"roadside door, the later stop on the curb side", door(constraints.RoadDoor, 0, 2500), 1, nil},
		{"side door over the chilled row only", door(constraints.CurbDoor, 1016, 2500), 0, []string{"curb", "road"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := tr
			tr.Doors = tc.doors
			ps := []Pallet{pal("curb", tc.curbStop, constraints.Frozen), pal("road", 0, constraints.Frozen),
				pal("c1", 1, constraints.Chilled), pal("c2", 1, constraints.Chilled)}
			l := Layout{Zones: zones, Placements: slices.Clone(layout)}
			fillAxles(tr, ps, 2, &l)
			var got []string
			for _, v := range Validate(tr, ps, 2, &l) {
				if v.Code != CodeUnloadingOrder {
					t.Fatalf("unexpected %v", v)
				}
				k := 0
				fmt.Sscanf(v.Path, "placements[%d]", &k)
				got = append(got, l.Placements[k].Pallet)
				if !strings.Contains(v.Message, "zone 0") || !strings.Contains(v.Message, "stop 0") {
					t.Errorf("%v does not name zone 0 and stop 0", v)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.stuck) {
				t.Fatalf("stuck %v, want %v", got, tc.stuck)
			}
		})
	}
}

// TestPlanTrailerRejectsBadDoors: doors that cannot describe a trailer are
// input errors with the door's path, and no layout is judged.
func TestPlanTrailerRejectsBadDoors(t *testing.T) {
	tr := trailer53(constraints.MultiTempReefer)
	tr.Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 15000, ToMM: 16001}}
	ps := []Pallet{sizedPallet("a", 0, 1219, 1016, 1000, 300, constraints.Frozen)}
	_, err := PlanTrailer(tr, ps, 1)
	vs := constraints.AsViolations(err)
	if len(vs) != 1 || vs[0].Code != CodeInvalid || vs[0].Path != "trailer.doors[1].toMM" {
		t.Fatalf("got %v, want one %s at trailer.doors[1].toMM", err, CodeInvalid)
	}
	if vs := Validate(tr, ps, 1, &Layout{}); len(vs) != 1 || vs[0].Path != "trailer.doors[1].toMM" {
		t.Fatalf("Validate: %v, want the door alone", vs)
	}
}
