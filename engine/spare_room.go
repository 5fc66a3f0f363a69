package engine

import (
	"cmp"
	"context"
	"slices"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// fillSpareRoom lets routes with room left carry part of the orders the
// fleet had no room for, and of those a route's layout sent back after the
// last routing round (routedAgain). Routing moves whole orders, so a store whose
// pallets do not all fit the room left on any route stays behind whole;
// here as many of its pallets as fit ride along, at the route's stop at
// that store or as an extra stop wherever the route's times allow, so that
// a short fleet delivers the most pallets; under Options.WholeDeliveries
// on one route only, the one with the most room that takes some. The rest
// stay unassigned with their reason. Each try is timed by routing's
// evaluator and laid out like any route; the tries are bounded in number,
// so that an iteration budget gives the same plan on any machine, and by
// the time limit.
func fillSpareRoom(ctx context.Context, pc *planContext, fleet *fleetState) {
	fillSpareRoomFor(ctx, pc, fleet, routedAgain)
}

// fillSpareRoomFor is fillSpareRoom for the orders left out that offer
// reports true for. Each order it offers to every route is marked
// offered, unless the time limit or the try budget cut the offer short.
func fillSpareRoomFor(ctx context.Context, pc *planContext, fleet *fleetState, offer func(*order) bool) {
	tries := 0
	const maxTries = 2000
	whole := pc.m.req.Options.WholeDeliveries
	for _, o := range fleet.leftOut {
		if !offer(o) {
			continue
		}
		if pc.stopped(ctx) {
			o.offered = false
			continue
		}
		all := make([]int, len(fleet.placed))
		for ri := range all {
			all[ri] = ri
		}
		if !whole {
			spreadOrderOver(ctx, pc, fleet, o, all, &tries, maxTries)
		} else {
			slices.SortStableFunc(all, func(a, b int) int {
				return cmp.Compare(fleet.roomLeft(pc.m, b).Positions, fleet.roomLeft(pc.m, a).Positions)
			})
			for _, ri := range all {
				left := len(o.pallets)
				spreadOrderOver(ctx, pc, fleet, o, []int{ri}, &tries, maxTries)
				if len(o.pallets) < left {
					break
				}
			}
		}
		// An offer the time limit or the try budget cut short is not
		// one in full: routeUnrouted may make it again.
		o.offered = !pc.stopped(ctx) && tries < maxTries
	}
}

// palletsLoad is what pallets (indices into Request.Pallets, of one store
// and class) take of a trailer of type t, as routing counts an order: their
// weight and volume, and the floor positions of their layout with their
// stackable pallets stacked and the half and quarter pallets sharing
// positions (loadplan.StackedPositions), as loadplan lays out a stop.
func (m *model) palletsLoad(pallets []int, t TrailerType) constraints.Load {
	req := m.req
	var load constraints.Load
	stackable := false
	for _, pi := range pallets {
		p := req.Pallets[pi]
		load = load.Add(constraints.Load{Positions: palletPositions(p, t), WeightKg: p.WeightKg, VolumeM3: p.volume()})
		_, w := p.Footprint.Dims()
		stackable = stackable || p.MayBeStacked || 2*w <= StandardFootprint.WidthMM // stacks, or shares positions
	}
	if stackable && len(pallets) > 1 {
		lp := make([]loadplan.Pallet, len(pallets))
		for j, pi := range pallets {
			lp[j] = layoutPallet(req.Pallets[pi], 0)
		}
		load.Positions = min(load.Positions, loadplan.StackedPositions(layoutTrailer(t), lp))
	}
	return load
}

// spreadOrderOver puts as many of o's pallets as fit into the room left
// on the placed routes routes of fleet, in that order, a part a route, at the
// route's stop at o's store or as an extra stop wherever the route's times
// allow (the shortest detour first); o keeps the pallets that found no
// room. Each try counts in tries, up to maxTries.
func spreadOrderOver(ctx context.Context, pc *planContext, fleet *fleetState, o *order, routes []int, tries *int, maxTries int) {
	m, req := pc.m, pc.m.req
	for _, ri := range routes {
		if len(o.pallets) == 0 || *tries >= maxTries || pc.stopped(ctx) {
			break
		}
		pr := &fleet.placed[ri]
		t := req.Fleet[pr.kind.trailer]
		if !m.compatible(o, pr.kind) || !t.Equipment.CarriesTogether(append(classesOf(pr.orders), o.class)) {
			continue
		}
		room := fleet.roomLeft(m, ri)
		if room.Positions <= 0 {
			continue
		}
		// The part takes each pallet, in order, that still fits with the
		// ones it has (a stackable one may fit on top of them); the
		// others stay with o.
		part := &order{store: o.store, class: o.class, trailers: o.trailers}
		var rest []int
		for _, pi := range o.pallets {
			if load := m.palletsLoad(append(slices.Clone(part.pallets), pi), t); load.Fits(room) {
				part.pallets, part.load = append(part.pallets, pi), load
			} else {
				rest = append(rest, pi)
			}
		}
		if len(part.pallets) == 0 {
			continue
		}
		for _, pos := range m.insertionPlaces(pr.orders, o.store) {
			*tries++
			seq := slices.Insert(slices.Clone(pr.orders), pos, part)
			if !fleet.replaceOrders(m, ri, seq) {
				continue
			}
			o.pallets, o.load = rest, m.palletsLoad(rest, t)
			break
		}
	}
}

// insertionPlaces are where a part of an order for store s may go in a
// route's orders: right after the route's stop at s when it makes one
// (one more stop would only cost time), else before each order and at the
// end but never between two orders of one store (that would split its
// stop), the shortest detour first (the end first among equals: it moves
// no stop).
func (m *model) insertionPlaces(orders []*order, s int) []int {
	for k := len(orders) - 1; k >= 0; k-- {
		if orders[k].store == s {
			return []int{k + 1}
		}
	}
	detour := func(k int) float64 { return m.detour(orders, k, s) }
	var places []int
	for k := len(orders); k >= 0; k-- {
		if k > 0 && k < len(orders) && orders[k-1].store == orders[k].store {
			continue
		}
		places = append(places, k)
	}
	slices.SortStableFunc(places, func(a, b int) int { return cmp.Compare(detour(a), detour(b)) })
	return places
}

// detour is the distance a stop at store s adds to the route of orders
// when it comes before the order at position k (at the end for
// len(orders)).
func (m *model) detour(orders []*order, k, s int) float64 {
	loc := func(k int) int { // matrix location of position k's order; 0 is the DC
		if k < 0 || k >= len(orders) {
			return 0
		}
		return 1 + orders[k].store
	}
	a, b, mx := loc(k-1), loc(k), m.matrix
	return mx.Distance(a, 1+s) + mx.Distance(1+s, b) - mx.Distance(a, b)
}

func classesOf(orders []*order) []constraints.Temperature {
	cs := make([]constraints.Temperature, len(orders))
	for k, o := range orders {
		cs[k] = o.class
	}
	return cs
}

// retime times a shift of trips (orders visited in sequence, per trip) by
// one vehicle of kind k, its shift of group grp, as routing would: a
// routing problem of just those stores and that vehicle. The route's
// visits index the orders of all trips in turn.
func (m *model) retime(k vehicleKind, grp shiftGroup, trips [][]*order) (routeplan.Route, bool) {
	return m.retimeIn(k, grp, trips, m.dockWindows())
}

// retimeIn is retime with each trip's loading starting in one of the
// windows loading (nil: at any time) rather than the dock hours.
func (m *model) retimeIn(k vehicleKind, grp shiftGroup, trips [][]*order, loading []routeplan.Window) (routeplan.Route, bool) {
	return m.retimeWithin(k, grp, trips, loading, nil)
}

// retimeWithin is retimeIn with the windows of each order's site narrowed
// by windows (nil: the store's hours): windows(t, j, site) gives the
// windows of trips[t][j]'s site, or false when it leaves none.
func (m *model) retimeWithin(k vehicleKind, grp shiftGroup, trips [][]*order, loading []routeplan.Window,
	windows func(t, j int, site routeplan.Site) ([]routeplan.Window, bool)) (routeplan.Route, bool) {
	req := m.req
	locs := []int{0} // matrix locations of the small problem's locations
	local := map[int]int{0: 0}
	stackable, perPosition := 0, 1
	seq := slices.Concat(trips...)
	for _, o := range seq {
		if _, ok := local[1+o.store]; !ok {
			local[1+o.store] = len(locs)
			locs = append(locs, 1+o.store)
		}
		for _, pi := range o.pallets {
			if req.Pallets[pi].MayBeStacked {
				stackable++
			}
			perPosition = max(perPosition, 4/positionQuarters(&req.Pallets[pi]))
		}
	}
	n := len(locs)
	p := &routeplan.Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n), Rush: m.rush}
	for i, a := range locs {
		for j, b := range locs {
			p.Distance[i*n+j] = m.matrix.Distance(a, b)
			p.Duration[i*n+j] = float64(m.matrix.Seconds(a, b))
		}
	}
	p.VehicleTypes = []routeplan.VehicleType{m.vehicleType(k, grp, stackable, perPosition, loading)}
	var sites []int
	for t, trip := range trips {
		if t > 0 {
			sites = append(sites, routeplan.ReloadSite)
		}
		for j, o := range trip {
			site := m.site(o, local[1+o.store])
			if windows != nil {
				ws, ok := windows(t, j, site)
				if !ok {
					return routeplan.Route{}, false
				}
				site.Windows = ws
			}
			sites = append(sites, len(p.Sites))
			p.Sites = append(p.Sites, site)
		}
	}
	ev, err := routeplan.NewEvaluator(p)
	if err != nil {
		return routeplan.Route{}, false
	}
	rr, _, ok := ev.Route(0, sites)
	return rr, ok
}
