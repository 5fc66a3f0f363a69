package loadplan

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/haulplan/haulplan/loadplan/binpack"
)

// spreadTrial judges the spreads solveClass tries: each bin is laid out on
// its trailer type (kinds[b] for bin b), and the spread with the fewest
// bins that do not lay out, then the fewest stops, is kept.
type spreadTrial struct {
	f     *fleetPacker
	items []int     // pallet of each item
	sizes [][]int64 // of the items, for relabel
	share limit
	kinds []int // the trailer type of each bin of the spreads now tried
	best  [][]int
	// bestFailing is -1 until a spread is tried.
	bestFailing, bestStops int
}

// try records the spread found (bins of item numbers) and reports whether
// the search may end: every bin laid out, or the share is used up.
func (t *spreadTrial) try(found [][]int) bool {
	relabel(t.sizes, found)
	failing, stops := 0, 0
	bins := make([][]int, 0, len(found))
	for b, bin := range found {
		if len(bin) == 0 {
			continue
		}
		pal := make([]int, len(bin))
		for n, j := range bin {
			pal[n] = t.items[j]
		}
		bins = append(bins, pal)
		stops += t.f.storeCount(pal)
		if t.f.makeLoad(t.kinds[b], pal) == nil {
			failing++
		}
	}
	if t.bestFailing < 0 || failing < t.bestFailing || (failing == t.bestFailing && stops < t.bestStops) {
		t.best, t.bestFailing, t.bestStops = bins, failing, stops
	}
	return failing == 0 || t.f.stopped(t.share)
}

// relabel hands items with identical sizes out to their bins' places in
// index order (bins in order), which changes no bin's load but keeps the
// pallets of a store, adjacent in index order, together.
func relabel(sizes [][]int64, bins [][]int) {
	type key [4]int64
	slots := map[key][][2]int{}
	var keys []key
	for b, bin := range bins {
		for j, it := range bin {
			var k key
			copy(k[:], sizes[it])
			if _, ok := slots[k]; !ok {
				keys = append(keys, k)
			}
			slots[k] = append(slots[k], [2]int{b, j})
		}
	}
	for _, k := range keys {
		var its []int
		for _, sl := range slots[k] {
			its = append(its, bins[sl[0]][sl[1]])
		}
		sort.Ints(its)
		for n, sl := range slots[k] {
			bins[sl[0]][sl[1]] = its[n]
		}
	}
}

// spread packs the items of prob into bins opened at once, one per
// capacity in caps (prob.Capacity only scales the sort keys): items by
// decreasing largest relative size, each into the bin where it fits with
// the most room left (relative to capacity, summed over the dimensions,
// or in the tightest one), so large items spread over the bins and small
// ones fill around them.
// With store (the store of each item) it prefers, among the bins an item
// fits, those that already hold its store. With rng the sort keys are
// scaled by random factors up to 1.5, for another attempt in another
// order. It reports false when some item fits no bin.
func spread(prob binpack.Problem, caps [][]int64, store []int, rng *rand.Rand, tightest bool) ([][]int, bool) {
	k := len(caps)
	if k <= 0 {
		return nil, len(prob.Sizes) == 0
	}
	key := make([]float64, len(prob.Sizes))
	for i, sz := range prob.Sizes {
		for d, v := range sz {
			key[i] = max(key[i], float64(v)/float64(prob.Capacity[d]))
		}
		if rng != nil {
			key[i] *= 1 + rng.Float64()/2
		}
	}
	order := make([]int, len(prob.Sizes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] > key[order[b]] })
	loads := make([][]int64, k)
	for b := range loads {
		loads[b] = make([]int64, len(caps[b]))
	}
	bins := make([][]int, k)
	holds := make([]map[int]bool, k)
	for b := range holds {
		holds[b] = map[int]bool{}
	}
	for _, it := range order {
		best, bestRoom, bestHolds := -1, 0.0, false
		for b, load := range loads {
			room, fits := 0.0, true
			if tightest {
				room = math.Inf(1)
			}
			for d, v := range prob.Sizes[it] {
				free := caps[b][d] - load[d] - v
				if free < 0 {
					fits = false
					break
				}
				if r := float64(free) / float64(caps[b][d]); tightest {
					room = min(room, r)
				} else {
					room += r
				}
			}
			if !fits {
				continue
			}
			h := store != nil && holds[b][store[it]]
			if best < 0 || (h && !bestHolds) || (h == bestHolds && room > bestRoom) {
				best, bestRoom, bestHolds = b, room, h
			}
		}
		if best < 0 {
			return nil, false
		}
		for d, v := range prob.Sizes[it] {
			loads[best][d] += v
		}
		bins[best] = append(bins[best], it)
		if store != nil {
			holds[best][store[it]] = true
		}
	}
	// Bins keep items in index order, which is store order.
	for _, bin := range bins {
		sort.Ints(bin)
	}
	return bins, true
}

// spreadStores tries spread keeping stores together, then plain, with
// room summed and then in the tightest dimension, then in randomised
// orders (half of them keeping stores together), and hands each packing
// into the bins of caps it finds to try until try accepts one. It reports
// whether it found any. The randomness comes from seed and the number of
// bins alone.
func spreadStores(prob binpack.Problem, caps [][]int64, store []int, seed uint64, try func([][]int) bool) bool {
	found := false
	attempt := func(st []int, rng *rand.Rand, tightest bool) bool {
		bins, ok := spread(prob, caps, st, rng, tightest)
		found = found || ok
		return ok && try(bins)
	}
	for _, tightest := range []bool{false, true} {
		if attempt(store, nil, tightest) || attempt(nil, nil, tightest) {
			return true
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(caps))))
	for t := range spreadTries {
		st := store
		if t%2 == 1 {
			st = nil
		}
		if attempt(st, rng, t%4 >= 2) {
			return true
		}
	}
	return found
}
