package loadplan

import "slices"

// Half and quarter pallets share floor positions. A floor position is the
// place of one 48×40 in pallet; two half pallets (48×20 in) fill it side
// by side, four quarter pallets (24×20 in) two by two, and one half with
// two quarters beside it fills it too. PlanTrailer builds such shared
// positions before it pairs units into rows: a shared position is then one
// unit the size of a standard pallet, which may stand straight or turned
// like any pallet.
//
// Seen in its own straight frame (long side along the trailer), a shared
// position has two lanes across, each holding one half or up to two
// quarters one behind the other. Standing straight, lane k is slot k and
// the second quarter of a lane stands one quarter's length nearer the
// door; turned, lane k stands k lane widths nearer the door and the
// quarters of a lane take slots 0 and 1 across.

const (
	// sharedWidthMM is the widest a half or quarter pallet may be (20 in).
	sharedWidthMM = 508
	// quarterLengthMM and halfLengthMM are the longest a quarter and a
	// half pallet may be (24 and 48 in, rounded up).
	quarterLengthMM = 610
	halfLengthMM    = 1220
)

// share is how much of a floor position a pallet takes, in quarters: 1
// for a quarter pallet, 2 for a half, 4 for any other.
func share(p Pallet) int {
	switch {
	case p.WidthMM > sharedWidthMM || p.LengthMM > halfLengthMM:
		return 4
	case p.LengthMM > quarterLengthMM:
		return 2
	}
	return 1
}

// sharedPosition is a floor position shared by half and quarter pallets:
// units (indices into the zone's unit list before sharing), by lane.
type sharedPosition struct {
	// lanes hold the units; when they are of two stops, the first unit of
	// lane 0 is the one for the later stop, at the nose-most corner in
	// either orientation.
	lanes [2][]unit
}

// sideBySide reports whether the position holds two halves, one in each
// lane: standing straight, both stand at the position's nose-side edge.
func (sp *sharedPosition) sideBySide() bool {
	return len(sp.lanes[0]) == 1 && len(sp.lanes[1]) == 1
}

// members is the number of units in the position.
func (sp *sharedPosition) members() int { return len(sp.lanes[0]) + len(sp.lanes[1]) }

// add puts u (a half or quarter pallet on the floor, perhaps carrying
// another) into the position if it has room and u's footprint matches:
// all members one width, quarters one length. It fills lane 0 first.
func (sp *sharedPosition) add(u unit, pallets []Pallet) bool {
	p := pallets[u.bottom]
	for _, lane := range sp.lanes {
		for _, v := range lane {
			q := pallets[v.bottom]
			if q.WidthMM != p.WidthMM || (share(p) == 1 && share(q) == 1 && q.LengthMM != p.LengthMM) {
				return false
			}
		}
	}
	for l := range sp.lanes {
		lane := sp.lanes[l]
		switch {
		case len(lane) == 0:
			sp.lanes[l] = append(lane, u)
			return true
		case share(p) == 1 && len(lane) == 1 && share(pallets[lane[0].bottom]) == 1:
			sp.lanes[l] = append(lane, u)
			return true
		}
	}
	return false
}

// footprint is the position's length and width in its straight frame.
func (sp *sharedPosition) footprint(pallets []Pallet) (length, width int) {
	for _, lane := range sp.lanes {
		l, w := 0, 0
		for _, u := range lane {
			p := pallets[u.bottom]
			l += p.LengthMM
			w = max(w, p.WidthMM)
		}
		length, width = max(length, l), width+w
	}
	return length, width
}

// memberPlace is where one unit of a shared position stands, relative to
// the position's nose-side edge.
type memberPlace struct {
	unit unit
	dx   int
	slot int
}

// places lays the members out in the given orientation of the position.
func (sp *sharedPosition) places(pallets []Pallet, turned bool) []memberPlace {
	var out []memberPlace
	laneX := 0
	for l, lane := range sp.lanes {
		along, w := 0, 0
		for j, u := range lane {
			p := pallets[u.bottom]
			if turned {
				out = append(out, memberPlace{unit: u, dx: laneX, slot: j})
			} else {
				out = append(out, memberPlace{unit: u, dx: along, slot: l})
			}
			along += p.LengthMM
			w = max(w, p.WidthMM)
		}
		laneX += w
	}
	return out
}

// shareUnits merges the half and quarter pallets among units (one zone's,
// in loading order: stops descending) into shared positions, and returns
// the units to lay out in loading order. Each shared position is appended
// to pallets as a pallet of its footprint, whose index its unit names. The
// pallets' stops are keys: 2s+1 for stop s (the caller maps them), so that
// a position shared by two stops has a key between theirs. A position too
// wide to leave the floor's other half free is not shared.
//
// Halves and quarters of one stop share first; the one left over (a half,
// or a quarter) takes the nose-most corner of a position with the smaller
// pallets of the next stop the zone holds, if it has any: a later stop's
// pallet then stands no nearer the door than the earlier stop's around it.
func shareUnits(units []unit, pallets []Pallet, width int) ([]unit, []Pallet) {
	var out []unit
	emit := func(u unit) { out = append(out, u) }
	emitShared := func(sp *sharedPosition, stop int) {
		var us []unit
		us, pallets = sharedUnits(sp, stop, pallets, width)
		out = append(out, us...)
	}
	var open *sharedPosition // one small unit of the previous stop
	var between []unit       // pairs across stops waiting for open to close
	for g0 := 0; g0 < len(units); {
		stop := pallets[units[g0].bottom].Stop
		var smalls, whole []unit
		g0, smalls, whole = stopUnits(units, g0, pallets)
		if open != nil && stop%2 == 0 && len(smalls) == 0 {
			// Pairs stacked across two stops (an even key: see
			// buildFloorOnce) stand between them, and so does the position
			// the earlier stop's smaller pallets share: it stays open for
			// the next group when that group has a unit to fill it, and
			// else stands nearer the nose than the pairs, with its stop.
			if !openFilled(open, units[g0:], pallets) {
				emit(open.lanes[0][0])
				open = nil
				for _, u := range whole {
					emit(u)
				}
				continue
			}
			// The shared position comes first in the rows between the
			// stops: a pallet of the later stop left over from its rows
			// may then stand beside it, with the pairs nearer the door.
			between = append(between, whole...)
			continue
		}
		// Halves first, so that they pair and the odd one takes quarters.
		sortByShare(smalls, pallets)
		if open != nil {
			rest := smalls[:0:0]
			for _, u := range smalls {
				if !open.add(u, pallets) {
					rest = append(rest, u)
				}
			}
			if open.members() > 1 {
				emitShared(open, stop+1)
			} else {
				emit(open.lanes[0][0])
			}
			smalls, open = rest, nil
		}
		for _, u := range between {
			emit(u)
		}
		between = nil
		positions := shareFirstFit(smalls, pallets)
		for k, sp := range positions {
			switch {
			case k == len(positions)-1 && sp.members() == 1 && g0 < len(units):
				open = sp
			case sp.members() == 1:
				emit(sp.lanes[0][0])
			default:
				emitShared(sp, stop)
			}
		}
		// Whole pallets last: the rows pair a stop's units in this order
		// among equal widths, and the one left over may share a row with
		// the next stop's only if it is no shared position.
		for _, u := range whole {
			emit(u)
		}
	}
	if open != nil {
		emit(open.lanes[0][0])
	}
	return out, pallets
}

// sharedUnits are the units that lay out shared position sp of stop (a
// key, see shareUnits) on a floor width mm wide: one unit standing for
// the position, with a pallet of its footprint appended to pallets; or,
// where the position is too wide to stand on one side, its members each
// as a position of its own, as on a floor too narrow for two rows of
// pallets.
func sharedUnits(sp *sharedPosition, stop int, pallets []Pallet, width int) ([]unit, []Pallet) {
	l, w := sp.footprint(pallets)
	if 2*w > width {
		var us []unit
		for _, lane := range sp.lanes {
			us = append(us, lane...)
		}
		return us, pallets
	}
	pallets = append(pallets, Pallet{ID: "shared position", Stop: stop, LengthMM: l, WidthMM: w})
	return []unit{{bottom: len(pallets) - 1, top: -1, shared: sp}}, pallets
}

// stopUnits splits the units of one stop, from units[g0] on while their
// bottom pallets' stop is that of units[g0], into the smaller ones that
// may share a position (sharable) and the whole ones, each in the order
// given, and returns where the next stop's units begin.
func stopUnits(units []unit, g0 int, pallets []Pallet) (next int, smalls, whole []unit) {
	stop := pallets[units[g0].bottom].Stop
	next = g0
	for ; next < len(units) && pallets[units[next].bottom].Stop == stop; next++ {
		if sharable(units[next], pallets) {
			smalls = append(smalls, units[next])
		} else {
			whole = append(whole, units[next])
		}
	}
	return next, smalls, whole
}

// shareFirstFit puts each of smalls, in order, into the first of the
// positions so far that takes it (sharedPosition.add), else into a new
// one.
func shareFirstFit(smalls []unit, pallets []Pallet) []*sharedPosition {
	var positions []*sharedPosition
	for _, u := range smalls {
		placed := false
		for _, sp := range positions {
			if placed = sp.add(u, pallets); placed {
				break
			}
		}
		if !placed {
			sp := &sharedPosition{}
			sp.add(u, pallets)
			positions = append(positions, sp)
		}
	}
	return positions
}

// openFilled reports whether a unit of the group that starts units (the
// units of one key) may join the open position sp.
func openFilled(sp *sharedPosition, units []unit, pallets []Pallet) bool {
	for _, u := range units {
		if pallets[u.bottom].Stop != pallets[units[0].bottom].Stop {
			break
		}
		trial := &sharedPosition{lanes: [2][]unit{slices.Clone(sp.lanes[0]), slices.Clone(sp.lanes[1])}}
		if sharable(u, pallets) && trial.add(u, pallets) {
			return true
		}
	}
	return false
}

// sortByShare orders units by their bottom's share, largest first, keeping
// the order among equal shares.
func sortByShare(us []unit, pallets []Pallet) {
	for i := 1; i < len(us); i++ {
		for j := i; j > 0 && share(pallets[us[j].bottom]) > share(pallets[us[j-1].bottom]); j-- {
			us[j], us[j-1] = us[j-1], us[j]
		}
	}
}

// sharable reports whether unit u may stand in a shared position: a half
// or quarter pallet, carrying nothing or a pallet of its own footprint
// (a slot is counted in the pallet's own widths, so a smaller top would
// stand beside its bottom rather than on it).
func sharable(u unit, pallets []Pallet) bool {
	p := pallets[u.bottom]
	if u.top >= 0 {
		if q := pallets[u.top]; q.LengthMM != p.LengthMM || q.WidthMM != p.WidthMM {
			return false
		}
	}
	return share(p) < 4
}
