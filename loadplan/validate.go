package loadplan

import (
	"math"

	"github.com/haulplan/haulplan/constraints"
)

// Validate verifies a layout against the trailer and the pallets it must carry
// on a trip of the given number of stops, recomputing everything from the
// placements alone: every pallet placed once, on the floor, without overlap
// (floor pallets among themselves, stacked pallets among themselves), on
// each side rows following each other from the nose, zones ordered colder
// towards the nose as disjoint ranges of the floor's length holding only
// their class, stacking (each stacked pallet on exactly one floor pallet of
// its zone and side whose footprint contains it, the bottom allowed to carry
// and the top to be stacked, heights summed within the inside height, the
// top no heavier than the bottom and off no later), heights, floor
// positions, payload, volume, the unloading order within each zone, and the
// axle loads at departure and after every stop (which must also match the
// ones the layout reports).
//
// The unloading order is geometric: within a zone a pallet for a later stop
// never has its nose-side edge (XMM) nearer the door than a pallet for an
// earlier stop. For side-by-side rows this is the row order; it also covers
// pinwheel blocks, whose two sides do not share row boundaries.
//
// It shares no code with PlanTrailer beyond the lever rule in constraints,
// so it serves as the independent oracle for loadplan's tests and for
// engine.Validate. Paths are relative: "placements[3]", "zones[1]",
// "axles[2]". Input that cannot describe a trailer or a trip (the checks
// PlanTrailer makes first: a pallet's stop outside the trip, a negative or
// NaN weight, dimensions out of range…) gives CodeInvalid violations and
// nothing else, since no layout can be judged against it.
func Validate(tr Trailer, pallets []Pallet, stops int, lay *Layout) constraints.Violations {
	if vs := checkInputs(tr, pallets, stops); len(vs) > 0 {
		return vs
	}
	var vs constraints.Violations
	if lay == nil {
		if len(pallets) > 0 {
			vs.Add(CodeMissing, "", "%d pallets but no layout", len(pallets))
		}
		return vs
	}
	byID := make(map[string]int, len(pallets))
	for i, p := range pallets {
		byID[p.ID] = i
	}
	placedAt := make([]int, len(pallets))
	for i := range placedAt {
		placedAt[i] = -1
	}

	type rect struct{ x0, x1, y0, y1 float64 }
	rects := make([]rect, len(lay.Placements))
	valid := make([]bool, len(lay.Placements))
	W, L := float64(tr.WidthMM), float64(tr.LengthMM)
	positions := 0
	var weight, volume float64
	classes := map[constraints.Temperature]bool{}
	for k, pl := range lay.Placements {
		path := constraints.Index("placements", k)
		i, ok := byID[pl.Pallet]
		if !ok {
			vs.Add(CodeUnknown, path, "pallet %q is not to be loaded on this trailer", pl.Pallet)
			continue
		}
		if placedAt[i] >= 0 {
			vs.Add(CodeDuplicate, path, "pallet %q is already placed at placements[%d]", pl.Pallet, placedAt[i])
			continue
		}
		placedAt[i] = k
		p := pallets[i]
		a, c := float64(p.LengthMM), float64(p.WidthMM) // along, across when straight
		if pl.Turned {
			a, c = c, a
		}
		var y0 float64
		switch pl.Side {
		case Left:
			y0 = 0
		case Right:
			y0 = W - c
		case Center:
			y0 = (W - c) / 2
		default:
			vs.Add(CodeInvalid, path, "unknown side")
			continue
		}
		r := rect{float64(pl.XMM), float64(pl.XMM) + a, y0, y0 + c}
		if r.x0 < 0 || r.x1 > L || r.y0 < 0 || r.y1 > W {
			vs.Add(CodeOutsideFloor, path, "pallet %q spans %.0f–%.0f mm along and %.0f–%.0f mm across a %.0f × %.0f mm floor", p.ID, r.x0, r.x1, r.y0, r.y1, L, W)
		}
		if p.HeightMM > tr.HeightMM {
			vs.Add(CodeTooTall, path, "pallet %q is %d mm tall, the trailer %d mm inside", p.ID, p.HeightMM, tr.HeightMM)
		}
		if !tr.Equipment.Carries(p.Temperature) {
			vs.Add(CodeTemperature, path, "%s pallet %q cannot ride on a %s", p.Temperature, p.ID, tr.Equipment.Kind)
		}
		if pl.Row < 0 {
			vs.Add(CodeRowOrder, path, "row %d is negative", pl.Row)
		}
		if pl.Level != 0 && pl.Level != 1 {
			vs.Add(CodeStacking, path, "level %d: a pallet stands on the floor (0) or on one other pallet (1)", pl.Level)
			continue
		}
		if pl.Zone < 0 || pl.Zone >= len(lay.Zones) {
			vs.Add(CodeZone, path, "zone %d does not exist", pl.Zone)
		} else {
			z := lay.Zones[pl.Zone]
			if z.Temperature != p.Temperature {
				vs.Add(CodeTemperature, path, "%s pallet %q stands in a %s zone", p.Temperature, p.ID, z.Temperature)
			}
			if pl.Row < z.FirstRow || pl.Row > z.LastRow {
				vs.Add(CodeZone, path, "row %d lies outside its zone's rows %d–%d", pl.Row, z.FirstRow, z.LastRow)
			}
		}
		rects[k], valid[k] = r, true
		if pl.Level == 0 {
			positions += pl.Side.Positions()
		}
		weight += p.WeightKg
		volume += p.VolumeM3
		classes[p.Temperature] = true
	}
	for i, p := range pallets {
		if placedAt[i] < 0 {
			vs.Add(CodeMissing, "placements", "pallet %q has no place on the floor", p.ID)
		}
	}
	// counted: the placement is the one Validate reads for its pallet.
	counted := func(k int) bool {
		i, ok := byID[lay.Placements[k].Pallet]
		return ok && valid[k] && placedAt[i] == k
	}
	palletOf := func(k int) Pallet { return pallets[byID[lay.Placements[k].Pallet]] }

	// Overlap: pallets are few per trailer (≤ ~60), so all pairs is fine.
	// Floor pallets and stacked pallets stand at different heights.
	for a := range rects {
		for b := a + 1; b < len(rects); b++ {
			if !valid[a] || !valid[b] || lay.Placements[a].Level != lay.Placements[b].Level {
				continue
			}
			ra, rb := rects[a], rects[b]
			if ra.x0 < rb.x1 && rb.x0 < ra.x1 && ra.y0 < rb.y1 && rb.y0 < ra.y1 {
				vs.Add(CodeOverlap, constraints.Index("placements", b), "pallet %q overlaps pallet %q", lay.Placements[b].Pallet, lay.Placements[a].Pallet)
			}
		}
	}

	// Rows per side: a CENTER pallet stands on both sides; on one side a
	// lower row never starts nearer the door than a higher one.
	onSide := func(s, lane Side) bool { return s == lane || s == Center }
	for _, lane := range []Side{Left, Right} {
		for a, pa := range lay.Placements {
			if !valid[a] || pa.Level != 0 || !onSide(pa.Side, lane) {
				continue
			}
			for b, pb := range lay.Placements {
				if valid[b] && pb.Level == 0 && onSide(pb.Side, lane) && pa.Row < pb.Row && rects[a].x0 > rects[b].x0 {
					vs.Add(CodeRowOrder, constraints.Index("placements", b), "%s side: row %d starts at %.0f mm, nearer the nose than row %d at %.0f mm",
						lane, pb.Row, rects[b].x0, pa.Row, rects[a].x0)
				}
			}
		}
	}

	// Stacking: each stacked pallet on exactly one floor pallet that may
	// carry it; each floor pallet carries at most one.
	carried := map[int]int{}
	for k, pl := range lay.Placements {
		if !counted(k) || pl.Level != 1 {
			continue
		}
		path := constraints.Index("placements", k)
		top := palletOf(k)
		bottom := -1
		for j, pj := range lay.Placements {
			if j == k || !valid[j] || pj.Level != 0 || pj.Zone != pl.Zone || pj.Side != pl.Side {
				continue
			}
			rt, rb := rects[k], rects[j]
			if rt.x0 >= rb.x0 && rt.x1 <= rb.x1 && rt.y0 >= rb.y0 && rt.y1 <= rb.y1 {
				if bottom >= 0 {
					vs.Add(CodeStacking, path, "pallet %q stands on more than one pallet", top.ID)
				}
				bottom = j
			}
		}
		if bottom < 0 {
			vs.Add(CodeStacking, path, "stacked pallet %q stands on no floor pallet of its zone and side whose footprint holds it", top.ID)
			continue
		}
		if prev, ok := carried[bottom]; ok {
			vs.Add(CodeStacking, path, "pallet %q already carries pallet %q", lay.Placements[bottom].Pallet, lay.Placements[prev].Pallet)
		}
		carried[bottom] = k
		if !counted(bottom) {
			continue
		}
		bot := palletOf(bottom)
		if !bot.MayCarry {
			vs.Add(CodeStacking, path, "pallet %q may not carry another pallet", bot.ID)
		}
		if !top.MayBeStacked {
			vs.Add(CodeStacking, path, "pallet %q may not be stacked", top.ID)
		}
		if top.HeightMM+bot.HeightMM > tr.HeightMM {
			vs.Add(CodeTooTall, path, "pallet %q on pallet %q stands %d mm tall, the trailer %d mm inside", top.ID, bot.ID, top.HeightMM+bot.HeightMM, tr.HeightMM)
		}
		if top.WeightKg > bot.WeightKg {
			vs.Add(CodeStacking, path, "pallet %q (%.1f kg) stands on lighter pallet %q (%.1f kg)", top.ID, top.WeightKg, bot.ID, bot.WeightKg)
		}
		if top.Stop > bot.Stop {
			vs.Add(CodeStacking, path, "pallet %q for stop %d stands on pallet %q, which comes off earlier at stop %d", top.ID, top.Stop, bot.ID, bot.Stop)
		}
	}

	// Zones: within the equipment's count, each of a class the equipment
	// carries, disjoint, in row order, strictly colder towards the nose.
	if len(lay.Zones) > tr.Equipment.Zones() {
		vs.Add(CodeTooManyZones, "zones", "%d zones, a %s holds %d", len(lay.Zones), tr.Equipment.Kind, tr.Equipment.Zones())
	}
	for zi, z := range lay.Zones {
		path := constraints.Index("zones", zi)
		if !z.Temperature.Valid() || !tr.Equipment.Carries(z.Temperature) {
			vs.Add(CodeTemperature, path, "a %s cannot hold a %s zone", tr.Equipment.Kind, z.Temperature)
		}
		if z.LastRow < z.FirstRow {
			vs.Add(CodeZone, path, "rows %d–%d are empty", z.FirstRow, z.LastRow)
		}
		if zi > 0 {
			prev := lay.Zones[zi-1]
			if z.FirstRow <= prev.LastRow {
				vs.Add(CodeZone, path, "starts at row %d, inside zone %d (rows %d–%d)", z.FirstRow, zi-1, prev.FirstRow, prev.LastRow)
			}
			if z.Temperature >= prev.Temperature {
				vs.Add(CodeZone, path, "%s zone behind a %s zone: colder zones go towards the nose", z.Temperature, prev.Temperature)
			}
		}
	}

	// Zones along the floor: bulkheads are straight across, so zones are
	// disjoint ranges of the length, in order, each holding its pallets.
	// A zone that states no range spans its pallets.
	type span struct {
		x0, x1 float64
		set    bool
	}
	spans := make([]span, len(lay.Zones))
	for zi, z := range lay.Zones {
		if z.FromMM != 0 || z.ToMM != 0 {
			spans[zi] = span{float64(z.FromMM), float64(z.ToMM), true}
			if z.FromMM < 0 || z.ToMM <= z.FromMM || z.ToMM > tr.LengthMM {
				vs.Add(CodeZone, constraints.Index("zones", zi), "range %d–%d mm is empty or leaves the %d mm floor", z.FromMM, z.ToMM, tr.LengthMM)
			}
		}
	}
	for k, pl := range lay.Placements {
		if !valid[k] || pl.Zone < 0 || pl.Zone >= len(lay.Zones) {
			continue
		}
		sp, r, z := &spans[pl.Zone], rects[k], lay.Zones[pl.Zone]
		switch {
		case z.FromMM != 0 || z.ToMM != 0:
			if r.x0 < sp.x0 || r.x1 > sp.x1 {
				vs.Add(CodeZone, constraints.Index("placements", k), "pallet %q spans %.0f–%.0f mm, outside zone %d at %d–%d mm", pl.Pallet, r.x0, r.x1, pl.Zone, z.FromMM, z.ToMM)
			}
		case !sp.set:
			*sp = span{r.x0, r.x1, true}
		default:
			sp.x0, sp.x1 = math.Min(sp.x0, r.x0), math.Max(sp.x1, r.x1)
		}
	}
	last := -1
	for zi := range spans {
		if !spans[zi].set {
			continue
		}
		if last >= 0 && spans[zi].x0 < spans[last].x1 {
			vs.Add(CodeZone, constraints.Index("zones", zi), "spans %.0f–%.0f mm, overlapping zone %d at %.0f–%.0f mm: bulkheads run straight across",
				spans[zi].x0, spans[zi].x1, last, spans[last].x0, spans[last].x1)
		}
		last = zi
	}

	if tr.Positions > 0 && positions > tr.Positions {
		vs.Add(CodePositions, "placements", "%d floor positions used, the trailer allows %d", positions, tr.Positions)
	}
	if weight > tr.PayloadKg*(1+1e-9) {
		vs.Add(CodePayload, "placements", "%.1f kg loaded, payload %.1f kg", weight, tr.PayloadKg)
	}
	if volume > tr.Volume()*(1+1e-9) {
		vs.Add(CodeVolume, "placements", "%.2f m³ loaded, trailer holds %.2f m³", volume, tr.Volume())
	}

	// Unloading order within each zone: a pallet for a later stop never
	// starts nearer the door than a pallet for an earlier stop.
	for a, pa := range lay.Placements {
		if !counted(a) {
			continue
		}
		for b, pb := range lay.Placements {
			if !counted(b) || pa.Zone != pb.Zone {
				continue
			}
			if sa, sb := palletOf(a).Stop, palletOf(b).Stop; sb > sa && pb.XMM > pa.XMM {
				vs.Add(CodeUnloadingOrder, constraints.Index("placements", b),
					"pallet %q for stop %d starts at %d mm, nearer the door than pallet %q for stop %d at %d mm",
					pb.Pallet, sb, pb.XMM, pa.Pallet, sa, pa.XMM)
			}
		}
	}

	// Axle loads at departure (-1) and after each stop, by the lever rule.
	if len(lay.Axles) != stops+1 {
		vs.Add(CodeAxleReport, "axles", "%d axle states reported, want %d (departure and after each stop)", len(lay.Axles), stops+1)
	}
	for after := -1; after < stops; after++ {
		var loads []constraints.PointLoad
		for k, pl := range lay.Placements {
			i, ok := byID[pl.Pallet]
			if !ok || !valid[k] || placedAt[i] != k || pallets[i].Stop <= after {
				continue
			}
			loads = append(loads, constraints.PointLoad{XMM: (rects[k].x0 + rects[k].x1) / 2, Kg: pallets[i].WeightKg})
		}
		kp, ax := tr.Axles.Loads(loads)
		for _, v := range axleLimitViolations(tr.Axles, after, kp, ax) {
			v.Path = constraints.Index("axles", after+1)
			vs = append(vs, v)
		}
		if j := after + 1; j < len(lay.Axles) {
			r := lay.Axles[j]
			if r.AfterStop != after || math.Abs(r.KingpinKg-kp) > 0.5 || math.Abs(r.AxleGroupKg-ax) > 0.5 {
				vs.Add(CodeAxleReport, constraints.Index("axles", j), "reported kingpin %.1f kg, axle group %.1f kg after stop %d; recomputed %.1f kg, %.1f kg after stop %d",
					r.KingpinKg, r.AxleGroupKg, r.AfterStop, kp, ax, after)
			}
		}
	}
	return vs
}
