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
// floor when that is what keeps the axle loads legal. Half and quarter
// pallets share positions (shared_positions.go) before the rows are made;
// when that floor is too long, it tries shared positions kept to rows of
// their own stop, then no sharing. Only when the floor runs out (positions
// or length) does it stack: the fewest of the compatible pairs that make
// the floor suffice, pairs of one zone and stop first (colder zones and
// later stops first, heavier bottoms first), then pairs across
// neighbouring stops of a zone: a top for the earlier stop on a bottom for
// the later one, in the row between the two stops' pallets, so that the
// top comes off first and nothing of a later stop stands nearer the door
// (at most two such pairs at each boundary; a position the two stops' half
// pallets share stands in the same row). Last, it checks that the
// floor unloads in stop order through the trailer's doors; where it does
// not (a multi-temperature reefer's nose zone with pallets for early stops
// behind a warmer zone's later stops), it puts each zone's earliest stops
// at the zone's nose end within a side door's opening (throughSideDoors),
// or else in the rows under an opening further along the zone, behind the
// zone's latest stops and perhaps some empty floor (underSideDoors), or
// else reports UNLOADING_ORDER naming the zone and the stop.
func PlanTrailer(tr Trailer, pallets []Pallet, stops int) (*Layout, error) {
	if vs := checkInputs(tr, pallets, stops); len(vs) > 0 {
		return nil, vs
	}
	classes, total, vs := checkCargo(tr, pallets)
	if len(vs) > 0 {
		return nil, vs
	}
	// Colder zones towards the nose.
	sort.Slice(classes, func(i, j int) bool { return classes[i] > classes[j] })
	lay, vs := planFloor(tr, pallets, pallets, classes, stops, total)
	if len(vs) > 0 {
		return nil, vs
	}
	stuck := stuckPallets(tr, pallets, lay.placedIdx, lay.Placements, stops)
	if len(stuck) == 0 {
		return lay.Layout, nil
	}
	if alt := throughSideDoors(tr, pallets, classes, stops, total); alt != nil {
		return alt, nil
	}
	if alt := underSideDoors(tr, pallets, classes, stops, total); alt != nil {
		return alt, nil
	}
	return nil, doorViolations(tr, pallets, lay.placedIdx, lay.Layout, stuck)
}

// indexedLayout is a layout with the pallet index of each placement.
type indexedLayout struct {
	*Layout
	placedIdx []int
}

// planFloor lays the pallets out with the rows ordered by the stops of
// order (pallets, or pallets with other stops to put some at the nose end
// of their zone; same indices), and the axle loads of the real stops: the
// floor with the fewest pallets stacked, sharing positions as far as the
// floor allows, slid towards the door as the axles need.
func planFloor(tr Trailer, pallets, order []Pallet, classes []constraints.Temperature, stops int, total constraints.Load) (indexedLayout, constraints.Violations) {
	return planSpacedFloor(tr, pallets, order, classes, stops, total, nil)
}

// planSpacedFloor is planFloor with the floor plan passed through space,
// when given, before it is held to the trailer: underSideDoors leaves
// empty floor before the rows it brings to a side door.
func planSpacedFloor(tr Trailer, pallets, order []Pallet, classes []constraints.Temperature, stops int, total constraints.Load, space func(floorPlan) floorPlan) (indexedLayout, constraints.Violations) {
	fp := fewestStacked(tr, order, classes, shareRows)
	// Rows of halves standing straight beside the next stop's pallets, or
	// shared positions alone in their rows, may take more floor than a
	// plainer layout: try those in turn when the floor runs out.
	for _, sh := range []sharing{shareOwnRows, shareNone} {
		if !fp.over(tr) {
			break
		}
		if alt := fewestStacked(tr, order, classes, sh); !alt.over(tr) {
			fp = alt
		}
	}
	if space != nil {
		fp = space(fp)
	}
	if vs := floorViolations(tr, fp); len(vs) > 0 {
		return indexedLayout{}, vs
	}
	// Slide the block of rows towards the door if the nose position
	// overloads the kingpin: the nearest legal offset, see slideOffset.
	off, axleVs := slideOffset(tr, pallets, fp, stops)
	if len(axleVs) > 0 {
		return indexedLayout{}, axleVs
	}
	return indexedLayout{fp.layout(tr, pallets, stops, off, total), fp.placedIdx}, nil
}

// checkCargo checks what no layout can change: each pallet's class, height
// and width against the trailer, the number of classes against its zones,
// and the payload and volume. It returns the classes present in order of
// first appearance and the total load.
func checkCargo(tr Trailer, pallets []Pallet) ([]constraints.Temperature, constraints.Load, constraints.Violations) {
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
	return classes, total, vs
}

// fewestStacked returns the floor plan with no pallet stacked when that
// fits the floor, or else with the fewest of the compatible pairs
// (nose-most first) that make it fit, or all of them when none does.
//
// It stacks only when the floor runs out: it tries the floor alone, then
// all the compatible pairs, and if that fits, searches for the fewest
// pairs that fit. The search keeps the invariant "lo does not fit, hi
// fits", so it ends on a layout that fits even where more stacking does
// not always mean less floor.
func fewestStacked(tr Trailer, pallets []Pallet, classes []constraints.Temperature, sh sharing) floorPlan {
	pairs := stackPairs(tr, pallets, classes)
	over := func(fp floorPlan) bool { return fp.over(tr) }
	fp := buildFloor(tr, pallets, classes, nil, sh)
	if over(fp) && len(pairs) > 0 {
		fp = buildFloor(tr, pallets, classes, pairs, sh)
		for lo, hi := 0, len(pairs); !over(fp) && hi-lo > 1; {
			mid := (lo + hi) / 2
			if m := buildFloor(tr, pallets, classes, pairs[:mid], sh); over(m) {
				lo = mid
			} else {
				hi, fp = mid, m
			}
		}
	}
	return fp
}

// floorViolations reports a floor plan that needs more positions or more
// length than the trailer has.
func floorViolations(tr Trailer, fp floorPlan) constraints.Violations {
	var vs constraints.Violations
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
	return vs
}
