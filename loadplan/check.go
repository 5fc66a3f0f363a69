package loadplan

import (
	"math"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// Check verifies a layout against the trailer and the pallets it must carry
// on a trip of the given number of stops, recomputing everything from the
// placements alone: every pallet placed once, on the floor, without overlap,
// rows following each other from the nose, zones ordered colder towards the
// nose and holding only their class, heights, positions, payload, volume,
// the unloading order within each zone, and the axle loads at departure and
// after every stop (which must also match the ones the layout reports).
//
// It shares no code with PlanTrailer beyond the lever rule in constraints,
// so it serves as the independent oracle for loadplan's tests and for
// engine.Validate. Paths are relative: "placements[3]", "zones[1]",
// "axles[2]".
func Check(tr Trailer, pallets []Pallet, stops int, lay *Layout) constraints.Violations {
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
		positions += pl.Side.Positions()
		weight += p.WeightKg
		volume += p.VolumeM3
		classes[p.Temperature] = true
	}
	for i, p := range pallets {
		if placedAt[i] < 0 {
			vs.Add(CodeMissing, "placements", "pallet %q has no place on the floor", p.ID)
		}
	}

	// Overlap: pallets are few per trailer (≤ ~60), so all pairs is fine.
	for a := range rects {
		for b := a + 1; b < len(rects); b++ {
			if !valid[a] || !valid[b] {
				continue
			}
			ra, rb := rects[a], rects[b]
			if ra.x0 < rb.x1 && rb.x0 < ra.x1 && ra.y0 < rb.y1 && rb.y0 < ra.y1 {
				vs.Add(CodeOverlap, constraints.Index("placements", b), "pallet %q overlaps pallet %q", lay.Placements[b].Pallet, lay.Placements[a].Pallet)
			}
		}
	}

	// Rows: each row is a band along the floor; bands follow each other
	// from the nose in row order.
	type band struct {
		row    int
		x0, x1 float64
	}
	bands := map[int]*band{}
	for k, pl := range lay.Placements {
		if !valid[k] {
			continue
		}
		b, ok := bands[pl.Row]
		if !ok {
			bands[pl.Row] = &band{pl.Row, rects[k].x0, rects[k].x1}
			continue
		}
		b.x0 = math.Min(b.x0, rects[k].x0)
		b.x1 = math.Max(b.x1, rects[k].x1)
	}
	ordered := make([]*band, 0, len(bands))
	for _, b := range bands {
		ordered = append(ordered, b)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].row < ordered[j].row })
	for i := 1; i < len(ordered); i++ {
		if ordered[i].x0 < ordered[i-1].x1 {
			vs.Add(CodeRowOrder, "placements", "row %d starts at %.0f mm, before row %d ends at %.0f mm", ordered[i].row, ordered[i].x0, ordered[i-1].row, ordered[i-1].x1)
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

	if tr.Positions > 0 && positions > tr.Positions {
		vs.Add(CodePositions, "placements", "%d floor positions used, the trailer allows %d", positions, tr.Positions)
	}
	if weight > tr.PayloadKg*(1+1e-9) {
		vs.Add(CodePayload, "placements", "%.1f kg loaded, payload %.1f kg", weight, tr.PayloadKg)
	}
	if volume > tr.Volume()*(1+1e-9) {
		vs.Add(CodeVolume, "placements", "%.2f m³ loaded, trailer holds %.2f m³", volume, tr.Volume())
	}

	// Unloading order within each zone: a pallet for a later stop may not
	// stand in a row nearer the door than a pallet for an earlier stop.
	for a, pa := range lay.Placements {
		ia, ok := byID[pa.Pallet]
		if !ok || !valid[a] || placedAt[ia] != a {
			continue
		}
		for b, pb := range lay.Placements {
			ib, ok := byID[pb.Pallet]
			if !ok || !valid[b] || placedAt[ib] != b || pa.Zone != pb.Zone {
				continue
			}
			if pallets[ib].Stop > pallets[ia].Stop && pb.Row > pa.Row {
				vs.Add(CodeUnloadingOrder, constraints.Index("placements", b),
					"pallet %q for stop %d stands in row %d, nearer the door than pallet %q for stop %d in row %d",
					pb.Pallet, pallets[ib].Stop, pb.Row, pa.Pallet, pallets[ia].Stop, pa.Row)
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
