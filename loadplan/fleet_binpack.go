package loadplan

import (
	"math"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

// solveMoves is the move budget of binpack.Solve's search, so that its
// packing depends on the input and the seed, not on the machine's speed,
// unless its share of the time limit runs out first.
const solveMoves = 20000

// binpackFirst builds PackFleet's packing guided by binpack: per class,
// colder first (the classes fewer types carry take their trailers first),
// a vector bin packing over the free trailers that carry the class (see
// solveClass), each bin turned into a trailer; what finds no trailer that
// way is first-fitted. share is the time the bin packings may take over
// all classes. ok is false when ctx or the deadline ended the
// construction.
func (f *fleetPacker) binpackFirst(todo []int, share limit, seed uint64) (*packing, bool) {
	s := f.newPacking()
	var leftovers []int
	classes := []constraints.Temperature{constraints.Frozen, constraints.Chilled, constraints.Ambient}
	for ci, c := range classes {
		if f.stopped(f.end) {
			return nil, false
		}
		var idx []int
		for _, i := range todo {
			if f.pallets[i].Temperature == c {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		// Store order: equal items keep their stores together.
		sort.SliceStable(idx, func(a, b int) bool { return f.rank[idx[a]] < f.rank[idx[b]] })
		ref := f.refType(s, c)
		if ref < 0 {
			leftovers = append(leftovers, idx...)
			continue
		}
		var items []int
		for _, i := range idx {
			if f.allowed[i][ref] {
				items = append(items, i)
			} else {
				leftovers = append(leftovers, i)
			}
		}
		// The share left is divided among the classes left.
		bins, ok := f.solveClass(s, ref, c, items, f.share(share, 1, len(classes)-ci), seed)
		if !ok {
			return nil, false
		}
		leftovers = append(leftovers, f.assignBins(s, c, bins)...)
		if f.stopped(f.end) {
			return nil, false
		}
	}
	for _, i := range f.storeOrder(leftovers) {
		if f.stopped(f.end) {
			return nil, false
		}
		if !f.place(s, i) {
			s.noRoom = append(s.noRoom, i)
		}
	}
	return s, true
}

// preferred orders types for a class's bins: the least versatile
// equipment first (dry vans, then reefers, then multi-temperature ones,
// so the rarer equipment stays free for the freight that needs it), then
// the largest.
func (f *fleetPacker) preferred(a, b int) bool {
	ka, kb := f.fleet[a].Trailer.Equipment.Kind, f.fleet[b].Trailer.Equipment.Kind
	if ka != kb {
		return ka < kb
	}
	return f.larger(a, b)
}

// refType is the type a class's pallet sizes are estimated for: the most
// preferred free type that carries the class, or -1.
func (f *fleetPacker) refType(s *packing, c constraints.Temperature) int {
	best := -1
	for k, ft := range f.fleet {
		if s.left[k] > 0 && ft.Trailer.Equipment.Carries(c) && (best < 0 || f.preferred(k, best)) {
			best = k
		}
	}
	return best
}

// solveClass packs the items (pallets of class c, in store order, all
// allowed on the reference type ref) into bins and returns them as pallet
// indices. The sizes estimate what PlanTrailer will need on the reference
// type, in half floor positions (a pallet likely to be stacked takes half
// its unit), floor length (per pallet, the best of a row of two and a
// pinwheel block of four like it), weight and volume; capacities round
// down and sizes up, so a bin is within payload and volume for sure and
// near the floor's limits.
//
// The bins are the free trailers that carry the class, most preferred
// first, each with its own capacity: the pallets are spread over the
// fewest of them whose capacities can hold them, and more while no spread
// fits at all. Where no count works, binpack.Solve packs against the
// reference type's capacity and spreading tries every count below
// Solve's. A spread whose bins do not all lay out on their trailers gives
// way to the next attempt while the share lasts; the one with the fewest
// such bins, then stops, is kept. ok is false when ctx ended it.
func (f *fleetPacker) solveClass(s *packing, ref int, c constraints.Temperature, items []int, share limit, seed uint64) ([][]int, bool) {
	if len(items) == 0 {
		return nil, true
	}
	seq, withPositions := f.binTrailers(s, c, len(items))
	prob := binpack.Problem{Capacity: binCapacity(f.fleet[ref].Trailer, withPositions)}
	prob.Sizes = f.classSizes(ref, c, items, prob.Capacity, withPositions)
	store := make([]int, len(items))
	for j, i := range items {
		store[j] = f.rank[i]
	}
	t := &spreadTrial{f: f, items: items, sizes: prob.Sizes, share: share, bestFailing: -1}

	caps := make([][]int64, len(seq))
	for b, k := range seq {
		caps[b] = binCapacity(f.fleet[k].Trailer, withPositions)
	}
	for k := fewestHolding(prob.Sizes, caps); k > 0 && k <= len(seq); k++ {
		t.kinds = seq[:k]
		if spreadStores(prob, caps[:k], store, seed, t.try) {
			return t.best, true
		}
		if f.stopped(share) {
			break
		}
	}

	res, err := binpack.Solve(f.ctx, prob, binpack.Options{TimeLimit: max(time.Until(share.at), time.Millisecond), Seed: seed, MaxIterations: solveMoves})
	if f.ctx.Err() != nil {
		return nil, false
	}
	if err != nil {
		// The sizes are clamped to the capacities, so this is a bug; the
		// pallets still get first-fitted.
		return [][]int{items}, true
	}
	lb := max(binpack.L1(prob), binpack.L2(prob))
	for k := max(lb, res.LowerBound); k < len(res.Bins); k++ {
		same := make([][]int64, k)
		t.kinds = make([]int, k)
		for b := range same {
			same[b], t.kinds[b] = prob.Capacity, ref
		}
		if spreadStores(prob, same, store, seed, t.try) {
			return t.best, true
		}
	}
	if t.best != nil {
		return t.best, true
	}
	return f.binsOf(prob, items, res.Bins), true
}

// binTrailers returns the free trailers that carry class c in the order
// solveClass opens its bins, most preferred first, at most n of them, and
// whether every one of them limits floor positions (the sizes count
// positions only then).
func (f *fleetPacker) binTrailers(s *packing, c constraints.Temperature, n int) (seq []int, withPositions bool) {
	withPositions = true
	for _, k := range f.byPreference {
		if s.left[k] > 0 && f.fleet[k].Trailer.Equipment.Carries(c) {
			for range min(s.left[k], n-len(seq)) {
				seq = append(seq, k)
			}
			withPositions = withPositions && f.fleet[k].Trailer.Positions > 0
		}
	}
	return seq, withPositions
}

// binCapacity is a trailer as a bin of solveClass: eighths of floor
// positions (when withPositions), floor length, payload and volume,
// rounded down.
func binCapacity(t Trailer, withPositions bool) []int64 {
	var cp []int64
	if withPositions {
		cp = append(cp, 8*int64(t.Positions))
	}
	return append(cp, int64(t.LengthMM), max(1, int64(math.Floor(t.PayloadKg))), max(1, int64(math.Floor(t.Volume()*1000))))
}

// classSizes returns the sizes of the items (pallets of class c) as
// solveClass estimates them on the reference type ref, in the dimensions
// of binCapacity, each clamped to capacity: a pallet PlanTrailer would
// stack takes half its floor unit.
func (f *fleetPacker) classSizes(ref int, c constraints.Temperature, items []int, capacity []int64, withPositions bool) [][]int64 {
	tr := f.fleet[ref].Trailer
	ps := make([]Pallet, len(items))
	for j, i := range items {
		ps[j] = f.pallets[i]
		ps[j].Stop = f.rank[i]
	}
	paired := make([]bool, len(items))
	for _, pr := range stackPairs(tr, ps, []constraints.Temperature{c}) {
		paired[pr[0]], paired[pr[1]] = true, true
	}
	type unitKey struct{ l, w int }
	units := map[unitKey][2]int{}
	sizes := make([][]int64, 0, len(ps))
	for j, p := range ps {
		u, ok := units[unitKey{p.LengthMM, p.WidthMM}]
		if !ok {
			pos, length := floorUnit(p, tr.WidthMM)
			u = [2]int{pos, length}
			units[unitKey{p.LengthMM, p.WidthMM}] = u
		}
		pos8, length := 2*int64(u[0]), int64(u[1])
		if paired[j] {
			pos8, length = pos8/2, (length+1)/2
		}
		var sz []int64
		if withPositions {
			sz = append(sz, pos8)
		}
		sz = append(sz, length, int64(math.Ceil(p.WeightKg)), int64(math.Ceil(p.VolumeM3*1000)))
		for d := range sz {
			sz[d] = min(sz[d], capacity[d])
		}
		sizes = append(sizes, sz)
	}
	return sizes
}

// fewestHolding returns the fewest of the capacities, in order, whose sums
// hold the sizes' sums in every dimension, or -1 when all of them do not.
func fewestHolding(sizes [][]int64, caps [][]int64) int {
	var total []int64
	for _, sz := range sizes {
		if total == nil {
			total = make([]int64, len(sz))
		}
		for d, v := range sz {
			total[d] += v
		}
	}
	if len(caps) == 0 {
		return -1
	}
	held := make([]int64, len(caps[0]))
	for b, cp := range caps {
		enough := true
		for d := range held {
			held[d] += cp[d]
			enough = enough && held[d] >= total[d]
		}
		if enough {
			return b + 1
		}
	}
	return -1
}

// binsOf turns bins of item numbers into bins of pallets, relabelled
// (see relabel) and without empty bins.
func (f *fleetPacker) binsOf(prob binpack.Problem, items []int, found [][]int) [][]int {
	relabel(prob.Sizes, found)
	var bins [][]int
	for _, bin := range found {
		if len(bin) == 0 {
			continue
		}
		pal := make([]int, len(bin))
		for n, j := range bin {
			pal[n] = items[j]
		}
		bins = append(bins, pal)
	}
	return bins
}

// floorUnit estimates a pallet's share of the floor on a floor of the given
// width: the quarter positions it takes (a quarter or half pallet its share
// of a position shared across the floor's width, any other the positions
// of its row, 1 or 2), and the floor length per pallet in the best of a row
// of two and a pinwheel block of four pallets like it, or of a row of its
// own.
func floorUnit(p Pallet, width int) (quarters, lengthMM int) {
	p.Stop = 0
	if _, _, d2, ok := pairRow(p, p, width); ok {
		l := (d2 + 1) / 2
		if blk, ok := pinwheel([4]Pallet{p, p, p, p}, width, 2*d2); ok {
			l = min(l, (blk.depth+3)/4)
		}
		if s := share(p); s < 4 && 4*p.WidthMM <= width {
			return s, l
		}
		return 4, l
	}
	_, d1, side := singleRow(p, width, false)
	return 4 * side.Positions(), d1
}

// assignBins turns the bins of one class into loads: the most constrained
// bins (those that lay out on the fewest free types) first, fullest first
// among equals, each on the most preferred free type it lays out on. A bin
// that lays out on no free type keeps the longest run of its pallets (in
// store order) that does on the most preferred free type carrying the
// class; the pallets it returns are those left over.
func (f *fleetPacker) assignBins(s *packing, c constraints.Temperature, bins [][]int) []int {
	var kinds []int
	for k, ft := range f.fleet {
		if s.left[k] > 0 && ft.Trailer.Equipment.Carries(c) {
			kinds = append(kinds, k)
		}
	}
	sort.SliceStable(kinds, func(a, b int) bool { return f.preferred(kinds[a], kinds[b]) })
	type option struct {
		bin   []int
		loads []*fleetLoad // one per type it lays out on, preferred first
	}
	opts := make([]option, len(bins))
	for b, bin := range bins {
		opts[b].bin = bin
		for _, k := range kinds {
			if l := f.makeLoad(k, bin); l != nil {
				opts[b].loads = append(opts[b].loads, l)
			}
		}
	}
	sort.SliceStable(opts, func(a, b int) bool {
		na, nb := len(opts[a].loads), len(opts[b].loads)
		if (na == 0) != (nb == 0) {
			return nb == 0
		}
		if na != nb {
			return na < nb
		}
		return len(opts[a].bin) > len(opts[b].bin)
	})
	var rest []int
	for _, o := range opts {
		done := false
		for _, l := range o.loads {
			if s.left[l.kind] > 0 {
				s.left[l.kind]--
				s.loads = append(s.loads, l)
				done = true
				break
			}
		}
		if done {
			continue
		}
		order := append([]int(nil), o.bin...)
		sort.SliceStable(order, func(a, b int) bool {
			if f.rank[order[a]] != f.rank[order[b]] {
				return f.rank[order[a]] < f.rank[order[b]]
			}
			return order[a] < order[b]
		})
		for _, k := range kinds {
			if s.left[k] <= 0 {
				continue
			}
			// The longest prefix that lays out, by bisection: more pallets
			// rarely lay out where fewer do not.
			var keep *fleetLoad
			lo, hi := 0, len(order)
			for hi-lo > 1 {
				mid := (lo + hi) / 2
				if l := f.makeLoad(k, order[:mid]); l != nil {
					lo, keep = mid, l
				} else {
					hi = mid
				}
			}
			if keep != nil {
				s.left[k]--
				s.loads = append(s.loads, keep)
				order = order[lo:]
			}
			break
		}
		rest = append(rest, order...)
	}
	return rest
}

// spreadTries is how many randomised orders spreadStores tries after the
// two plain ones; each costs one pass over items × bins.
const spreadTries = 48
