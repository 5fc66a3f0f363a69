package loadplan

import (
	"slices"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// stackPairs lists the (bottom, top) pairs PlanTrailer may stack, in the
// order it stacks them: first pairs of one stop, colder zones and later
// stops first (nearest the nose), heavier bottoms first, each carrying the
// heaviest pallet it may; then the pairs across stops (crossStopPairs) of
// the pallets left.
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
	return append(pairs, crossStopPairs(tr, pallets, classes, used)...)
}

// crossStopBoundary is how many pairs across stops stand between two stops
// of a zone: the pallets of both stand in one row there, since the
// unloading order (see Validate) puts every pallet of the later stop no
// nearer the door, and every pallet of the earlier stop no nearer the
// nose, than both the top (of the earlier stop) and the bottom (of the
// later one). A row holds two pallets side by side.
const crossStopBoundary = 2

// crossStopPairs lists the pairs of a top for an earlier stop on a bottom
// for the next later stop of its zone (the next stop with pallets of the
// zone's class), among the pallets not used: the top comes off first, and
// the bottom stays for its stop. Each pair stands in the row between the
// two stops' pallets, so a zone pairs at most crossStopBoundary pallets
// across each boundary, and pallets of a stop in between would have to
// stand in that row too: only neighbouring stops of the zone are paired.
// The bottom is a whole pallet (no half or quarter), since a shared
// position holds pallets of at most two stops. Colder zones and later
// boundaries come first, heavier bottoms first, each carrying the heaviest
// top it may.
func crossStopPairs(tr Trailer, pallets []Pallet, classes []constraints.Temperature, used []bool) [][2]int {
	var pairs [][2]int
	for _, class := range classes {
		byStop := map[int][]int{}
		var stops []int
		for i, p := range pallets {
			if p.Temperature != class {
				continue
			}
			if _, ok := byStop[p.Stop]; !ok {
				stops = append(stops, p.Stop)
				byStop[p.Stop] = nil
			}
			if !used[i] && (p.MayCarry || p.MayBeStacked) {
				byStop[p.Stop] = append(byStop[p.Stop], i)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(stops)))
		for k := 0; k+1 < len(stops); k++ {
			bottoms, tops := slices.Clone(byStop[stops[k]]), slices.Clone(byStop[stops[k+1]])
			heavierFirst := func(a, b int) int { return cmpWeight(pallets[b], pallets[a]) }
			slices.SortStableFunc(bottoms, heavierFirst)
			slices.SortStableFunc(tops, heavierFirst)
			n := 0
			for _, b := range bottoms {
				if n == crossStopBoundary {
					break
				}
				if used[b] || share(pallets[b]) < 4 {
					continue
				}
				for _, t := range tops {
					if !used[t] && canStack(tr, pallets[b], pallets[t]) {
						used[b], used[t] = true, true
						pairs = append(pairs, [2]int{b, t})
						n++
						break
					}
				}
			}
		}
	}
	return pairs
}

// cmpWeight compares two pallets by weight.
func cmpWeight(a, b Pallet) int {
	switch {
	case a.WeightKg < b.WeightKg:
		return -1
	case a.WeightKg > b.WeightKg:
		return 1
	}
	return 0
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

// StackedPositions is the floor positions PlanTrailer's layout of pallets
// on tr takes when every pair it may stack is stacked: what the pallets
// need of a trailer's floor when the floor runs out, and so what they add
// to a route whose floor is full. It checks nothing of the input; pallets
// PlanTrailer would refuse count as they stand.
func StackedPositions(tr Trailer, pallets []Pallet) int {
	classes := palletClasses(pallets)
	return buildFloor(tr, pallets, classes, stackPairs(tr, pallets, classes), shareRows).positions
}

// palletClasses lists the temperature classes of pallets, coldest first.
func palletClasses(pallets []Pallet) []constraints.Temperature {
	var classes []constraints.Temperature
	for _, p := range pallets {
		if !slices.Contains(classes, p.Temperature) {
			classes = append(classes, p.Temperature)
		}
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i] > classes[j] })
	return classes
}
