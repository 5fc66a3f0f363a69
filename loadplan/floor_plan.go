package loadplan

import (
	"slices"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// floorPlan is a layout against the nose, before the axle slide.
type floorPlan struct {
	placements []Placement
	placedIdx  []int // pallet index of each placement
	zones      []Zone
	positions  int
	length     int
	rows       int
	stacked    int
}

// sharing is how far buildFloor lets half and quarter pallets share floor
// positions.
type sharing int

const (
	// shareRows: shared positions, and two halves side by side may share a
	// row with the next stop's pallets, standing straight.
	shareRows sharing = iota
	// shareOwnRows: shared positions keep to rows of their own stop,
	// standing either way.
	shareOwnRows
	// shareNone: each pallet its own position.
	shareNone
)

// over reports whether the floor plan needs more positions or length than
// tr has.
func (fp floorPlan) over(tr Trailer) bool {
	return (tr.Positions > 0 && fp.positions > tr.Positions) || fp.length > tr.LengthMM
}

// buildFloor lays the zones out from the nose with the given pairs stacked
// and the half and quarter pallets sharing positions as sh says. A pair
// across stops stands in the row between its two stops' pallets; where the
// rows put it elsewhere (a pallet of either stop left over beside it, or
// the other pair of its boundary in another row), the unloading order would
// break, and the floor is laid out again without the pairs involved.
func buildFloor(tr Trailer, pallets []Pallet, classes []constraints.Temperature, pairs [][2]int, sh sharing) floorPlan {
	for {
		fp := buildFloorOnce(tr, pallets, classes, pairs, sh)
		blocked := crossStopBlocked(pallets, fp)
		if len(blocked) == 0 {
			return fp
		}
		pairs = slices.DeleteFunc(slices.Clone(pairs), func(pr [2]int) bool { return blocked[pr[0]] || blocked[pr[1]] })
	}
}

// crossStopBlocked returns the pallets of pairs across stops that break
// the unloading order of fp (a pallet for a later stop starting nearer the
// door than one for an earlier stop of its zone), nil when none does.
func crossStopBlocked(pallets []Pallet, fp floorPlan) map[int]bool {
	var blocked map[int]bool
	crossAt := map[int]bool{} // placements of the pallets of pairs across stops
	for k, pl := range fp.placements {
		if pl.Level == 1 && pallets[fp.placedIdx[k]].Stop != pallets[fp.placedIdx[k-1]].Stop {
			crossAt[k], crossAt[k-1] = true, true
		}
	}
	if len(crossAt) == 0 {
		return nil
	}
	for a, pa := range fp.placements {
		for b, pb := range fp.placements {
			if pa.Zone != pb.Zone || !(crossAt[a] || crossAt[b]) {
				continue
			}
			if pallets[fp.placedIdx[b]].Stop > pallets[fp.placedIdx[a]].Stop && pb.XMM > pa.XMM {
				if blocked == nil {
					blocked = map[int]bool{}
				}
				for _, k := range []int{a, b} {
					if crossAt[k] {
						blocked[fp.placedIdx[k]] = true
					}
				}
			}
		}
	}
	return blocked
}

// buildFloorOnce is buildFloor with the pairs as given.
func buildFloorOnce(tr Trailer, pallets []Pallet, classes []constraints.Temperature, pairs [][2]int, sh sharing) floorPlan {
	var fp floorPlan
	topOf := map[int]int{}
	isTop := map[int]bool{}
	for _, pr := range pairs {
		topOf[pr[0]] = pr[1]
		isTop[pr[1]] = true
	}
	fp.stacked = len(pairs)
	// The rows order units by stop keys: 2s+1 for stop s, and between two
	// stops for a position their pallets share (shareUnits).
	keyed := make([]Pallet, len(pallets))
	for i, p := range pallets {
		keyed[i] = p
		keyed[i].Stop = 2*p.Stop + 1
	}
	// A pair across stops (crossStopPairs) stands between its two stops:
	// the key just nearer the nose than its top's.
	for _, pr := range pairs {
		if b, t := pallets[pr[0]].Stop, pallets[pr[1]].Stop; b != t {
			keyed[pr[0]].Stop = 2*t + 2
		}
	}
	x, row := 0, 0
	for zi, class := range classes {
		var units []unit
		for i, p := range pallets {
			if p.Temperature != class || isTop[i] {
				continue
			}
			u := unit{bottom: i, top: -1}
			if t, ok := topOf[i]; ok {
				u.top = t
			}
			units = append(units, u)
		}
		// Last stop first; ties by input order keep the layout stable.
		sort.SliceStable(units, func(a, b int) bool { return keyed[units[a].bottom].Stop > keyed[units[b].bottom].Stop })
		rowPallets := keyed
		if sh != shareNone {
			units, rowPallets = shareUnits(units, keyed, tr.WidthMM)
		}
		segs := rowsOf(units, rowPallets, tr.WidthMM, sh == shareRows)
		zone := Zone{Temperature: class, FirstRow: row, FromMM: x}
		put := func(u unit, pl Placement) {
			pl.Pallet = pallets[u.bottom].ID
			fp.placements = append(fp.placements, pl)
			fp.placedIdx = append(fp.placedIdx, u.bottom)
			if u.top >= 0 {
				pl.Pallet, pl.Level = pallets[u.top].ID, 1
				fp.placements = append(fp.placements, pl)
				fp.placedIdx = append(fp.placedIdx, u.top)
			}
		}
		for _, sg := range segs {
			for _, sl := range sg.slots {
				u := units[sl.unit]
				pl := Placement{Row: row + sl.row, Side: sl.side, Turned: sl.turned, Zone: zi, XMM: x + sl.x}
				fp.positions += sl.side.Positions()
				if u.shared == nil {
					put(u, pl)
					continue
				}
				for _, m := range u.shared.places(keyed, sl.turned) {
					mp := pl
					mp.XMM += m.dx
					mp.Slot = m.slot
					put(m.unit, mp)
				}
			}
			x += sg.depth
			row += sg.rows
		}
		zone.LastRow, zone.ToMM = row-1, x
		fp.zones = append(fp.zones, zone)
	}
	fp.length, fp.rows = x, row
	return fp
}

// layout returns the floor plan slid off millimetres towards the door as
// a Layout, with its axle loads, the first zone from the nose and the last to the door, and the
// total load and its share of the trailer's capacity.
func (fp floorPlan) layout(tr Trailer, pallets []Pallet, stops, off int, total constraints.Load) *Layout {
	lay := &Layout{Placements: make([]Placement, len(fp.placements))}
	for i, p := range fp.placements {
		p.XMM += off
		lay.Placements[i] = p
	}
	lay.Axles, _ = axleLoads(tr, pallets, fp.placedIdx, lay.Placements, stops)
	lay.Zones = make([]Zone, len(fp.zones))
	for zi, z := range fp.zones {
		z.FromMM += off
		z.ToMM += off
		if zi == 0 {
			z.FromMM = 0
		}
		if zi == len(fp.zones)-1 {
			z.ToMM = tr.LengthMM
		}
		lay.Zones[zi] = z
	}
	lay.Rows = fp.rows
	lay.LengthMM = off + fp.length
	lay.Load = constraints.Load{Positions: fp.positions, WeightKg: total.WeightKg, VolumeM3: total.VolumeM3}
	lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed = lay.Load.Utilisation(constraints.Load{Positions: tr.Positions, WeightKg: tr.PayloadKg, VolumeM3: tr.Volume()})
	if tr.Positions == 0 {
		lay.PositionsUsed = 0
	}
	return lay
}
