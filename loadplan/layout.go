package loadplan

import (
	"sort"
	"strconv"

	"github.com/haulplan/haulplan/constraints"
)

// PlanTrailer lays out pallets on one trailer for a trip of the given number
// of stops (each pallet's Stop lies in [0, stops)). It returns a layout that
// Validate accepts, or a constraints.Violations naming every reason it could
// not find one. The layout is deterministic: the same input gives the same
// layout.
//
// The method is greedy: one zone per temperature class present, colder
// towards the nose; inside a zone, pallets in reverse stop order, paired
// into rows in the orientation that makes the row shortest, two rows of
// two merged into a pinwheel block wherever that is shorter; the rows
// packed against the nose, or slid towards the door by part of the free
// floor when that is what keeps the axle loads legal. Only when the floor
// runs out (positions or length) does it stack: the fewest of the
// compatible pairs (same zone and stop; colder zones and later stops
// first, heavier bottoms first) that make the floor suffice.
func PlanTrailer(tr Trailer, pallets []Pallet, stops int) (*Layout, error) {
	if vs := checkInputs(tr, pallets, stops); len(vs) > 0 {
		return nil, vs
	}
	var vs constraints.Violations
	var total constraints.Load
	present := map[constraints.Temperature]bool{}
	var classes []constraints.Temperature
	for i, p := range pallets {
		path := func() string { return constraints.Index("pallets", i) } // built only when needed
		if !tr.Equipment.Carries(p.Temperature) {
			vs.Add(CodeTemperature, path(), "%s pallet %q cannot ride on a %s", p.Temperature, p.ID, tr.Equipment.Kind)
		}
		if p.HeightMM > tr.HeightMM {
			vs.Add(CodeTooTall, path(), "pallet %q is %d mm tall, the trailer %d mm inside", p.ID, p.HeightMM, tr.HeightMM)
		}
		if p.WidthMM > tr.WidthMM {
			vs.Add(CodeTooWide, path(), "pallet %q (%d × %d mm) fits the %d mm floor in no orientation", p.ID, p.LengthMM, p.WidthMM, tr.WidthMM)
		}
		total = total.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.VolumeM3})
		if !present[p.Temperature] {
			present[p.Temperature] = true
			classes = append(classes, p.Temperature)
		}
	}
	if len(classes) > tr.Equipment.Zones() {
		vs.Add(CodeTooManyZones, "pallets", "%d temperature classes, but a %s holds %d", len(classes), tr.Equipment.Kind, tr.Equipment.Zones())
	}
	if total.WeightKg > tr.PayloadKg*(1+1e-9) {
		vs.Add(CodePayload, "pallets", "%.1f kg of pallets, payload %.1f kg", total.WeightKg, tr.PayloadKg)
	}
	if total.VolumeM3 > tr.Volume()*(1+1e-9) {
		vs.Add(CodeVolume, "pallets", "%.2f m³ of pallets, trailer holds %.2f m³", total.VolumeM3, tr.Volume())
	}
	if len(vs) > 0 {
		return nil, vs
	}

	// Colder zones towards the nose.
	sort.Slice(classes, func(i, j int) bool { return classes[i] > classes[j] })

	// Stack only when the floor runs out: try the floor alone, then all
	// the compatible pairs, and if that fits, search for the fewest pairs
	// (nose-most first) that fit. The search keeps the invariant "lo does
	// not fit, hi fits", so it ends on a layout that fits even where more
	// stacking does not always mean less floor.
	pairs := stackPairs(tr, pallets, classes)
	over := func(fp floorPlan) bool {
		return (tr.Positions > 0 && fp.positions > tr.Positions) || fp.length > tr.LengthMM
	}
	fp := buildFloor(tr, pallets, classes, nil)
	if over(fp) && len(pairs) > 0 {
		fp = buildFloor(tr, pallets, classes, pairs)
		for lo, hi := 0, len(pairs); !over(fp) && hi-lo > 1; {
			mid := (lo + hi) / 2
			if m := buildFloor(tr, pallets, classes, pairs[:mid]); over(m) {
				lo = mid
			} else {
				hi, fp = mid, m
			}
		}
	}
	stacked := ""
	if n := fp.stacked; n > 0 {
		stacked = " with " + strconv.Itoa(n) + " pallets stacked"
	}
	if tr.Positions > 0 && fp.positions > tr.Positions {
		vs.Add(CodePositions, "pallets", "%d floor positions needed%s, the trailer allows %d", fp.positions, stacked, tr.Positions)
	}
	if fp.length > tr.LengthMM {
		vs.Add(CodeFloorLength, "pallets", "%d rows need %d mm of floor%s, the trailer has %d mm", fp.rows, fp.length, stacked, tr.LengthMM)
	}
	if len(vs) > 0 {
		return nil, vs
	}

	// Slide the block of rows towards the door if the nose position
	// overloads the kingpin: the nearest legal offset, see slideOffset.
	lay := &Layout{Placements: make([]Placement, len(fp.placements))}
	off, axleVs := slideOffset(tr, pallets, fp, stops)
	if len(axleVs) > 0 {
		return nil, axleVs
	}
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
	return lay, nil
}
