package loadplan

import (
	"math"
	"slices"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// A side door need not open at the nose end of a zone: a three-zone
// reefer's middle compartment has its own curbside door, and a long zone
// may have a door halfway along it. A loader then puts the zone's pallets
// for its earliest stops in the rows under the opening: behind them, at
// the zone's nose end, go the pallets for its latest stops, which come off
// through the rear door at the end of the trip, and between them and the
// rear end of the zone the stops in between, in stop order as usual. Where
// no count of pallets before them brings their rows under the opening
// (rows come a pallet deep, the opening starts where it does), the loader
// leaves floor empty before them, and the bulkheads behind move back.
//
// PlanTrailer orders a zone's rows by stop keys (buildFloor), so such a
// floor is the ordinary layout of keys that rank the zone's k pallets for
// its earliest stops after every stop of the trip and its m pallets for
// its latest stops after those: the m stand at the nose end, the k next,
// the rest in stop order towards the door. Among themselves the k keep
// their stop order, so that in a row shared by two stops the curbside
// pallet is the earlier stop's.

// sideDoorsOf returns tr's side doors, in the order listed.
func sideDoorsOf(tr Trailer) []constraints.Door {
	var sides []constraints.Door
	for _, d := range tr.Doors {
		if d.Side != constraints.RearDoor {
			sides = append(sides, d)
		}
	}
	return sides
}

// zoneByStop returns the indices of the pallets of class, the pallets of
// one zone, in stop order (in their order within a stop).
func zoneByStop(pallets []Pallet, class constraints.Temperature) []int {
	var zone []int
	for i, p := range pallets {
		if p.Temperature == class {
			zone = append(zone, i)
		}
	}
	sort.SliceStable(zone, func(a, b int) bool { return pallets[zone[a]].Stop < pallets[zone[b]].Stop })
	return zone
}

// underSideDoors looks for a layout that unloads in order through the
// doors, with each zone's pallets for its earliest stops in the rows under
// one of its side doors' openings, wherever along the zone the opening
// lies. Zone by zone from the nose, for each side door and each count k of
// the zone's earliest pallets (one more at a time), it puts the fewest of
// the zone's latest pallets at the zone's nose end that bring the k to the
// opening or past its nose end. Where none do, or the k then reach past
// the opening's end, it tries empty floor before the k up to the opening,
// with the zone's other pallets before or behind them, if the opening
// starts within the zone as its pallets lie. It keeps the arrangement that
// leaves the fewest of the zone's pallets stuck, as throughSideDoors does
// at the nose end, and returns the first layout that unloads in order, or
// nil.
func underSideDoors(tr Trailer, pallets []Pallet, classes []constraints.Temperature, stops int, total constraints.Load) *Layout {
	sides := sideDoorsOf(tr)
	if !slices.ContainsFunc(sides, func(d constraints.Door) bool { return d.FromMM > 0 }) {
		return nil // doors at the nose alone: throughSideDoors has tried them
	}
	order := slices.Clone(pallets)
	var settled []func(floorPlan) floorPlan // the empty floor left for the zones before
	for zi, class := range classes {
		zone := zoneByStop(pallets, class)
		z := zoneArrangements{tr: tr, pallets: pallets, order: order, settled: settled, classes: classes, stops: stops, total: total, zi: zi, zone: zone}
		best := z.arrange(0, 0, 0)
		if best.planned {
			if best.stuck(); best.all == 0 {
				return best.lay.Layout
			}
		}
		// Where the zone's pallets lie: an opening before it is out of
		// their reach, and one behind it too, since empty floor only
		// aligns the rows with an opening that starts within the zone: a
		// compartment is not stretched to a door behind it, under which
		// the next zone's pallets would stand.
		zoneStart, zoneEnd := best.zoneSpan()
		for _, d := range sides {
			if best.planned && (float64(d.ToMM) <= zoneStart || float64(d.FromMM) >= zoneEnd) {
				continue
			}
			var lay *Layout
			if best, lay = z.underDoor(d, best, zoneEnd); lay != nil {
				return lay
			}
		}
		order = z.keyed(best.k, best.m)
		if best.space != nil {
			settled = append(settled, best.space)
		}
	}
	return nil
}

// zoneSpan is where the zone's pallets lie along the floor in a planned
// arrangement: from the nose-most start to the rear-most end; +Inf and
// −Inf where it is not planned.
func (a *arrangement) zoneSpan() (start, end float64) {
	start, end = math.Inf(1), math.Inf(-1)
	if !a.planned {
		return start, end
	}
	z := a.z
	for j, pl := range a.lay.Placements {
		if pl.Zone == z.zi {
			e := extentOf(pl, z.pallets[a.lay.placedIdx[j]], z.tr.WidthMM)
			start, end = math.Min(start, e.x0), math.Max(end, e.x1)
		}
	}
	return start, end
}

// underDoor is underSideDoors at side door d for the zone: for each count
// k of its earliest pallets, the arrangements that bring them under the
// opening, with the fewest latest pallets before them or with empty floor
// before them (while the opening starts before zoneEnd, the zone's end as
// best lay it). It returns the arrangement that leaves the fewest of the
// zone's pallets stuck, best or better, and the first layout that
// unloads in order, if one does.
func (z *zoneArrangements) underDoor(d constraints.Door, best arrangement, zoneEnd float64) (arrangement, *Layout) {
	done := func() bool { return best.planned && best.inZone == 0 }
	n := len(z.zone)
	m := 0
	for k := 1; k <= n && !done(); k++ {
		// The fewest latest pallets at the nose end that bring the k
		// earliest to the opening: more only move them further towards
		// the door.
		m = min(m, n-k)
		var tries []arrangement
		for ; k+m <= n; m++ {
			if a := z.arrange(k, m, 0); a.planned && a.fromMM >= float64(d.FromMM) {
				tries = append(tries, a)
				break
			}
		}
		if d.FromMM > 0 && float64(d.FromMM) < zoneEnd && (len(tries) == 0 || tries[0].toMM > float64(d.ToMM)) {
			// None does, or the k then reach past the opening's end (and
			// the opening is not at the nose, where nothing could stand
			// before the k anyway): empty floor before the k, with the
			// zone's other pallets all behind them, all or all but one
			// before them (when none reached the opening), or one fewer
			// before them than reached it (a row they share with the k
			// may not fit under the opening).
			before := []int{0, max(0, m-1)}
			if len(tries) == 0 {
				m = n - k
				before = []int{0, max(0, m-1), m}
			}
			for _, b := range slices.Compact(before) {
				tries = append(tries, z.arrange(k, b, d.FromMM))
			}
		}
		fits := false
		for _, a := range tries {
			if !a.planned {
				continue
			}
			if a.stuck(); a.all == 0 {
				return best, a.lay.Layout
			}
			if !best.planned || a.inZone < best.inZone {
				best = a
			}
			fits = fits || a.toMM <= float64(d.ToMM)
		}
		if !fits {
			break // more pallets under the opening only reach further past its end
		}
	}
	return best, nil
}

// zoneArrangements lays out floors that differ in the keys of one zone's
// pallets (zone: their indices, earliest stop first); order holds the keys
// settled for the zones before it.
type zoneArrangements struct {
	tr      Trailer
	pallets []Pallet
	order   []Pallet
	// settled leave the empty floor chosen for the zones before.
	settled []func(floorPlan) floorPlan
	classes []constraints.Temperature
	stops   int
	total   constraints.Load
	zi      int
	zone    []int
}

// arrangement is the floor with the zone's k earliest pallets under a
// side door and its m latest at its nose end.
type arrangement struct {
	z       *zoneArrangements
	k, m    int
	planned bool // false when no floor fits with these keys
	lay     indexedLayout
	// space leaves the empty floor before the k, nil for none.
	space func(floorPlan) floorPlan
	// fromMM and toMM bound the k earliest pallets along the floor.
	fromMM, toMM float64
	// inZone and all count the pallets that cannot come off, in the zone
	// and on the floor; known after stuck.
	inZone, all int
}

// keyed returns the stop keys with the zone's k earliest pallets after
// every stop of the trip and its m latest after those.
func (z *zoneArrangements) keyed(k, m int) []Pallet {
	try := slices.Clone(z.order)
	for _, i := range z.zone[:k] {
		try[i].Stop += z.stops
	}
	for _, i := range z.zone[len(z.zone)-m:] {
		try[i].Stop += 2 * z.stops
	}
	return try
}

// arrange lays out the floor with the zone's k earliest pallets under a
// side door and its m latest at its nose end; with openingMM > 0, empty
// floor before the k brings them that far from the nose.
func (z *zoneArrangements) arrange(k, m, openingMM int) arrangement {
	a := arrangement{z: z, k: k, m: m, fromMM: math.Inf(1), toMM: math.Inf(-1)}
	early := map[int]bool{}
	for _, i := range z.zone[:k] {
		early[i] = true
	}
	if openingMM > 0 {
		a.space = func(fp floorPlan) floorPlan {
			from := math.MaxInt
			for j, pl := range fp.placements {
				if early[fp.placedIdx[j]] {
					from = min(from, pl.XMM)
				}
			}
			if from >= openingMM {
				return fp
			}
			return fp.emptyFloorBefore(z.pallets, z.zi, from, openingMM-from)
		}
	}
	spaces := slices.Clone(z.settled)
	if a.space != nil {
		spaces = append(spaces, a.space)
	}
	space := func(fp floorPlan) floorPlan {
		for _, sp := range spaces {
			fp = sp(fp)
		}
		return fp
	}
	lay, vs := planSpacedFloor(z.tr, z.pallets, z.keyed(k, m), z.classes, z.stops, z.total, space)
	if len(vs) > 0 {
		return a
	}
	a.planned, a.lay = true, lay
	for j, pl := range lay.Placements {
		if i := lay.placedIdx[j]; early[i] {
			e := extentOf(pl, z.pallets[i], z.tr.WidthMM)
			a.fromMM, a.toMM = math.Min(a.fromMM, e.x0), math.Max(a.toMM, e.x1)
		}
	}
	return a
}

// emptyFloorBefore returns fp with gap mm of empty floor in zone zi before
// the pallets that start at x or further from the nose: those and every
// zone behind move gap mm towards the door, and zone zi grows by gap. The
// cut moves towards the nose until no pallet stands across it and no row
// has pallets on both sides of it, so that rows, pinwheel blocks, shared
// positions and stacks stay whole.
func (fp floorPlan) emptyFloorBefore(pallets []Pallet, zi, x, gap int) floorPlan {
	rowFrom := map[int]int{} // where each row's nose-most pallet starts
	for _, pl := range fp.placements {
		if from, ok := rowFrom[pl.Row]; !ok || pl.XMM < from {
			rowFrom[pl.Row] = pl.XMM
		}
	}
	for moved := true; moved; {
		moved = false
		for j, pl := range fp.placements {
			if end := pl.XMM + along(pallets[fp.placedIdx[j]], pl.Turned); pl.XMM < x && end > x {
				x, moved = pl.XMM, true
			}
			if pl.XMM >= x && rowFrom[pl.Row] < x {
				x, moved = rowFrom[pl.Row], true
			}
		}
	}
	out := fp
	out.placements = slices.Clone(fp.placements)
	for j := range out.placements {
		if out.placements[j].XMM >= x {
			out.placements[j].XMM += gap
		}
	}
	out.zones = slices.Clone(fp.zones)
	out.zones[zi].ToMM += gap
	for i := zi + 1; i < len(out.zones); i++ {
		out.zones[i].FromMM += gap
		out.zones[i].ToMM += gap
	}
	out.length += gap
	return out
}

// stuck counts the pallets of a planned arrangement that cannot come off
// at their stop.
func (a *arrangement) stuck() {
	stuck := stuckPallets(a.z.tr, a.z.pallets, a.lay.placedIdx, a.lay.Placements, a.z.stops)
	a.all, a.inZone = len(stuck), 0
	for _, k := range stuck {
		if a.lay.Placements[k].Zone == a.z.zi {
			a.inZone++
		}
	}
}
