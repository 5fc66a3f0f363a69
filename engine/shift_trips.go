package engine

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/routeplan"
)

// A routing route is a driver's shift: one or more trips, each leaving the
// DC with a trailer load and coming back, with a reload between two (the
// driver hooks the next loaded trailer). The plan lists each trip as a
// Route of its own; the trips of one shift share its Shift, and a phase
// that changes one trip times the whole shift again (replaceOrders), since
// its later trips start when it returns.

// splitTrips cuts the routing route rr into its trips, each a routing
// route of one trip: its visits, its start (the hook-up: the route's
// start, or the reload's before it), departure and return (the next
// reload's arrival, or the route's return).
func splitTrips(rr routeplan.Route) []routeplan.Route {
	trips := make([]routeplan.Route, 0, 1+len(rr.Reloads))
	from := 0
	start, depart := rr.Start, rr.Depart
	loadFrom := func(k int) []float64 {
		if k < len(rr.LoadingStarts) {
			return rr.LoadingStarts[k : k+1]
		}
		return nil
	}
	for k, rl := range rr.Reloads {
		trips = append(trips, routeplan.Route{VehicleType: rr.VehicleType, Visits: rr.Visits[from:rl.After], Start: start, Depart: depart, Return: rl.Arrival, LoadingStarts: loadFrom(k)})
		from, start, depart = rl.After, rl.Start, rl.Departure
	}
	return append(trips, routeplan.Route{VehicleType: rr.VehicleType, Visits: rr.Visits[from:], Start: start, Depart: depart, Return: rr.Return, LoadingStarts: loadFrom(len(rr.Reloads))})
}

// routeSites is rr's sites in order with routeplan.ReloadSite between two
// trips, as routeplan.Evaluator takes them.
func routeSites(rr routeplan.Route) []int {
	sites := make([]int, 0, len(rr.Visits)+len(rr.Reloads))
	next := 0
	for k, v := range rr.Visits {
		if next < len(rr.Reloads) && rr.Reloads[next].After == k {
			sites = append(sites, routeplan.ReloadSite)
			next++
		}
		sites = append(sites, v.Site)
	}
	return sites
}

// buildTrips builds each trip of the routing route rr (see buildRoute). It
// fails with the index of the first trip whose floor cannot take its
// pallets.
func (m *model) buildTrips(kind vehicleKind, rr routeplan.Route, pool []*order) ([]*Route, int, error) {
	var out []*Route
	for k, trip := range splitTrips(rr) {
		route, err := m.buildRoute(kind, trip, pool)
		if err != nil {
			return nil, k, err
		}
		out = append(out, route)
	}
	return out, -1, nil
}

// keepShift adds the trips of one routing route, of kind and carrying
// orders (per trip, in visiting order), to the plan, with the first free
// shift of its group. Its trips' trailer units are the caller's to check
// (unitsFit); assignTrailerUnits names them when the day is scheduled.
func (fleet *fleetState) keepShift(m *model, trips []*Route, kind vehicleKind, orders [][]*order) {
	shift := m.req.Shifts[fleet.takeShift(kind.group)].ID
	for k, route := range trips {
		route.Shift = shift
		fleet.routes = append(fleet.routes, *route)
		fleet.placed = append(fleet.placed, placedRoute{kind: kind, orders: orders[k]})
	}
}

// mixedTrailers reports whether the placed routes run are of more than
// one trailer type: a shift kept from a previous plan that chainShifts
// had handed another's trip (seedMixedShift).
func (fleet *fleetState) mixedTrailers(run []int) bool {
	for _, x := range run {
		if fleet.placed[x].kind.trailer != fleet.placed[run[0]].kind.trailer {
			return true
		}
	}
	return false
}

// shiftTrips lists the routes that share route ri's shift, ri included,
// in the order they are driven.
func (fleet *fleetState) shiftTrips(ri int) []int {
	var run []int
	for x := range fleet.routes {
		if fleet.routes[x].Shift == fleet.routes[ri].Shift {
			run = append(run, x)
		}
	}
	slices.SortStableFunc(run, func(a, b int) int { return fleet.routes[a].Start.Compare(fleet.routes[b].Start) })
	return run
}

// replaceOrders makes placed route ri carry seq instead of its orders, and
// times its whole shift again as routing would, laying out each of its
// trips. It reports whether the shift stays legal, every trip's floor
// takes its pallets, the trailer units turn in time (unitsFit) and the
// dock doors load every trailer (doorsFit); when not, nothing changes.
func (fleet *fleetState) replaceOrders(m *model, ri int, seq []*order) bool {
	run := fleet.shiftTrips(ri)
	kind := fleet.placed[ri].kind
	if fleet.mixedTrailers(run) {
		return false // routing times a shift on one trailer type
	}
	trips := make([][]*order, len(run))
	for k, x := range run {
		trips[k] = fleet.placed[x].orders
		if x == ri {
			trips[k] = seq
		}
	}
	rr, ok := fleet.retimeRun(m, kind, run, trips)
	if !ok || len(rr.Reloads)+1 != len(run) {
		return false // a trip left empty: the shift is no longer the same
	}
	built, _, err := m.buildTrips(kind, rr, slices.Concat(trips...))
	if err != nil || !fleet.unitsFit(m, kind.trailer, built, run) || !fleet.doorsFit(m, built, run) {
		return false
	}
	if !fleet.keepsArrivals(m, run, built) {
		return false
	}
	for k, x := range run {
		built[k].Shift = fleet.routes[x].Shift
		built[k].TrailerUnit = fleet.routes[x].TrailerUnit // a unit kept from a previous plan
		fleet.routes[x] = *built[k]
		fleet.placed[x].orders = trips[k]
	}
	return true
}

// chainShifts hands the trip of each shift that drives only that one to
// another shift that can drive it too as it is timed, and frees the shift
// it came from: the trip's times, trailer unit and dock door stay, so
// units and doors are as before. The receiving shift must hold the trip
// inside its start and end, between or around its own trips without
// overlap, within its maxTrips, and under its hours-of-service limits as
// one duty with them (constraints.HoursOfService.Validate, which Validate
// applies; the time at the DC between trips counts as a break when long
// enough, and the breaks the trips need are stated when the plan is
// assembled). A shift may drive trips of different trailer types, as a
// driver hooks whatever trailer is loaded; routing keeps a route's trips
// on one type, and builds routes in rounds, so trips that one shift could
// drive end up on shifts of their own. The trips go in the order they
// start, each to the first shift that takes it, shifts with the least
// duty left first, so that long duties fill up; a shift that took a trip
// keeps its own. It reports how many shifts it freed.
func chainShifts(m *model, fleet *fleetState) int {
	byShift := map[string][]int{}
	for ri, r := range fleet.routes {
		byShift[r.Shift] = append(byShift[r.Shift], ri)
	}
	shiftIndex := make(map[string]int, len(m.req.Shifts))
	for si, sh := range m.req.Shifts {
		shiftIndex[sh.ID] = si
	}
	ids := make([]string, 0, len(byShift))
	for id := range byShift {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var guests []int
	for _, id := range ids {
		if run := byShift[id]; len(run) == 1 {
			guests = append(guests, run[0])
		}
	}
	slices.SortStableFunc(guests, func(a, b int) int { return fleet.routes[a].Start.Compare(fleet.routes[b].Start) })
	hosting := map[string]bool{}
	freed := 0
	for _, gi := range guests {
		given := fleet.routes[gi].Shift
		if hosting[given] {
			continue // it drives another shift's trip now
		}
		type host struct {
			id   string
			room time.Duration
		}
		var hosts []host
		for _, id := range ids {
			run := byShift[id]
			if id == given || len(run) == 0 {
				continue
			}
			si := shiftIndex[id]
			if trips, ok := fleet.withTrip(m, si, run, gi); ok {
				room := m.req.ShiftLimits(si).MaxDuty - fleet.routes[trips[len(trips)-1]].Return.Sub(fleet.routes[trips[0]].Start)
				hosts = append(hosts, host{id, room})
			}
		}
		if len(hosts) == 0 {
			continue
		}
		h := slices.MinFunc(hosts, func(a, b host) int { return cmp.Compare(a.room, b.room) })
		fleet.routes[gi].Shift = h.id
		byShift[h.id] = append(byShift[h.id], gi)
		byShift[given] = nil
		hosting[h.id] = true
		fleet.returnShift(m, fleet.placed[gi].kind.group, given)
		freed++
	}
	return freed
}

// withTrip returns the routes of shift si, run, with route gi among them
// in the order of their starts, and whether the shift can drive them all
// as they are timed (see chainShifts).
func (fleet *fleetState) withTrip(m *model, si int, run []int, gi int) ([]int, bool) {
	sh := m.req.Shifts[si]
	g := fleet.routes[gi]
	if (sh.MaxTrips > 0 && len(run) >= sh.MaxTrips) || g.Start.Before(sh.Start) || g.Return.After(sh.End) {
		return nil, false
	}
	// Most shifts drive a trip at the guest's time: that is seen without
	// building the duty (the loop below finds the same overlaps).
	for _, ri := range run {
		if r := &fleet.routes[ri]; g.Start.Before(r.Return) && r.Start.Before(g.Return) {
			return nil, false
		}
	}
	trips := append(slices.Clone(run), gi)
	slices.SortStableFunc(trips, func(a, b int) int { return fleet.routes[a].Start.Compare(fleet.routes[b].Start) })
	var legs []constraints.Leg
	for k, ri := range trips {
		r := &fleet.routes[ri]
		if k > 0 && r.Start.Before(fleet.routes[trips[k-1]].Return) {
			return nil, false
		}
		leave := r.Depart
		for _, st := range r.Stops {
			legs = append(legs, constraints.Leg{Depart: leave, Arrive: st.Arrival})
			leave = st.Departure
		}
		legs = append(legs, constraints.Leg{Depart: leave, Arrive: r.Return})
	}
	duty := constraints.Duty{Start: fleet.routes[trips[0]].Start, End: fleet.routes[trips[len(trips)-1]].Return, Legs: legs}
	if len(m.req.ShiftLimits(si).Validate(duty, "", func(int) string { return "" })) > 0 {
		return nil, false
	}
	return trips, true
}

// Bounds of retimeChains: the shifts it times in all, so that an
// iteration budget gives the same plan on any machine; the shifts it
// offers one trip, those with the least room first; and, under a time
// limit alone, the share of the time left when it begins that it may take
// (the rest is route elimination's: see retimeUntil).
const (
	retimeTries  = 20000
	retimeHosts  = 8
	retimeShare  = 3
	retimeOrders = 2 // the trip last, then first
)

// retimeChains hands the trip of a shift that drives only that one to a
// shift of the same trailer kind that drives others, timing the
// receiving shift's trips again as routing would (retime), the trip
// after its own trips or before them: unlike chainShifts, the trip may
// move in time, say from the morning wave to the afternoon one, when its
// stores still receive then. Each trip's floor is laid out again, and the
// trailer units and dock doors must still suffice (unitsFit, doorsFit).
// Shifts with the shortest trip go first, onto the shifts whose trips
// leave the most room, so that a trip finds a shift it fits. It stops at
// retimeUntil and reports how many shifts it freed.
func retimeChains(ctx context.Context, pc *planContext, fleet *fleetState) int {
	return handOverSingleTrips(ctx, pc, fleet, pc.retimeUntil(), retimeTries, fleet.retimeOnto)
}

// retimeUntil is when a phase that hands single trips to other shifts
// (retimeAcrossKinds, retimeChains) stops, asked as it begins. Under a
// time limit alone it takes a retimeShare of the time left, so that route
// elimination, which saves more, keeps the rest. With an iteration
// budget its tries (acrossTries, retimeTries) are what bound it, so that
// the plan is the same on any machine and the call takes the time that
// work needs: a share of a generous limit would cut the tries on a slow
// or busy machine and not on a fast one. The deadline still stops it, as
// it stops every phase.
func (pc *planContext) retimeUntil() time.Time {
	if pc.m.req.Options.Iterations > 0 {
		return pc.deadline
	}
	return pc.now().Add(pc.deadline.Sub(pc.now()) / retimeShare)
}

// handOverSingleTrips offers the trip of each shift that drives only that
// one, shortest first (by duty, then shift id), to move, which hands it
// to another shift or leaves everything as it was; after a move the
// shifts have changed and it looks again, until no trip moves, tries
// reach maxTries (move counts them), or the context or until ends. A
// shift whose trip did not move is not offered again. It reports how
// many shifts it freed.
func handOverSingleTrips(ctx context.Context, pc *planContext, fleet *fleetState, until time.Time, maxTries int,
	move func(m *model, gi int, byShift map[string][]int, tries *int) bool) int {
	tries, freed := 0, 0
	tried := map[string]bool{} // guest shifts tried and left as they were
	for {
		byShift := map[string][]int{}
		for ri, r := range fleet.routes {
			byShift[r.Shift] = append(byShift[r.Shift], ri)
		}
		var guests []int
		for id, run := range byShift {
			if len(run) == 1 && !tried[id] {
				guests = append(guests, run[0])
			}
		}
		duty := func(ri int) time.Duration { return fleet.routes[ri].Return.Sub(fleet.routes[ri].Start) }
		slices.SortFunc(guests, func(a, b int) int {
			return cmp.Or(cmp.Compare(duty(a), duty(b)), cmp.Compare(fleet.routes[a].Shift, fleet.routes[b].Shift))
		})
		moved := false
		for _, gi := range guests {
			if tries >= maxTries || pc.stopped(ctx) || !pc.now().Before(until) {
				return freed
			}
			if move(pc.m, gi, byShift, &tries) {
				freed++
				moved = true
				break // the shifts changed: look again
			}
			tried[fleet.routes[gi].Shift] = true
		}
		if !moved {
			return freed
		}
	}
}

// retimeOnto moves route gi, the one trip of its shift, onto another
// shift of byShift (shift → its routes) of the same trailer kind whose
// limits leave room for it, and reports whether it did; tries counts the
// shifts timed.
func (fleet *fleetState) retimeOnto(m *model, gi int, byShift map[string][]int, tries *int) bool {
	guest := fleet.routes[gi]
	gk := fleet.placed[gi].kind
	type host struct {
		id   string
		room time.Duration
	}
	var hosts []host
	for id, run := range byShift {
		if id == guest.Shift {
			continue
		}
		hk := fleet.placed[run[0]].kind
		grp := fleet.groups[hk.group]
		if hk.trailer != gk.trailer || hk.zones != gk.zones || (grp.maxTrips > 0 && len(run) >= grp.maxTrips) {
			continue
		}
		// The trips' own duties and driving, end to end, must fit the
		// shift's limits and its hours, however they are timed.
		duty, driving := guest.Return.Sub(guest.Start), guest.Metrics.Driving
		for _, ri := range run {
			duty += fleet.routes[ri].Return.Sub(fleet.routes[ri].Start)
			driving += fleet.routes[ri].Metrics.Driving
		}
		if duty > min(grp.limits.MaxDuty, grp.end.Sub(grp.start)) || driving > grp.limits.MaxDriving {
			continue
		}
		hosts = append(hosts, host{id, grp.limits.MaxDuty - duty})
	}
	slices.SortFunc(hosts, func(a, b host) int { return cmp.Or(cmp.Compare(b.room, a.room), cmp.Compare(a.id, b.id)) })
	for _, h := range hosts[:min(len(hosts), retimeHosts)] {
		run := byShift[h.id]
		for at := range retimeOrders {
			*tries++
			all := append(slices.Clone(run), gi)
			if at == 1 {
				all = append([]int{gi}, run...)
			}
			if fleet.joinShift(m, all, gi) {
				return true
			}
		}
	}
	return false
}

// joinShift makes the routes all (in the order they are to be driven)
// the trips of the shift of all's routes but gi, timing them again as
// routing would on that shift, gi's shift then free. It reports whether
// the shift stays legal with a trip for each, every trip's floor takes
// its pallets, and the units and doors suffice; when not, nothing
// changes.
func (fleet *fleetState) joinShift(m *model, all []int, gi int) bool {
	host := all[0]
	if host == gi {
		host = all[1]
	}
	kind := fleet.placed[host].kind
	if fleet.mixedTrailers(all) {
		return false // routing times a shift on one trailer type
	}
	trips := make([][]*order, len(all))
	for k, x := range all {
		trips[k] = fleet.placed[x].orders
	}
	rr, ok := m.retime(kind, fleet.groups[kind.group], trips)
	if !ok || len(rr.Reloads)+1 != len(all) {
		return false
	}
	built, _, err := m.buildTrips(kind, rr, slices.Concat(trips...))
	if err != nil || !fleet.unitsFit(m, kind.trailer, built, all) || !fleet.doorsFit(m, built, all) {
		return false
	}
	shift, given, gk := fleet.routes[host].Shift, fleet.routes[gi].Shift, fleet.placed[gi].kind
	for k, x := range all {
		built[k].Shift = shift
		fleet.routes[x] = *built[k]
		fleet.placed[x] = placedRoute{kind: kind, orders: trips[k]}
	}
	fleet.returnShift(m, gk.group, given)
	return true
}

// Bounds of retimeAcrossKinds: the single trips it times in all, so that
// an iteration budget gives the same plan on any machine, and the shifts
// it offers one trip, those with the most room first.
const (
	acrossTries = 20000
	acrossHosts = 24
)

// retimeAcrossKinds hands the trip of a shift that drives only that one
// to a shift of any trailer kind, timing the trip alone again to run
// after the shift's own trips or before them, as a driver hooks whatever
// trailer is loaded: routing drives a shift on one trailer type, so a
// morning dry-van trip and an afternoon reefer trip that one driver could
// drive come out on two shifts, and retimeChains, which times a whole
// shift again, keeps to one type. The trip keeps its trailer type and
// orders; its timing window is the receiving shift's hours narrowed by
// its duty limit and by the driving its trips already do; its floor is
// laid out again, the trailer units and dock doors must still suffice
// (unitsFit, doorsFit), and the shift, with the trip among its own, must
// keep its hours of service as one duty (withTrip). The trips go shortest
// first, onto the shifts with the most room. It stops at until (Plan:
// retimeUntil), and reports how many shifts it freed.
func retimeAcrossKinds(ctx context.Context, pc *planContext, fleet *fleetState, until time.Time) int {
	return handOverSingleTrips(ctx, pc, fleet, until, acrossTries, fleet.retimeAfterOrBefore)
}

// retimeAfterOrBefore moves route gi, the one trip of its shift, onto
// another shift of byShift whose room can take it (see
// retimeAcrossKinds), and reports whether it did; tries counts the trips
// timed.
func (fleet *fleetState) retimeAfterOrBefore(m *model, gi int, byShift map[string][]int, tries *int) bool {
	guest := fleet.routes[gi]
	shiftIndex := func(id string) int {
		return slices.IndexFunc(m.req.Shifts, func(s constraints.Shift) bool { return s.ID == id })
	}
	type host struct {
		id   string
		si   int
		run  []int
		room time.Duration
	}
	own := guest.Return.Sub(guest.Start) - guest.Metrics.Wait
	var hosts []host
	for id, run := range byShift {
		if id == guest.Shift {
			continue
		}
		si := shiftIndex(id)
		sh := m.req.Shifts[si]
		if sh.MaxTrips > 0 && len(run) >= sh.MaxTrips {
			continue
		}
		slices.SortStableFunc(run, func(a, b int) int { return fleet.routes[a].Start.Compare(fleet.routes[b].Start) })
		first, last := fleet.routes[run[0]].Start, fleet.routes[run[len(run)-1]].Return
		limits := m.req.ShiftLimits(si)
		driving := guest.Metrics.Driving
		for _, ri := range run {
			driving += fleet.routes[ri].Metrics.Driving
		}
		room := limits.MaxDuty - last.Sub(first)
		if driving > limits.MaxDriving || room < own {
			continue
		}
		hosts = append(hosts, host{id, si, run, room})
	}
	slices.SortFunc(hosts, func(a, b host) int { return cmp.Or(cmp.Compare(b.room, a.room), cmp.Compare(a.id, b.id)) })
	for _, h := range hosts[:min(len(hosts), acrossHosts)] {
		for _, after := range []bool{true, false} {
			*tries++
			if fleet.retimeOntoShift(m, gi, h.si, h.run, after) {
				return true
			}
		}
	}
	return false
}

// retimeOntoShift times route gi's orders alone on its trailer kind as a
// trip of shift si, after the shift's trips run (in the order they are
// driven) or before them, and makes it one of the shift's trips when the
// shift can drive it so (see retimeAcrossKinds); it reports whether it
// did, and when not, nothing changes.
func (fleet *fleetState) retimeOntoShift(m *model, gi, si int, run []int, after bool) bool {
	sh := m.req.Shifts[si]
	limits := m.req.ShiftLimits(si)
	first, last := fleet.routes[run[0]].Start, fleet.routes[run[len(run)-1]].Return
	hg := fleet.placed[run[0]].kind.group
	grp := fleet.groups[hg]
	grp.start, grp.end = last, sh.End
	if grp.end.After(first.Add(limits.MaxDuty)) {
		grp.end = first.Add(limits.MaxDuty)
	}
	if !after {
		grp.start, grp.end = sh.Start, first
		if grp.start.Before(last.Add(-limits.MaxDuty)) {
			grp.start = last.Add(-limits.MaxDuty)
		}
	}
	if g := &fleet.routes[gi]; grp.end.Sub(grp.start) < g.Return.Sub(g.Start)-g.Metrics.Wait {
		return false // too short for the trip's legs and stops
	}
	var driving time.Duration
	for _, ri := range run {
		driving += fleet.routes[ri].Metrics.Driving
	}
	grp.limits.MaxDriving -= driving
	grp.limits.MaxDuty = grp.end.Sub(grp.start)
	grp.maxTrips = 1
	if grp.limits.MaxDuty <= 0 || grp.limits.MaxDriving <= 0 {
		return false
	}
	gk := fleet.placed[gi].kind
	kind := vehicleKind{group: hg, trailer: gk.trailer, zones: gk.zones}
	orders := fleet.placed[gi].orders
	rr, ok := m.retime(kind, grp, [][]*order{orders})
	if !ok || len(rr.Reloads) != 0 {
		return false
	}
	built, _, err := m.buildTrips(kind, rr, orders)
	if err != nil || !fleet.unitsFit(m, kind.trailer, built, []int{gi}) || !fleet.doorsFit(m, built, []int{gi}) {
		return false
	}
	was := fleet.routes[gi]
	fleet.routes[gi] = *built[0]
	fleet.routes[gi].Shift = sh.ID
	if _, ok := fleet.withTrip(m, si, run, gi); !ok {
		fleet.routes[gi] = was
		return false
	}
	fleet.placed[gi] = placedRoute{kind: kind, orders: orders}
	fleet.returnShift(m, gk.group, was.Shift)
	return true
}
