package loadplan

import (
	"slices"

	"github.com/haulplan/haulplan/constraints"
)

// stopBound is the bound PackFleet's search stops at: the best of
// FleetLowerBound and countBound. Only FleetLowerBound is reported (the
// engine recomputes it to check a plan), so a plan that meets countBound
// alone stops the search early without being called optimal.
func (f *fleetPacker) stopBound(s *packing) int {
	if s.stopNoRoom != len(s.noRoom) {
		s.stop, s.stopNoRoom = max(f.lowerBound(s), f.countBound(s)), len(s.noRoom)
	}
	return s.stop
}

// countBound bounds the trailers that PackFleet's own packings need for
// the pallets s packs (not every plan Validate accepts: see below), counting
// trailers one by one from the largest free one, as each carries at most
// its own capacity: the fewest whose payloads hold the weight, whose
// volumes hold the volume, and (when every type limits positions) whose
// positions hold the pallets that must stand on the floor (halves and
// quarters as their share of a position). At most one
// pallet of a pair stands on another, and PlanTrailer pairs pallets of one
// store and class, and at most crossStopBoundary pairs across each
// boundary between two stops of a class, a bottom that may carry under a
// top that may be stacked (pairsBound); the boundaries are counted between
// the stores present, which bounds the packings that keep a store's
// pallets of a class on one trailer. Validate allows more pairs across
// stores, which is why this count only stops the search and
// FleetLowerBound, which pairs per class, is the bound reported. The same count over the cold pallets (and over each class)
// against the types that carry them also bounds PackFleet's packing.
func (f *fleetPacker) countBound(s *packing) int {
	var all []int
	for _, l := range s.loads {
		all = append(all, l.pallets...)
	}
	best := 0
	for _, classes := range [][]constraints.Temperature{
		constraints.Temperatures,
		{constraints.Chilled, constraints.Frozen},
		{constraints.Ambient}, {constraints.Chilled}, {constraints.Frozen},
	} {
		var of []int
		for _, i := range all {
			if slices.Contains(classes, f.pallets[i].Temperature) {
				of = append(of, i)
			}
		}
		best = max(best, f.countOf(of, func(e constraints.Equipment) bool {
			return slices.ContainsFunc(classes, e.Carries)
		}))
	}
	return best
}

// countOf is countBound for the pallets idx against the types whose
// equipment usable accepts.
func (f *fleetPacker) countOf(idx []int, usable func(constraints.Equipment) bool) int {
	if len(idx) == 0 {
		return 0
	}
	a := f.aggOf(idx)
	var payloads, volumes, positions []float64
	limited := true
	for _, ft := range f.fleet {
		if ft.Count <= 0 || !usable(ft.Trailer.Equipment) {
			continue
		}
		for range min(ft.Count, len(idx)) {
			payloads = append(payloads, ft.Trailer.PayloadKg*(1+1e-6)+1e-6)
			volumes = append(volumes, ft.Trailer.Volume()*(1+1e-6)+1e-9)
			positions = append(positions, float64(ft.Trailer.Positions))
		}
		limited = limited && ft.Trailer.Positions > 0
	}
	best := max(fewest(payloads, a.weight), fewest(volumes, a.volume))
	if limited {
		best = max(best, fewest(positions, float64(a.n-a.pairs)-float64(a.saved)/4))
	}
	return best
}

// lowerBound is FleetLowerBound of the pallets s packs, the bound
// PackFleet reports, kept in s until pallets without room find some.
func (f *fleetPacker) lowerBound(s *packing) int {
	if s.boundNoRoom == len(s.noRoom) {
		return s.bound
	}
	var packed []Pallet
	for _, l := range s.loads {
		for _, i := range l.pallets {
			packed = append(packed, f.pallets[i])
		}
	}
	s.bound, s.boundNoRoom = FleetLowerBound(f.fleet, packed), len(s.noRoom)
	return s.bound
}
