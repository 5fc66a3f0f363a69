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
// positions and how pallets share them (validate_positions.go), payload,
// volume, the unloading order through the trailer's doors, and the axle
// loads at departure and after every stop (which must also match the ones
// the layout reports).
//
// The unloading order is geometric (validate_doors.go): at every stop each
// of its pallets comes off through some door of the trailer (the rear door
// when it lists none) once the pallets of earlier stops are off, nothing
// still on board standing in its way out. On a rear-only trailer a floor
// in reverse stop order passes, pinwheel blocks included.
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
	if lay == nil {
		var vs constraints.Violations
		if len(pallets) > 0 {
			vs.Add(CodeMissing, "", "%d pallets but no layout", len(pallets))
		}
		return vs
	}
	c := newLayoutCheck(tr, pallets, lay)
	c.placements()
	c.missing()
	c.sharedPositions()
	c.overlaps()
	c.rowOrder()
	c.stacking()
	c.zones()
	c.zoneSpans()
	c.capacity()
	c.unloadingOrder(stops)
	c.axles(stops)
	return c.vs
}

// rect is a footprint on the floor: x along the trailer from the nose, y
// across it from the left side.
type rect struct{ x0, x1, y0, y1 float64 }

// layoutCheck is one Validate call: the input, what it reads from the
// placements, and the violations found so far, in the order the checks
// run.
type layoutCheck struct {
	tr      Trailer
	pallets []Pallet
	lay     *Layout
	byID    map[string]int // pallet index by ID
	// placedAt[i] is the placement Validate reads for pallet i, -1 when none.
	placedAt []int
	// rects[k] is placement k's footprint, set when valid[k]: the pallet is
	// known, placed once, on a known side, at level 0 or 1.
	rects []rect
	valid []bool
	vs    constraints.Violations
	// positions, weight and volume sum the valid placements.
	positions      int
	weight, volume float64
}

func newLayoutCheck(tr Trailer, pallets []Pallet, lay *Layout) *layoutCheck {
	c := &layoutCheck{tr: tr, pallets: pallets, lay: lay, byID: make(map[string]int, len(pallets)),
		placedAt: make([]int, len(pallets)), rects: make([]rect, len(lay.Placements)), valid: make([]bool, len(lay.Placements))}
	for i, p := range pallets {
		c.byID[p.ID] = i
	}
	for i := range c.placedAt {
		c.placedAt[i] = -1
	}
	return c
}

// counted reports whether placement k is the one Validate reads for its
// pallet.
func (c *layoutCheck) counted(k int) bool {
	i, ok := c.byID[c.lay.Placements[k].Pallet]
	return ok && c.valid[k] && c.placedAt[i] == k
}

// palletOf returns the pallet of placement k, which must be known.
func (c *layoutCheck) palletOf(k int) Pallet { return c.pallets[c.byID[c.lay.Placements[k].Pallet]] }

// placements checks each placement on its own: a known pallet placed once,
// on the floor, on a known side and level, in a zone of its class whose
// rows hold its row; and it sums the floor positions, weight and volume.
func (c *layoutCheck) placements() {
	tr, W, L := c.tr, float64(c.tr.WidthMM), float64(c.tr.LengthMM)
	for k, pl := range c.lay.Placements {
		path := constraints.Index("placements", k)
		i, ok := c.byID[pl.Pallet]
		if !ok {
			c.vs.Add(CodeUnknown, path, "pallet %q is not to be loaded on this trailer", pl.Pallet)
			continue
		}
		if c.placedAt[i] >= 0 {
			c.vs.Add(CodeDuplicate, path, "pallet %q is already placed at placements[%d]", pl.Pallet, c.placedAt[i])
			continue
		}
		c.placedAt[i] = k
		p := c.pallets[i]
		r, ok := footprint(pl, p, W)
		if !ok {
			c.vs.Add(CodeInvalid, path, "unknown side")
			continue
		}
		if pl.Slot != 0 && (pl.Slot != 1 || pl.Side == Center) {
			c.vs.Add(CodeSharing, path, "slot %d on side %s: a pallet sharing a position on the LEFT or RIGHT stands in slot 0 or 1, any other in slot 0", pl.Slot, pl.Side)
		}
		if r.x0 < 0 || r.x1 > L || r.y0 < 0 || r.y1 > W {
			c.vs.Add(CodeOutsideFloor, path, "pallet %q spans %.0f–%.0f mm along and %.0f–%.0f mm across a %.0f × %.0f mm floor", p.ID, r.x0, r.x1, r.y0, r.y1, L, W)
		}
		if p.HeightMM > tr.HeightMM {
			c.vs.Add(CodeTooTall, path, "pallet %q is %d mm tall, the trailer %d mm inside", p.ID, p.HeightMM, tr.HeightMM)
		}
		if !tr.Equipment.Carries(p.Temperature) {
			c.vs.Add(CodeTemperature, path, "%s pallet %q cannot ride on a %s", p.Temperature, p.ID, tr.Equipment.Kind)
		}
		if pl.Row < 0 {
			c.vs.Add(CodeRowOrder, path, "row %d is negative", pl.Row)
		}
		if pl.Level != 0 && pl.Level != 1 {
			c.vs.Add(CodeStacking, path, "level %d: a pallet stands on the floor (0) or on one other pallet (1)", pl.Level)
			continue
		}
		c.inZone(path, pl, p)
		c.rects[k], c.valid[k] = r, true
		c.weight += p.WeightKg
		c.volume += p.VolumeM3
	}
}

// footprint returns where placement pl of pallet p stands on a floor of
// width w, or false for a side that is none of LEFT, RIGHT and CENTER. Slot
// k stands k of the pallet's own widths across from the wall of its side.
func footprint(pl Placement, p Pallet, w float64) (rect, bool) {
	a, c := float64(p.LengthMM), float64(p.WidthMM) // along, across when straight
	if pl.Turned {
		a, c = c, a
	}
	var y0 float64
	switch pl.Side {
	case Left:
		y0 = float64(pl.Slot) * c
	case Right:
		y0 = w - float64(pl.Slot+1)*c
	case Center:
		y0 = (w - c) / 2
	default:
		return rect{}, false
	}
	return rect{float64(pl.XMM), float64(pl.XMM) + a, y0, y0 + c}, true
}

// inZone checks that placement pl of pallet p names a zone, of p's class,
// whose rows hold pl's row.
func (c *layoutCheck) inZone(path string, pl Placement, p Pallet) {
	if pl.Zone < 0 || pl.Zone >= len(c.lay.Zones) {
		c.vs.Add(CodeZone, path, "zone %d does not exist", pl.Zone)
		return
	}
	z := c.lay.Zones[pl.Zone]
	if z.Temperature != p.Temperature {
		c.vs.Add(CodeTemperature, path, "%s pallet %q stands in a %s zone", p.Temperature, p.ID, z.Temperature)
	}
	if pl.Row < z.FirstRow || pl.Row > z.LastRow {
		c.vs.Add(CodeZone, path, "row %d lies outside its zone's rows %d–%d", pl.Row, z.FirstRow, z.LastRow)
	}
}

// missing reports every pallet the layout does not place.
func (c *layoutCheck) missing() {
	for i, p := range c.pallets {
		if c.placedAt[i] < 0 {
			c.vs.Add(CodeMissing, "placements", "pallet %q has no place on the floor", p.ID)
		}
	}
}

// overlaps checks that no two pallets at one level overlap: floor pallets
// and stacked pallets stand at different heights. Pallets are few per
// trailer (≤ ~60), so all pairs is fine.
func (c *layoutCheck) overlaps() {
	for a := range c.rects {
		for b := a + 1; b < len(c.rects); b++ {
			if !c.valid[a] || !c.valid[b] || c.lay.Placements[a].Level != c.lay.Placements[b].Level {
				continue
			}
			ra, rb := c.rects[a], c.rects[b]
			if ra.x0 < rb.x1 && rb.x0 < ra.x1 && ra.y0 < rb.y1 && rb.y0 < ra.y1 {
				c.vs.Add(CodeOverlap, constraints.Index("placements", b), "pallet %q overlaps pallet %q", c.lay.Placements[b].Pallet, c.lay.Placements[a].Pallet)
			}
		}
	}
}

// rowOrder checks the rows per side: a CENTER pallet stands on both sides;
// on one side a lower row never starts nearer the door than a higher one.
func (c *layoutCheck) rowOrder() {
	onSide := func(s, lane Side) bool { return s == lane || s == Center }
	for _, lane := range []Side{Left, Right} {
		for a, pa := range c.lay.Placements {
			if !c.valid[a] || pa.Level != 0 || !onSide(pa.Side, lane) {
				continue
			}
			for b, pb := range c.lay.Placements {
				if c.valid[b] && pb.Level == 0 && onSide(pb.Side, lane) && pa.Row < pb.Row && c.rects[a].x0 > c.rects[b].x0 {
					c.vs.Add(CodeRowOrder, constraints.Index("placements", b), "%s side: row %d starts at %.0f mm, nearer the nose than row %d at %.0f mm",
						lane, pb.Row, c.rects[b].x0, pa.Row, c.rects[a].x0)
				}
			}
		}
	}
}

// stacking checks that each stacked pallet stands on exactly one floor
// pallet that may carry it, and that each floor pallet carries at most
// one.
func (c *layoutCheck) stacking() {
	carried := map[int]int{}
	for k, pl := range c.lay.Placements {
		if !c.counted(k) || pl.Level != 1 {
			continue
		}
		path := constraints.Index("placements", k)
		top := c.palletOf(k)
		bottom := c.bottomOf(path, k)
		if bottom < 0 {
			c.vs.Add(CodeStacking, path, "stacked pallet %q stands on no floor pallet of its zone and side whose footprint holds it", top.ID)
			continue
		}
		if prev, ok := carried[bottom]; ok {
			c.vs.Add(CodeStacking, path, "pallet %q already carries pallet %q", c.lay.Placements[bottom].Pallet, c.lay.Placements[prev].Pallet)
		}
		carried[bottom] = k
		if c.counted(bottom) {
			c.pair(path, c.palletOf(bottom), top)
		}
	}
}

// bottomOf returns the floor placement of stacked placement k's zone and
// side whose footprint holds k's, the last one when several do (which it
// reports), or -1 when none does.
func (c *layoutCheck) bottomOf(path string, k int) int {
	pl := c.lay.Placements[k]
	bottom := -1
	for j, pj := range c.lay.Placements {
		if j == k || !c.valid[j] || pj.Level != 0 || pj.Zone != pl.Zone || pj.Side != pl.Side {
			continue
		}
		rt, rb := c.rects[k], c.rects[j]
		if rt.x0 >= rb.x0 && rt.x1 <= rb.x1 && rt.y0 >= rb.y0 && rt.y1 <= rb.y1 {
			if bottom >= 0 {
				c.vs.Add(CodeStacking, path, "pallet %q stands on more than one pallet", c.palletOf(k).ID)
			}
			bottom = j
		}
	}
	return bottom
}

// pair checks the rules of top standing on bot: bot may carry, top may be
// stacked, the two fit the inside height, top is no heavier and comes off
// no later.
func (c *layoutCheck) pair(path string, bot, top Pallet) {
	if !bot.MayCarry {
		c.vs.Add(CodeStacking, path, "pallet %q may not carry another pallet", bot.ID)
	}
	if !top.MayBeStacked {
		c.vs.Add(CodeStacking, path, "pallet %q may not be stacked", top.ID)
	}
	if top.HeightMM+bot.HeightMM > c.tr.HeightMM {
		c.vs.Add(CodeTooTall, path, "pallet %q on pallet %q stands %d mm tall, the trailer %d mm inside", top.ID, bot.ID, top.HeightMM+bot.HeightMM, c.tr.HeightMM)
	}
	if top.WeightKg > bot.WeightKg {
		c.vs.Add(CodeStacking, path, "pallet %q (%.1f kg) stands on lighter pallet %q (%.1f kg)", top.ID, top.WeightKg, bot.ID, bot.WeightKg)
	}
	if top.Stop > bot.Stop {
		c.vs.Add(CodeStacking, path, "pallet %q for stop %d stands on pallet %q, which comes off earlier at stop %d", top.ID, top.Stop, bot.ID, bot.Stop)
	}
}

// zones checks the zone list: within the equipment's count, each of a class
// the equipment carries, disjoint, in row order, strictly colder towards
// the nose.
func (c *layoutCheck) zones() {
	tr, zones := c.tr, c.lay.Zones
	if len(zones) > tr.Equipment.Zones() {
		c.vs.Add(CodeTooManyZones, "zones", "%d zones, a %s holds %d", len(zones), tr.Equipment.Kind, tr.Equipment.Zones())
	}
	for zi, z := range zones {
		path := constraints.Index("zones", zi)
		if !z.Temperature.Valid() || !tr.Equipment.Carries(z.Temperature) {
			c.vs.Add(CodeTemperature, path, "a %s cannot hold a %s zone", tr.Equipment.Kind, z.Temperature)
		}
		if z.LastRow < z.FirstRow {
			c.vs.Add(CodeZone, path, "rows %d–%d are empty", z.FirstRow, z.LastRow)
		}
		if zi > 0 {
			prev := zones[zi-1]
			if z.FirstRow <= prev.LastRow {
				c.vs.Add(CodeZone, path, "starts at row %d, inside zone %d (rows %d–%d)", z.FirstRow, zi-1, prev.FirstRow, prev.LastRow)
			}
			if z.Temperature >= prev.Temperature {
				c.vs.Add(CodeZone, path, "%s zone behind a %s zone: colder zones go towards the nose", z.Temperature, prev.Temperature)
			}
		}
	}
}

// zoneSpans checks the zones along the floor: bulkheads are straight
// across, so zones are disjoint ranges of the length, in order, each
// holding its pallets. A zone that states no range spans its pallets.
func (c *layoutCheck) zoneSpans() {
	type span struct {
		x0, x1 float64
		set    bool
	}
	spans := make([]span, len(c.lay.Zones))
	for zi, z := range c.lay.Zones {
		if z.FromMM != 0 || z.ToMM != 0 {
			spans[zi] = span{float64(z.FromMM), float64(z.ToMM), true}
			if z.FromMM < 0 || z.ToMM <= z.FromMM || z.ToMM > c.tr.LengthMM {
				c.vs.Add(CodeZone, constraints.Index("zones", zi), "range %d–%d mm is empty or leaves the %d mm floor", z.FromMM, z.ToMM, c.tr.LengthMM)
			}
		}
	}
	for k, pl := range c.lay.Placements {
		if !c.valid[k] || pl.Zone < 0 || pl.Zone >= len(c.lay.Zones) {
			continue
		}
		sp, r, z := &spans[pl.Zone], c.rects[k], c.lay.Zones[pl.Zone]
		switch {
		case z.FromMM != 0 || z.ToMM != 0:
			if r.x0 < sp.x0 || r.x1 > sp.x1 {
				c.vs.Add(CodeZone, constraints.Index("placements", k), "pallet %q spans %.0f–%.0f mm, outside zone %d at %d–%d mm", pl.Pallet, r.x0, r.x1, pl.Zone, z.FromMM, z.ToMM)
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
			c.vs.Add(CodeZone, constraints.Index("zones", zi), "spans %.0f–%.0f mm, overlapping zone %d at %.0f–%.0f mm: bulkheads run straight across",
				spans[zi].x0, spans[zi].x1, last, spans[last].x0, spans[last].x1)
		}
		last = zi
	}
}

// capacity checks the floor positions, payload and volume used.
func (c *layoutCheck) capacity() {
	tr := c.tr
	if tr.Positions > 0 && c.positions > tr.Positions {
		c.vs.Add(CodePositions, "placements", "%d floor positions used, the trailer allows %d", c.positions, tr.Positions)
	}
	if c.weight > tr.PayloadKg*(1+1e-9) {
		c.vs.Add(CodePayload, "placements", "%.1f kg loaded, payload %.1f kg", c.weight, tr.PayloadKg)
	}
	if c.volume > tr.Volume()*(1+1e-9) {
		c.vs.Add(CodeVolume, "placements", "%.2f m³ loaded, trailer holds %.2f m³", c.volume, tr.Volume())
	}
}

// axles recomputes the axle loads at departure (-1) and after each stop by
// the lever rule, checks them against the limits and against the ones the
// layout reports.
func (c *layoutCheck) axles(stops int) {
	tr, lay := c.tr, c.lay
	if len(lay.Axles) != stops+1 {
		c.vs.Add(CodeAxleReport, "axles", "%d axle states reported, want %d (departure and after each stop)", len(lay.Axles), stops+1)
	}
	for after := -1; after < stops; after++ {
		var loads []constraints.PointLoad
		for k := range lay.Placements {
			if !c.counted(k) || c.palletOf(k).Stop <= after {
				continue
			}
			loads = append(loads, constraints.PointLoad{XMM: (c.rects[k].x0 + c.rects[k].x1) / 2, Kg: c.palletOf(k).WeightKg})
		}
		kp, ax := tr.Axles.Loads(loads)
		for _, v := range axleLimitViolations(tr.Axles, after, kp, ax) {
			v.Path = constraints.Index("axles", after+1)
			c.vs = append(c.vs, v)
		}
		if j := after + 1; j < len(lay.Axles) {
			r := lay.Axles[j]
			if r.AfterStop != after || math.Abs(r.KingpinKg-kp) > 0.5 || math.Abs(r.AxleGroupKg-ax) > 0.5 {
				c.vs.Add(CodeAxleReport, constraints.Index("axles", j), "reported kingpin %.1f kg, axle group %.1f kg after stop %d; recomputed %.1f kg, %.1f kg after stop %d",
					r.KingpinKg, r.AxleGroupKg, r.AfterStop, kp, ax, after)
			}
		}
	}
}
