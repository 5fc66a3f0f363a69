package engine

import (
	"math"

	"github.com/haulplan/haulplan/constraints"
)

// Codes of the floor rules, reported under routes[i].load. They are the
// stable codes package loadplan documents for the same rules, so a caller
// switches on one set whichever checked the floor; TEMPERATURE,
// PALLET_MISSING and PALLET_TWICE are the engine codes of the same names.
const (
	codeTooTall        = "PALLET_TOO_TALL"
	codeTooManyZones   = "TOO_MANY_ZONES"
	codePositions      = "POSITIONS"
	codePayload        = "PAYLOAD"
	codeVolume         = "VOLUME"
	codeKingpin        = "AXLE_KINGPIN"
	codeAxleGroup      = "AXLE_GROUP"
	codeUnloadingOrder = "UNLOADING_ORDER"
	codeOverlap        = "OVERLAP"
	codeOutsideFloor   = "OUTSIDE_FLOOR"
	codeRowOrder       = "ROW_ORDER"
	codeZone           = "ZONE"
	codeNotOnTrailer   = "PALLET_UNKNOWN"
	codeAxleReport     = "AXLE_REPORT"
	codeStacking       = "STACKING"
	codeSharing        = "POSITION_SHARING"
)

// floorSide is where in its row a pallet stands, seen from the door.
type floorSide int

const (
	sideLeft floorSide = iota
	sideRight
	sideCenter // the row to itself, across both lanes
)

func parseSide(s string) (floorSide, bool) {
	switch s {
	case "LEFT":
		return sideLeft, true
	case "RIGHT":
		return sideRight, true
	case "CENTER":
		return sideCenter, true
	}
	return 0, false
}

func (s floorSide) String() string {
	return [...]string{"LEFT", "RIGHT", "CENTER"}[s]
}

// floorPositions is what a pallet standing on the floor on side s takes of
// the trailer's pallet positions: a CENTER pallet has its row to itself and
// takes both positions; a LEFT or RIGHT pallet takes one, even alone in
// its row, since the other lane of the row stays free.
func (s floorSide) floorPositions() int {
	if s == sideCenter {
		return 2
	}
	return 1
}

// inLane reports whether a pallet on side s stands in lane (LEFT or
// RIGHT): a CENTER pallet stands in both.
func (s floorSide) inLane(lane floorSide) bool { return s == lane || s == sideCenter }

// box is a pallet's footprint on the floor in millimetres: x along the
// trailer from the nose, y across it from the left wall seen from the door.
type box struct{ x0, x1, y0, y1 float64 }

// overlaps reports whether two boxes share floor (touching edges do not).
func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// within reports whether a lies inside b, edges included.
func (a box) within(b box) bool {
	return a.x0 >= b.x0 && a.x1 <= b.x1 && a.y0 >= b.y0 && a.y1 <= b.y1
}

// standing is what the floor check reads from one placement.
type standing struct {
	// pallet is the index into floorCheck.pallets of the pallet the
	// placement puts down, or -1 when the placement is not read (a pallet
	// not on this trailer, a pallet already placed, or no side).
	pallet int
	// stands: the placement is read and its level exists, so the pallet
	// takes space, weighs on the axles and counts in the load.
	stands bool
	side   floorSide
	box    box
}

// floorCheck checks one route's load plan against its trailer type and the
// pallets on board, recomputing everything from the placements:
//
//   - each pallet on board placed once, no placement of another pallet;
//   - each footprint (length along the trailer, or across when turned) on
//     the floor: LEFT against the left wall, RIGHT against the right wall,
//     CENTER midway, a pallet in slot 1 one of its own widths in from the
//     wall; no pallet taller than the inside;
//   - floor positions (validate_positions.go): the floor pallets of one
//     row and side share a position only as halves and quarters making at
//     most one, within one 48×40 in pallet's place;
//   - no two pallets on one level sharing floor;
//   - rows on each lane (LEFT and CENTER pallets, RIGHT and CENTER
//     pallets) never starting nearer the nose for a higher row;
//   - stacking: a pallet at level 1 stands inside the footprint of exactly
//     one floor pallet of its zone and side, which carries no other, may
//     carry, is no lighter and comes off no earlier; the top may be stacked
//     and both together fit the inside height;
//   - zones: no more than the equipment holds, each of a class it carries,
//     rows not empty and not reaching into the zone before, strictly
//     warmer from the nose to the door; as stretches of floor (stated, or
//     those their pallets span) in order without overlap, holding their
//     pallets; each pallet in a zone of its class, on one of its rows;
//   - floor positions (level-0 pallets only), payload and volume;
//   - the unloading order through the trailer's doors (validate_doors.go):
//     at every stop its pallets come off through some door, the later
//     stops' pallets still on board;
//   - the axle loads at departure and after every stop (validate_axles.go).
type floorCheck struct {
	t       *TrailerType
	pallets []routePallet // on board, each once
	stops   int
	lp      *LoadPlan
	path    string // of the load plan: routes[i].load

	st        []standing // by placement
	positions int        // floor positions taken
	weightKg  float64
	volumeM3  float64
	vs        constraints.Violations
}

func (f *floorCheck) run() constraints.Violations {
	f.place()
	f.floorPositions()
	f.noOverlap()
	f.rowsPerLane()
	f.stacking()
	f.zoneList()
	f.zoneStretches()
	f.capacity()
	f.unloadingOrder()
	f.axles()
	return f.vs
}

func (f *floorCheck) placementPath(k int) string {
	return constraints.Index(f.path+".placements", k)
}

// place reads every placement: its pallet, where its footprint lies, and
// the rules of a single placement.
func (f *floorCheck) place() {
	byID := make(map[string]int, len(f.pallets))
	for i, rp := range f.pallets {
		byID[rp.p.ID] = i
	}
	placedAt := make([]int, len(f.pallets))
	for i := range placedAt {
		placedAt[i] = -1
	}
	f.st = make([]standing, len(f.lp.Placements))
	for k, pl := range f.lp.Placements {
		path := f.placementPath(k)
		f.st[k].pallet = -1
		side, ok := parseSide(pl.Side)
		if !ok {
			f.vs.Add(CodeInvalidValue, path+".side", "side %q is not LEFT, RIGHT or CENTER", pl.Side)
			continue
		}
		i, ok := byID[pl.Pallet]
		if !ok {
			f.vs.Add(codeNotOnTrailer, path, "pallet %q is not on this route", pl.Pallet)
			continue
		}
		if placedAt[i] >= 0 {
			f.vs.Add(CodePalletTwice, path, "pallet %q already stands at placements[%d]", pl.Pallet, placedAt[i])
			continue
		}
		placedAt[i] = k
		p := f.pallets[i].p
		b := f.footprint(p, pl, side)
		f.fitsInside(path, p, b)
		if pl.Slot != 0 && (pl.Slot != 1 || side == sideCenter) {
			f.vs.Add(codeSharing, path+".slot", "slot %d on side %s: a pallet stands in slot 0, or in slot 1 beside a pallet sharing its LEFT or RIGHT position", pl.Slot, side)
		}
		if pl.Row < 0 {
			f.vs.Add(codeRowOrder, path, "row %d: rows count from 0 at the nose", pl.Row)
		}
		f.st[k].pallet = i
		if pl.Level != 0 && pl.Level != 1 {
			f.vs.Add(codeStacking, path, "level %d: a pallet stands on the floor (0) or on one floor pallet (1)", pl.Level)
			continue
		}
		f.inZone(path, p, pl)
		f.st[k].stands, f.st[k].side, f.st[k].box = true, side, b
		f.weightKg += p.WeightKg
		f.volumeM3 += p.volume()
	}
	for i, rp := range f.pallets {
		if placedAt[i] < 0 {
			f.vs.Add(CodePalletMissing, f.path+".placements", "pallet %q (stop %d) has no placement", rp.p.ID, rp.stop)
		}
	}
}

// footprint is where placement pl of pallet p lies on the floor: its
// length along the trailer (across when turned) from XMM, against the
// wall of its side (slot 0) or one of its widths in (slot 1), or midway
// for CENTER.
func (f *floorCheck) footprint(p *Pallet, pl Placement, side floorSide) box {
	width := float64(f.t.Inside.WidthMM)
	l, w := p.Footprint.Dims()
	along, across := float64(l), float64(w)
	if pl.Turned {
		along, across = across, along
	}
	y := float64(pl.Slot) * across // LEFT: against the left wall, or a slot in
	switch side {
	case sideRight:
		y = width - float64(pl.Slot+1)*across
	case sideCenter:
		y = (width - across) / 2
	}
	return box{float64(pl.XMM), float64(pl.XMM) + along, y, y + across}
}

// fitsInside checks that pallet p, its footprint b, is on the floor,
// under the roof, and of a class the trailer carries.
func (f *floorCheck) fitsInside(path string, p *Pallet, b box) {
	length, width := float64(f.t.Inside.LengthMM), float64(f.t.Inside.WidthMM)
	if b.x0 < 0 || b.x1 > length || b.y0 < 0 || b.y1 > width {
		f.vs.Add(codeOutsideFloor, path, "pallet %q covers %.0f–%.0f mm along and %.0f–%.0f mm across; the floor is %.0f × %.0f mm",
			p.ID, b.x0, b.x1, b.y0, b.y1, length, width)
	}
	if p.HeightMM > f.t.Inside.HeightMM {
		f.vs.Add(codeTooTall, path, "pallet %q is %d mm tall; the trailer is %d mm high inside", p.ID, p.HeightMM, f.t.Inside.HeightMM)
	}
	if !f.t.Equipment.Carries(p.Temperature) {
		f.vs.Add(CodeTemperature, path, "a %s cannot carry %s pallet %q", f.t.Equipment.Kind, p.Temperature, p.ID)
	}
}

// inZone checks that placement pl of pallet p names a zone of the load
// plan, of p's class, and one of that zone's rows.
func (f *floorCheck) inZone(path string, p *Pallet, pl Placement) {
	if pl.Zone < 0 || pl.Zone >= len(f.lp.Zones) {
		f.vs.Add(codeZone, path, "zone %d: the load plan has %d zones", pl.Zone, len(f.lp.Zones))
		return
	}
	z := f.lp.Zones[pl.Zone]
	if z.Temperature != p.Temperature {
		f.vs.Add(CodeTemperature, path, "%s pallet %q stands in %s zone %d", p.Temperature, p.ID, z.Temperature, pl.Zone)
	}
	if pl.Row < z.FirstRow || pl.Row > z.LastRow {
		f.vs.Add(codeZone, path, "row %d is not one of zone %d's rows %d–%d", pl.Row, pl.Zone, z.FirstRow, z.LastRow)
	}
}

// noOverlap: pallets on one level never share floor; a stacked pallet
// stands above the floor pallets, so only its own level counts.
func (f *floorCheck) noOverlap() {
	pls := f.lp.Placements
	for a := range f.st {
		for b := a + 1; b < len(f.st); b++ {
			if f.st[a].stands && f.st[b].stands && pls[a].Level == pls[b].Level && f.st[a].box.overlaps(f.st[b].box) {
				f.vs.Add(codeOverlap, f.placementPath(b), "pallet %q shares floor with pallet %q", pls[b].Pallet, pls[a].Pallet)
			}
		}
	}
}

// rowsPerLane: on each lane, rows count from the nose: a floor pallet of a
// higher row never starts nearer the nose than one of a lower row.
func (f *floorCheck) rowsPerLane() {
	pls := f.lp.Placements
	for _, lane := range []floorSide{sideLeft, sideRight} {
		onLane := func(k int) bool { return f.st[k].stands && pls[k].Level == 0 && f.st[k].side.inLane(lane) }
		for a := range f.st {
			if !onLane(a) {
				continue
			}
			for b := range f.st {
				if onLane(b) && pls[a].Row < pls[b].Row && f.st[a].box.x0 > f.st[b].box.x0 {
					f.vs.Add(codeRowOrder, f.placementPath(b), "%s lane: row %d starts %.0f mm from the nose, before row %d at %.0f mm",
						lane, pls[b].Row, f.st[b].box.x0, pls[a].Row, f.st[a].box.x0)
				}
			}
		}
	}
}

// stacking checks every pallet at level 1 against the floor pallet under it.
func (f *floorCheck) stacking() {
	pls := f.lp.Placements
	carrying := map[int]int{} // floor placement → the placement it carries
	for k, pl := range pls {
		if !f.st[k].stands || pl.Level != 1 {
			continue
		}
		path := f.placementPath(k)
		top := f.pallets[f.st[k].pallet]
		under := -1
		for j, pj := range pls {
			if j == k || !f.st[j].stands || pj.Level != 0 || pj.Zone != pl.Zone || f.st[j].side != f.st[k].side || !f.st[k].box.within(f.st[j].box) {
				continue
			}
			if under >= 0 {
				f.vs.Add(codeStacking, path, "pallet %q stands on pallets %q and %q", top.p.ID, pls[under].Pallet, pj.Pallet)
			}
			under = j
		}
		if under < 0 {
			f.vs.Add(codeStacking, path, "pallet %q stands at level 1 on no floor pallet of its zone and side that holds its footprint", top.p.ID)
			continue
		}
		if prev, ok := carrying[under]; ok {
			f.vs.Add(codeStacking, path, "pallet %q already carries pallet %q", pls[under].Pallet, pls[prev].Pallet)
		}
		carrying[under] = k
		bottom := f.pallets[f.st[under].pallet]
		if !bottom.p.MayCarry {
			f.vs.Add(codeStacking, path, "pallet %q may not carry a pallet", bottom.p.ID)
		}
		if !top.p.MayBeStacked {
			f.vs.Add(codeStacking, path, "pallet %q may not stand on a pallet", top.p.ID)
		}
		if h := top.p.HeightMM + bottom.p.HeightMM; h > f.t.Inside.HeightMM {
			f.vs.Add(codeTooTall, path, "pallet %q on pallet %q stands %d mm tall; the trailer is %d mm high inside", top.p.ID, bottom.p.ID, h, f.t.Inside.HeightMM)
		}
		if top.p.WeightKg > bottom.p.WeightKg {
			f.vs.Add(codeStacking, path, "pallet %q (%g kg) stands on lighter pallet %q (%g kg)", top.p.ID, top.p.WeightKg, bottom.p.ID, bottom.p.WeightKg)
		}
		if top.stop > bottom.stop {
			f.vs.Add(codeStacking, path, "pallet %q comes off at stop %d, standing on pallet %q which comes off before, at stop %d", top.p.ID, top.stop, bottom.p.ID, bottom.stop)
		}
	}
}

// zoneList checks the zones as a list: how many, their classes, their rows
// and their order (colder towards the nose).
func (f *floorCheck) zoneList() {
	e := f.t.Equipment
	zs := f.lp.Zones
	if len(zs) > e.Zones() {
		f.vs.Add(codeTooManyZones, f.path+".zones", "%d zones; a %s holds %d", len(zs), e.Kind, e.Zones())
	}
	for i, z := range zs {
		path := constraints.Index(f.path+".zones", i)
		if !z.Temperature.Valid() || !e.Carries(z.Temperature) {
			f.vs.Add(CodeTemperature, path, "a %s has no %s zone", e.Kind, z.Temperature)
		}
		if z.LastRow < z.FirstRow {
			f.vs.Add(codeZone, path, "rows %d–%d: no row", z.FirstRow, z.LastRow)
		}
		if i == 0 {
			continue
		}
		before := zs[i-1]
		if z.FirstRow <= before.LastRow {
			f.vs.Add(codeZone, path, "first row %d is not behind zone %d's last row %d", z.FirstRow, i-1, before.LastRow)
		}
		if z.Temperature >= before.Temperature {
			f.vs.Add(codeZone, path, "a %s zone behind a %s zone: each zone towards the door is warmer", z.Temperature, before.Temperature)
		}
	}
}

// zoneStretches checks the zones as stretches of floor: bulkheads run
// straight across, so each zone is a range of the floor's length, stated
// (FromMM, ToMM) or, when both are 0, the range its pallets cover; the
// ranges follow each other from the nose without overlap, and a stated
// range holds its pallets.
func (f *floorCheck) zoneStretches() {
	zs := f.lp.Zones
	type stretch struct {
		from, to float64
		known    bool
	}
	st := make([]stretch, len(zs))
	for i, z := range zs {
		if z.FromMM == 0 && z.ToMM == 0 {
			continue
		}
		st[i] = stretch{float64(z.FromMM), float64(z.ToMM), true}
		if z.FromMM < 0 || z.ToMM <= z.FromMM || z.ToMM > f.t.Inside.LengthMM {
			f.vs.Add(codeZone, constraints.Index(f.path+".zones", i), "%d–%d mm is no stretch of the %d mm floor", z.FromMM, z.ToMM, f.t.Inside.LengthMM)
		}
	}
	for k, pl := range f.lp.Placements {
		if !f.st[k].stands || pl.Zone < 0 || pl.Zone >= len(zs) {
			continue
		}
		b, z, s := f.st[k].box, zs[pl.Zone], &st[pl.Zone]
		switch {
		case z.FromMM != 0 || z.ToMM != 0:
			if b.x0 < s.from || b.x1 > s.to {
				f.vs.Add(codeZone, f.placementPath(k), "pallet %q covers %.0f–%.0f mm, outside zone %d's %d–%d mm", pl.Pallet, b.x0, b.x1, pl.Zone, z.FromMM, z.ToMM)
			}
		case !s.known:
			*s = stretch{b.x0, b.x1, true}
		default:
			s.from, s.to = math.Min(s.from, b.x0), math.Max(s.to, b.x1)
		}
	}
	prev := -1
	for i, s := range st {
		if !s.known {
			continue
		}
		if prev >= 0 && s.from < st[prev].to {
			f.vs.Add(codeZone, constraints.Index(f.path+".zones", i), "covers %.0f–%.0f mm, reaching into zone %d's %.0f–%.0f mm: bulkheads run straight across",
				s.from, s.to, prev, st[prev].from, st[prev].to)
		}
		prev = i
	}
}

// capacity checks floor positions, payload and volume. Weights and volumes
// are sums of decimal inputs, so they may exceed a limit they equal by a
// relative 1e-9.
func (f *floorCheck) capacity() {
	c := f.t.capacity()
	if c.Positions > 0 && f.positions > c.Positions {
		f.vs.Add(codePositions, f.path+".placements", "%d floor positions taken; the trailer has %d", f.positions, c.Positions)
	}
	if f.weightKg > c.WeightKg*(1+1e-9) {
		f.vs.Add(codePayload, f.path+".placements", "%g kg on board; the payload is %g kg", f.weightKg, c.WeightKg)
	}
	if f.volumeM3 > c.VolumeM3*(1+1e-9) {
		f.vs.Add(codeVolume, f.path+".placements", "%.3f m³ on board; the trailer holds %.3f m³", f.volumeM3, c.VolumeM3)
	}
}
