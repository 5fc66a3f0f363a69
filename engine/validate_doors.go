package engine

import (
	"fmt"
	"strings"

	"github.com/haulplan/haulplan/constraints"
)

// unloadingOrder: the load comes off stop by stop through the trailer
// type's doors (the rear door alone when it lists none). At each stop,
// with the earlier stops' pallets off and the later stops' on board, every
// pallet of the stop comes off through some door, its own stop's pallets
// in whatever order lets them:
//
//   - the rear door: nothing on board starts nearer the door (a larger
//     XMM) than the pallet, on either side, whatever the zone (bulkheads
//     open); on a floor of one zone this is "a pallet for a later stop
//     never starts nearer the door than one for an earlier stop";
//   - a CURB door (the right wall, seen from the rear door) or a ROAD door
//     (the left wall): the pallet's stretch along the floor lies within
//     the door's fromMM–toMM, and nothing on board covers the floor
//     between the pallet and that wall over its stretch;
//   - a pallet carrying a pallet still on board does not come off; the
//     pallet a stacked one stands on is not in its way.
//
// Each pallet that cannot come off at its stop is reported, with its zone
// and stop, and then counts as off.
func (f *floorCheck) unloadingOrder() {
	doors := f.t.Doors
	if len(doors) == 0 {
		doors = []constraints.Door{{Side: constraints.RearDoor}}
	}
	pls := f.lp.Placements
	aboard := make([]bool, len(pls))
	for k := range pls {
		aboard[k] = f.st[k].stands
	}
	for stop := 0; stop < f.stops; stop++ {
		var due []int
		for k := range pls {
			if f.st[k].stands && f.pallets[f.st[k].pallet].stop == stop {
				due = append(due, k)
			}
		}
		for changed := true; changed; {
			changed = false
			for _, k := range due {
				if !aboard[k] {
					continue
				}
				if _, ok := f.exit(k, doors, aboard, false); ok {
					aboard[k], changed = false, true
				}
			}
		}
		for _, k := range due {
			if !aboard[k] {
				continue
			}
			why, _ := f.exit(k, doors, aboard, true)
			f.vs.Add(codeUnloadingOrder, f.placementPath(k), "pallet %q for stop %d (zone %d) cannot be unloaded at its stop through the trailer's doors with the later stops' pallets on board: %s",
				pls[k].Pallet, stop, pls[k].Zone, why)
		}
		for _, k := range due {
			aboard[k] = false
		}
	}
}

// exit reports whether placement k can come off through one of doors with
// the placements aboard on board, and when it cannot and explain is set,
// why, door by door (the words are written only for a violation: most
// calls ask of a pallet that does come off).
func (f *floorCheck) exit(k int, doors []constraints.Door, aboard []bool, explain bool) (string, bool) {
	pls := f.lp.Placements
	me := f.st[k].box
	name := func(j int) string {
		return fmt.Sprintf("pallet %q for stop %d", pls[j].Pallet, f.pallets[f.st[j].pallet].stop)
	}
	if pls[k].Level == 0 {
		for j := range pls {
			if j != k && aboard[j] && pls[j].Level == 1 && f.st[j].box.overlaps(me) {
				if !explain {
					return "", false
				}
				return name(j) + " stands on it", false
			}
		}
	}
	width := float64(f.t.Inside.WidthMM)
	var reasons []string
	for _, d := range doors {
		var path box // the floor the pallet crosses to reach the door
		label := func() string {
			if d.Side == constraints.RearDoor {
				return "rear door"
			}
			return fmt.Sprintf("%s door %d–%d mm", d.Side, d.FromMM, d.ToMM)
		}
		switch d.Side {
		case constraints.RearDoor:
		case constraints.CurbDoor:
			path = box{me.x0, me.x1, me.y1, width}
		case constraints.RoadDoor:
			path = box{me.x0, me.x1, 0, me.y0}
		default:
			continue
		}
		if d.Side != constraints.RearDoor && (me.x0 < float64(d.FromMM) || me.x1 > float64(d.ToMM)) {
			if explain {
				reasons = append(reasons, label()+": the pallet is not within its opening")
			}
			continue
		}
		blocker := -1
		for j := range pls {
			if j == k || !aboard[j] {
				continue
			}
			b := f.st[j].box
			if d.Side == constraints.RearDoor {
				if b.x0 > me.x0 {
					blocker = j
					break
				}
				continue
			}
			beneath := pls[k].Level == 1 && pls[j].Level == 0 && b.overlaps(me)
			if !beneath && b.overlaps(path) {
				blocker = j
				break
			}
		}
		if blocker < 0 {
			return "", true
		}
		if explain {
			reasons = append(reasons, fmt.Sprintf("%s: %s is in the way", label(), name(blocker)))
		}
	}
	return strings.Join(reasons, "; "), false
}
