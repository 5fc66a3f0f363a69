package loadplan

import (
	"sort"
)

// unit is what takes one floor place: a pallet and perhaps one on top
// (pallet indices; top -1 when none), or a position shared by half and
// quarter pallets, whose footprint bottom names.
type unit struct {
	bottom, top int
	shared      *sharedPosition
	// carried: a shared position of two halves that shares a row with the
	// next stop's units, so it stands straight (its halves side by side).
	carried bool
}

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
func rowsOf(units []unit, pallets []Pallet, width int, carryShared bool) []segment {
	return pinwheelRows(pairedRows(units, pallets, width, carryShared), units, pallets, width)
}

// pairedRows is rowsOf before the pinwheel blocks: rows of one or two
// units, paired per stop as rowsOf describes; with carryShared, two halves
// side by side may be the unit that shares the next stop's first row.
func pairedRows(units []unit, pallets []Pallet, width int, carryShared bool) []segment {
	rp := rowPairing{units: units, pallets: pallets, width: width, carryShared: carryShared, carry: -1}
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
		sort.SliceStable(group, func(a, b int) bool { return rp.narrow(group[a]) > rp.narrow(group[b]) })
		group = rp.takeCarried(group)
		alone := rp.pairWithin(group)
		alone = rp.leaveToCarry(alone)
		for _, a := range alone {
			rp.single(a)
		}
	}
	if rp.carry >= 0 {
		rp.single(rp.carry)
	}
	return rp.segs
}

// rowPairing is pairedRows at work: the rows so far (segs) and the unit
// the last stop left to share the next stop's first row (carry, −1 for
// none).
type rowPairing struct {
	units       []unit
	pallets     []Pallet
	width       int
	carryShared bool
	segs        []segment
	carry       int
}

// pair lays units a and b side by side in one row, each turned as makes
// the row shortest, and reports whether they fit.
func (rp *rowPairing) pair(a, b int) bool {
	units, pallets := rp.units, rp.pallets
	tp, tq, depth, ok := pairRowTurning(pallets[units[a].bottom], pallets[units[b].bottom], rp.width, !units[a].carried, !units[b].carried)
	if ok {
		rp.segs = append(rp.segs, segment{depth: depth, rows: 1, slots: []slot{{unit: a, side: Left, turned: tp}, {unit: b, side: Right, turned: tq}}})
	}
	return ok
}

// single lays unit a in a row of its own.
func (rp *rowPairing) single(a int) {
	turned, depth, side := singleRow(rp.pallets[rp.units[a].bottom], rp.width, rp.units[a].shared != nil)
	rp.segs = append(rp.segs, segment{depth: depth, rows: 1, slots: []slot{{unit: a, side: side, turned: turned}}})
}

// narrow is unit a's narrow side.
func (rp *rowPairing) narrow(a int) int { return rp.pallets[rp.units[a].bottom].WidthMM }

// takeCarried lays the unit carried from the stop before in the first
// row of this stop's group (widest first), with the widest unit that
// fits beside it, the one hardest to pair otherwise, and returns the
// group without that partner. Not so in the rows between two stops (an
// even key) that hold a position the two stops share and a pair stacked
// across them: the shared position's pallet for the earlier stop may
// stand no nearer the nose than the stacked pair's bottom, nor its pallet
// for the later stop nearer the door than the pair's top, so the two take
// one row, and the carried unit stands alone before them.
func (rp *rowPairing) takeCarried(group []int) []int {
	if rp.carry < 0 {
		return group
	}
	partner := -1
	for k, u := range group {
		if rp.narrow(rp.carry)+rp.narrow(u) <= rp.width {
			partner = k
			break
		}
	}
	if betweenStopsShared(group, rp.units, rp.pallets) {
		partner = -1
	}
	if partner >= 0 && rp.pair(rp.carry, group[partner]) {
		group = append(group[:partner], group[partner+1:]...)
	} else {
		rp.single(rp.carry)
	}
	rp.carry = -1
	return group
}

// pairWithin pairs the group's units (widest first), each with the
// widest unit after it that fits beside it, and returns those left
// alone, in order.
func (rp *rowPairing) pairWithin(group []int) []int {
	var alone []int
	used := make([]bool, len(group))
	for i, a := range group {
		if used[i] {
			continue
		}
		used[i] = true
		paired := false
		for j := i + 1; j < len(group) && !paired; j++ {
			if !used[j] && rp.narrow(a)+rp.narrow(group[j]) <= rp.width && rp.pair(a, group[j]) {
				used[j], paired = true, true
			}
		}
		if !paired {
			alone = append(alone, a)
		}
	}
	return alone
}

// leaveToCarry takes from alone the narrowest unit that may pair with
// the next stop's, as the carry, and returns the rest. A shared position
// whose pallets stand one behind the other may not: those nearer the door
// would stand behind the next stop's. Two halves side by side may, with
// carryShared, standing straight.
func (rp *rowPairing) leaveToCarry(alone []int) []int {
	for k := len(alone) - 1; k >= 0; k-- {
		if sp := rp.units[alone[k]].shared; sp == nil || (rp.carryShared && sp.sideBySide()) {
			rp.carry = alone[k]
			rp.units[rp.carry].carried = sp != nil
			return append(alone[:k], alone[k+1:]...)
		}
	}
	return alone
}

// betweenStopsShared reports whether group (indices into units, of one
// key) stands between two stops and holds a shared position beside other
// units: pairs stacked across the stops.
func betweenStopsShared(group []int, units []unit, pallets []Pallet) bool {
	if len(group) < 2 || pallets[units[group[0]].bottom].Stop%2 != 0 {
		return false
	}
	for _, u := range group {
		if units[u].shared != nil {
			return true
		}
	}
	return false
}

// pinwheelRows merges two consecutive rows of two into a pinwheel block
// wherever that is shorter, from the nose.
func pinwheelRows(segs []segment, units []unit, pallets []Pallet, width int) []segment {
	var out []segment
	for i := 0; i < len(segs); i++ {
		if i+1 < len(segs) && len(segs[i].slots) == 2 && len(segs[i+1].slots) == 2 && !sharesIn(units, segs[i], segs[i+1]) {
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

// sharesIn reports whether a segment holds a shared position: pinwheel
// blocks keep to whole pallets, whose stops they order by one key each.
func sharesIn(units []unit, segs ...segment) bool {
	for _, sg := range segs {
		for _, sl := range sg.slots {
			if units[sl.unit].shared != nil {
				return true
			}
		}
	}
	return false
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
	return pairRowTurning(p, q, width, true, true)
}

// pairRowTurning is pairRow with p turned only if turnP, q only if turnQ.
func pairRowTurning(p, q Pallet, width int, turnP, turnQ bool) (tp, tq bool, depth int, ok bool) {
	best := -1
	for _, a := range []bool{true, false} {
		for _, b := range []bool{true, false} {
			if (a && !turnP) || (b && !turnQ) || across(p, a)+across(q, b) > width {
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
// the row shortest. A shared position (shared) stands on the left in
// whichever orientation leaves half the width, straight if turned does not.
func singleRow(p Pallet, width int, shared bool) (turned bool, depth int, side Side) {
	turned = p.LengthMM <= width // turned is shorter along the floor
	if shared && 2*across(p, turned) > width {
		turned = false
	}
	depth = along(p, turned)
	if 2*across(p, turned) <= width {
		return turned, depth, Left
	}
	return turned, depth, Center
}
