package engine

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// seedPrevious adds to fleet, shift by shift, the routes of the previous
// plan the lock leaves free, as the request still allows them: a shift
// and trailer type the request has, with the stops of stores it still
// has and the pallets it still has for them (in the previous order, each
// trip at its previous times where it only lost pallets, see keepTimes,
// else timed again as routing times it; laid out again), the trailer
// units they had, when its trailer units and the dock doors allow it
// beside the routes kept so far. A shift that cannot be kept whole is
// not kept: its pallets are routed with what is new. With a negative
// Options.Stability nothing is kept: a change costs nothing, and routing
// plans every unlocked pallet afresh.
func seedPrevious(m *model, fleet *fleetState) {
	req := m.req
	if req.Previous == nil || m.stability() == 0 {
		return
	}
	fleet.previous, fleet.tolerance = previousArrivals(req.Previous.Routes), m.changeTolerance()
	fixed := map[routeKey]bool{}
	for i := range m.fixed {
		fixed[keyOf(&m.fixed[i])] = true
	}
	onPrevious := make([]bool, len(req.Pallets))
	var order []string
	byShift := map[string][]Route{}
	for _, r := range req.Previous.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				if pi, ok := m.pallet[id]; ok {
					onPrevious[pi] = true
				}
			}
		}
		if fixed[keyOf(&r)] {
			continue
		}
		if _, ok := byShift[r.Shift]; !ok {
			order = append(order, r.Shift)
		}
		byShift[r.Shift] = append(byShift[r.Shift], r)
	}
	// The late pallets: those of the request no previous route carried,
	// by store and class, in request order.
	late := map[int][]int{}
	for pi, p := range req.Pallets {
		if !onPrevious[pi] && !m.kept[pi] {
			s := m.store[p.Store]
			late[s] = append(late[s], pi)
		}
	}
	for _, id := range order {
		slices.SortStableFunc(byShift[id], func(a, b Route) int { return a.Start.Compare(b.Start) })
	}
	asWas := m.unchangedShifts(order, byShift)
	stops := 0
	for _, id := range order {
		for _, r := range byShift[id] {
			stops += len(r.Stops)
		}
	}
	releases := int(maxReleasedShare * float64(stops))
	for _, id := range order {
		fleet.seedShift(m, id, byShift[id], asWas[id], late, &releases)
	}
}

// unchangedShifts are the shifts of the previous plan (trips, by shift,
// in order) whose trips the request leaves as they were, each trip as
// the previous plan has it (its cost priced at the request's costs): the
// request has every store, pallet, trailer type and unit, shift and dock
// door they use, and they keep its rules (validateRoutes, with the
// locked routes beside them). Such a shift is kept to the second, rather
// than timed and laid out again.
func (m *model) unchangedShifts(order []string, byShift map[string][]Route) map[string][]Route {
	req := m.req
	var routes []Route
	var shiftOf []string // by route of routes, past the locked ones
	for _, id := range order {
		if _, ok := m.shift[id]; !ok {
			continue
		}
		same := true
		for _, r := range byShift[id] {
			ti, ok := m.trailer[r.Trailer]
			if !ok {
				same = false
				break
			}
			if _, unit := unitNumber(req.Fleet[ti], r.TrailerUnit); !unit || (req.DC.DockDoors > 0 && r.DockDoor > req.DC.DockDoors) {
				same = false
				break
			}
			for _, st := range r.Stops {
				for _, pid := range st.Pallets {
					pi, ok := m.pallet[pid]
					same = same && ok && req.Pallets[pi].Store == st.Store && !m.kept[pi]
				}
				_, ok := m.store[st.Store]
				same = same && ok && len(st.Pallets) > 0
			}
		}
		if !same {
			continue
		}
		for _, r := range byShift[id] {
			r = cloneRoute(r)
			r.Locked = false
			r.Metrics.Cost = req.Fleet[m.trailer[r.Trailer]].Costs.Route(r.Metrics.DistanceM, r.Metrics.Duration)
			routes = append(routes, r)
			shiftOf = append(shiftOf, id)
		}
	}
	if len(routes) == 0 {
		return nil
	}
	vs, err := m.validateBesideFixed(routes)
	if err != nil {
		return nil
	}
	broken := map[string]bool{}
	for _, v := range vs {
		k, _, ok := routeOfPath(v.Path)
		if !ok {
			return nil // a path that names no route: keep none as it was
		}
		if k -= len(m.fixed); k >= 0 && k < len(shiftOf) {
			broken[shiftOf[k]] = true
		}
	}
	out := map[string][]Route{}
	for k, r := range routes {
		if !broken[shiftOf[k]] {
			out[shiftOf[k]] = append(out[shiftOf[k]], r)
		}
	}
	return out
}

// cloneRoute is r with its own stops, breaks and load plan.
func cloneRoute(r Route) Route {
	r.Stops = slices.Clone(r.Stops)
	for i := range r.Stops {
		r.Stops[i].Pallets = slices.Clone(r.Stops[i].Pallets)
		if b := r.Stops[i].Break; b != nil {
			c := *b
			r.Stops[i].Break = &c
		}
	}
	r.Load.Zones = slices.Clone(r.Load.Zones)
	r.Load.Placements = slices.Clone(r.Load.Placements)
	r.Load.Axles = slices.Clone(r.Load.Axles)
	return r
}

// seedShift keeps the trips of shift id from the previous plan, as
// seedPrevious says, with late pallets of their stores (late, by store,
// taken from as they are kept) where lateWorthIt: as they were (asWas,
// see unchangedShifts) when the request leaves them so, else at their
// previous times with the pallets they kept (keepTimes), else timed and
// laid out again (buildSeed). Where a trip has no room for its stores'
// late pallets, a store may leave it whole for them (releaseFor), at most
// releases stores in all (taken from as they leave).
func (fleet *fleetState) seedShift(m *model, id string, prev, asWas []Route, late map[int][]int, releases *int) {
	req := m.req
	si, ok := m.shift[id]
	if !ok || len(prev) == 0 {
		return
	}
	g := fleet.groupOf(si)
	ti, ok := m.trailer[prev[0].Trailer]
	if g < 0 || !ok {
		return
	}
	t := req.Fleet[ti]
	if slices.ContainsFunc(prev, func(r Route) bool { return r.Trailer != t.ID }) {
		// Routing drives a shift with one trailer type. chainShifts may
		// have handed the shift a trip of another: such a shift is kept
		// at its previous times, or routed again.
		fleet.seedMixedShift(m, id, g, si, prev)
		return
	}
	zones := 0
	var trips [][]*order
	var kept []Route // the previous trips kept, parallel to trips
	for _, r := range prev {
		trip, classes := m.keptOrders(r, t)
		if len(trip) > 0 {
			trips = append(trips, trip)
			kept = append(kept, r)
			zones = max(zones, classes)
		}
	}
	if len(trips) == 0 {
		return
	}
	if t.Equipment.Kind != constraints.MultiTempReefer {
		zones = 0
	}
	kind := vehicleKind{group: g, trailer: ti, zones: zones}
	capa := m.kindCapacity(kind)
	// Each trip carries pallets of one previous route, whose floor took
	// them: its floor positions as routing counts them (order by order)
	// may exceed the capacity by the positions that orders shared there
	// (half pallets of two stores side by side); the layout (buildSeed,
	// or validateRoutes for a shift as it was) checks the floor.
	anyFloor := capa
	anyFloor.Positions = math.MaxInt
	for _, trip := range trips {
		if !m.loadWithin(trip, anyFloor) {
			return
		}
	}
	built := fleet.seedTimes(m, kind, trips, kept, asWas)
	if built == nil {
		return
	}
	arrivals := previousArrivals(prev)
	trips, built = fleet.seedLatePallets(m, kind, trips, built, kept, late, arrivals)
	trips, built = fleet.seedReleases(m, kind, trips, built, kept, late, arrivals, releases)
	fleet.takeKept(m, id, g, si, sameKind(kind, len(trips)), trips, built, kept)
}

// seedTimes times and lays out the trips a kept shift carries (trips,
// each the pallets of the previous trip kept[k]): as the shift was
// (asWas, to the second) where its units and the doors still allow it
// beside the routes kept so far; else at their previous times with the
// pallets they kept (keepTimes: stops that only lost pallets); else timed
// and laid out again (buildSeed). It returns nil when none of them holds.
func (fleet *fleetState) seedTimes(m *model, kind vehicleKind, trips [][]*order, kept, asWas []Route) []*Route {
	var built []*Route
	if len(asWas) == len(trips) && samePallets(asWas, trips) {
		for k := range asWas {
			built = append(built, &asWas[k])
		}
		for _, trip := range trips {
			for _, o := range trip {
				m.setTrailers(o)
			}
		}
		if !fleet.unitsFit(m, kind.trailer, built, nil) || !fleet.doorsFit(m, built, nil) {
			built = nil
		}
	}
	if built == nil {
		built = fleet.keepTimes(m, sameKind(kind, len(trips)), trips, kept)
	}
	if built == nil {
		var ok bool
		if built, ok = fleet.buildSeed(m, kind, trips, kept); !ok {
			return nil
		}
	}
	return built
}

// sameKind is kind n times over.
func sameKind(kind vehicleKind, n int) []vehicleKind {
	out := make([]vehicleKind, n)
	for k := range out {
		out[k] = kind
	}
	return out
}

// keptOrders are the orders of the previous trip r a trailer of type t
// still carries, in the order driven, one a stop and class (without the
// pallets and stores the request dropped, or a lock keeps elsewhere), and
// how many classes they hold.
func (m *model) keptOrders(r Route, t TrailerType) ([]*order, int) {
	req := m.req
	var trip []*order
	classes := map[constraints.Temperature]bool{}
	for _, st := range r.Stops {
		s, ok := m.store[st.Store]
		if !ok {
			continue
		}
		byClass := map[constraints.Temperature]*order{}
		for _, pid := range st.Pallets {
			pi, ok := m.pallet[pid]
			if !ok || m.kept[pi] || req.Pallets[pi].Store != st.Store || !m.fits(req.Pallets[pi], t, s) {
				continue
			}
			c := req.Pallets[pi].Temperature
			o := byClass[c]
			if o == nil {
				o = m.newOrder(s, c)
				byClass[c] = o
				trip = append(trip, o)
			}
			m.addPallet(o, pi, t)
			classes[c] = true
		}
	}
	for _, o := range trip {
		m.stackedLoad(o, t)
	}
	return trip, len(classes)
}

// seedMixedShift keeps shift id (si, free in group g) of the previous
// plan, whose trips prev ran on trailers of more than one type, at the
// previous times (keepTimes), each trip on its own type, with no late
// pallets: routing, which drives a shift with one trailer type, cannot
// time it again. Where the times no longer hold, the shift is routed
// again.
func (fleet *fleetState) seedMixedShift(m *model, id string, g, si int, prev []Route) {
	var kinds []vehicleKind
	var trips [][]*order
	var kept []Route
	for _, r := range prev {
		ti, ok := m.trailer[r.Trailer]
		if !ok {
			return
		}
		t := m.req.Fleet[ti]
		trip, classes := m.keptOrders(r, t)
		if len(trip) == 0 {
			continue
		}
		if t.Equipment.Kind != constraints.MultiTempReefer {
			classes = 0
		}
		trips, kept = append(trips, trip), append(kept, r)
		kinds = append(kinds, vehicleKind{group: g, trailer: ti, zones: classes})
	}
	if len(trips) == 0 {
		return
	}
	if built := fleet.keepTimes(m, kinds, trips, kept); built != nil {
		fleet.takeKept(m, id, g, si, kinds, trips, built, kept)
	}
}

// takeKept adds the trips built of shift id (si, free in group g), each
// of its kind and carrying its orders of trips, as the previous trips
// kept (kept, parallel) on their trailer units, takes the shift out of
// its group and marks their pallets kept.
func (fleet *fleetState) takeKept(m *model, id string, g, si int, kinds []vehicleKind, trips [][]*order, built []*Route, kept []Route) {
	fleet.groups[g].free = slices.DeleteFunc(slices.Clone(fleet.groups[g].free), func(x int) bool { return x == si })
	fleet.seeded = true
	if m.keptTrips == nil {
		m.keptTrips = map[string][]Route{}
	}
	m.keptTrips[id] = kept
	for k, r := range built {
		r.Shift = id
		r.TrailerUnit = kept[k].TrailerUnit
		fleet.routes = append(fleet.routes, *r)
		fleet.placed = append(fleet.placed, placedRoute{kind: kinds[k], orders: trips[k], kept: true})
		for _, o := range trips[k] {
			for _, pi := range o.pallets {
				m.kept[pi] = true
			}
		}
	}
}

// keepTimes is the trips of one shift, each of its kind (kinds) and
// carrying only
// pallets its previous trip (prev, parallel to trips) carried to the same
// stores, at the times of the previous trips: the loading, the driver's
// start, the departure and every stop's start of unloading and departure
// stay as they were, so that a stop with fewer pallets leaves its
// unloading time over as a wait on site, and a trip whose stops are all
// kept arrives everywhere as it did. Where a stop lost all its pallets,
// the next stop (or the DC) is reached straight from the one before,
// earlier, and the driver waits there for the stop's previous start.
// Each trip is laid out again, or, where PlanTrailer cannot lay out what
// is left, keeps its previous floor without the pallets gone
// (loadplan.KeepPallets). It returns nil unless the trips keep
// every rule (validateRoutes, beside the locked routes: the break rule
// included, as the time on site changed where a stop went) and fit the
// trailer units and dock doors beside the routes kept so far; the caller
// then times the shift again (buildSeed).
//
// A shift timed again alone cannot see when its trailer unit comes back
// from the trip before (routing holds trips back for a unit; timing one
// shift cannot), and may then not be kept at all: its stores would be
// routed again and move, where the night only took pallets away.
func (fleet *fleetState) keepTimes(m *model, kinds []vehicleKind, trips [][]*order, prev []Route) []*Route {
	if len(prev) != len(trips) || len(kinds) != len(trips) {
		return nil
	}
	var built []*Route
	for k, trip := range trips {
		r := m.keptTrip(kinds[k], trip, &prev[k], k+1)
		if r == nil {
			return nil
		}
		built = append(built, r)
	}
	// The trips are numbered among the shift's locked trips, in time
	// order, as the plan numbers them.
	for _, r := range built {
		for _, f := range m.fixed {
			if f.Shift == r.Shift && f.Start.Before(r.Start) {
				r.Trip++
			}
		}
	}
	routes := make([]Route, len(built))
	for k, r := range built {
		routes[k] = *r
	}
	if vs, err := m.validateBesideFixed(routes); err != nil || len(vs) > 0 {
		return nil
	}
	for _, trip := range trips {
		for _, o := range trip {
			m.setTrailers(o)
		}
	}
	var types []int // the trailer types of the trips, each once
	for _, k := range kinds {
		if !slices.Contains(types, k.trailer) {
			types = append(types, k.trailer)
		}
	}
	for _, ti := range types {
		var of []*Route
		for k, r := range built {
			if kinds[k].trailer == ti {
				of = append(of, r)
			}
		}
		if !fleet.unitsFit(m, ti, of, nil) {
			return nil
		}
	}
	if !fleet.doorsFit(m, built, nil) {
		return nil
	}
	return built
}

// keptTrip is keepTimes's trip number trip1 of the shift, of kind,
// carrying trip at the times of its previous trip was; nil where the
// previous trip cannot carry it so (another trailer type, a pallet on a
// stop it did not make, a stop reached too late, a floor that takes
// nothing).
func (m *model) keptTrip(kind vehicleKind, trip []*order, was *Route, trip1 int) *Route {
	req := m.req
	arrive := func(from, to int, leave time.Time) time.Time {
		return m.instant(m.rush.Arrive(m.seconds(leave), float64(m.matrix.Seconds(from, to))))
	}
	tt := req.Fleet[kind.trailer]
	if was.Trailer != tt.ID {
		return nil
	}
	// carried: the trip's pallets, by their rank in its orders, the
	// order routing lays a trip's pallets out in (buildRoute).
	carried := map[int]int{}
	for _, o := range trip {
		for _, pi := range o.pallets {
			carried[pi] = len(carried)
		}
	}
	r := &Route{Trailer: tt.ID, Shift: was.Shift, Trip: trip1, TrailerUnit: was.TrailerUnit, DockDoor: was.DockDoor,
		LoadingStart: was.LoadingStart, LoadingEnd: was.LoadingEnd, Start: was.Start, Depart: was.Depart}
	var lp []loadplan.Pallet
	var load constraints.Load
	place, left, same := 0, was.Depart, true // same: no stop dropped since the DC
	for _, st := range was.Stops {
		s, ok := m.store[st.Store]
		var ids []string
		for _, id := range st.Pallets {
			if pi, ok := m.pallet[id]; ok {
				if _, on := carried[pi]; on {
					ids = append(ids, id)
				}
			}
		}
		slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(carried[m.pallet[a]], carried[m.pallet[b]]) })
		for _, id := range ids {
			delete(carried, m.pallet[id])
		}
		if !ok || len(ids) == 0 {
			same = false
			continue
		}
		at := st.Arrival
		if !same {
			if at = arrive(place, 1+s, left); at.After(st.Start) {
				return nil
			}
		}
		n := Stop{Store: st.Store, Arrival: at, Start: st.Start, Departure: st.Departure, Wait: st.Start.Sub(at), Pallets: ids}
		if st.Break != nil {
			unloading := m.service(s, len(ids))
			n.Break = &Break{Start: at, Duration: st.Departure.Sub(at), Wait: n.Wait, Unloading: unloading,
				Rest: st.Departure.Sub(at) - n.Wait - unloading}
		}
		d, _ := m.travel(place, 1+s)
		r.Metrics.DistanceM += d
		r.Metrics.Driving += at.Sub(left)
		r.Metrics.Wait += n.Wait
		for _, id := range ids {
			p := req.Pallets[m.pallet[id]]
			lp = append(lp, layoutPallet(p, len(r.Stops)))
			load = load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
		r.Stops = append(r.Stops, n)
		place, left, same = 1+s, st.Departure, true
	}
	if len(carried) > 0 || len(r.Stops) == 0 {
		return nil // a pallet on a stop its previous trip did not make
	}
	r.Return = was.Return
	if !same {
		r.Return = arrive(place, 0, left)
	}
	d, _ := m.travel(place, 0)
	r.Metrics.DistanceM += d
	r.Metrics.Driving += r.Return.Sub(left)
	if !layKeptTrip(r, tt, lp, load, was) {
		return nil
	}
	return r
}

// layKeptTrip lays out the floor of r, a kept trip on trailer type tt
// carrying lp (load in weight and volume) of its previous trip was's
// pallets, and fills in its load metrics and cost: the floor laid out
// again, or, where that fails, was's floor without the pallets taken off
// (loadplan.KeepPallets). It reports whether either holds.
func layKeptTrip(r *Route, tt TrailerType, lp []loadplan.Pallet, load constraints.Load, was *Route) bool {
	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lp, len(r.Stops))
	if err != nil {
		var ok bool
		if lay, ok = loadplan.KeepPallets(layoutTrailer(tt), lp, len(r.Stops), toLayout(was.Load)); !ok {
			return false
		}
	}
	r.Load = fromLayout(lay)
	rm := &r.Metrics
	rm.Stops, rm.Pallets = len(r.Stops), len(lp)
	rm.WeightKg, rm.VolumeM3 = load.WeightKg, load.VolumeM3
	rm.Positions = lay.Load.Positions
	rm.Duration = r.Return.Sub(r.Start)
	rm.PosUtil, rm.WeightUtil, rm.VolumeUtil = constraints.Load{Positions: rm.Positions, WeightKg: load.WeightKg, VolumeM3: load.VolumeM3}.Utilisation(tt.capacity())
	rm.Cost = tt.Costs.Route(rm.DistanceM, rm.Duration)
	return true
}

// samePallets reports whether each route of routes carries as many
// pallets as the orders of its trip.
func samePallets(routes []Route, trips [][]*order) bool {
	for k, r := range routes {
		n := 0
		for _, st := range r.Stops {
			n -= len(st.Pallets)
		}
		for _, o := range trips[k] {
			n += len(o.pallets)
		}
		if n != 0 {
			return false
		}
	}
	return true
}

// newOrder is an order of store s and class c with no pallets yet, that
// every trailer type carrying it to s may take.
func (m *model) newOrder(s int, c constraints.Temperature) *order {
	return &order{store: s, class: c, trailers: make([]bool, len(m.req.Fleet))}
}

// setTrailers sets the trailer types that may carry order o: those with
// units that carry each of its pallets to its store.
func (m *model) setTrailers(o *order) {
	for ti, t := range m.req.Fleet {
		o.trailers[ti] = t.Count > 0 && !slices.ContainsFunc(o.pallets, func(pi int) bool { return !m.fits(m.req.Pallets[pi], t, o.store) })
	}
}

// stackedLoad counts the floor positions of order o as routing counts an
// order's (packGroup): those its pallets take on a trailer of type t with
// its stackable pallets stacked.
func (m *model) stackedLoad(o *order, t TrailerType) {
	tr := layoutTrailer(t)
	tr.Positions = routingCapacity(t).Positions
	o.load.Positions = loadplan.StackedPositions(tr, layoutPallets(m.req, o.pallets))
}

// loadWithin reports whether the orders together fit capa, their floor
// positions counted as routing counts them (model.demand).
func (m *model) loadWithin(trip []*order, capa constraints.Load) bool {
	var l constraints.Load
	positions := 0.0
	for _, o := range trip {
		l = l.Add(o.load)
		positions += m.demand(o)[dimPositions]
	}
	return positions <= float64(capa.Positions) && l.WeightKg <= capa.WeightKg && l.VolumeM3 <= capa.VolumeM3
}

// tripStores are the stores of a trip's orders, each once, in order.
func tripStores(trip []*order) []int {
	var out []int
	for _, o := range trip {
		if !slices.Contains(out, o.store) {
			out = append(out, o.store)
		}
	}
	return out
}

// buildSeed times the trips of one shift of kind as routing does, lays
// each out, and reports whether they keep every rule beside the routes
// kept so far (trailer units, dock doors). prev are the trips as the
// previous plan had them.
//
// Each stop is first held to the change tolerance around its previous
// start (retimeNear): a store dropped from a trip, or late pallets on it,
// then leaves the other stores' times on the driver's paper, the driver
// waiting where the trip got early; only where that breaks a rule is the
// shift timed freely. Timed alone, the shift starts as early as its
// stores allow, where its trailer unit or a door may still be busy with
// another trip (routing holds such a trip back; timing one shift alone
// cannot). It is then timed with each trip loading while a trip of the
// previous plan did, which held its unit and its door then.
func (fleet *fleetState) buildSeed(m *model, kind vehicleKind, trips [][]*order, prev []Route) ([]*Route, bool) {
	for _, trip := range trips {
		for _, o := range trip {
			m.setTrailers(o)
		}
	}
	grp := fleet.groups[kind.group]
	atPrevious := m.previousLoading(prev)
	type timing struct {
		loading []routeplan.Window
		near    bool
	}
	for _, tm := range []timing{{m.dockWindows(), true}, {atPrevious, true}, {m.dockWindows(), false}, {atPrevious, false}} {
		var rr routeplan.Route
		var ok bool
		if tm.near {
			rr, ok = m.retimeNear(kind, grp, trips, tm.loading, prev)
		} else {
			rr, ok = m.retimeIn(kind, grp, trips, tm.loading)
		}
		if !ok || len(rr.Reloads)+1 != len(trips) {
			continue
		}
		built, _, err := m.buildTrips(kind, rr, slices.Concat(trips...))
		if err == nil && m.unitsTurn(built, prev) && fleet.unitsFit(m, kind.trailer, built, nil) && fleet.doorsFit(m, built, nil) {
			return built, true
		}
	}
	return nil, false
}

// previousLoading are the windows in which the trips of a shift may
// start loading to keep to the previous trips prev: where a previous
// trip's loading started, or later while that loading ran (in the dock
// hours). A trip with fewer pallets may start later and still end in
// time, its loaded trailer no longer in the yard than the staging limit
// allows.
func (m *model) previousLoading(prev []Route) []routeplan.Window {
	var atPrevious []routeplan.Window
	for _, r := range prev {
		at, end := m.seconds(r.LoadingStart), max(m.seconds(r.LoadingStart), m.seconds(r.LoadingEnd))
		switch n := len(atPrevious); {
		case n > 0 && at <= atPrevious[n-1].End:
			atPrevious[n-1].End = max(atPrevious[n-1].End, end)
		case n == 0 || atPrevious[n-1].Start < at:
			atPrevious = append(atPrevious, routeplan.Window{Start: at, End: end})
		}
	}
	if dock := m.dockWindows(); dock != nil {
		var in []routeplan.Window
		for _, w := range atPrevious {
			for _, d := range dock {
				if lo, hi := max(w.Start, d.Start), min(w.End, d.End); lo <= hi {
					in = append(in, routeplan.Window{Start: lo, End: hi})
				}
			}
		}
		atPrevious = in
	}
	return atPrevious
}

// unitsTurn reports whether the trips built, each to keep the trailer
// unit of its trip of prev, hold no unit twice at once (a unit is held
// from a trip's loading until its turnaround after the return): a shift
// that drove two trips on one unit with a trip on another between them
// may have lost the one between.
func (m *model) unitsTurn(built []*Route, prev []Route) bool {
	for j := range built {
		for k := range j {
			if prev[k].TrailerUnit != prev[j].TrailerUnit {
				continue
			}
			a0, a1 := m.unitHold(*built[k])
			b0, b1 := m.unitHold(*built[j])
			if a0.Before(b1) && b0.Before(a1) {
				return false
			}
		}
	}
	return true
}

// retimeNear is retimeIn (spare_room.go) with each stop of trips[k] at a
// store prev[k] made starting within the change tolerance of its start
// there, inside the store's hours: the same small routing problem, the
// windows of the sites that open such a stop narrowed so. A stop prev[k]
// did not make keeps the store's hours.
func (m *model) retimeNear(k vehicleKind, grp shiftGroup, trips [][]*order, loading []routeplan.Window, prev []Route) (routeplan.Route, bool) {
	if len(prev) != len(trips) {
		return routeplan.Route{}, false
	}
	tol := m.seconds(m.origin.Add(m.changeTolerance()))
	return m.retimeWithin(k, grp, trips, loading, func(t, j int, site routeplan.Site) ([]routeplan.Window, bool) {
		o := trips[t][j]
		if j > 0 && trips[t][j-1].store == o.store {
			// The stop's next order: unloaded right after the one
			// before, whose window holds the stop.
			return site.Windows, true
		}
		id := m.req.Stores[o.store].ID
		at := slices.IndexFunc(prev[t].Stops, func(st Stop) bool { return st.Store == id })
		if at < 0 {
			// A store the previous trip did not make (late pallets of a
			// store another route delivers): in its hours.
			return site.Windows, true
		}
		start := m.seconds(prev[t].Stops[at].Start)
		var near []routeplan.Window
		for _, w := range site.Windows {
			if lo, hi := max(w.Start, start-tol), min(w.End, start+tol); lo <= hi {
				near = append(near, routeplan.Window{Start: lo, End: hi})
			}
		}
		return near, len(near) > 0
	})
}
