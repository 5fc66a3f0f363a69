package loadplan

// packing is a complete packing: loads, free trailers per type, and the
// pallets no trailer had room for.
type packing struct {
	loads  []*fleetLoad
	left   []int
	noRoom []int
	// bound and stop cache lowerBound and stopBound: the packed pallets
	// change only when pallets without room find some, so the count of
	// those tells.
	bound, boundNoRoom int
	stop, stopNoRoom   int
}

// newPacking is an empty packing with the whole fleet free.
func (f *fleetPacker) newPacking() *packing {
	s := &packing{left: make([]int, len(f.fleet)), boundNoRoom: -1, stopNoRoom: -1}
	for k, ft := range f.fleet {
		s.left[k] = ft.Count
	}
	return s
}

// stops sums the stops of the loads.
func (f *fleetPacker) stops(s *packing) int {
	n := 0
	for _, l := range s.loads {
		n += f.storeCount(l.pallets)
	}
	return n
}

// storeCount is the number of stores the pallets idx belong to.
func (f *fleetPacker) storeCount(idx []int) int {
	seen := map[int]bool{}
	for _, i := range idx {
		seen[f.rank[i]] = true
	}
	return len(seen)
}

// better orders packings: fewer pallets left without room, then fewer
// trailers, then fewer stops.
func (f *fleetPacker) better(a, b *packing) bool {
	if len(a.noRoom) != len(b.noRoom) {
		return len(a.noRoom) < len(b.noRoom)
	}
	if len(a.loads) != len(b.loads) {
		return len(a.loads) < len(b.loads)
	}
	return f.stops(a) < f.stops(b)
}
