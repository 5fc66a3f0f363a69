package loadplan

import (
	"cmp"
	"math"
	"slices"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

// FleetLowerBound returns a proven lower bound on the number of trailers
// of the fleet that any plan needs to carry all the pallets, each trailer
// used once. It is the best of these, each a relaxation of the rules Validate
// enforces:
//
//   - binpack's L1 and L2 in four dimensions against the largest free
//     trailer of the fleet in each (floor area, quarters of floor positions
//     when every type states them, a half pallet taking two and a quarter
//     pallet one, weight and volume); a pallet that may be stacked
//     might ride on another one, so it counts no floor; sizes round down
//     and capacities up;
//   - a count: trailers taken one by one from the largest free one until
//     their payloads hold the weight, their volumes the volume and (when
//     every type states them) their positions the pallets that must stand
//     on the floor, halves and quarters as their share of a position: all
//     but the tops, which are at most min(may carry, may be stacked, half
//     of those that may do either) per class, as a stacked pallet stands
//     in its bottom's zone on a pallet that may carry, and take
//     at most the largest shares of the pallets that may be stacked;
//   - both again over the pallets of each class, and over the chilled and
//     frozen ones together, against the types that carry them;
//   - the sum of the class bounds less Zones−1 for every free
//     multi-temperature reefer (at most one per two pallets): a dry van or
//     a single-temperature reefer carries one class per trip, so the
//     trailers carrying each class add up to at most the number of
//     trailers plus that allowance.
//
// It is 0 for no pallets. Pallets of a class no free type carries can be
// in no plan, and they count in no bound.
func FleetLowerBound(fleet []FleetTrailer, pallets []Pallet) int {
	pallets = slices.DeleteFunc(slices.Clone(pallets), func(p Pallet) bool {
		return !slices.ContainsFunc(fleet, func(ft FleetTrailer) bool { return ft.Count > 0 && ft.Trailer.Equipment.Carries(p.Temperature) })
	})
	of := func(classes ...constraints.Temperature) ([]Pallet, func(Trailer) bool) {
		var ps []Pallet
		for _, p := range pallets {
			if slices.Contains(classes, p.Temperature) {
				ps = append(ps, p)
			}
		}
		return ps, func(t Trailer) bool { return slices.ContainsFunc(classes, t.Equipment.Carries) }
	}
	both := func(ps []Pallet, usable func(Trailer) bool) int {
		return max(boundOf(fleet, ps, usable), countOf(fleet, ps, usable))
	}
	best := both(pallets, func(Trailer) bool { return true })
	best = max(best, both(of(constraints.Chilled, constraints.Frozen)))
	sum, present := 0, 0
	for _, c := range constraints.Temperatures {
		ps, usable := of(c)
		if len(ps) > 0 {
			present++
		}
		b := both(ps, usable)
		best = max(best, b)
		sum += b
	}
	if present > 1 {
		// A trailer carries two classes only with two pallets on board,
		// so at most half the pallets' count of them do.
		for _, ft := range fleet {
			if ft.Count > 0 {
				sum -= min(ft.Count, len(pallets)/2) * (min(ft.Trailer.Equipment.Zones(), present) - 1)
			}
		}
	}
	return max(best, sum)
}

// countOf is FleetLowerBound's count for the pallets against the fleet's
// free types that usable accepts.
func countOf(fleet []FleetTrailer, pallets []Pallet, usable func(Trailer) bool) int {
	if len(pallets) == 0 {
		return 0
	}
	var weight, volume float64
	type tally struct {
		carry, either int
		stacked       []int // the quarters of the pallets that may be stacked
	}
	perClass := map[constraints.Temperature]*tally{}
	floor := 0 // quarter positions, before the tops leave the floor
	for _, p := range pallets {
		weight += p.WeightKg
		volume += p.VolumeM3
		floor += floorQuarters(p)
		t := perClass[p.Temperature]
		if t == nil {
			t = &tally{}
			perClass[p.Temperature] = t
		}
		if p.MayCarry || p.MayBeStacked {
			t.either++
		}
		if p.MayCarry {
			t.carry++
		}
		if p.MayBeStacked {
			t.stacked = append(t.stacked, floorQuarters(p))
		}
	}
	for _, t := range perClass {
		// The tops leave the floor: at most this many, since tops and
		// bottoms are distinct pallets that may each be stacked or carry,
		// and at most the largest of the pallets that may be stacked.
		slices.SortFunc(t.stacked, func(a, b int) int { return cmp.Compare(b, a) })
		for _, q := range t.stacked[:min(t.carry, len(t.stacked), t.either/2)] {
			floor -= q
		}
	}
	var payloads, volumes, positions []float64
	limited, types := true, 0
	for _, ft := range fleet {
		if ft.Count <= 0 || !usable(ft.Trailer) {
			continue
		}
		types++
		for range min(ft.Count, len(pallets)) {
			// PlanTrailer and Validate allow a relative 1e-9 over; a little
			// more here keeps float sums on the safe side.
			payloads = append(payloads, ft.Trailer.PayloadKg*(1+1e-6)+1e-6)
			volumes = append(volumes, ft.Trailer.Volume()*(1+1e-6)+1e-9)
			positions = append(positions, float64(4*ft.Trailer.Positions))
		}
		limited = limited && ft.Trailer.Positions > 0
	}
	if types == 0 {
		return 0
	}
	best := max(fewest(payloads, weight), fewest(volumes, volume))
	if limited {
		best = max(best, fewest(positions, float64(floor)))
	}
	return best
}

// fewest returns how many of the capacities, largest first, it takes to
// reach need (all of them when they do not).
func fewest(caps []float64, need float64) int {
	if need <= 0 {
		return 0
	}
	caps = slices.Clone(caps)
	slices.SortFunc(caps, func(a, b float64) int { return cmp.Compare(b, a) })
	sum := 0.0
	for n, c := range caps {
		if sum += c; sum >= need || math.IsInf(sum, 1) {
			return n + 1
		}
	}
	return len(caps)
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
		capP = max(capP, 4*int64(t.Positions))
		// PlanTrailer and Validate allow the payload and the volume a relative
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
		area, pos := int64(p.LengthMM)*int64(p.WidthMM), int64(floorQuarters(p))
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
