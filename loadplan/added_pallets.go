package loadplan

import (
	"slices"

	"github.com/haulplan/haulplan/constraints"
)

// AddPallets places more pallets on a trailer already laid out, without
// moving a pallet the layout places: each pallet of more, in turn, goes
// where the layout leaves room for it, or is left out. It returns the
// layout with the placements of lay unchanged, in their order, followed by
// those of the pallets added, and the indices into more of the pallets
// added. pallets are those lay places, for a trip of stops stops; each
// pallet of more names its stop among them.
//
// A pallet goes into its class's zone (a class the layout has no zone for
// is left out: the bulkheads stay), where Validate accepts it beside what
// is placed: on the free side of a row, in a position shared with half or
// quarter pallets, in a new row at the door end of the zone nearest the
// door, or on top of a pallet that may carry it. Of the places that keep
// every rule (the unloading order, the axle loads at departure and after
// every stop, payload, volume and positions), it takes the one that adds
// the fewest floor positions, on the floor before stacked, as PlanTrailer
// stacks only when the floor runs out. A layout that Validate rejects
// takes no pallet.
func AddPallets(tr Trailer, pallets []Pallet, stops int, lay *Layout, more []Pallet) (*Layout, []int) {
	if lay == nil {
		return nil, nil
	}
	out := copyLayout(lay)
	if len(Validate(tr, pallets, stops, lay)) > 0 {
		return out, nil
	}
	on := slices.Clone(pallets)
	var added []int
	for i, p := range more {
		if len(checkPallets([]Pallet{p}, stops)) > 0 || slices.ContainsFunc(on, func(q Pallet) bool { return q.ID == p.ID }) {
			continue
		}
		if next, ok := addPallet(tr, on, stops, out, p); ok {
			out, on = next, append(on, p)
			added = append(added, i)
		}
	}
	return out, added
}

// KeepPallets is lay with only the placements of pallets (matched by
// id), each where lay has it, for a trip of stops stops (each pallet
// naming its stop among them), the axle loads, rows, length and load
// recomputed; it reports whether lay places every pallet and Validate
// accepts the result. A trip that lost pallets so keeps the floor its
// loaders have on paper where PlanTrailer would lay it out otherwise or
// not at all (a pallet taken away may have held up another, or balanced
// the axles, and then Validate says no).
func KeepPallets(tr Trailer, pallets []Pallet, stops int, lay *Layout) (*Layout, bool) {
	if lay == nil || len(checkPallets(pallets, stops)) > 0 {
		return nil, false
	}
	byID := make(map[string]int, len(pallets))
	for i, p := range pallets {
		byID[p.ID] = i
	}
	out := &Layout{Zones: slices.Clone(lay.Zones)}
	var placedIdx []int
	for _, pl := range lay.Placements {
		if i, ok := byID[pl.Pallet]; ok {
			out.Placements = append(out.Placements, pl)
			placedIdx = append(placedIdx, i)
			delete(byID, pl.Pallet)
		}
	}
	if len(byID) > 0 {
		return nil, false
	}
	out.Axles, _ = axleLoads(tr, pallets, placedIdx, out.Placements, stops)
	if len(Validate(tr, pallets, stops, out)) > 0 {
		return nil, false
	}
	finishLayout(tr, pallets, placedIdx, out)
	return out, true
}

// copyLayout is l with its own lists.
func copyLayout(l *Layout) *Layout {
	c := *l
	c.Zones = slices.Clone(l.Zones)
	c.Placements = slices.Clone(l.Placements)
	c.Axles = slices.Clone(l.Axles)
	return &c
}

// addPallet is lay with p placed too, and whether a place was found: the
// candidate places (addCandidates) each checked by Validate with the axle
// loads recomputed, the one adding the fewest positions, floor before
// stacked, the first of equals.
func addPallet(tr Trailer, on []Pallet, stops int, lay *Layout, p Pallet) (*Layout, bool) {
	all := append(slices.Clone(on), p)
	byID := make(map[string]int, len(all))
	for i, q := range all {
		byID[q.ID] = i
	}
	var best *Layout
	bestPositions, bestLevel := 0, 0
	for _, c := range addCandidates(tr, on, lay, p) {
		cand := &Layout{Zones: c.zones, Placements: append(slices.Clone(lay.Placements), c.pl)}
		placedIdx := make([]int, len(cand.Placements))
		for k, pl := range cand.Placements {
			placedIdx[k] = byID[pl.Pallet]
		}
		axles, vs := axleLoads(tr, all, placedIdx, cand.Placements, stops)
		if len(vs) > 0 {
			continue
		}
		cand.Axles = axles
		if len(Validate(tr, all, stops, cand)) > 0 {
			continue
		}
		finishLayout(tr, all, placedIdx, cand)
		if best == nil || cand.Load.Positions < bestPositions || (cand.Load.Positions == bestPositions && c.pl.Level < bestLevel) {
			best, bestPositions, bestLevel = cand, cand.Load.Positions, c.pl.Level
		}
	}
	return best, best != nil
}

// finishLayout sets the rows, length, load and utilisation of lay, whose
// placements stand for the pallets placedIdx (indices into pallets).
func finishLayout(tr Trailer, pallets []Pallet, placedIdx []int, lay *Layout) {
	type position struct {
		row  int
		side Side
	}
	taken := map[position]bool{}
	lay.Rows, lay.LengthMM, lay.Load = 0, 0, constraints.Load{}
	for k, pl := range lay.Placements {
		p := pallets[placedIdx[k]]
		lay.Load.WeightKg += p.WeightKg
		lay.Load.VolumeM3 += p.VolumeM3
		if pl.Level != 0 {
			continue
		}
		if at := (position{pl.Row, pl.Side}); !taken[at] {
			taken[at] = true
			lay.Load.Positions += pl.Side.Positions()
		}
		lay.Rows = max(lay.Rows, pl.Row+1)
		lay.LengthMM = max(lay.LengthMM, pl.XMM+along(p, pl.Turned))
	}
	lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed = lay.Load.Utilisation(constraints.Load{Positions: tr.Positions, WeightKg: tr.PayloadKg, VolumeM3: tr.Volume()})
	if tr.Positions == 0 {
		lay.PositionsUsed = 0
	}
}

// addCandidate is a place for one more pallet, and the zones with it.
type addCandidate struct {
	pl    Placement
	zones []Zone
}

// addCandidates lists the places worth checking for pallet p on lay (whose
// pallets are on): in p's zone, each floor place at an edge of a placed
// pallet (its nose or door end, or half or quarter a position behind its
// nose for pallets sharing a position) on each side, in each orientation
// and slot, in the row the pallets of its side there give it, that stands
// on the floor clear of every placed floor pallet and keeps the unloading
// order; and each placed floor pallet without a pallet on top, to stand
// on. Validate decides the rest.
func addCandidates(tr Trailer, on []Pallet, lay *Layout, p Pallet) []addCandidate {
	zi := slices.IndexFunc(lay.Zones, func(z Zone) bool { return z.Temperature == p.Temperature })
	if zi < 0 {
		return nil
	}
	a := addSite{lay: lay, p: p, zi: zi, W: float64(tr.WidthMM), L: float64(tr.LengthMM)}
	a.byID = make(map[string]Pallet, len(on))
	for _, q := range on {
		a.byID[q.ID] = q
	}
	a.rects = make([]rect, len(lay.Placements))
	for k, pl := range lay.Placements {
		a.rects[k], _ = footprint(pl, a.byID[pl.Pallet], a.W)
	}
	out := a.floorCandidates()
	if p.MayBeStacked {
		out = append(out, a.stackCandidates()...)
	}
	return out
}

// addSite is what addCandidates reads of layout lay to place pallet p in
// zone zi of a trailer W mm wide and L mm long: the placed pallets by ID
// and their footprints (rects, parallel to lay.Placements).
type addSite struct {
	lay   *Layout
	p     Pallet
	zi    int
	byID  map[string]Pallet
	rects []rect
	W, L  float64
}

// floorCandidates are addCandidates's floor places; in the last zone a
// place past its last row takes the zone a row further.
func (a *addSite) floorCandidates() []addCandidate {
	z := a.lay.Zones[a.zi]
	last := a.zi == len(a.lay.Zones)-1
	var out []addCandidate
	for _, x := range a.edges() {
		for _, side := range []Side{Left, Right, Center} {
			row := a.rowAt(x, side)
			zones := a.lay.Zones
			switch {
			case row < z.FirstRow:
				continue
			case row > z.LastRow:
				if !last {
					continue
				}
				zones = slices.Clone(a.lay.Zones)
				zones[a.zi].LastRow = row
			}
			for _, turned := range []bool{false, true} {
				for slot := range 2 {
					if slot == 1 && (side == Center || quartersOf(a.p) == 0) {
						continue
					}
					pl := Placement{Pallet: a.p.ID, Row: row, Side: side, Turned: turned, Zone: a.zi, XMM: x, Slot: slot}
					if a.clear(pl) {
						out = append(out, addCandidate{pl, zones})
					}
				}
			}
		}
	}
	return out
}

// stackCandidates are addCandidates's places on top: on each floor
// pallet of the zone that may carry and carries none, either way round.
func (a *addSite) stackCandidates() []addCandidate {
	var out []addCandidate
	for k, b := range a.lay.Placements {
		if b.Level != 0 || b.Zone != a.zi || !a.byID[b.Pallet].MayCarry {
			continue
		}
		carries := slices.ContainsFunc(a.lay.Placements, func(t Placement) bool {
			if t.Level != 1 || t.Zone != b.Zone || t.Side != b.Side {
				return false
			}
			rt, _ := footprint(t, a.byID[t.Pallet], a.W)
			return rt.x0 >= a.rects[k].x0 && rt.x1 <= a.rects[k].x1 && rt.y0 >= a.rects[k].y0 && rt.y1 <= a.rects[k].y1
		})
		if carries {
			continue
		}
		for _, turned := range []bool{b.Turned, !b.Turned} {
			pl := Placement{Pallet: a.p.ID, Row: b.Row, Side: b.Side, Turned: turned, Zone: a.zi, XMM: b.XMM, Level: 1, Slot: b.Slot}
			if a.clear(pl) {
				out = append(out, addCandidate{pl, a.lay.Zones})
			}
		}
	}
	return out
}

// edges are the places along the floor a pallet may start at: the nose
// and door ends of the zone's floor pallets, and half and quarter a
// position behind the nose of those sharing a position; sorted, once
// each.
func (a *addSite) edges() []int {
	var xs []int
	for _, pl := range a.lay.Placements {
		if pl.Zone != a.zi || pl.Level != 0 {
			continue
		}
		q := a.byID[pl.Pallet]
		xs = append(xs, pl.XMM, pl.XMM+along(q, pl.Turned))
		if quartersOf(q) > 0 {
			xs = append(xs, pl.XMM+q.WidthMM, pl.XMM+q.LengthMM/2)
		}
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// onLane reports whether a pallet on side s stands in lane: its own side,
// or across both (Center).
func onLane(s, lane Side) bool { return s == lane || s == Center }

// rowAt is the row a floor pallet on side s starting at x takes: that of
// a floor pallet of its side or its row starting there, else the row
// after those of its side starting nearer the nose.
func (a *addSite) rowAt(x int, s Side) int {
	lo, same := -1, -1
	for _, pl := range a.lay.Placements {
		if pl.Level != 0 {
			continue
		}
		if pl.XMM == x && (same < 0 || onLane(pl.Side, s) || s == Center) {
			same = pl.Row
		}
		if pl.XMM < x && (onLane(pl.Side, s) || (s == Center && pl.Side != Center)) {
			lo = max(lo, pl.Row)
		}
	}
	if same >= 0 {
		return same
	}
	return lo + 1
}

// clear reports whether p placed at pl lies on the trailer and inside
// its zone's bounds, clear of every floor pallet when on the floor, and
// keeps the zone's unloading order: no pallet of an earlier stop nearer
// the nose, none of a later stop nearer the doors.
func (a *addSite) clear(pl Placement) bool {
	z := a.lay.Zones[a.zi]
	r, ok := footprint(pl, a.p, a.W)
	if !ok || r.x0 < 0 || r.x1 > a.L || r.y0 < 0 || r.y1 > a.W {
		return false
	}
	if (z.FromMM != 0 || z.ToMM != 0) && (r.x0 < float64(z.FromMM) || r.x1 > float64(z.ToMM)) {
		return false
	}
	for k, o := range a.lay.Placements {
		if o.Level == 0 && pl.Level == 0 {
			ro := a.rects[k]
			if r.x0 < ro.x1 && ro.x0 < r.x1 && r.y0 < ro.y1 && ro.y0 < r.y1 {
				return false
			}
		}
		if o.Zone != a.zi {
			continue
		}
		s := a.byID[o.Pallet].Stop
		if (s < a.p.Stop && pl.XMM > o.XMM) || (s > a.p.Stop && o.XMM > pl.XMM) {
			return false
		}
	}
	return true
}
