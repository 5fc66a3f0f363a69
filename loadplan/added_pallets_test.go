package loadplan

import (
	"fmt"
	"slices"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// addedOK checks what AddPallets promises: every placement of lay kept, in
// its order, the added pallets placed after them, and Validate accepting
// the whole.
func addedOK(t interface {
	Helper()
	Fatalf(string, ...any)
}, tr Trailer, pallets []Pallet, stops int, lay, got *Layout, more []Pallet, added []int) {
	t.Helper()
	if len(got.Placements) != len(lay.Placements)+len(added) {
		t.Fatalf("%d placements, want %d placed before and %d added", len(got.Placements), len(lay.Placements), len(added))
	}
	if !slices.Equal(got.Placements[:len(lay.Placements)], lay.Placements) {
		t.Fatalf("a placed pallet moved:\nwas %v\nnow %v", lay.Placements, got.Placements[:len(lay.Placements)])
	}
	all := slices.Clone(pallets)
	for _, i := range added {
		all = append(all, more[i])
	}
	if vs := Validate(tr, all, stops, got); len(vs) > 0 {
		t.Fatalf("the layout with the added pallets is invalid: %v", vs)
	}
}

// TestAddPalletsFillsTheDoorEnd: a trailer half full for two stops takes
// late pallets of the first stop (unloaded first, at the door end) without
// moving anything, and none of the last stop, whose pallets stand at the
// nose behind the first stop's.
func TestAddPalletsFillsTheDoorEnd(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	var pallets []Pallet
	for i := range 6 {
		pallets = append(pallets, std(fmt.Sprintf("b%d", i), 1, 500, constraints.Ambient))
	}
	for i := range 6 {
		pallets = append(pallets, std(fmt.Sprintf("a%d", i), 0, 500, constraints.Ambient))
	}
	lay, err := PlanTrailer(tr, pallets, 2)
	if err != nil {
		t.Fatal(err)
	}
	more := []Pallet{std("late-b", 1, 500, constraints.Ambient), std("late-a1", 0, 500, constraints.Ambient), std("late-a2", 0, 500, constraints.Ambient)}
	got, added := AddPallets(tr, pallets, 2, lay, more)
	if !slices.Equal(added, []int{1, 2}) {
		t.Fatalf("added %v, want the two pallets of the first stop [1 2]", added)
	}
	addedOK(t, tr, pallets, 2, lay, got, more, added)
	if got.Load.Positions != lay.Load.Positions+2 {
		t.Errorf("%d positions, want %d", got.Load.Positions, lay.Load.Positions+2)
	}
}

// TestAddPalletsFreeSideOfARow: a stop's odd pallet leaves a side of its
// row free, which a late pallet takes rather than a new row.
func TestAddPalletsFreeSideOfARow(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	pallets := []Pallet{std("a0", 0, 500, constraints.Ambient), std("a1", 0, 500, constraints.Ambient), std("a2", 0, 500, constraints.Ambient)}
	lay, err := PlanTrailer(tr, pallets, 1)
	if err != nil {
		t.Fatal(err)
	}
	more := []Pallet{std("late", 0, 500, constraints.Ambient)}
	got, added := AddPallets(tr, pallets, 1, lay, more)
	if len(added) != 1 {
		t.Fatalf("added %v, want the late pallet", added)
	}
	addedOK(t, tr, pallets, 1, lay, got, more, added)
	odd := lay.Placements[len(lay.Placements)-1]
	if pl := got.Placements[len(got.Placements)-1]; pl.Row != odd.Row || pl.Side == odd.Side || pl.XMM != odd.XMM {
		t.Errorf("the late pallet stands at %+v, want beside the odd pallet at %+v", pl, odd)
	}
	if got.Rows != lay.Rows || got.Load.Positions != lay.Load.Positions+1 {
		t.Errorf("%d rows and %d positions, want %d and %d", got.Rows, got.Load.Positions, lay.Rows, lay.Load.Positions+1)
	}
}

// TestAddPalletsFullTrailer: a trailer whose positions are all taken takes
// no floor pallet; a stackable one stands on a pallet that may carry it.
func TestAddPalletsFullTrailer(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.Positions = 4
	var pallets []Pallet
	for i := range 4 {
		p := std(fmt.Sprintf("a%d", i), 0, 600, constraints.Ambient)
		p.HeightMM, p.MayCarry = 1200, true
		pallets = append(pallets, p)
	}
	lay, err := PlanTrailer(tr, pallets, 1)
	if err != nil {
		t.Fatal(err)
	}
	flat := std("flat", 0, 400, constraints.Ambient)
	top := flat
	top.ID, top.HeightMM, top.MayBeStacked = "top", 1200, true
	more := []Pallet{flat, top}
	got, added := AddPallets(tr, pallets, 1, lay, more)
	if !slices.Equal(added, []int{1}) {
		t.Fatalf("added %v, want only the stackable pallet [1]", added)
	}
	addedOK(t, tr, pallets, 1, lay, got, more, added)
	if pl := got.Placements[len(got.Placements)-1]; pl.Level != 1 {
		t.Errorf("the added pallet stands at level %d, want on top (1)", pl.Level)
	}
}

// TestAddPalletsNoZoneForTheClass: a dry van's layout takes no frozen
// pallet, and a reefer's single zone no pallet of another class.
func TestAddPalletsNoZoneForTheClass(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	pallets := []Pallet{std("a0", 0, 500, constraints.Chilled)}
	lay, err := PlanTrailer(tr, pallets, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, added := AddPallets(tr, pallets, 1, lay, []Pallet{std("f", 0, 500, constraints.Frozen)})
	if len(added) != 0 || !slices.Equal(got.Placements, lay.Placements) {
		t.Fatalf("added %v: a frozen pallet needs a zone (bulkheads) the layout does not have", added)
	}
}

// TestAddPalletsKeepsEveryRule: for random trips laid out by PlanTrailer
// and random late pallets, AddPallets never moves a placed pallet and its
// layout passes Validate.
func TestAddPalletsKeepsEveryRule(t *testing.T) {
	floor, stacked, shared := 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		tr := testTrailer(constraints.MultiTempReefer)
		stops := rapid.IntRange(1, 4).Draw(t, "stops")
		classes := []constraints.Temperature{constraints.Ambient, constraints.Chilled, constraints.Frozen}
		pallet := func(id string) Pallet {
			p := std(id, rapid.IntRange(0, stops-1).Draw(t, id+".stop"), rapid.Float64Range(100, 900).Draw(t, id+".kg"), classes[rapid.IntRange(0, 2).Draw(t, id+".class")])
			if rapid.Bool().Draw(t, id+".half") {
				p.WidthMM = 508
			}
			p.HeightMM = rapid.IntRange(800, 1800).Draw(t, id+".height")
			p.MayCarry, p.MayBeStacked = rapid.Bool().Draw(t, id+".carry"), rapid.Bool().Draw(t, id+".stacked")
			return p
		}
		var pallets, more []Pallet
		for i := range rapid.IntRange(1, 24).Draw(t, "n") {
			pallets = append(pallets, pallet(fmt.Sprintf("p%d", i)))
		}
		for i := range rapid.IntRange(1, 8).Draw(t, "late") {
			more = append(more, pallet(fmt.Sprintf("late%d", i)))
		}
		lay, err := PlanTrailer(tr, pallets, stops)
		if err != nil {
			t.Skip("no layout for the trip")
		}
		got, added := AddPallets(tr, pallets, stops, lay, more)
		addedOK(t, tr, pallets, stops, lay, got, more, added)
		floor += len(added)
		for _, pl := range got.Placements[len(lay.Placements):] {
			if pl.Level == 1 {
				stacked++
			}
			if pl.Slot == 1 {
				shared++
			}
		}
	})
	// Over a run, pallets go on the floor, on top and beside halves: each
	// way of adding was checked.
	if floor == 0 || stacked == 0 || shared == 0 {
		t.Fatalf("%d pallets added, %d stacked, %d in a shared position's slot 1: the trips drawn do not exercise every way of adding", floor, stacked, shared)
	}
}

// TestKeepPalletsLeavesTheFloor: a trip for two stops that loses pallets
// of both keeps every other pallet where it stood, with the axle loads and
// the load of what is left, and Validate accepts it; a pallet the layout
// does not place, and a pallet that stood on one taken away, are refused.
func TestKeepPalletsLeavesTheFloor(t *testing.T) {
	tr := testTrailer(constraints.DryVan)
	tr.Positions = 4 // the floor runs out: PlanTrailer stacks
	var pallets []Pallet
	for i := range 6 {
		p := std(fmt.Sprintf("p%d", i), i%2, 400, constraints.Ambient)
		p.HeightMM, p.MayBeStacked, p.MayCarry = 1000, true, true
		pallets = append(pallets, p)
	}
	lay, err := PlanTrailer(tr, pallets, 2)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]Placement{}
	var floor, top []string // pallets on the floor, and on another
	for _, pl := range lay.Placements {
		where[pl.Pallet] = pl
		if pl.Level == 0 {
			floor = append(floor, pl.Pallet)
		} else {
			top = append(top, pl.Pallet)
		}
	}
	if len(top) == 0 {
		t.Fatalf("nothing stacked on %d positions: %v", tr.Positions, lay.Placements)
	}
	// A pallet on top of another goes: what is under it stays.
	left := slices.DeleteFunc(slices.Clone(pallets), func(p Pallet) bool { return p.ID == top[0] })
	got, ok := KeepPallets(tr, left, 2, lay)
	if !ok {
		t.Fatalf("taking %s off the top refused", top[0])
	}
	if len(got.Placements) != len(left) {
		t.Fatalf("%d placements, want %d", len(got.Placements), len(left))
	}
	for _, pl := range got.Placements {
		if pl != where[pl.Pallet] {
			t.Errorf("pallet %s moved from %+v to %+v", pl.Pallet, where[pl.Pallet], pl)
		}
	}
	if vs := Validate(tr, left, 2, got); len(vs) > 0 {
		t.Fatalf("invalid: %v", vs)
	}
	if got.Load.WeightKg != 400*float64(len(left)) {
		t.Errorf("load %.0f kg, want %.0f", got.Load.WeightKg, 400*float64(len(left)))
	}
	// A pallet under another goes: the one on top would float.
	under := slices.IndexFunc(floor, func(id string) bool {
		return slices.ContainsFunc(top, func(up string) bool {
			return where[up].Row == where[id].Row && where[up].Side == where[id].Side
		})
	})
	if under < 0 {
		t.Fatalf("no pallet carries another: %v", lay.Placements)
	}
	gone := slices.DeleteFunc(slices.Clone(pallets), func(p Pallet) bool { return p.ID == floor[under] })
	if _, ok := KeepPallets(tr, gone, 2, lay); ok {
		t.Errorf("taking %s from under a pallet accepted", floor[under])
	}
	if _, ok := KeepPallets(tr, append(slices.Clone(pallets), std("late", 0, 400, constraints.Ambient)), 2, lay); ok {
		t.Errorf("a pallet the layout does not place accepted")
	}
}
