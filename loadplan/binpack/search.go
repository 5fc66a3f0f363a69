package binpack

import (
	"math/rand/v2"
	"slices"
	"sort"
)

// This file is the improvement search, a consistent neighbourhood search in
// the manner of Buljubašić & Vasquez (2016). Given a packing with k+1 bins it
// looks for one with k: it empties two bins into a pool of unpacked items and
// then, keeping every bin feasible at all times, swaps up to two items of a
// bin with up to three pool items, until the pool fits in one bin (which
// becomes the k-th). The objective is lexicographic: first the total
// (scalar) size left in the pool, then the sum of squared sizes in the pool,
// which prefers many small pool items to one large one of the same total
// because small items are easier to place later. A move that brought an
// item into a bin makes that item tabu for some moves, so the search does
// not undo it at once and can walk through worse states; after
// restartAfter moves without a better pool it starts again from the k+1
// packing with two other bins emptied.

// sbin is a bin of the search state.
type sbin struct {
	items []int
	load  []int64
	fill  float64
}

type searcher struct {
	in    *instance
	rng   *rand.Rand
	bins  []sbin
	pool  []int
	tabu  []int64 // item i may not leave its bin before iteration tabu[i]
	iter  int64
	stop  func() bool
	cands []poolSet
	room  []int64

	tabuMin, tabuSpread int

	// The state of a search cut short, for reduce to resume.
	start     [][]int
	resumable bool
	bestPool  float64
	sinceBest int64
}

// poolSet is a candidate set of up to three pool items (unused slots -1).
type poolSet struct {
	it [3]int
	w  float64
	w2 float64
}

func newSearcher(in *instance, seed uint64, stop func() bool) *searcher {
	// The tenure grows with the instance up to 10 + [0, 20) iterations: on
	// small instances a long tenure makes most items tabu at once.
	return &searcher{
		tabuMin:    max(1, min(tabuMin, in.n/20)),
		tabuSpread: max(2, min(tabuSpread, in.n/10)),
		in:         in,
		rng:        rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		tabu:       make([]int64, in.n),
		stop:       stop,
		room:       make([]int64, in.d),
	}
}

func (s *searcher) load(bins [][]int) {
	s.bins = s.bins[:0]
	for _, items := range bins {
		b := sbin{items: slices.Clone(items), load: make([]int64, s.in.d)}
		for _, i := range items {
			s.in.addLoad(b.load, i)
		}
		b.fill = s.in.fill(b.load)
		s.bins = append(s.bins, b)
	}
	s.pool = s.pool[:0]
}

func (s *searcher) packing() [][]int {
	out := make([][]int, 0, len(s.bins))
	for _, b := range s.bins {
		if len(b.items) > 0 {
			out = append(out, slices.Clone(b.items))
		}
	}
	return out
}

// removeBin empties bin b into the pool and deletes it.
func (s *searcher) removeBin(b int) {
	s.pool = append(s.pool, s.bins[b].items...)
	s.bins[b] = s.bins[len(s.bins)-1]
	s.bins = s.bins[:len(s.bins)-1]
}

// leastFilled picks, at random, one of the three least filled bins: always
// the least filled one would make every restart identical.
func (s *searcher) leastFilled(spread int) int {
	idx := make([]int, len(s.bins))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if s.bins[a].fill < s.bins[b].fill {
			return -1
		}
		if s.bins[a].fill > s.bins[b].fill {
			return 1
		}
		return a - b
	})
	return idx[s.rng.IntN(min(spread, len(idx)))]
}

// reduce searches for a packing with one bin fewer than start (which must be
// feasible and have at least two bins); it returns nil when stop reports the
// end of the budget. As in CNS it empties two bins into the pool and
// succeeds when the pool fits in a single bin: a pool of two bins' worth of
// items offers far more swaps than the items of one bin.
//
// A call cut short by stop leaves its state behind: the next call with the
// same start packing resumes the search where it stopped, so a search run
// in several time slices loses nothing.
func (s *searcher) reduce(start [][]int) [][]int {
	if len(start) < 2 {
		return nil
	}
	restart := func(spread int) {
		s.load(start)
		s.removeBin(s.leastFilled(spread))
		s.removeBin(s.leastFilled(spread))
	}
	if !s.resumable || len(s.start) != len(start) || &s.start[0] != &start[0] {
		restart(1)
		s.start = start
		s.bestPool, s.sinceBest = s.poolWeight(), 0
	}
	s.resumable = false
	for {
		s.insertPool()
		if s.poolFits() {
			out := s.packing()
			if len(s.pool) > 0 {
				out = append(out, slices.Clone(s.pool))
			}
			return out
		}
		if s.iter%16 == 0 && s.stop() {
			s.resumable = true
			return nil
		}
		s.iter++
		if pw := s.poolWeight(); pw < s.bestPool-1e-12 {
			s.bestPool, s.sinceBest = pw, 0
		} else if s.sinceBest++; s.sinceBest > restartAfter {
			restart(4)
			s.bestPool, s.sinceBest = s.poolWeight(), 0
			continue
		}
		if !s.move() {
			// No move at all (every bin item tabu or nothing fits): restart.
			restart(4)
		}
	}
}

// poolFits reports whether the pool fits in one bin.
func (s *searcher) poolFits() bool {
	copy(s.room, s.in.cap)
	for _, i := range s.pool {
		for k, v := range s.in.item(i) {
			s.room[k] -= v
			if s.room[k] < 0 {
				return false
			}
		}
	}
	return true
}

func (s *searcher) poolWeight() float64 {
	t := 0.0
	for _, i := range s.pool {
		t += s.in.w[i]
	}
	return t
}

// insertPool puts pool items, largest first, into the fullest bin that takes
// them.
func (s *searcher) insertPool() {
	in := s.in
	slices.SortFunc(s.pool, func(a, b int) int {
		if in.w[a] > in.w[b] {
			return -1
		}
		if in.w[a] < in.w[b] {
			return 1
		}
		return a - b
	})
	kept := s.pool[:0]
	for _, i := range s.pool {
		best := -1
		for b := range s.bins {
			if in.fits(s.bins[b].load, i) && (best < 0 || s.bins[b].fill > s.bins[best].fill) {
				best = b
			}
		}
		if best < 0 {
			kept = append(kept, i)
			continue
		}
		s.put(best, i)
	}
	s.pool = kept
}

func (s *searcher) put(b, i int) {
	bin := &s.bins[b]
	bin.items = append(bin.items, i)
	s.in.addLoad(bin.load, i)
	bin.fill = s.in.fill(bin.load)
}

func (s *searcher) take(b, i int) {
	bin := &s.bins[b]
	j := slices.Index(bin.items, i)
	bin.items[j] = bin.items[len(bin.items)-1]
	bin.items = bin.items[:len(bin.items)-1]
	s.in.subLoad(bin.load, i)
	bin.fill = s.in.fill(bin.load)
}

// move applies the best non-tabu swap between a bin and the pool, by the
// lexicographic objective, even when it makes the pool worse. It reports
// false when no swap is possible.
func (s *searcher) move() bool {
	s.poolSets()
	m := swapScan{s: s, capW: s.in.fill(s.in.cap), best: swapChoice{set: -1}}
	if s.in.d > 1 {
		m.eps = 1e-9
	}
	for b := range s.bins {
		items := s.bins[b].items
		m.consider(b, [3]int{-1, -1, -1})
		for x, a := range items {
			if s.tabu[a] > s.iter {
				continue
			}
			m.consider(b, [3]int{a, -1, -1})
			for y := x + 1; y < len(items); y++ {
				a2 := items[y]
				if s.tabu[a2] > s.iter {
					continue
				}
				m.consider(b, [3]int{a, a2, -1})
			}
		}
	}
	if m.best.set < 0 {
		return false
	}
	s.swap(m.best)
	return true
}

// poolSets lists in s.cands every set of one to three pool items, lightest
// first.
func (s *searcher) poolSets() {
	s.cands = s.cands[:0]
	pool := s.pool
	for x, a := range pool {
		s.cands = append(s.cands, s.set(a, -1, -1))
		for y := x + 1; y < len(pool); y++ {
			s.cands = append(s.cands, s.set(a, pool[y], -1))
			for _, c := range pool[y+1:] {
				s.cands = append(s.cands, s.set(a, pool[y], c))
			}
		}
	}
	sort.Slice(s.cands, func(x, y int) bool { return s.cands[x].w < s.cands[y].w })
}

// swapChoice is a swap: the items out of a bin (unused slots -1) and the
// pool set (an index in searcher.cands) in, with the change d1 of the
// pool's total size and d2 of its sum of squared sizes.
type swapChoice struct {
	bin    int
	out    [3]int
	set    int
	d1, d2 float64
}

// swapScan is move's search for the best swap.
type swapScan struct {
	s    *searcher
	capW float64 // the scalar size of a full bin
	eps  float64 // slack on the scalar room, where it only estimates the room
	best swapChoice
	// ties counts the swaps as good as best met so far, so that each is
	// kept with equal chance.
	ties int
}

// consider offers the swaps of the items out of bin b for pool sets that
// fit in their place: the heaviest few that fit, from the heaviest down.
func (m *swapScan) consider(b int, out [3]int) {
	s, in := m.s, m.s.in
	bin := &s.bins[b]
	wA, w2A := 0.0, 0.0
	for _, a := range out {
		if a >= 0 {
			wA += in.w[a]
			w2A += in.w[a] * in.w[a]
		}
	}
	oneDim := in.d == 1
	if !oneDim {
		// In one dimension the scalar room below is the room.
		s.roomWithout(bin, out)
	}
	roomW := m.capW - bin.fill + wA + m.eps
	scanned := 0
	for x := s.lighterThan(roomW) - 1; x >= 0 && scanned < 16; x-- {
		c := &s.cands[x]
		d1 := wA - c.w
		if m.best.set >= 0 && d1 > m.best.d1+1e-12 {
			return // candidates only get lighter from here
		}
		scanned++
		if !oneDim && !s.fitsRoom(c) {
			continue
		}
		d2 := w2A - c.w2
		if d1 > -1e-12 && d1 < 1e-12 && d2 > -1e-12 && d2 < 1e-12 {
			continue // a null move: same sizes swapped
		}
		if !m.prefer(d1, d2) {
			continue
		}
		m.best = swapChoice{bin: b, out: out, set: x, d1: d1, d2: d2}
		return
	}
}

// prefer reports whether a swap with the changes d1, d2 replaces the best
// one so far: it is better, or as good and drawn among the ties.
func (m *swapScan) prefer(d1, d2 float64) bool {
	best := m.best
	if best.set < 0 {
		m.ties = 1
		return true
	}
	if d1 > best.d1+1e-12 || (d1 > best.d1-1e-12 && d2 > best.d2+1e-12) {
		return false
	}
	if d1 > best.d1-1e-12 && d2 > best.d2-1e-12 {
		m.ties++
		return m.s.rng.IntN(m.ties) == 0
	}
	m.ties = 1
	return true
}

// roomWithout sets s.room to the room left in bin with the items out
// taken out.
func (s *searcher) roomWithout(bin *sbin, out [3]int) {
	in := s.in
	copy(s.room, in.cap)
	for k := range s.room {
		s.room[k] -= bin.load[k]
	}
	for _, a := range out {
		if a >= 0 {
			for k, v := range in.item(a) {
				s.room[k] += v
			}
		}
	}
}

// lighterThan returns the number of pool sets (sorted by scalar size)
// whose scalar size is at most w.
func (s *searcher) lighterThan(w float64) int {
	lo, hi := 0, len(s.cands)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.cands[mid].w > w {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi
}

// swap applies the swap c: its items out go to the pool, its pool set
// into the bin, each item moved in tabu for a while.
func (s *searcher) swap(c swapChoice) {
	set := s.cands[c.set]
	for _, a := range c.out {
		if a >= 0 {
			s.take(c.bin, a)
			s.pool = append(s.pool, a)
		}
	}
	for _, i := range set.it {
		if i >= 0 {
			s.put(c.bin, i)
			j := slices.Index(s.pool, i)
			s.pool[j] = s.pool[len(s.pool)-1]
			s.pool = s.pool[:len(s.pool)-1]
			s.tabu[i] = s.iter + int64(s.tabuMin+s.rng.IntN(s.tabuSpread))
		}
	}
}

func (s *searcher) set(a, b, c int) poolSet {
	ps := poolSet{it: [3]int{a, b, c}}
	for _, i := range ps.it {
		if i >= 0 {
			ps.w += s.in.w[i]
			ps.w2 += s.in.w[i] * s.in.w[i]
		}
	}
	return ps
}

func (s *searcher) fitsRoom(c *poolSet) bool {
	in := s.in
	for k := range s.room {
		v := int64(0)
		for _, i := range c.it {
			if i >= 0 {
				v += in.size[i*in.d+k]
			}
		}
		if v > s.room[k] {
			return false
		}
	}
	return true
}

// Search parameters, tuned on samples of the Falkenauer, Scholl and Hard28
// sets: restartAfter non-improving moves send the search back to its start
// packing with two other bins emptied; an item moved into a bin stays there
// for tabuMin + [0, tabuSpread) moves (less on small instances).
const (
	restartAfter = 1000
	tabuMin      = 10
	tabuSpread   = 20
)
