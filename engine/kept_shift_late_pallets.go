package engine

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// seedLatePallets adds to a kept shift's trips (built, as timed) the late
// pallets of their stores (late, by store, taken from as they are added),
// store by store in the order driven, where lateWorthIt, and returns the
// trips and their routes as they then are.
func (fleet *fleetState) seedLatePallets(m *model, kind vehicleKind, trips [][]*order, built []*Route, kept []Route, late map[int][]int, arrivals map[string]time.Time) ([][]*order, []*Route) {
	t := m.req.Fleet[kind.trailer]
	capa := m.kindCapacity(kind)
	for k := range trips {
		for _, s := range tripStores(trips[k]) {
			if len(late[s]) == 0 {
				continue
			}
			more, added := m.withLate(trips, k, s, late[s], t, capa)
			if len(added) == 0 {
				continue
			}
			b, ok := fleet.buildSeed(m, kind, more, kept)
			if !ok || !m.lateWorthIt(s, built, b, arrivals) {
				continue
			}
			trips, built = more, b
			late[s] = slices.DeleteFunc(late[s], func(pi int) bool { return slices.Contains(added, pi) })
		}
	}
	return trips, built
}

// seedReleases lets a store leave a kept shift's trip whole where the
// trip's floor has no room left for the late pallets of its stores: a
// store whose own late pallets ride a second route anyway, when the room
// it frees takes all the late pallets of others (releaseFor) and that is
// worth it (releaseWorthIt); at most releases stores in all (taken from
// as they leave). It returns the trips and their routes as they then are.
func (fleet *fleetState) seedReleases(m *model, kind vehicleKind, trips [][]*order, built []*Route, kept []Route, late map[int][]int, arrivals map[string]time.Time, releases *int) ([][]*order, []*Route) {
	t := m.req.Fleet[kind.trailer]
	capa := m.kindCapacity(kind)
	for k := range trips {
		for *releases > 0 {
			more, y, placed := m.releaseFor(trips, k, late, t, capa)
			if len(placed) == 0 {
				break
			}
			b, ok := fleet.buildSeed(m, kind, more, kept)
			if !ok || !m.releaseWorthIt(y, placed, built, b, arrivals) {
				break
			}
			trips, built = more, b
			for s, added := range placed {
				late[s] = slices.DeleteFunc(late[s], func(pi int) bool { return slices.Contains(added, pi) })
			}
			*releases--
		}
	}
	return trips, built
}

// withLate is trips with as many of store s's late pallets (pallets, in
// order) as trip k has room for, each on s's order of its class on trip
// k, or on a new order right after s's last one: the trips, copied where
// they change, and the pallets added.
func (m *model) withLate(trips [][]*order, k, s int, pallets []int, t TrailerType, capa constraints.Load) ([][]*order, []int) {
	out := slices.Clone(trips)
	trip := slices.Clone(trips[k])
	var load constraints.Load
	last := -1
	for i, o := range trip {
		load = load.Add(o.load)
		if o.store == s {
			last = i
		}
	}
	var added []int
	for _, pi := range pallets {
		p := m.req.Pallets[pi]
		if !m.fits(p, t, s) {
			continue
		}
		at := slices.IndexFunc(trip, func(o *order) bool { return o.store == s && o.class == p.Temperature })
		o := m.newOrder(s, p.Temperature)
		if at >= 0 {
			*o = *trip[at] // a copy: the kept trips stay as they are
			o.pallets = slices.Clone(o.pallets)
			o.trailers = slices.Clone(o.trailers)
		}
		was := o.load
		m.addPallet(o, pi, t)
		m.stackedLoad(o, t)
		next := load.Add(o.load)
		next.Positions -= was.Positions
		next.WeightKg -= was.WeightKg
		next.VolumeM3 -= was.VolumeM3
		if next.Positions > capa.Positions || next.WeightKg > capa.WeightKg || next.VolumeM3 > capa.VolumeM3 {
			continue
		}
		if at < 0 {
			last++
			trip = slices.Insert(trip, last, o)
		} else {
			trip[at] = o
		}
		load = next
		added = append(added, pi)
	}
	out[k] = trip
	return out, added
}

// maxReleasedShare bounds the stores that leave their kept trips for the
// late pallets of others (releaseFor), as a share of the stops of the
// previous routes the lock leaves free: each is a stop the driver's paper
// loses, and the dispatcher's measure is that fewer than a tenth of them
// change.
const maxReleasedShare = 0.03

// releaseFor finds the store of trip k that best leaves it whole for the
// late pallets of others: one whose own late pallets (late, by store) ride
// a second route anyway, so that its whole delivery rides there with
// them and no route makes a stop more, and whose orders free the room that
// takes all the late pallets of the most other stores of the trip (the
// store with the fewest floor positions among equals). It returns the
// trips with that store off trip k and those late pallets on it, the
// store, and the late pallets added by store; placed is empty when no
// store frees room for all of another's.
func (m *model) releaseFor(trips [][]*order, k int, late map[int][]int, t TrailerType, capa constraints.Load) (out [][]*order, y int, placed map[int][]int) {
	stores := tripStores(trips[k])
	if len(stores) < 2 {
		return nil, -1, nil
	}
	positions := func(s int) (n int) {
		for _, o := range trips[k] {
			if o.store == s {
				n += o.load.Positions
			}
		}
		return n
	}
	y = -1
	for _, c := range stores {
		if len(late[c]) == 0 {
			continue
		}
		cand := slices.Clone(trips)
		cand[k] = slices.DeleteFunc(slices.Clone(trips[k]), func(o *order) bool { return o.store == c })
		got := map[int][]int{}
		for _, s := range tripStores(cand[k]) {
			if len(late[s]) == 0 {
				continue
			}
			more, added := m.withLate(cand, k, s, late[s], t, capa)
			if len(added) == len(late[s]) {
				cand, got[s] = more, added
			}
		}
		if len(got) > len(placed) || (len(got) > 0 && len(got) == len(placed) && positions(c) < positions(y)) {
			out, y, placed = cand, c, got
		}
	}
	return out, y, placed
}

// releaseWorthIt decides, under Options.Stability, whether store y leaves
// the shift's kept trips (before; after, without it) so that the stores
// placed take their late pallets there: y's stop moves (the stability
// weight), and so would any extra distance; without it, each store placed
// is delivered by a second route (a moved store, its weight) that drives
// to it and back at least. The trips must retime no store of the shift
// that they did not before: the stops the drivers have on paper are what
// a re-plan keeps first.
func (m *model) releaseWorthIt(y int, placed map[int][]int, before, after []*Route, prev map[string]time.Time) bool {
	w := m.stability()
	n0, d0 := m.retimedOn(before, prev)
	n1, d1 := m.retimedOn(after, prev)
	if n1 > n0 {
		return false
	}
	with := w + max(0, d1-d0)
	without := 0.0
	for _, s := range slices.Sorted(maps.Keys(placed)) {
		without += w + m.matrix.Distance(0, 1+s) + m.matrix.Distance(1+s, 0)
	}
	return with <= without
}

// retimedOn counts the stops of trips whose arrival is more than the
// change tolerance from the store's arrival in prev, and sums the trips'
// distance.
func (m *model) retimedOn(trips []*Route, prev map[string]time.Time) (n int, dist float64) {
	tol := m.changeTolerance()
	for _, r := range trips {
		dist += r.Metrics.DistanceM
		for _, st := range r.Stops {
			if at, ok := prev[st.Store]; ok && math.Abs(st.Arrival.Sub(at).Seconds()) > tol.Seconds() {
				n++
			}
		}
	}
	return n, dist
}

// previousArrivals is each store's first arrival on the trips prev.
func previousArrivals(prev []Route) map[string]time.Time {
	out := map[string]time.Time{}
	for _, r := range prev {
		for _, st := range r.Stops {
			if at, ok := out[st.Store]; !ok || st.Arrival.Before(at) {
				out[st.Store] = st.Arrival
			}
		}
	}
	return out
}

// lateWorthIt decides, under Options.Stability, whether store s's late
// pallets ride the shift's kept trips (after, the trips with them; before,
// without) rather than another route. With them, every store of the
// shift whose arrival moves beyond the tolerance, of those that did not
// before, costs the stability weight, and so does any extra distance;
// without them, s is delivered by a second route (a MOVED store, its
// weight) that drives to s and back at least.
func (m *model) lateWorthIt(s int, before, after []*Route, prev map[string]time.Time) bool {
	n0, d0 := m.retimedOn(before, prev)
	n1, d1 := m.retimedOn(after, prev)
	w := m.stability()
	with := w*float64(max(0, n1-n0)) + max(0, d1-d0)
	without := w + m.matrix.Distance(0, 1+s) + m.matrix.Distance(1+s, 0)
	return with <= without
}
