package binpack

import (
	"cmp"
	"slices"
)

// FirstFitDecreasing packs a valid problem by First-Fit Decreasing: items in
// decreasing size (in several dimensions: decreasing sum of size/capacity),
// ties in index order, each into the first open bin where it fits, else a new
// bin. In one dimension this is the textbook FFD whose bin counts the
// benchmark baselines list.
func FirstFitDecreasing(p Problem) ([][]int, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	in := newInstance(p)
	return in.firstFit(in.decreasing(in.w)), nil
}

// BestFitDecreasing packs a valid problem by Best-Fit Decreasing: items in
// the FirstFitDecreasing order, each into the open bin it fits with the least
// room left (in several dimensions: the largest sum of load/capacity), ties to
// the bin opened first, else a new bin.
func BestFitDecreasing(p Problem) ([][]int, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	in := newInstance(p)
	return in.bestFit(in.decreasing(in.w)), nil
}

// decreasing returns the item indices sorted by decreasing key, ties by index,
// so the order (and hence the packing) is fully reproducible.
func (in *instance) decreasing(key []float64) []int {
	order := make([]int, in.n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
	return order
}

func (in *instance) firstFit(order []int) [][]int { return in.firstFitFrom(nil, order) }

// firstFitFrom continues a first-fit packing from the given bins, which it
// extends in place.
func (in *instance) firstFitFrom(bins [][]int, order []int) [][]int {
	loads := make([][]int64, len(bins))
	for b, items := range bins {
		loads[b] = make([]int64, in.d)
		for _, i := range items {
			in.addLoad(loads[b], i)
		}
	}
	for _, i := range order {
		placed := false
		for b := range bins {
			if in.fits(loads[b], i) {
				bins[b] = append(bins[b], i)
				in.addLoad(loads[b], i)
				placed = true
				break
			}
		}
		if !placed {
			load := make([]int64, in.d)
			in.addLoad(load, i)
			bins = append(bins, []int{i})
			loads = append(loads, load)
		}
	}
	return bins
}

func (in *instance) bestFit(order []int) [][]int {
	var bins [][]int
	var loads [][]int64
	for _, i := range order {
		best, bestFill := -1, -1.0
		for b := range bins {
			if !in.fits(loads[b], i) {
				continue
			}
			if f := in.fill(loads[b]); f > bestFill {
				best, bestFill = b, f
			}
		}
		if best < 0 {
			bins = append(bins, nil)
			loads = append(loads, make([]int64, in.d))
			best = len(bins) - 1
		}
		bins[best] = append(bins[best], i)
		in.addLoad(loads[best], i)
	}
	return bins
}

func (in *instance) addLoad(load []int64, i int) {
	for k, v := range in.item(i) {
		load[k] += v
	}
}

func (in *instance) subLoad(load []int64, i int) {
	for k, v := range in.item(i) {
		load[k] -= v
	}
}

// fill is the scalar measure of a load on the same scale as instance.w.
func (in *instance) fill(load []int64) float64 {
	if in.d == 1 {
		return float64(load[0])
	}
	f := 0.0
	for k, v := range load {
		f += float64(v) / float64(in.cap[k])
	}
	return f
}

// mbsNodeLimit bounds the subset search for one bin in minBinSlack.
const mbsNodeLimit = 20_000

// minBinSlack packs a one-dimensional instance by Minimum Bin Slack (MBS',
// Fleszar & Hindi 2002): bin after bin, the largest item left goes in with
// the subset of the other items left that fills the bin the most, found by a
// depth-first search that stops at an exactly full bin or after
// mbsNodeLimit nodes. Where FFD fills early bins with the largest items and
// leaves awkward gaps, MBS' looks for exact fills, which is what instances
// with tight optimal packings (triplets, for one) need.
func (in *instance) minBinSlack() [][]int {
	left := in.decreasing(in.w) // remaining items, decreasing size
	c := in.cap[0]
	var bins [][]int
	var cur, best []int
	for len(left) > 0 {
		first := left[0]
		rest := left[1:]
		room := c - in.size[first]
		// suffix[j] is the total size of rest[j:], to prune branches that
		// cannot beat the best fill.
		suffix := make([]int64, len(rest)+1)
		for j := len(rest) - 1; j >= 0; j-- {
			suffix[j] = suffix[j+1] + in.size[rest[j]]
		}
		cur, best = cur[:0], best[:0]
		bestFill, nodes := int64(-1), 0
		var dfs func(j int, fill int64)
		dfs = func(j int, fill int64) {
			nodes++
			if fill > bestFill {
				bestFill = fill
				best = append(best[:0], cur...)
			}
			if bestFill == room || nodes > mbsNodeLimit {
				return
			}
			for ; j < len(rest); j++ {
				if fill+suffix[j] <= bestFill {
					return
				}
				s := in.size[rest[j]]
				if fill+s > room {
					continue
				}
				cur = append(cur, j)
				dfs(j+1, fill+s)
				cur = cur[:len(cur)-1]
				if bestFill == room || nodes > mbsNodeLimit {
					return
				}
				// Skip items of the same size: the same subset again.
				for j+1 < len(rest) && in.size[rest[j+1]] == s {
					j++
				}
			}
		}
		dfs(0, 0)
		bin := []int{first}
		taken := make(map[int]bool, len(best))
		for _, j := range best {
			bin = append(bin, rest[j])
			taken[j] = true
		}
		bins = append(bins, bin)
		next := left[:0]
		for j, i := range rest {
			if !taken[j] {
				next = append(next, i)
			}
		}
		left = next
	}
	return bins
}
