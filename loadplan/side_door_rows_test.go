package loadplan

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// middleDoors are a three-zone reefer's doors: the rear door, a curbside
// door for the nose compartment and one for the middle compartment.
var middleDoors = []constraints.Door{
	{Side: constraints.RearDoor},
	{Side: constraints.CurbDoor, FromMM: 0, ToMM: 2500},
	{Side: constraints.CurbDoor, FromMM: 5000, ToMM: 7500},
}

// middleDoorTrip is a four-stop trip on a three-zone reefer whose middle
// (chilled) zone runs from about 2 m to 8 m: its pallets for the last
// stop fill most of it, and its pallets for stop 0 would stand at its
// rear end, past the middle door's opening and behind the ambient pallets
// for stops 1 and 2, or at its nose end, short of the opening. Only in the
// rows under the middle door do they come off at stop 0.
func middleDoorTrip() (Trailer, []Pallet, int) {
	tr := testTrailer(constraints.MultiTempReefer)
	tr.Equipment.MaxZones = 3
	tr.Doors = middleDoors
	var ps []Pallet
	add := func(n, stop int, temp constraints.Temperature) {
		for range n {
			ps = append(ps, std(fmt.Sprintf("%s%d-%d", temp, stop, len(ps)), stop, 300, temp))
		}
	}
	add(2, 0, constraints.Frozen)
	add(2, 3, constraints.Frozen)
	add(2, 0, constraints.Chilled)
	add(2, 2, constraints.Chilled)
	add(8, 3, constraints.Chilled)
	add(2, 1, constraints.Ambient)
	add(2, 2, constraints.Ambient)
	return tr, ps, 4
}

// TestMiddleZoneDoorTakesItsFirstStop: the middle zone's pallets for stop
// 0 stand within the middle door's opening, curbside or beside a pallet of
// their own stop, and the floor passes Validate; without that door no
// layout unloads in order.
func TestMiddleZoneDoorTakesItsFirstStop(t *testing.T) {
	tr, ps, stops := middleDoorTrip()
	lay := planValid(t, tr, ps, stops)
	rowStops := map[[2]int][]int{} // stops by zone and row
	for _, pl := range lay.Placements {
		at := [2]int{pl.Zone, pl.Row}
		rowStops[at] = append(rowStops[at], ps[placementIndex(t, ps, pl.Pallet)].Stop)
	}
	for _, pl := range lay.Placements {
		p := ps[placementIndex(t, ps, pl.Pallet)]
		if p.Temperature != constraints.Chilled || p.Stop != 0 {
			continue
		}
		e := extentOf(pl, p, tr.WidthMM)
		if e.x0 < 5000 || e.x1 > 7500 {
			t.Errorf("chilled pallet %s for stop 0 stands at %.0f–%.0f mm, outside the middle door's opening (5000–7500 mm)", p.ID, e.x0, e.x1)
		}
		for _, s := range rowStops[[2]int{pl.Zone, pl.Row}] {
			if s != 0 && pl.Side != Right {
				t.Errorf("chilled pallet %s for stop 0 stands %s beside a pallet for stop %d", p.ID, pl.Side, s)
			}
		}
	}
	tr.Doors = noseCurbDoor
	_, err := PlanTrailer(tr, ps, stops)
	if vs := constraints.AsViolations(err); !vs.Has(CodeUnloadingOrder) {
		t.Fatalf("without the middle door: %v, want %s", err, CodeUnloadingOrder)
	}
}

// placementIndex is the index in ps of the pallet with the given ID.
func placementIndex(t *testing.T, ps []Pallet, id string) int {
	t.Helper()
	for i, p := range ps {
		if p.ID == id {
			return i
		}
	}
	t.Fatalf("no pallet %s", id)
	return -1
}

// TestEmptyFloorAlignsRowsWithTheDoor: a three-zone reefer whose middle
// zone's rows, a metre deep each from where the frozen zone ends, never
// start where two of them fit under the middle door's opening (5,300–
// 7,400 mm). The loader leaves 220 mm of floor empty before the middle
// zone's four pallets for stop 0, behind its pallets for the last stop,
// so that they stand under the opening; no other floor unloads in order,
// since ambient pallets for stop 1 stand behind them.
func TestEmptyFloorAlignsRowsWithTheDoor(t *testing.T) {
	tr := testTrailer(constraints.MultiTempReefer)
	tr.Equipment.MaxZones = 3
	tr.Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 0, ToMM: 2500},
		{Side: constraints.CurbDoor, FromMM: 5300, ToMM: 7400}}
	var ps []Pallet
	for _, g := range []struct {
		n, stop int
		temp    constraints.Temperature
	}{{2, 0, constraints.Frozen}, {4, 2, constraints.Frozen}, {4, 0, constraints.Chilled}, {4, 2, constraints.Chilled}, {2, 1, constraints.Ambient}} {
		for range g.n {
			ps = append(ps, std(fmt.Sprintf("%s%d-%d", g.temp, g.stop, len(ps)), g.stop, 300, g.temp))
		}
	}
	lay := planValid(t, tr, ps, 3)
	for _, pl := range lay.Placements {
		p := ps[placementIndex(t, ps, pl.Pallet)]
		if p.Temperature != constraints.Chilled || p.Stop != 0 {
			continue
		}
		if e := extentOf(pl, p, tr.WidthMM); e.x0 < 5300 || e.x1 > 7400 {
			t.Errorf("%s for stop 0 stands at %.0f–%.0f mm, outside the middle door's opening (5300–7400 mm)", p.ID, e.x0, e.x1)
		}
	}
}
