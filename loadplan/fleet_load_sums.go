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
// stack together: each pair needs a pallet that may carry, another that
// may be stacked, and two pallets.
func groupPairs(n, carry, stackable int) int { return min(carry, stackable, n/2) }

// stackCounts counts the pallets of one group that may carry or be
// stacked.
type stackCounts struct{ n, carry, stackable int }

func (c *stackCounts) add(p Pallet) {
	c.n++
	if p.MayCarry {
		c.carry++
	}
	if p.MayBeStacked {
		c.stackable++
	}
}

// aggOf sums the pallets idx, with the pairs bound of pairsBound.
func (f *fleetPacker) aggOf(idx []int) loadAgg {
	var a loadAgg
	for _, i := range idx {
		a = a.plus(f.pallets[i])
	}
	a.pairs = f.pairsBound(idx, -1)
	return a
}

// pairsWith returns the pairs bound of load l with pallet i added.
func (f *fleetPacker) pairsWith(l *fleetLoad, i int) int {
	if p := f.pallets[i]; !p.MayCarry && !p.MayBeStacked {
		return l.agg.pairs
	}
	return f.pairsBound(l.pallets, i)
}

// pairsBound bounds the pairs PlanTrailer stacks among the pallets idx
// and pallet extra (none when -1), class by class: the pairs of one store
// (one stop), and at most crossStopBoundary across each boundary between
// two stops with pallets that may stack, all within the class's own
// min(carry, stackable, half) since every pair takes two of its pallets.
func (f *fleetPacker) pairsBound(idx []int, extra int) int {
	type storeCounts struct {
		rank int
		stackCounts
	}
	type classCounts struct {
		all    stackCounts
		stores []storeCounts // few per load: a linear search beats a map
	}
	classes := make([]classCounts, len(constraints.Temperatures))
	add := func(i int) {
		p := f.pallets[i]
		if (!p.MayCarry && !p.MayBeStacked) || !p.Temperature.Valid() {
			return
		}
		c := &classes[p.Temperature]
		c.all.add(p)
		j := 0
		for j < len(c.stores) && c.stores[j].rank != f.rank[i] {
			j++
		}
		if j == len(c.stores) {
			c.stores = append(c.stores, storeCounts{rank: f.rank[i]})
		}
		c.stores[j].add(p)
	}
	for _, i := range idx {
		add(i)
	}
	if extra >= 0 {
		add(extra)
	}
	pairs := 0
	for _, c := range classes {
		if len(c.stores) == 0 {
			continue
		}
		own := 0
		for _, s := range c.stores {
			own += groupPairs(s.n, s.carry, s.stackable)
		}
		pairs += min(groupPairs(c.all.n, c.all.carry, c.all.stackable), own+crossStopBoundary*(len(c.stores)-1))
	}
	return pairs
}

// mayFit checks conditions PlanTrailer needs of any set with these sums on
// a trailer of type k. Each is necessary, so a false here spares a layout
// that would fail, and a true still needs one: equipment and zone count,
// payload and volume (with a margin for the order of float sums), floor
// positions (PlanTrailer stacks within a store and class, and across
// neighbouring stops of a class at most crossStopBoundary pairs each, a
// bottom that may carry under a top that may be stacked; halves and
// quarters share positions), and the floor area of
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
