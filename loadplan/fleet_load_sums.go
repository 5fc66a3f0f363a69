package loadplan

import (
	"math/bits"

	"github.com/haulplan/haulplan/constraints"
)

// loadAgg sums what the cheap checks need about a set of pallets.
type loadAgg struct {
	n        int
	pairs    int // at most this many pallets can stand on others
	flexible int // pallets that may be stacked or carry
	// saved is the quarters of a floor position that the half and quarter
	// pallets leave to others sharing their positions: 2 for a half, 3
	// for a quarter. The pallets standing on the floor take at least
	// 4(n − pairs) − saved quarters.
	saved          int
	weight, volume float64
	floorArea      int64 // of the pallets that must stand on the floor
	classes        uint8 // bit t set when class t is on board
}

// plus adds pallet p. pairs grows by one only if p could be stacked or
// carry: a bound, made exact by pairsWith where it matters.
func (a loadAgg) plus(p Pallet) loadAgg {
	a.n++
	a.saved += 4 - floorQuarters(p)
	if p.MayCarry || p.MayBeStacked {
		a.pairs++
		a.flexible++
	}
	if !p.MayBeStacked {
		a.floorArea += int64(p.LengthMM) * int64(p.WidthMM)
	}
	a.weight += p.WeightKg
	a.volume += p.VolumeM3
	a.classes |= 1 << uint(p.Temperature)
	return a
}

// groupPairs bounds the stacked pairs of one group of pallets that may
// stack together (one store and class): each pair needs a pallet that may
// carry, another that may be stacked, and two pallets.
func groupPairs(n, carry, stackable int) int { return min(carry, stackable, n/2) }

// stackGroup is a store and class: PlanTrailer stacks only within one.
type stackGroup struct{ rank, class int }

// aggOf sums the pallets idx, with the pairs bound per stackGroup.
func (f *fleetPacker) aggOf(idx []int) loadAgg {
	var a loadAgg
	type counts struct {
		g                   stackGroup
		n, carry, stackable int
	}
	var groups []counts // few per load: a linear search beats a map
	for _, i := range idx {
		p := f.pallets[i]
		a = a.plus(p)
		if !p.MayCarry && !p.MayBeStacked {
			continue
		}
		g := stackGroup{f.rank[i], int(p.Temperature)}
		j := 0
		for j < len(groups) && groups[j].g != g {
			j++
		}
		if j == len(groups) {
			groups = append(groups, counts{g: g})
		}
		c := &groups[j]
		c.n++
		if p.MayCarry {
			c.carry++
		}
		if p.MayBeStacked {
			c.stackable++
		}
	}
	a.pairs = 0
	for _, c := range groups {
		a.pairs += groupPairs(c.n, c.carry, c.stackable)
	}
	return a
}

// pairsWith returns the pairs bound of load l with pallet i added: only
// i's group changes.
func (f *fleetPacker) pairsWith(l *fleetLoad, i int) int {
	p := f.pallets[i]
	if !p.MayCarry && !p.MayBeStacked {
		return l.agg.pairs
	}
	n, carry, stackable := 0, 0, 0
	for _, j := range l.pallets {
		q := f.pallets[j]
		if f.rank[j] == f.rank[i] && q.Temperature == p.Temperature && (q.MayCarry || q.MayBeStacked) {
			n++
			if q.MayCarry {
				carry++
			}
			if q.MayBeStacked {
				stackable++
			}
		}
	}
	before := groupPairs(n, carry, stackable)
	n++
	if p.MayCarry {
		carry++
	}
	if p.MayBeStacked {
		stackable++
	}
	return l.agg.pairs - before + groupPairs(n, carry, stackable)
}

// mayFit checks conditions PlanTrailer needs of any set with these sums on
// a trailer of type k. Each is necessary, so a false here spares a layout
// that would fail, and a true still needs one: equipment and zone count,
// payload and volume (with a margin for the order of float sums), floor
// positions (PlanTrailer stacks only within a store and class, a bottom
// that may carry under a top that may be stacked; halves and quarters
// share positions), and the floor area of
// the pallets that may not be stacked.
func (f *fleetPacker) mayFit(k int, a loadAgg) bool {
	t := f.fleet[k].Trailer
	for c := range constraints.Temperatures {
		if a.classes&(1<<uint(c)) != 0 && !t.Equipment.Carries(constraints.Temperature(c)) {
			return false
		}
	}
	if bits.OnesCount8(a.classes) > t.Equipment.Zones() {
		return false
	}
	if a.weight > t.PayloadKg*(1+1e-6)+1e-6 || a.volume > t.Volume()*(1+1e-6)+1e-9 {
		return false
	}
	if t.Positions > 0 && 4*(a.n-a.pairs)-a.saved > 4*t.Positions {
		return false
	}
	return a.floorArea <= int64(t.LengthMM)*int64(t.WidthMM)
}
