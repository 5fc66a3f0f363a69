package engine

import "slices"

// A floor position is the place of one 48×40 in pallet on one side of a
// row. Validate reads it from the placements: the floor pallets of one row
// and side stand in one position. Half pallets (at most 1,220 × 508 mm)
// and quarter pallets (at most 610 × 508 mm) may share one, up to one
// position's worth (two halves, four quarters, a half and two quarters),
// all within a 1,220 × 1,016 mm rectangle in either orientation; a CENTER
// pallet has its row to itself. A position counts once (CENTER twice,
// since its row has no other) however many pallets share it.

// positionRectMM is the rectangle the pallets of one shared position
// stand within: a 48×40 in pallet's place, with the millimetre that two
// 610 mm quarters add.
const (
	positionLongMM  = 1220
	positionShortMM = 1016
)

// positionQuarters is the share of a floor position pallet p takes when
// it shares one, in quarters: 1 for a quarter pallet, 2 for a half; 4
// (the whole position) for any other.
func positionQuarters(p *Pallet) int {
	l, w := p.Footprint.Dims()
	switch {
	case w > 508 || l > 1220:
		return 4
	case l > 610:
		return 2
	}
	return 1
}

// floorPositions checks the pallets of each floor position against the
// sharing rules and counts the positions taken.
func (f *floorCheck) floorPositions() {
	type position struct {
		row  int
		side floorSide
	}
	at := map[position][]int{} // placements by position
	var inRowOrder []position
	for k, pl := range f.lp.Placements {
		if !f.st[k].stands || pl.Level != 0 {
			continue
		}
		pos := position{pl.Row, f.st[k].side}
		if _, ok := at[pos]; !ok {
			inRowOrder = append(inRowOrder, pos)
		}
		at[pos] = append(at[pos], k)
	}
	for _, pos := range inRowOrder {
		ks := at[pos]
		f.positions += pos.side.floorPositions()
		if len(ks) < 2 {
			continue
		}
		path := f.placementPath(ks[1])
		if pos.side == sideCenter {
			f.vs.Add(codeSharing, path, "row %d: a CENTER pallet has its row to itself; %d pallets stand there", pos.row, len(ks))
			continue
		}
		quarters := 0
		span := f.st[ks[0]].box
		for _, k := range ks {
			p := f.pallets[f.st[k].pallet].p
			q := positionQuarters(p)
			if q == 4 {
				l, w := p.Footprint.Dims()
				f.vs.Add(codeSharing, f.placementPath(k), "pallet %q (%d × %d mm) is no half or quarter pallet, yet shares its %s position in row %d with %d others",
					p.ID, l, w, pos.side, pos.row, len(ks)-1)
			}
			quarters += q
			b := f.st[k].box
			span = box{min(span.x0, b.x0), max(span.x1, b.x1), min(span.y0, b.y0), max(span.y1, b.y1)}
		}
		if quarters > 4 && !slices.ContainsFunc(ks, func(k int) bool { return positionQuarters(f.pallets[f.st[k].pallet].p) == 4 }) {
			f.vs.Add(codeSharing, path, "%s position in row %d: its pallets make %d quarters of a position; it holds two halves, four quarters or a half and two quarters",
				pos.side, pos.row, quarters)
		}
		along, across := span.x1-span.x0, span.y1-span.y0
		if !(along <= positionLongMM && across <= positionShortMM) && !(along <= positionShortMM && across <= positionLongMM) {
			f.vs.Add(codeSharing, path, "%s position in row %d: its pallets cover %.0f mm along and %.0f mm across, more than one %d × %d mm position",
				pos.side, pos.row, along, across, positionLongMM, positionShortMM)
		}
	}
}
