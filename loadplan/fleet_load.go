package loadplan

import (
	"encoding/binary"
	"slices"
	"sort"
)

// memoLimit caps the layouts remembered (a few kB each); past it the
// memory starts afresh, which costs time only.
const memoLimit = 1 << 12

// fleetLoad is one trailer of a packing. Loads are never changed once
// made: a move builds new ones, so packings can share them.
type fleetLoad struct {
	kind    int
	pallets []int // ascending
	layout  *Layout
	agg     loadAgg
}

// withStops returns copies of the pallets with Stop set by store, stores
// in order of first appearance in the input, and the store of each stop.
func (f *fleetPacker) withStops(idx []int) ([]Pallet, []string) {
	ranks := make([]int, len(idx))
	for j, i := range idx {
		ranks[j] = f.rank[i]
	}
	sort.Ints(ranks)
	ranks = slices.Compact(ranks)
	stores := make([]string, len(ranks))
	// Input order keeps the layout independent of the packing order.
	sorted := append([]int(nil), idx...)
	sort.Ints(sorted)
	ps := make([]Pallet, len(sorted))
	for j, i := range sorted {
		stop, _ := slices.BinarySearch(ranks, f.rank[i])
		ps[j] = f.pallets[i]
		ps[j].Stop = stop
		stores[stop] = ps[j].Store
	}
	return ps, stores
}

// layout lays the pallets (ascending indices) out on a trailer of type k,
// or reports that PlanTrailer finds no layout; it checks the pallets'
// types and the cheap conditions first and remembers every answer.
func (f *fleetPacker) layout(k int, idx []int, a loadAgg) (*Layout, bool) {
	for _, i := range idx {
		if !f.allowed[i][k] {
			return nil, false
		}
	}
	if !f.mayFit(k, a) {
		return nil, false
	}
	f.key = binary.AppendUvarint(f.key[:0], uint64(k))
	for _, i := range idx {
		f.key = binary.AppendUvarint(f.key, uint64(i))
	}
	if lay, ok := f.memo[string(f.key)]; ok {
		return lay, lay != nil
	}
	f.calls++
	ps, stores := f.withStops(idx)
	lay, err := PlanTrailer(f.fleet[k].Trailer, ps, len(stores))
	if err != nil {
		lay = nil
	}
	if len(f.memo) >= memoLimit {
		clear(f.memo)
	}
	f.memo[string(f.key)] = lay
	return lay, lay != nil
}

// makeLoad lays idx out on type k and returns the load, or nil.
func (f *fleetPacker) makeLoad(k int, idx []int) *fleetLoad {
	idx = sortedCopy(idx)
	a := f.aggOf(idx)
	lay, ok := f.layout(k, idx, a)
	if !ok {
		return nil
	}
	return &fleetLoad{kind: k, pallets: idx, layout: lay, agg: a}
}

// with returns l with pallet i added, or nil when that does not lay out.
func (f *fleetPacker) with(l *fleetLoad, i int) *fleetLoad {
	if !f.allowed[i][l.kind] {
		return nil
	}
	a := l.agg.plus(f.pallets[i])
	a.pairs = f.pairsWith(l, i)
	if !f.mayFit(l.kind, a) {
		return nil
	}
	idx := insertSorted(l.pallets, i)
	lay, ok := f.layout(l.kind, idx, a)
	if !ok {
		return nil
	}
	return &fleetLoad{kind: l.kind, pallets: idx, layout: lay, agg: a}
}
