package loadplan

import (
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// PlanTrailer lays out pallets on one trailer for a trip of the given number
// of stops (each pallet's Stop lies in [0, stops)). It returns a layout that
// Check accepts, or a constraints.Violations naming every reason it could
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
		stacked = " with " + itoa(n) + " pallets stacked"
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
	// overloads the kingpin; try a few offsets and keep the first legal one.
	lay := &Layout{Placements: make([]Placement, len(fp.placements))}
	slack := tr.LengthMM - fp.length
	var axleVs constraints.Violations
	for _, frac := range []int{0, 1, 2, 3, 4} {
		off := slack * frac / 4
		for i, p := range fp.placements {
			p.XMM += off
			lay.Placements[i] = p
		}
		lay.Axles, axleVs = axleLoads(tr, pallets, fp.placedIdx, lay.Placements, stops)
		if len(axleVs) == 0 {
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
			break
		}
	}
	if len(axleVs) > 0 {
		return nil, axleVs
	}
	lay.Rows = fp.rows
	lay.LengthMM = fp.length
	lay.Load = constraints.Load{Positions: fp.positions, WeightKg: total.WeightKg, VolumeM3: total.VolumeM3}
	lay.PositionsUsed, lay.WeightUsed, lay.VolumeUsed = lay.Load.Utilisation(constraints.Load{Positions: tr.Positions, WeightKg: tr.PayloadKg, VolumeM3: tr.Volume()})
	if tr.Positions == 0 {
		lay.PositionsUsed = 0
	}
	return lay, nil
}

// unit is what takes one floor place: a pallet and perhaps one on top.
type unit struct{ bottom, top int } // pallet indices; top -1 when none

// slot is where a unit stands inside a segment.
type slot struct {
	unit   int
	side   Side
	turned bool
	x, row int // from the segment's nose end; row 0 or 1
}

// segment is a run of floor: one row, or a pinwheel block of two rows.
type segment struct {
	depth, rows int
	slots       []slot
}

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

// stackPairs lists the (bottom, top) pairs PlanTrailer may stack, in the
// order it stacks them: colder zones and later stops first (nearest the
// nose), heavier bottoms first, each carrying the heaviest pallet it may.
// Only pallets of one stop are paired: a top for an earlier stop would pin
// every pallet of the stops in between to the pair's position.
func stackPairs(tr Trailer, pallets []Pallet, classes []constraints.Temperature) [][2]int {
	type key struct {
		t    constraints.Temperature
		stop int
	}
	groups := map[key][]int{}
	var keys []key
	for i, p := range pallets {
		if !p.MayCarry && !p.MayBeStacked {
			continue
		}
		k := key{p.Temperature, p.Stop}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	rank := map[constraints.Temperature]int{}
	for i, c := range classes {
		rank[c] = i
	}
	sort.SliceStable(keys, func(a, b int) bool {
		if rank[keys[a].t] != rank[keys[b].t] {
			return rank[keys[a].t] < rank[keys[b].t]
		}
		return keys[a].stop > keys[b].stop
	})
	var pairs [][2]int
	used := make([]bool, len(pallets))
	for _, k := range keys {
		idx := groups[k]
		sort.SliceStable(idx, func(a, b int) bool { return pallets[idx[a]].WeightKg > pallets[idx[b]].WeightKg })
		for _, b := range idx {
			if used[b] || !pallets[b].MayCarry {
				continue
			}
			for _, t := range idx {
				if t != b && !used[t] && canStack(tr, pallets[b], pallets[t]) {
					used[b], used[t] = true, true
					pairs = append(pairs, [2]int{b, t})
					break
				}
			}
		}
	}
	return pairs
}

// canStack reports whether top may stand on bottom in the bottom's
// orientation (for footprints with length >= width, the only orientation
// that can fit when any does).
func canStack(tr Trailer, bottom, top Pallet) bool {
	return bottom.MayCarry && top.MayBeStacked && top.WeightKg <= bottom.WeightKg &&
		bottom.HeightMM+top.HeightMM <= tr.HeightMM &&
		top.LengthMM <= bottom.LengthMM && top.WidthMM <= bottom.WidthMM &&
		top.Temperature == bottom.Temperature && top.Stop <= bottom.Stop
}

// buildFloor lays the zones out from the nose with the given pairs stacked.
func buildFloor(tr Trailer, pallets []Pallet, classes []constraints.Temperature, pairs [][2]int) floorPlan {
	var fp floorPlan
	topOf := map[int]int{}
	isTop := map[int]bool{}
	for _, pr := range pairs {
		topOf[pr[0]] = pr[1]
		isTop[pr[1]] = true
	}
	fp.stacked = len(pairs)
	x, row := 0, 0
	for zi, class := range classes {
		var units []unit
		for i, p := range pallets {
			if p.Temperature != class || isTop[i] {
				continue
			}
			u := unit{i, -1}
			if t, ok := topOf[i]; ok {
				u.top = t
			}
			units = append(units, u)
		}
		// Last stop first; ties by input order keep the layout stable.
		sort.SliceStable(units, func(a, b int) bool { return pallets[units[a].bottom].Stop > pallets[units[b].bottom].Stop })
		segs := rowsOf(units, pallets, tr.WidthMM)
		zone := Zone{Temperature: class, FirstRow: row, FromMM: x}
		for _, sg := range segs {
			for _, sl := range sg.slots {
				u := units[sl.unit]
				pl := Placement{Pallet: pallets[u.bottom].ID, Row: row + sl.row, Side: sl.side, Turned: sl.turned, Zone: zi, XMM: x + sl.x}
				fp.placements = append(fp.placements, pl)
				fp.placedIdx = append(fp.placedIdx, u.bottom)
				fp.positions += sl.side.Positions()
				if u.top >= 0 {
					pl.Pallet, pl.Level = pallets[u.top].ID, 1
					fp.placements = append(fp.placements, pl)
					fp.placedIdx = append(fp.placedIdx, u.top)
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

// rowsOf pairs the units (in loading order) into rows side by side, in the
// orientation that makes each row shortest, then merges two consecutive
// rows of two into a pinwheel block wherever that is shorter.
func rowsOf(units []unit, pallets []Pallet, width int) []segment {
	var segs []segment
	for k := 0; k < len(units); {
		p := pallets[units[k].bottom]
		if k+1 < len(units) {
			q := pallets[units[k+1].bottom]
			if tp, tq, depth, ok := pairRow(p, q, width); ok {
				segs = append(segs, segment{depth: depth, rows: 1, slots: []slot{{unit: k, side: Left, turned: tp}, {unit: k + 1, side: Right, turned: tq}}})
				k += 2
				continue
			}
		}
		turned, depth, side := singleRow(p, width)
		segs = append(segs, segment{depth: depth, rows: 1, slots: []slot{{unit: k, side: side, turned: turned}}})
		k++
	}
	var out []segment
	for i := 0; i < len(segs); i++ {
		if i+1 < len(segs) && len(segs[i].slots) == 2 && len(segs[i+1].slots) == 2 {
			four := [4]int{segs[i].slots[0].unit, segs[i].slots[1].unit, segs[i+1].slots[0].unit, segs[i+1].slots[1].unit}
			var ps [4]Pallet
			for j, u := range four {
				ps[j] = pallets[units[u].bottom]
			}
			if blk, ok := pinwheel(ps, width, segs[i].depth+segs[i+1].depth); ok {
				for j := range blk.slots {
					blk.slots[j].unit = four[blk.slots[j].unit]
				}
				out = append(out, blk)
				i++
				continue
			}
		}
		out = append(out, segs[i])
	}
	return out
}

// pinwheel finds the shortest block of two rows that holds the four
// pallets with each side free to alternate orientation: LEFT holds slots 0
// then 2, RIGHT slots 1 then 3, each pallet starting where the one before it
// on its side ends. A pallet for a later stop never starts nearer the door
// than one for an earlier stop. The slots it returns name the pallets by
// their index in ps. It only reports blocks shorter than limit.
func pinwheel(ps [4]Pallet, width, limit int) (segment, bool) {
	// Each side holds two pallets, each at least its width long: when even
	// that cannot beat the limit, skip the search (the common case of a
	// floor wide enough to turn two pallets side by side).
	w := []int{ps[0].WidthMM, ps[1].WidthMM, ps[2].WidthMM, ps[3].WidthMM}
	sort.Ints(w)
	if max(w[0]+w[1], (w[0]+w[1]+w[2]+w[3]+1)/2) >= limit {
		return segment{}, false
	}
	var al, ac [4][2]int // along and across of each pallet, straight and turned
	for i, p := range ps {
		al[i][0], ac[i][0] = along(p, false), across(p, false)
		al[i][1], ac[i][1] = along(p, true), across(p, true)
	}
	best := segment{depth: limit}
	for _, perm := range perms4 {
		// Later stops in the first row; the full rule is checked below.
		if min(ps[perm[0]].Stop, ps[perm[1]].Stop) < max(ps[perm[2]].Stop, ps[perm[3]].Stop) {
			continue
		}
	masks:
		for mask := range 16 {
			var a, c, x [4]int
			for j := range 4 {
				t := mask >> j & 1
				a[j], c[j] = al[perm[j]][t], ac[perm[j]][t]
				if c[j] > width {
					continue masks
				}
			}
			x[2], x[3] = a[0], a[1]
			d := max(x[2]+a[2], x[3]+a[3])
			if d >= best.depth {
				continue
			}
			for l := 0; l < 4; l += 2 {
				for r := 1; r < 4; r += 2 {
					if x[l] < x[r]+a[r] && x[r] < x[l]+a[l] && c[l]+c[r] > width {
						continue masks
					}
				}
			}
			for s := range 4 {
				for t := range 4 {
					if ps[perm[t]].Stop > ps[perm[s]].Stop && x[t] > x[s] {
						continue masks
					}
				}
			}
			best = segment{depth: d, rows: 2, slots: make([]slot, 4)}
			for j := range 4 {
				best.slots[j] = slot{unit: perm[j], side: Side(j % 2), turned: mask>>j&1 == 1, x: x[j], row: j / 2}
			}
		}
	}
	return best, best.depth < limit
}

// perms4 lists the permutations of four slots in lexicographic order.
var perms4 = func() [][4]int {
	var out [][4]int
	for a := range 4 {
		for b := range 4 {
			for c := range 4 {
				for d := range 4 {
					if a != b && a != c && a != d && b != c && b != d && c != d {
						out = append(out, [4]int{a, b, c, d})
					}
				}
			}
		}
	}
	return out
}()

// along and across give a pallet's extent along and across the trailer.
func along(p Pallet, turned bool) int {
	if turned {
		return p.WidthMM
	}
	return p.LengthMM
}

func across(p Pallet, turned bool) int {
	if turned {
		return p.LengthMM
	}
	return p.WidthMM
}

// pairRow finds the orientations that let p and q share a row with the
// shortest depth.
func pairRow(p, q Pallet, width int) (tp, tq bool, depth int, ok bool) {
	best := -1
	for _, a := range []bool{true, false} {
		for _, b := range []bool{true, false} {
			if across(p, a)+across(q, b) > width {
				continue
			}
			d := max(along(p, a), along(q, b))
			if best < 0 || d < best {
				best, tp, tq = d, a, b
			}
		}
	}
	return tp, tq, best, best >= 0
}

// singleRow places p alone in a row: on the left if it leaves at most half
// the width to it, in the centre otherwise, in the orientation that makes
// the row shortest.
func singleRow(p Pallet, width int) (turned bool, depth int, side Side) {
	turned = p.LengthMM <= width // turned is shorter along the floor
	depth = along(p, turned)
	if 2*across(p, turned) <= width {
		return turned, depth, Left
	}
	return turned, depth, Center
}

// axleLoads computes the loads at departure and after every stop, and the
// violations of the trailer's limits among them.
func axleLoads(tr Trailer, pallets []Pallet, placedIdx []int, pl []Placement, stops int) ([]AxleLoad, constraints.Violations) {
	var vs constraints.Violations
	out := make([]AxleLoad, 0, stops+1)
	loads := make([]constraints.PointLoad, 0, len(pl))
	for after := -1; after < stops; after++ {
		loads = loads[:0]
		for k, i := range placedIdx {
			p := pallets[i]
			if p.Stop > after {
				loads = append(loads, constraints.PointLoad{XMM: float64(pl[k].XMM) + float64(along(p, pl[k].Turned))/2, Kg: p.WeightKg})
			}
		}
		kp, ax := tr.Axles.Loads(loads)
		out = append(out, AxleLoad{AfterStop: after, KingpinKg: kp, AxleGroupKg: ax})
		vs = append(vs, axleLimitViolations(tr.Axles, after, kp, ax)...)
	}
	return out, vs
}

func axleLimitViolations(g constraints.AxleGeometry, after int, kp, ax float64) constraints.Violations {
	var vs constraints.Violations
	when := "at departure"
	if after >= 0 {
		when = "after stop " + itoa(after)
	}
	const tol = 1e-6
	if kp > g.KingpinLimitKg+tol {
		vs.Add(CodeKingpin, "axles", "kingpin carries %.0f kg %s, limit %.0f kg", kp, when, g.KingpinLimitKg)
	}
	if kp < -tol {
		vs.Add(CodeKingpin, "axles", "kingpin load %.0f kg %s: the load lifts the trailer's nose", kp, when)
	}
	if ax > g.AxleGroupLimitKg+tol {
		vs.Add(CodeAxleGroup, "axles", "axle group carries %.0f kg %s, limit %.0f kg", ax, when, g.AxleGroupLimitKg)
	}
	return vs
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// checkInputs rejects numbers that cannot describe a trailer or a pallet,
// so the geometry below never divides by zero or loops on garbage.
func checkInputs(tr Trailer, pallets []Pallet, stops int) constraints.Violations {
	vs := checkTrailer(tr, "trailer")
	if stops < 0 {
		vs.Add(CodeInvalid, "stops", "must not be negative")
	}
	return append(vs, checkPallets(pallets, stops)...)
}

// checkTrailer rejects a trailer no layout can be computed for.
func checkTrailer(tr Trailer, path string) constraints.Violations {
	var vs constraints.Violations
	if tr.LengthMM <= 0 || tr.WidthMM <= 0 || tr.HeightMM <= 0 {
		vs.Add(CodeInvalid, path, "inside dimensions must be positive, got %d × %d × %d mm", tr.LengthMM, tr.WidthMM, tr.HeightMM)
	}
	if tr.Positions < 0 {
		vs.Add(CodeInvalid, constraints.Field(path, "positions"), "must not be negative")
	}
	if !(tr.PayloadKg >= 0) || tr.PayloadKg > 1e12 {
		vs.Add(CodeInvalid, constraints.Field(path, "payloadKg"), "must be finite and not negative")
	}
	if !(tr.VolumeM3 >= 0) || tr.VolumeM3 > 1e12 {
		vs.Add(CodeInvalid, constraints.Field(path, "volumeM3"), "must be finite and not negative")
	}
	if !tr.Equipment.Kind.Valid() {
		vs.Add(CodeInvalid, constraints.Field(path, "equipment"), "unknown equipment kind")
	}
	return append(vs, tr.Axles.CheckInput(constraints.Field(path, "axles"), float64(tr.LengthMM))...)
}

// checkPallets rejects pallets no layout can be computed for, and
// duplicate IDs.
func checkPallets(pallets []Pallet, stops int) constraints.Violations {
	var vs constraints.Violations
	seen := map[string]bool{}
	for i, p := range pallets {
		path := func() string { return constraints.Index("pallets", i) } // built only when needed
		if p.LengthMM <= 0 || p.WidthMM <= 0 || p.HeightMM <= 0 || p.WidthMM > p.LengthMM {
			vs.Add(CodeInvalid, path(), "footprint must be positive with length >= width, got %d × %d × %d mm", p.LengthMM, p.WidthMM, p.HeightMM)
		}
		if !(p.WeightKg >= 0) || p.WeightKg > 1e9 || !(p.VolumeM3 >= 0) || p.VolumeM3 > 1e9 {
			vs.Add(CodeInvalid, path(), "weight and volume must be finite and not negative")
		}
		if p.Stop < 0 || p.Stop >= stops {
			vs.Add(CodeInvalid, constraints.Field(path(), "stop"), "stop %d outside [0, %d)", p.Stop, stops)
		}
		if !p.Temperature.Valid() {
			vs.Add(CodeInvalid, constraints.Field(path(), "temperature"), "unknown temperature class")
		}
		if seen[p.ID] {
			vs.Add(CodeDuplicate, constraints.Field(path(), "id"), "pallet %q listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	return vs
}
