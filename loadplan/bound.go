package loadplan

import (
	"math"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

// FleetLowerBound returns a proven lower bound on the number of trailers
// of the fleet that any plan needs to carry all the pallets, each trailer
// used once: binpack's L1 and L2 in four dimensions against the largest
// free trailer of the fleet in each (floor area, floor positions when
// every type states them, weight and volume). A pallet that may be stacked
// might ride on another one, so it counts no floor. Sizes round down and
// capacities up, so the integer problem is a relaxation. The same bound
// over the pallets of one temperature class, against the types that carry
// that class, also holds. And since a dry van or a single-temperature
// reefer carries one class per trip, the trailers carrying each class add
// up to the number of trailers plus at most Zones−1 per multi-temperature
// reefer: the sum of the class bounds, less that allowance for every free
// multi-temperature reefer, is a bound too. The best of them is returned.
// It is 0 for no pallets; pallets of a class no free type carries count in
// no bound.
func FleetLowerBound(fleet []FleetTrailer, pallets []Pallet) int {
	best := boundOf(fleet, pallets, func(Trailer) bool { return true })
	sum, present := 0, 0
	for _, c := range constraints.Temperatures {
		var of []Pallet
		for _, p := range pallets {
			if p.Temperature == c {
				of = append(of, p)
			}
		}
		if len(of) > 0 {
			present++
		}
		b := boundOf(fleet, of, func(t Trailer) bool { return t.Equipment.Carries(c) })
		best = max(best, b)
		sum += b
	}
	if present > 1 {
		for _, ft := range fleet {
			if ft.Count > 0 {
				sum -= ft.Count * (min(ft.Trailer.Equipment.Zones(), present) - 1)
			}
		}
	}
	return max(best, sum)
}

// boundOf is FleetLowerBound's bound for the given pallets against the
// fleet's free types that usable accepts.
func boundOf(fleet []FleetTrailer, pallets []Pallet, usable func(Trailer) bool) int {
	var capA, capP, capW, capV int64
	allPositions, types := true, 0
	for _, ft := range fleet {
		if ft.Count <= 0 || !usable(ft.Trailer) {
			continue
		}
		types++
		t := ft.Trailer
		capA = max(capA, int64(t.LengthMM)*int64(t.WidthMM))
		capP = max(capP, int64(t.Positions))
		// PlanTrailer and Check allow the payload and the volume a relative
		// 1e-9 over, so the capacities here do too.
		capW = max(capW, int64(math.Ceil(t.PayloadKg*(1+1e-9))))
		capV = max(capV, int64(math.Ceil(t.Volume()*1000*(1+1e-9))))
		allPositions = allPositions && t.Positions > 0
	}
	if len(pallets) == 0 || types == 0 {
		return 0
	}
	prob := binpack.Problem{Capacity: []int64{max(capA, 1), max(capW, 1), max(capV, 1)}}
	if allPositions {
		prob.Capacity = append(prob.Capacity, max(capP, 1))
	}
	for _, p := range pallets {
		area, pos := int64(p.LengthMM)*int64(p.WidthMM), int64(1)
		if p.MayBeStacked {
			area, pos = 0, 0
		}
		s := []int64{area, int64(math.Floor(p.WeightKg)), int64(math.Floor(p.VolumeM3 * 1000))}
		if allPositions {
			s = append(s, pos)
		}
		// A pallet bigger than every trailer rides on none; clamping keeps
		// the relaxation valid for the others.
		for d := range s {
			s[d] = min(max(s[d], 0), prob.Capacity[d])
		}
		prob.Sizes = append(prob.Sizes, s)
	}
	return max(1, binpack.L1(prob), binpack.L2(prob))
}
