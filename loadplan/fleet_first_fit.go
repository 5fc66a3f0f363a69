package loadplan

// firstFit packs the pallets in the given order. Each run of pallets of
// one store and class goes into the first load that takes it whole (one
// layout instead of one per pallet, and the store's pallets together);
// otherwise each of its pallets goes into the first load that takes it or
// else a new trailer. It stops when ctx ends and returns how many pallets
// of order it handled.
func (f *fleetPacker) firstFit(order []int) (*packing, int) {
	s := f.newPacking()
	for j := 0; j < len(order); {
		if f.ctx.Err() != nil {
			return s, j
		}
		e := j + 1
		for e < len(order) && f.rank[order[e]] == f.rank[order[j]] && f.pallets[order[e]].Temperature == f.pallets[order[j]].Temperature {
			e++
		}
		if e-j > 1 && f.placeGroup(s, order[j:e]) {
			j = e
			continue
		}
		for ; j < e; j++ {
			if f.ctx.Err() != nil {
				return s, j
			}
			if !f.place(s, order[j]) {
				s.noRoom = append(s.noRoom, order[j])
			}
		}
	}
	return s, len(order)
}

// placeGroup puts the pallets into the first open load that takes them
// all and reports whether one did.
func (f *fleetPacker) placeGroup(s *packing, group []int) bool {
	g := sortedCopy(group)
	ga := f.aggOf(g)
	for li, l := range s.loads {
		a := l.agg
		a.n += ga.n
		a.saved += ga.saved
		a.pairs += ga.flexible
		a.flexible += ga.flexible
		a.weight += ga.weight
		a.volume += ga.volume
		a.floorArea += ga.floorArea
		a.classes |= ga.classes
		if !f.mayFit(l.kind, a) {
			continue
		}
		if nl := f.makeLoad(l.kind, merged(l.pallets, g)); nl != nil {
			s.loads[li] = nl
			return true
		}
	}
	return false
}

// place puts pallet i into the first load that takes it, or opens the
// most preferred free type that does (see preferred).
func (f *fleetPacker) place(s *packing, i int) bool {
	for li, l := range s.loads {
		if nl := f.with(l, i); nl != nil {
			s.loads[li] = nl
			return true
		}
	}
	for _, k := range f.byPreference {
		if s.left[k] <= 0 || !f.allowed[i][k] {
			continue
		}
		if l := f.makeLoad(k, []int{i}); l != nil {
			s.left[k]--
			s.loads = append(s.loads, l)
			return true
		}
	}
	return false
}
