package loadplan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/haulplan/haulplan/constraints"
)

// The unloading rule Validate applies, written apart from the planner's
// (door_reach.go):
//
// At stop s every pallet for stop s comes off through one of the
// trailer's doors (the rear door alone when the trailer lists none), with
// the pallets of stops before s already off and those of later stops still
// on board. Pallets of stop s may come off in any order among themselves,
// so a pallet of stop s standing in the way of another is taken off first.
// A pallet comes off a door when it carries no pallet still on board and
// nothing on board stands in its way out:
//
//   - through the rear door it moves towards the back: nothing on board
//     may start nearer the door than it does (a larger XMM), on either
//     side: pallets abreast fill the width, so the rear door's aisle is the
//     whole floor behind the pallet's nose-side edge, which on a floor of
//     one zone is the rule that a pallet for a later stop never starts
//     nearer the door than one for an earlier stop. Bulkheads between zones
//     open (they swing up or have doors), so a pallet in a zone nearer the
//     nose is reached through the zones behind it once nothing of a later
//     stop stands in its way;
//   - through a side door it moves straight across: its stretch along the
//     floor lies within the door's opening, and nothing on board stands
//     between it and that wall (CURB is the RIGHT wall, ROAD the LEFT) over
//     its stretch.
//
// A stacked pallet comes off before the one under it; the pallet under a
// stacked one is not in its way. On a rear-only trailer with one zone
// this is what loading in reverse stop order gives.

// unloadingOrder checks that the layout unloads stop by stop through the
// trailer's doors, as the rule above says, and reports every pallet that
// cannot come off at its stop, naming its zone and stop. A pallet that
// cannot is then taken as off, so that it is reported once.
func (c *layoutCheck) unloadingOrder(stops int) {
	doors := constraints.DoorsOrRear(c.tr.Doors)
	onBoard := make([]bool, len(c.lay.Placements))
	byStop := map[int][]int{}
	for k := range c.lay.Placements {
		if c.counted(k) {
			onBoard[k] = true
			s := c.palletOf(k).Stop
			byStop[s] = append(byStop[s], k)
		}
	}
	for s := 0; s < stops; s++ {
		ks := byStop[s]
		// Nearest the door and top first: one pass clears a floor loaded
		// in reverse stop order.
		sort.SliceStable(ks, func(a, b int) bool {
			ra, rb := c.rects[ks[a]], c.rects[ks[b]]
			if ra.x0 != rb.x0 {
				return ra.x0 > rb.x0
			}
			return c.lay.Placements[ks[a]].Level > c.lay.Placements[ks[b]].Level
		})
		left := len(ks)
		for moved := true; moved && left > 0; {
			moved = false
			for _, k := range ks {
				if onBoard[k] && c.offThroughSomeDoor(k, doors, onBoard) {
					onBoard[k], moved = false, true
					left--
				}
			}
		}
		for _, k := range ks {
			if !onBoard[k] {
				continue
			}
			pl := c.lay.Placements[k]
			c.vs.Add(CodeUnloadingOrder, constraints.Index("placements", k),
				"pallet %q for stop %d in zone %d cannot come off through any door once the pallets of stops before %d are off: %s",
				pl.Pallet, s, pl.Zone, s, c.whyStuck(k, doors, onBoard))
		}
		for _, k := range ks {
			onBoard[k] = false
		}
	}
}

// offThroughSomeDoor reports whether placement k can come off through one
// of doors with the placements onBoard still on board.
func (c *layoutCheck) offThroughSomeDoor(k int, doors []constraints.Door, onBoard []bool) bool {
	if c.carriesOnBoard(k, onBoard) >= 0 {
		return false
	}
	for _, d := range doors {
		if ok, _ := c.throughDoor(k, d, onBoard); ok {
			return true
		}
	}
	return false
}

// carriesOnBoard returns a stacked placement on board standing on floor
// placement k, -1 when none does.
func (c *layoutCheck) carriesOnBoard(k int, onBoard []bool) int {
	if c.lay.Placements[k].Level != 0 {
		return -1
	}
	r := c.rects[k]
	for j, on := range onBoard {
		if on && j != k && c.lay.Placements[j].Level == 1 {
			q := c.rects[j]
			if q.x0 < r.x1 && r.x0 < q.x1 && q.y0 < r.y1 && r.y0 < q.y1 {
				return j
			}
		}
	}
	return -1
}

// throughDoor reports whether placement k can come off through door d,
// and otherwise the placement on board in its way (-1 when it is not in
// front of the door at all).
func (c *layoutCheck) throughDoor(k int, d constraints.Door, onBoard []bool) (bool, int) {
	r := c.rects[k]
	W := float64(c.tr.WidthMM)
	var way rect // the floor the pallet crosses on its way out
	switch d.Side {
	case constraints.RearDoor:
		for j, on := range onBoard {
			if on && j != k && c.rects[j].x0 > r.x0 {
				return false, j
			}
		}
		return true, -1
	case constraints.CurbDoor, constraints.RoadDoor:
		if r.x0 < float64(d.FromMM) || r.x1 > float64(d.ToMM) {
			return false, -1
		}
		way = rect{r.x0, r.x1, r.y1, W}
		if d.Side == constraints.RoadDoor {
			way = rect{r.x0, r.x1, 0, r.y0}
		}
	default:
		return false, -1
	}
	stacked := c.lay.Placements[k].Level == 1
	for j, on := range onBoard {
		if !on || j == k {
			continue
		}
		q := c.rects[j]
		if stacked && c.lay.Placements[j].Level == 0 && q.x0 < r.x1 && r.x0 < q.x1 && q.y0 < r.y1 && r.y0 < q.y1 {
			continue // the pallet it stands on
		}
		if q.x0 < way.x1 && way.x0 < q.x1 && q.y0 < way.y1 && way.y0 < q.y1 {
			return false, j
		}
	}
	return true, -1
}

// whyStuck says, door by door, what keeps placement k on board.
func (c *layoutCheck) whyStuck(k int, doors []constraints.Door, onBoard []bool) string {
	if j := c.carriesOnBoard(k, onBoard); j >= 0 {
		return fmt.Sprintf("pallet %q for stop %d stands on it", c.lay.Placements[j].Pallet, c.palletOf(j).Stop)
	}
	var why []string
	for _, d := range doors {
		name := "rear door"
		if d.Side != constraints.RearDoor {
			name = fmt.Sprintf("%s door %d–%d mm", d.Side, d.FromMM, d.ToMM)
		}
		switch ok, j := c.throughDoor(k, d, onBoard); {
		case ok:
		case j < 0:
			why = append(why, name+": it stands outside the opening")
		default:
			why = append(why, fmt.Sprintf("%s: pallet %q for stop %d stands in the way", name, c.lay.Placements[j].Pallet, c.palletOf(j).Stop))
		}
	}
	return strings.Join(why, "; ")
}
