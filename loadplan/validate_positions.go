package loadplan

import (
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// The rules Validate applies to floor positions, written apart from
// PlanTrailer's shared positions (shared_positions.go):
//
// A floor position is the place of one 48×40 in pallet: the floor pallets
// of one row and side (CENTER taking both sides of its row). It holds one
// pallet, or pallets that share it: half pallets (at most 1,220 × 508 mm)
// and quarter pallets (at most 610 × 508 mm), as many as make up one
// position (a half is ½, a quarter ¼: two halves, four quarters, or one
// half and two quarters), standing within one 1,220 × 1,016 mm rectangle in
// either orientation, never on a CENTER side. A position counts once
// (CENTER twice), however many pallets share it.

// Position rectangle of sharing pallets: the long and short side of a
// 48×40 in pallet, with the millimetre that four 610 mm quarters add.
const (
	positionLongMM  = 1220
	positionShortMM = 1016
)

// quartersOf is how much of a position pallet p takes, in quarters, when
// it shares one: 1 for a quarter pallet, 2 for a half, 0 for a pallet that
// shares no position.
func quartersOf(p Pallet) int {
	if p.WidthMM > 508 || p.LengthMM > 1220 {
		return 0
	}
	if p.LengthMM > 610 {
		return 2
	}
	return 1
}

// floorQuarters is how much of a floor position pallet p takes at least,
// in quarters, standing on the floor: its share when it may share one,
// else the whole position.
func floorQuarters(p Pallet) int {
	if q := quartersOf(p); q > 0 {
		return q
	}
	return 4
}

// sharedPositions groups the floor placements by row and side, checks the
// pallets of each group against the sharing rules and counts the floor
// positions the groups take.
func (c *layoutCheck) sharedPositions() {
	type key struct {
		row  int
		side Side
	}
	groups := map[key][]int{}
	var keys []key
	for k, pl := range c.lay.Placements {
		if !c.counted(k) || pl.Level != 0 {
			continue
		}
		g := key{pl.Row, pl.Side}
		if _, ok := groups[g]; !ok {
			keys = append(keys, g)
		}
		groups[g] = append(groups[g], k)
	}
	sort.SliceStable(keys, func(a, b int) bool { return groups[keys[a]][0] < groups[keys[b]][0] })
	for _, g := range keys {
		ks := groups[g]
		c.positions += g.side.Positions()
		if len(ks) == 1 {
			continue
		}
		path := constraints.Index("placements", ks[1])
		if g.side == Center {
			c.vs.Add(CodeSharing, path, "row %d: a CENTER pallet has its row to itself, %d pallets stand there", g.row, len(ks))
			continue
		}
		quarters := 0
		box := c.rects[ks[0]]
		for _, k := range ks {
			p := c.palletOf(k)
			q := quartersOf(p)
			if q == 0 {
				c.vs.Add(CodeSharing, constraints.Index("placements", k), "pallet %q (%d × %d mm) is no half or quarter pallet, yet shares row %d %s with %d others",
					p.ID, p.LengthMM, p.WidthMM, g.row, g.side, len(ks)-1)
			}
			quarters += q
			r := c.rects[k]
			box = rect{min(box.x0, r.x0), max(box.x1, r.x1), min(box.y0, r.y0), max(box.y1, r.y1)}
		}
		if quarters > 4 {
			c.vs.Add(CodeSharing, path, "row %d %s: pallets making %d quarters of a position share it; a position holds two halves, four quarters or a half and two quarters",
				g.row, g.side, quarters)
		}
		along, across := box.x1-box.x0, box.y1-box.y0
		if !(along <= positionLongMM && across <= positionShortMM) && !(along <= positionShortMM && across <= positionLongMM) {
			c.vs.Add(CodeSharing, path, "row %d %s: the pallets sharing it span %.0f mm along and %.0f mm across, more than one %d × %d mm position",
				g.row, g.side, along, across, positionLongMM, positionShortMM)
		}
	}
}
