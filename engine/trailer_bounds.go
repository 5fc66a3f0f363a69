package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// trailersLowerBound is the plan metric TrailersLowerBound: a proven lower
// bound on the number of trailers, hence routes, that any plan needs to
// deliver the pallets idx (indices into req.Pallets), the larger of
// loadplan.FleetLowerBound against the whole fleet and floorCountBound. It
// reads the request alone: the planner reports it, and Validate recomputes
// the metric with it.
func trailersLowerBound(req *Request, idx []int) int {
	return max(loadplan.FleetLowerBound(tripFleet(req, len(idx)), layoutPallets(req, idx)), floorCountBound(req, idx))
}

// tripFleet is the loadplan view of the fleet as the trailer loads of a
// day see it: a unit turns and may run any number of trips, so a type
// with units has as many trailers as n pallets can use, n.
func tripFleet(req *Request, n int) []loadplan.FleetTrailer {
	fleet := layoutFleet(req)
	for i := range fleet {
		if fleet[i].Count > 0 {
			fleet[i].Count = max(fleet[i].Count, n)
		}
	}
	return fleet
}

// floorCountBound is a lower bound on the trailers any plan needs to
// deliver the pallets idx (indices into req.Pallets), by counting floor
// positions under the rules Validate enforces:
//
//   - a trailer takes at most its PalletPositions pallets on its floor,
//     counted in quarters of a position: a half pallet takes at least two,
//     a quarter pallet one (positionQuarters), any other pallet four (one
//     position or two, never less);
//   - every other pallet stands on exactly one floor pallet that may carry,
//     which carries no other, in the same zone and hence of the same
//     temperature class; the top may be stacked. So among the pallets of
//     class c that may carry or be stacked, at most
//     min(stacked_c, carrying_c, ⌊either_c/2⌋) stand on top: tops and
//     bottoms are distinct pallets, and the tops leave the floor at most
//     the largest shares among the pallets that may be stacked;
//   - a pallet rides on a trailer type that carries its class, and that is
//     no longer than its store's limit;
//   - a type with units (Count above 0) may run any number of trips: a
//     unit turns.
//
// The count runs over the pallets of each set of classes (all, the cold
// ones, each class alone) against the types that carry one of them, and,
// for every store length limit, over the pallets of the stores limited to
// it against the short types, combined with the rest of the fleet for the
// whole. It is 0 when a type that could carry them states no positions,
// since Validate then counts none.
//
// loadplan.FleetLowerBound counts the same tops per class; this count
// also bounds the trailers of the stores limited to short ones, and both
// hold, so the plan reports the larger.
func floorCountBound(req *Request, idx []int) int {
	return floorCountBoundStacking(req, idx, false)
}

// floorCountBoundStacking is floorCountBound; with sameStore, for the plans
// that stack a pallet only on a pallet of its own store (as loadplan lays
// out every route Plan returns): the tops are then counted per store and
// class, each store's pallets being the only ones its pallets may stand on.
func floorCountBoundStacking(req *Request, idx []int, sameStore bool) int {
	if len(idx) == 0 {
		return 0
	}
	best := 0
	classSets := [][]constraints.Temperature{
		{constraints.Ambient, constraints.Chilled, constraints.Frozen},
		{constraints.Chilled, constraints.Frozen},
		{constraints.Ambient}, {constraints.Chilled}, {constraints.Frozen},
	}
	for _, cs := range classSets {
		ps := palletsWhere(req, idx, func(p Pallet) bool { return slices.Contains(cs, p.Temperature) })
		caps, ok := positionsOf(req, len(ps), func(t TrailerType) bool { return slices.ContainsFunc(cs, t.Equipment.Carries) })
		if !ok {
			continue
		}
		best = max(best, fewestPositions(caps, floorPallets(req, ps, sameStore)))
	}
	// Stores limited to shorter trailers: the trailers that serve them are
	// short ones, however many pallets the others take.
	var limits []int
	limitOf := make(map[string]int, len(req.Stores))
	for _, s := range req.Stores {
		limitOf[s.ID] = s.MaxTrailerLengthMM
		if s.MaxTrailerLengthMM > 0 && !slices.Contains(limits, s.MaxTrailerLengthMM) {
			limits = append(limits, s.MaxTrailerLengthMM)
		}
	}
	need := floorPallets(req, idx, sameStore)
	for _, lim := range limits {
		ps := palletsWhere(req, idx, func(p Pallet) bool {
			l := limitOf[p.Store]
			return l > 0 && l <= lim
		})
		isShort := func(t TrailerType) bool { return t.nominalLength() <= lim }
		short, ok := positionsOf(req, len(idx), isShort)
		if !ok || len(ps) == 0 {
			continue
		}
		k := fewestPositions(short, floorPallets(req, ps, sameStore))
		best = max(best, k)
		long, longOK := positionsOf(req, len(idx), func(t TrailerType) bool { return !isShort(t) })
		if !longOK {
			continue
		}
		// Any plan uses some j >= k short trailers, which hold at most the
		// j largest short capacities; the long ones must hold the rest.
		fewestTotal := -1
		sum := 0
		for j := range len(short) + 1 {
			if j > 0 {
				sum += short[j-1]
			}
			if j < k {
				continue
			}
			rest := fewestPositions(long, need-sum)
			if rest < 0 {
				continue
			}
			if fewestTotal < 0 || j+rest < fewestTotal {
				fewestTotal = j + rest
			}
		}
		best = max(best, fewestTotal)
	}
	return max(best, 0)
}

// palletsWhere lists the pallets of idx that keep holds for.
func palletsWhere(req *Request, idx []int, keep func(Pallet) bool) []int {
	var out []int
	for _, pi := range idx {
		if keep(req.Pallets[pi]) {
			out = append(out, pi)
		}
	}
	return out
}

// positionsOf lists the floor positions, in quarters, of the trailer loads the types
// usable accepts can carry: n of each type with units (a unit turns, and n
// loads are all n pallets can use), largest first; ok is false when one of
// them states no positions, so that counting positions bounds nothing.
func positionsOf(req *Request, n int, usable func(TrailerType) bool) (caps []int, ok bool) {
	for _, t := range req.Fleet {
		if t.Count <= 0 || !usable(t) {
			continue
		}
		if t.PalletPositions <= 0 {
			return nil, false
		}
		for range n {
			caps = append(caps, 4*t.PalletPositions)
		}
	}
	slices.SortFunc(caps, func(a, b int) int { return cmp.Compare(b, a) })
	return caps, true
}

// floorPallets is how much of a floor, in quarters of a position, the
// pallets idx take at least: all but the most that can stand on top of
// another, class by class, or with sameStore store by store and class by
// class, each its share of a position.
func floorPallets(req *Request, idx []int, sameStore bool) int {
	type group struct {
		store string
		class constraints.Temperature
	}
	type count struct {
		carrying, either int
		stacked          []int // the quarters of the pallets that may be stacked
	}
	counts := map[group]*count{}
	floor := 0
	for _, pi := range idx {
		p := req.Pallets[pi]
		floor += positionQuarters(&p)
		if !p.Temperature.Valid() {
			continue
		}
		g := group{class: p.Temperature}
		if sameStore {
			g.store = p.Store
		}
		c := counts[g]
		if c == nil {
			c = &count{}
			counts[g] = c
		}
		if p.MayBeStacked {
			c.stacked = append(c.stacked, positionQuarters(&p))
		}
		if p.MayCarry {
			c.carrying++
		}
		if p.MayBeStacked || p.MayCarry {
			c.either++
		}
	}
	for _, c := range counts {
		slices.SortFunc(c.stacked, func(a, b int) int { return cmp.Compare(b, a) })
		for _, q := range c.stacked[:min(len(c.stacked), c.carrying, c.either/2)] {
			floor -= q
		}
	}
	return floor
}

// fewestPositions is how many of caps (largest first) it takes to hold
// need quarters of floor positions; -1 when all of them do not.
func fewestPositions(caps []int, need int) int {
	if need <= 0 {
		return 0
	}
	sum := 0
	for n, c := range caps {
		if sum += c; sum >= need {
			return n + 1
		}
	}
	return -1
}

// SameStoreStackingBound is a lower bound on the trailers, hence routes,
// that deliver the pallets plan delivers when no pallet stands on a pallet
// of another store. Metrics.TrailersLowerBound also counts stacks of two
// stores' pallets, which Validate accepts where the unloading order allows
// them (a top for the earlier stop, in the row between the two stops'
// pallets) and loadplan lays out when a trip's floor runs short; the
// difference between the two bounds is at most what such stacks could
// save. It fails when req does not pass
// Check, or plan names a pallet req does not have or one twice.
func SameStoreStackingBound(req Request, plan Result) (int, error) {
	if err := req.Check(); err != nil {
		return 0, err
	}
	index := make(map[string]int, len(req.Pallets))
	for i, p := range req.Pallets {
		index[p.ID] = i
	}
	var idx []int
	seen := make([]bool, len(req.Pallets))
	var vs constraints.Violations
	for ri, r := range plan.Routes {
		for si, s := range r.Stops {
			for pi, id := range s.Pallets {
				path := fmt.Sprintf("routes[%d].stops[%d].pallets[%d]", ri, si, pi)
				i, ok := index[id]
				switch {
				case !ok:
					vs.Add(CodeUnknownPallet, path, "pallet %q is not in the request", id)
				case seen[i]:
					vs.Add(CodePalletTwice, path, "pallet %q is delivered twice", id)
				default:
					seen[i] = true
					idx = append(idx, i)
				}
			}
		}
	}
	if len(vs) > 0 {
		return 0, vs
	}
	return max(loadplan.FleetLowerBound(tripFleet(&req, len(idx)), layoutPallets(&req, idx)), floorCountBoundStacking(&req, idx, true)), nil
}
