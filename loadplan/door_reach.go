package loadplan

import (
	"fmt"
	"slices"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// The planner's view of the doors (Validate has its own, validate_doors.go):
// at each stop, every pallet of that stop comes off through some door
// once the earlier stops' pallets are off; through the rear door when
// nothing on board starts nearer the door; through a side door
// straight across, within the opening, nothing on board between it and
// that wall over its stretch; a stacked pallet before the one under it.

// extent is a placed pallet's footprint: x along the floor from the nose,
// y across it from the LEFT (road-side) wall.
type extent struct{ x0, x1, y0, y1 float64 }

func (a extent) meets(b extent) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// extentOf is where placement pl of pallet p stands on a floor width wide.
func extentOf(pl Placement, p Pallet, width int) extent {
	a, c := along(p, pl.Turned), across(p, pl.Turned)
	y := pl.Slot * c
	switch pl.Side {
	case Right:
		y = width - (pl.Slot+1)*c
	case Center:
		y = (width - c) / 2
	}
	x := pl.XMM
	return extent{float64(x), float64(x + a), float64(y), float64(y + c)}
}

// stuckPallets returns the placements of pls (pallet idx[k] for placement
// k) whose pallet cannot come off at its stop through tr's doors, in stop
// order; none for a layout that unloads in order.
func stuckPallets(tr Trailer, pallets []Pallet, idx []int, pls []Placement, stops int) []int {
	u := unloading{doors: constraints.DoorsOrRear(tr.Doors), width: float64(tr.WidthMM), pls: pls}
	u.ex = make([]extent, len(pls))
	for k, pl := range pls {
		u.ex[k] = extentOf(pl, pallets[idx[k]], tr.WidthMM)
	}
	u.aboard = make([]bool, len(pls))
	for k := range u.aboard {
		u.aboard[k] = true
	}
	var stuck []int
	for s := range stops {
		var mine []int
		for k := range pls {
			if pallets[idx[k]].Stop == s {
				mine = append(mine, k)
			}
		}
		sort.SliceStable(mine, func(a, b int) bool { return u.ex[mine[a]].x0 > u.ex[mine[b]].x0 })
		for progress := true; progress; {
			progress = false
			for _, k := range mine {
				if u.aboard[k] && u.comesOff(k) {
					u.aboard[k], progress = false, true
				}
			}
		}
		for _, k := range mine {
			if u.aboard[k] {
				stuck = append(stuck, k)
				u.aboard[k] = false
			}
		}
	}
	return stuck
}

// unloading is a floor being unloaded stop by stop through its doors:
// the placements pls, where each stands (ex), and which are still
// aboard.
type unloading struct {
	doors  []constraints.Door
	width  float64
	pls    []Placement
	ex     []extent
	aboard []bool
}

// free reports whether way, the floor between placement k and a side
// door, is clear of every pallet aboard but k and the pallet k stands on.
func (u *unloading) free(k int, way extent) bool {
	for j := range u.pls {
		if !u.aboard[j] || j == k {
			continue
		}
		under := u.pls[k].Level == 1 && u.pls[j].Level == 0 && u.ex[j].meets(u.ex[k])
		if !under && u.ex[j].meets(way) {
			return false
		}
	}
	return true
}

// rearFree reports whether no pallet aboard starts nearer the rear door
// than placement k.
func (u *unloading) rearFree(k int) bool {
	for j := range u.pls {
		if u.aboard[j] && u.ex[j].x0 > u.ex[k].x0 {
			return false
		}
	}
	return true
}

// comesOff reports whether placement k can come off now: nothing aboard
// stands on it, and some door reaches it, the rear door past nothing
// aboard nearer the rear, a side door whose opening spans it across a
// free way.
func (u *unloading) comesOff(k int) bool {
	e := u.ex[k]
	if u.pls[k].Level == 0 {
		for j := range u.pls {
			if u.aboard[j] && j != k && u.pls[j].Level == 1 && u.ex[j].meets(e) {
				return false
			}
		}
	}
	for _, d := range u.doors {
		var way extent
		switch d.Side {
		case constraints.RearDoor:
			if u.rearFree(k) {
				return true
			}
			continue
		case constraints.CurbDoor:
			way = extent{e.x0, e.x1, e.y1, u.width}
		case constraints.RoadDoor:
			way = extent{e.x0, e.x1, 0, e.y0}
		}
		if d.Side != constraints.RearDoor && (e.x0 < float64(d.FromMM) || e.x1 > float64(d.ToMM)) {
			continue
		}
		if u.free(k, way) {
			return true
		}
	}
	return false
}

// doorViolations names, for each zone and stop, the pallets of a layout
// that cannot come off at their stop (stuck, from stuckPallets), at the
// path of the group's first pallet ("pallets[7]"), so that a route
// planner can tell which stop and class to leave out or move later.
func doorViolations(tr Trailer, pallets []Pallet, idx []int, lay *Layout, stuck []int) constraints.Violations {
	type group struct{ zone, stop int }
	var order []group
	ids := map[group][]string{}
	first := map[group]int{} // the group's first pallet, by index
	for _, k := range stuck {
		g := group{lay.Placements[k].Zone, pallets[idx[k]].Stop}
		if _, ok := ids[g]; !ok {
			order = append(order, g)
			first[g] = idx[k]
		}
		ids[g] = append(ids[g], pallets[idx[k]].ID)
	}
	var vs constraints.Violations
	for _, g := range order {
		z := lay.Zones[g.zone]
		vs.Add(CodeUnloadingOrder, constraints.Index("pallets", first[g]), "%s zone %d (%d–%d mm): %d pallets for stop %d (%s) cannot come off through the trailer's doors (%s) once the earlier stops' pallets are off: pallets for later stops stand in their way",
			z.Temperature, g.zone, z.FromMM, z.ToMM, len(ids[g]), g.stop, quoteIDs(ids[g], 3), doorsText(tr.Doors))
	}
	return vs
}

// quoteIDs lists up to n IDs, and how many more there are.
func quoteIDs(ids []string, n int) string {
	s := ""
	for i, id := range ids {
		if i == n {
			return s + fmt.Sprintf(" and %d more", len(ids)-n)
		}
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q", id)
	}
	return s
}

// doorsText describes a door list: "rear", "rear, CURB 0–2500 mm".
func doorsText(doors []constraints.Door) string {
	s := ""
	for i, d := range constraints.DoorsOrRear(doors) {
		if i > 0 {
			s += ", "
		}
		if d.Side == constraints.RearDoor {
			s += "rear"
		} else {
			s += fmt.Sprintf("%s %d–%d mm", d.Side, d.FromMM, d.ToMM)
		}
	}
	return s
}

// throughSideDoors looks for a layout whose early stops come off through
// the side doors, for a floor that does not unload in order through the
// rear door alone (in a multi-temperature reefer, a nose zone's pallets for
// early stops behind a warmer zone's pallets for later stops). Zone by
// zone from the nose, it moves the zone's pallets for the earliest stops,
// one more at a time, to the nose end of the zone (in reverse stop order
// among themselves, so that in a row the curbside pallet is the earlier
// stop's), while they stand within a side door's opening, and keeps the
// count that leaves the fewest of the zone's pallets stuck. It returns the
// first layout that unloads in order, or nil.
func throughSideDoors(tr Trailer, pallets []Pallet, classes []constraints.Temperature, stops int, total constraints.Load) *Layout {
	sides := sideDoorsOf(tr)
	if len(sides) == 0 {
		return nil
	}
	inOpening := func(e extent) bool {
		for _, d := range sides {
			if e.x0 >= float64(d.FromMM) && e.x1 <= float64(d.ToMM) {
				return true
			}
		}
		return false
	}
	order := append([]Pallet(nil), pallets...)
	for zi, class := range classes {
		zone := zoneByStop(pallets, class)
		stuckIn := func(lay indexedLayout) (n, all int) {
			stuck := stuckPallets(tr, pallets, lay.placedIdx, lay.Placements, stops)
			for _, k := range stuck {
				if lay.Placements[k].Zone == zi {
					n++
				}
			}
			return n, len(stuck)
		}
		bestK, bestN := 0, -1
		lay, vs := planFloor(tr, pallets, order, classes, stops, total)
		if len(vs) == 0 {
			bestN, _ = stuckIn(lay)
			// The zone's nose end must stand in an opening, or moving
			// pallets there reaches no side door.
			nose := -1
			for _, pl := range lay.Placements {
				if pl.Zone == zi && (nose < 0 || pl.XMM < nose) {
					nose = pl.XMM
				}
			}
			if !slices.ContainsFunc(sides, func(d constraints.Door) bool { return nose >= d.FromMM && nose < d.ToMM }) {
				continue
			}
		}
		for k := 1; k <= len(zone) && bestN != 0; k++ {
			try := append([]Pallet(nil), order...)
			first := map[int]bool{}
			for _, i := range zone[:k] {
				try[i].Stop += stops
				first[i] = true
			}
			lay, vs := planFloor(tr, pallets, try, classes, stops, total)
			if len(vs) > 0 {
				continue
			}
			outside := false
			for k, pl := range lay.Placements {
				if first[lay.placedIdx[k]] && !inOpening(extentOf(pl, pallets[lay.placedIdx[k]], tr.WidthMM)) {
					outside = true
				}
			}
			n, all := stuckIn(lay)
			if all == 0 {
				return lay.Layout
			}
			if bestN < 0 || n < bestN {
				bestK, bestN = k, n
			}
			if outside {
				break // more pallets at the nose end only reach further from the opening
			}
		}
		for _, i := range zone[:bestK] {
			order[i].Stop += stops
		}
	}
	return nil
}
