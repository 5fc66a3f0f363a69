package loadplan

import (
	"math"
	"slices"
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
//
// The units of one stop may stand in any order, so each stop's units are
// paired for the most rows of two: two pallets share a row exactly when
// their narrow sides together fit the width, and for such a threshold rule
// pairing the widest unit left with the widest one that fits beside it (the
// one with the fewest other partners), or leaving it alone when none does,
// gives the most pairs. Equal widths pair in loading order. One leftover
// unit may share the first row of the next stop's units (an earlier stop,
// nearer the door), which keeps the unloading order.
func rowsOf(units []unit, pallets []Pallet, width int) []segment {
	var segs []segment
	pair := func(a, b int) bool {
		tp, tq, depth, ok := pairRow(pallets[units[a].bottom], pallets[units[b].bottom], width)
		if ok {
			segs = append(segs, segment{depth: depth, rows: 1, slots: []slot{{unit: a, side: Left, turned: tp}, {unit: b, side: Right, turned: tq}}})
		}
		return ok
	}
	single := func(a int) {
		turned, depth, side := singleRow(pallets[units[a].bottom], width)
		segs = append(segs, segment{depth: depth, rows: 1, slots: []slot{{unit: a, side: side, turned: turned}}})
	}
	narrow := func(a int) int { return pallets[units[a].bottom].WidthMM }
	carry := -1
	for g0 := 0; g0 < len(units); {
		g1 := g0 + 1
		for g1 < len(units) && pallets[units[g1].bottom].Stop == pallets[units[g0].bottom].Stop {
			g1++
		}
		group := make([]int, 0, g1-g0)
		for k := g0; k < g1; k++ {
			group = append(group, k)
		}
		g0 = g1
		// Widest first; ties keep the loading order.
		sort.SliceStable(group, func(a, b int) bool { return narrow(group[a]) > narrow(group[b]) })
		if carry >= 0 {
			// The carried unit takes the first row, with the widest unit
			// that fits beside it: the one hardest to pair otherwise.
			partner := -1
			for k, u := range group {
				if narrow(carry)+narrow(u) <= width {
					partner = k
					break
				}
			}
			if partner >= 0 && pair(carry, group[partner]) {
				group = append(group[:partner], group[partner+1:]...)
			} else {
				single(carry)
			}
			carry = -1
		}
		var alone []int
		used := make([]bool, len(group))
		for i, a := range group {
			if used[i] {
				continue
			}
			used[i] = true
			paired := false
			for j := i + 1; j < len(group) && !paired; j++ {
				if !used[j] && narrow(a)+narrow(group[j]) <= width && pair(a, group[j]) {
					used[j], paired = true, true
				}
			}
			if !paired {
				alone = append(alone, a)
			}
		}
		// The narrowest unit left alone may pair with the next stop's.
		if n := len(alone); n > 0 {
			carry = alone[n-1]
			alone = alone[:n-1]
		}
		for _, a := range alone {
			single(a)
		}
	}
	if carry >= 0 {
		single(carry)
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

// slideOffset returns the smallest distance in whole millimetres, from 0 to
// the free floor, by which the block of rows can move towards the door with
// the axle loads legal at departure and after every stop. Moving the block
// by d shifts W·d/span kilograms from the kingpin to the axle group, W
// being the weight on board, so each state and limit allows an interval of
// d, and the intersection is exact. When it is empty, the violations are
// those at the offset that exceeds the limits least, each saying that no
// position along the floor is legal.
func slideOffset(tr Trailer, pallets []Pallet, fp floorPlan, stops int) (int, constraints.Violations) {
	slack := tr.LengthMM - fp.length
	g := tr.Axles
	span := g.AxleGroupMM - g.KingpinMM
	at := func(off int) ([]AxleLoad, constraints.Violations) {
		pl := make([]Placement, len(fp.placements))
		for i, p := range fp.placements {
			p.XMM += off
			pl[i] = p
		}
		return axleLoads(tr, pallets, fp.placedIdx, pl, stops)
	}
	base, vs := at(0)
	if len(vs) == 0 || slack <= 0 || span <= 0 {
		return 0, vs
	}
	onBoard := make([]float64, len(base)) // weight on board in each state
	for s := range base {
		after := base[s].AfterStop
		for _, i := range fp.placedIdx {
			if pallets[i].Stop > after {
				onBoard[s] += pallets[i].WeightKg
			}
		}
	}
	lo, hi := 0.0, float64(slack)
	for s, a := range base {
		w := onBoard[s]
		if w <= 0 {
			continue // sliding changes nothing here
		}
		rate := w / span // kg moved from kingpin to axle group per mm
		lo = math.Max(lo, (a.KingpinKg-g.KingpinLimitKg)/rate)
		hi = math.Min(hi, a.KingpinKg/rate)
		hi = math.Min(hi, (g.AxleGroupLimitKg-a.AxleGroupKg)/rate)
	}
	if lo <= hi {
		// Rounding may put the interval's ends a hair off: try the whole
		// millimetres in it, from the nose, and their neighbours.
		for off := max(0, int(math.Ceil(lo))-1); off <= min(slack, int(math.Floor(hi))+1); off++ {
			if _, vs := at(off); len(vs) == 0 {
				return off, nil
			}
			if off > int(math.Ceil(lo))+2 {
				break
			}
		}
	}
	// No legal offset: report the one that exceeds the limits least.
	best, bestExcess := 0, math.Inf(1)
	for _, off := range []int{0, slack, clampInt(lo, 0, slack), clampInt(hi, 0, slack)} {
		loads, _ := at(off)
		excess := 0.0
		for _, a := range loads {
			excess += math.Max(0, a.KingpinKg-g.KingpinLimitKg) + math.Max(0, -a.KingpinKg) + math.Max(0, a.AxleGroupKg-g.AxleGroupLimitKg)
		}
		if excess < bestExcess {
			best, bestExcess = off, excess
		}
	}
	_, vs = at(best)
	for i := range vs {
		vs[i].Message = "no position of the load along the floor keeps the axle loads legal; " + strconv.Itoa(best) + " mm from the nose: " + vs[i].Message
	}
	return 0, vs
}

func clampInt(v float64, lo, hi int) int {
	if v != v || v <= float64(lo) {
		return lo
	}
	if v >= float64(hi) {
		return hi
	}
	return int(math.Round(v))
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
		when = "after stop " + strconv.Itoa(after)
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

// StackedPositions is the floor positions PlanTrailer's layout of pallets
// on tr takes when every pair it may stack is stacked: what the pallets
// need of a trailer's floor when the floor runs out, and so what they add
// to a route whose floor is full. It checks nothing of the input; pallets
// PlanTrailer would refuse count as they stand.
func StackedPositions(tr Trailer, pallets []Pallet) int {
	var classes []constraints.Temperature
	for _, p := range pallets {
		if !slices.Contains(classes, p.Temperature) {
			classes = append(classes, p.Temperature)
		}
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i] > classes[j] })
	return buildFloor(tr, pallets, classes, stackPairs(tr, pallets, classes)).positions
}
