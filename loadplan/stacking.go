package loadplan

import (
	"slices"
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

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
	return buildFloor(tr, pallets, classes, stackPairs(tr, pallets, classes), shareRows).positions
}
