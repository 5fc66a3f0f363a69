package loadplan

import (
	"sort"
)

// This file is PackFleet's improvement phase. Every move keeps every load
// laid out by PlanTrailer, so the packing is legal whenever the phase
// stops. The moves that remove trailers (merge two; empty one, each of
// its pallets into another trailer directly or in place of a pallet that
// moves on to a third) are tried first; when none applies, shrink moves
// pallets from the least loaded trailer to fuller ones, which raises the
// sum of squared pallet counts, so it cannot cycle and it makes the next
// emptying likelier. Last, consolidate moves a store's pallets to a
// trailer that already visits the store, or swaps them with another
// store's pallets there, each move saving a stop.

// maxRounds bounds the rounds of trailer moves and store moves; a round
// after the first runs only when the one before saved a trailer.
const maxRounds = 4

// improve runs the improvement phase on s until the lower bound is met,
// until passes, ctx ends or no move helps.
func (f *fleetPacker) improve(s *packing, until limit) {
	for range maxRounds {
		before := len(s.loads)
		lb := f.stopBound(s)
		// A third of the time is kept for the stops.
		trailers := f.share(until, 2, 3)
		for len(s.loads) > lb && !f.stopped(trailers) {
			if f.mergePair(s, trailers) || f.emptyOne(s, trailers) {
				continue
			}
			if !f.shrink(s, trailers) {
				break
			}
		}
		f.placeNoRoom(s, until)
		f.consolidate(s, until)
		if len(s.loads) >= before || f.stopped(until) {
			return
		}
	}
}

// placeNoRoom gives the pallets left for want of room another chance,
// since the moves may have freed trailers or room.
func (f *fleetPacker) placeNoRoom(s *packing, until limit) {
	var still []int
	for _, i := range s.noRoom {
		if f.stopped(until) || !f.place(s, i) {
			still = append(still, i)
		}
	}
	s.noRoom = still
}

// bySmallest returns the load indices, fewest pallets first, then lightest.
func bySmallest(s *packing) []int {
	order := make([]int, len(s.loads))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool {
		la, lb := s.loads[order[a]], s.loads[order[b]]
		if la.agg.n != lb.agg.n {
			return la.agg.n < lb.agg.n
		}
		return la.agg.weight < lb.agg.weight
	})
	return order
}

// mergePair puts two loads into one trailer of any type free once both are
// given back (theirs first, then the largest), and reports whether it did.
func (f *fleetPacker) mergePair(s *packing, until limit) bool {
	order := bySmallest(s)
	for x, a := range order {
		for _, b := range order[x+1:] {
			if f.stopped(until) {
				return false
			}
			la, lb := s.loads[a], s.loads[b]
			union := merged(la.pallets, lb.pallets)
			agg := f.aggOf(union)
			kinds := append([]int{la.kind, lb.kind}, f.bySize...)
			for n, k := range kinds {
				if (n == 1 && k == la.kind) || (n >= 2 && (k == la.kind || k == lb.kind)) {
					continue // tried already
				}
				free := s.left[k]
				if k == la.kind {
					free++
				}
				if k == lb.kind {
					free++
				}
				if free <= 0 || !f.mayFit(k, agg) {
					continue
				}
				if l := f.makeLoad(k, union); l != nil {
					s.left[la.kind]++
					s.left[lb.kind]++
					s.left[k]--
					s.loads[a] = l
					s.loads = append(s.loads[:b], s.loads[b+1:]...)
					return true
				}
			}
		}
	}
	return false
}

// hasStore reports whether load l carries a pallet of store rank r.
func (f *fleetPacker) hasStore(l *fleetLoad, r int) bool {
	for _, i := range l.pallets {
		if f.rank[i] == r {
			return true
		}
	}
	return false
}

// targets lists the loads other than skip to try pallet i in: those that
// already visit its store first, each group in load order.
func (f *fleetPacker) targets(loads []*fleetLoad, skip, i int, ok func(*fleetLoad) bool) []int {
	var same, other []int
	for j, l := range loads {
		if j == skip || !ok(l) {
			continue
		}
		if f.hasStore(l, f.rank[i]) {
			same = append(same, j)
		} else {
			other = append(other, j)
		}
	}
	return append(same, other...)
}

// emptyOne moves every pallet of one load into the others, trying the
// smallest loads first, and reports whether it freed a trailer.
func (f *fleetPacker) emptyOne(s *packing, until limit) bool {
	all := func(*fleetLoad) bool { return true }
	ejections := ejectBudget
	for _, v := range bySmallest(s) {
		if !f.roomFor(s, v) {
			continue
		}
		trial := append([]*fleetLoad(nil), s.loads...)
		ok := true
		for _, i := range f.storeOrder(s.loads[v].pallets) {
			if f.stopped(until) {
				return false
			}
			moved := false
			for _, t := range f.targets(trial, v, i, all) {
				if nl := f.with(trial[t], i); nl != nil {
					trial[t], moved = nl, true
					break
				}
			}
			if !moved && !f.eject(trial, v, i, &ejections, until) {
				ok = false
				break
			}
		}
		if ok {
			s.left[s.loads[v].kind]++
			s.loads = append(trial[:v], trial[v+1:]...)
			return true
		}
	}
	return false
}

// ejectBudget bounds the layouts eject may spend in one emptyOne call, so
// that a packing with no trailer to spare costs little to give up on.
const ejectBudget = 200

// eject places pallet i of load v by making room: it puts i into a load t
// in place of one of its pallets q, which moves on into a third load. It
// tries the q lighter than i first, and spends at most *budget layouts.
func (f *fleetPacker) eject(trial []*fleetLoad, v, i int, budget *int, until limit) bool {
	p := f.pallets[i]
	all := func(*fleetLoad) bool { return true }
	for _, t := range f.targets(trial, v, i, all) {
		lt := trial[t]
		if !f.allowed[i][lt.kind] {
			continue
		}
		qs := append([]int(nil), lt.pallets...)
		sort.SliceStable(qs, func(a, b int) bool { return f.pallets[qs[a]].WeightKg < f.pallets[qs[b]].WeightKg })
		for _, q := range qs {
			if *budget <= 0 || f.stopped(until) {
				return false
			}
			pq := f.pallets[q]
			if pq.LengthMM == p.LengthMM && pq.WidthMM == p.WidthMM && pq.HeightMM == p.HeightMM &&
				pq.WeightKg == p.WeightKg && pq.Temperature == p.Temperature && f.rank[q] == f.rank[i] {
				continue // the same pallet for the layout: nothing gained
			}
			rest := insertSorted(without(lt.pallets, []int{q}), i)
			if !f.mayFit(lt.kind, f.aggOf(rest)) {
				continue
			}
			// Somewhere for q first: that costs cheap checks only when
			// there is none.
			var dest []int
			for _, u := range f.targets(trial, v, q, all) {
				if u != t && f.allowed[q][trial[u].kind] && f.mayFit(trial[u].kind, trial[u].agg.plus(pq)) {
					dest = append(dest, u)
				}
			}
			if len(dest) == 0 {
				continue
			}
			*budget--
			nt := f.makeLoad(lt.kind, rest)
			if nt == nil {
				continue
			}
			for _, u := range dest {
				*budget--
				if nu := f.with(trial[u], q); nu != nil {
					trial[t], trial[u] = nt, nu
					return true
				}
			}
		}
	}
	return false
}

// roomFor checks conditions that emptying load v into the others needs,
// with no layout: the free payload, volume and floor positions of the
// others (pairs can grow by at most one per pallet added) hold the
// victim's.
func (f *fleetPacker) roomFor(s *packing, v int) bool {
	victim := s.loads[v]
	var weight, volume float64
	quarters, limited := 0, true // free quarters of a position, at most
	for j, l := range s.loads {
		if j == v {
			continue
		}
		t := f.fleet[l.kind].Trailer
		weight += t.PayloadKg - l.agg.weight
		volume += t.Volume() - l.agg.volume
		if t.Positions == 0 {
			limited = false
		}
		quarters += 4*(t.Positions-l.agg.n+l.agg.pairs) + l.agg.saved
	}
	a := victim.agg
	if a.weight > weight*(1+1e-6)+1e-6 || a.volume > volume*(1+1e-6)+1e-9 {
		return false
	}
	if limited && 4*(a.n-a.flexible)-a.saved > quarters {
		return false
	}
	return true
}

// shrink moves pallets from the smallest load to loads with at least as
// many pallets, keeping both laid out, and reports whether it moved any.
func (f *fleetPacker) shrink(s *packing, until limit) bool {
	if len(s.loads) < 2 {
		return false
	}
	v := bySmallest(s)[0]
	moved := false
	for _, i := range f.storeOrder(s.loads[v].pallets) {
		if f.stopped(until) {
			break
		}
		src := s.loads[v]
		rest := f.makeLoad(src.kind, without(src.pallets, []int{i}))
		if rest == nil {
			continue
		}
		fuller := func(l *fleetLoad) bool { return l.agg.n >= src.agg.n }
		for _, t := range f.targets(s.loads, v, i, fuller) {
			if nl := f.with(s.loads[t], i); nl != nil {
				s.loads[t], s.loads[v], moved = nl, rest, true
				break
			}
		}
	}
	return moved
}

// consolidate moves all the pallets of a store from one load to another
// that already visits it, or swaps them with another store's pallets
// there, keeping both laid out, while that saves a stop; a load left
// empty frees its trailer.
func (f *fleetPacker) consolidate(s *packing, until limit) {
	for moved := true; moved; {
		moved = false
		groups := f.storeGroups(s)
		for r := range len(f.storeRank) {
			if f.stopped(until) {
				return
			}
			if f.moveStore(s, r, groups) || f.swapStores(s, r, groups, until) {
				moved = true
				groups = f.storeGroups(s)
			}
		}
	}
}

// storeGroup is the pallets of one store in one load.
type storeGroup struct {
	idx []int // ascending
	agg loadAgg
}

// storeGroups returns, per load, its pallets by store rank.
func (f *fleetPacker) storeGroups(s *packing) []map[int]*storeGroup {
	out := make([]map[int]*storeGroup, len(s.loads))
	for j, l := range s.loads {
		out[j] = map[int]*storeGroup{}
		for _, i := range l.pallets {
			g := out[j][f.rank[i]]
			if g == nil {
				g = &storeGroup{}
				out[j][f.rank[i]] = g
			}
			g.idx = append(g.idx, i)
		}
		for _, g := range out[j] {
			g.agg = f.aggOf(g.idx)
		}
	}
	return out
}

// roomAfter checks by the sums alone whether a load of type k with sums l
// may still fit once the pallets with sums out leave and those with sums
// in come. Pairs are bounded by the load's plus one per incoming pallet
// that may be stacked or carry; classes are left to the layout, since the
// leaving pallets may take a class away.
func (f *fleetPacker) roomAfter(k int, l, out, in loadAgg) bool {
	return f.mayFit(k, loadAgg{
		n:         l.n - out.n + in.n,
		pairs:     l.pairs + in.flexible,
		weight:    l.weight - out.weight + in.weight,
		volume:    l.volume - out.volume + in.volume,
		floorArea: l.floorArea - out.floorArea + in.floorArea,
	})
}

// swapStores exchanges the pallets of store r in one load with those of
// another store u in a second load that also visits r, keeping both laid
// out: the first load stops visiting r, the second u, and the first
// gains u only if it did not visit it, so each swap saves a stop or two.
// It makes at most one swap and reports whether it did.
func (f *fleetPacker) swapStores(s *packing, r int, groups []map[int]*storeGroup, until limit) bool {
	holders := holdersOf(s, r, groups)
	if len(holders) < 2 {
		return false
	}
	for _, a := range holders {
		ga := groups[a][r]
		for _, b := range holders {
			if a == b {
				continue
			}
			la, lb := s.loads[a], s.loads[b]
			us := make([]int, 0, len(groups[b]))
			for u := range groups[b] {
				if u != r {
					us = append(us, u)
				}
			}
			sort.Ints(us)
			for _, u := range us {
				if f.stopped(until) {
					return false
				}
				gb := groups[b][u]
				if !f.roomAfter(la.kind, la.agg, ga.agg, gb.agg) || !f.roomAfter(lb.kind, lb.agg, gb.agg, ga.agg) {
					continue
				}
				na := f.makeLoad(la.kind, merged(without(la.pallets, ga.idx), gb.idx))
				if na == nil {
					continue
				}
				nb := f.makeLoad(lb.kind, merged(without(lb.pallets, gb.idx), ga.idx))
				if nb == nil {
					continue
				}
				s.loads[a], s.loads[b] = na, nb
				return true
			}
		}
	}
	return false
}

// moveStore moves the pallets of store r from one load into another that
// visits r too, smaller groups first and into loads with larger groups
// first, and reports whether it did.
func (f *fleetPacker) moveStore(s *packing, r int, groups []map[int]*storeGroup) bool {
	holders := holdersOf(s, r, groups)
	if len(holders) < 2 {
		return false
	}
	var none loadAgg
	for _, src := range holders {
		g := groups[src][r]
		for d := len(holders) - 1; d >= 0; d-- {
			dst := holders[d]
			if dst == src {
				continue
			}
			ls, ld := s.loads[src], s.loads[dst]
			if !f.roomAfter(ld.kind, ld.agg, none, g.agg) {
				continue
			}
			nd := f.makeLoad(ld.kind, merged(ld.pallets, g.idx))
			if nd == nil {
				continue
			}
			rest := without(ls.pallets, g.idx)
			if len(rest) == 0 {
				s.loads[dst] = nd
				s.left[ls.kind]++
				s.loads = append(s.loads[:src], s.loads[src+1:]...)
				return true
			}
			ns := f.makeLoad(ls.kind, rest)
			if ns == nil {
				continue
			}
			s.loads[dst], s.loads[src] = nd, ns
			return true
		}
	}
	return false
}

// holdersOf lists the loads that carry pallets of store r, those with the
// fewest of them first.
func holdersOf(s *packing, r int, groups []map[int]*storeGroup) []int {
	var holders []int
	for j := range s.loads {
		if groups[j][r] != nil {
			holders = append(holders, j)
		}
	}
	sort.SliceStable(holders, func(a, b int) bool { return groups[holders[a]][r].agg.n < groups[holders[b]][r].agg.n })
	return holders
}
