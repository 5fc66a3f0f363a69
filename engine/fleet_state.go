package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// fleetState is the plan as the phases build it: the driver shifts still
// free, by group, the routes made of the fleet (whose trailer units turn:
// a unit is free again once back, see unitsFit),
// and what it has not carried (orders left out for good, pallets no order
// took). Plan makes one with newFleetState; a phase that changes it takes
// it as a parameter and says what it changes.
type fleetState struct {
	groups     []shiftGroup
	routes     []Route       // the routes so far
	placed     []placedRoute // how each of routes was made
	leftOut    []*order      // orders left out for good, with their reasons
	unassigned []Unassigned  // pallets listed as unassigned so far
	// seeded says that routes of a previous plan were kept (seedPrevious).
	seeded bool
	// previous is each store's first arrival in the previous plan, and
	// tolerance how far a kept route's stop may move from it before it
	// counts as retimed (see replaceOrders); nil unless re-planning.
	previous  map[string]time.Time
	tolerance time.Duration
}

// shiftGroup is a set of shifts routing cannot tell apart: the same start,
// end, hours-of-service limits, trip limit and cost.
type shiftGroup struct {
	start, end time.Time
	limits     constraints.HoursOfService
	maxTrips   int     // 0: no limit
	cost       float64 // once per shift that drives
	free       []int   // shifts of the group not yet driving a route, in request order
	// continued marks a group of one shift that drives trips already, for
	// the trips it may drive after them (shiftAfter): routing adds no
	// shift to the day when it gives it one.
	continued bool
}

// placedRoute is how an accepted route was made: its kind and its orders in
// visiting order, parallel to fleetState.routes.
type placedRoute struct {
	kind   vehicleKind
	orders []*order
	// kept marks a route of the previous plan that seedPrevious kept:
	// route elimination never takes it off, and a change to it must not
	// retime any more of its stops (replaceOrders).
	kept bool
}

// newFleetState is the whole fleet free, with no route yet: the request's
// shifts grouped, earliest first, and every trailer unit. unassigned are
// the pallets already left out.
func newFleetState(m *model, unassigned []Unassigned) *fleetState {
	req := m.req
	fleet := &fleetState{unassigned: unassigned}
	type key struct {
		start, end time.Time
		limits     constraints.HoursOfService
		maxTrips   int
		cost       float64
	}
	index := map[key]int{}
	for si, sh := range req.Shifts {
		k := key{sh.Start.UTC(), sh.End.UTC(), req.ShiftLimits(si), sh.MaxTrips, sh.Cost}
		g, ok := index[k]
		if !ok {
			g = len(fleet.groups)
			index[k] = g
			fleet.groups = append(fleet.groups, shiftGroup{start: sh.Start, end: sh.End, limits: k.limits, maxTrips: sh.MaxTrips, cost: sh.Cost})
		}
		fleet.groups[g].free = append(fleet.groups[g].free, si)
	}
	slices.SortStableFunc(fleet.groups, func(a, b shiftGroup) int {
		if c := a.start.Compare(b.start); c != 0 {
			return c
		}
		return a.end.Compare(b.end)
	})
	return fleet
}

// takeShift gives a route of group g the first free shift of the group.
func (fleet *fleetState) takeShift(g int) int {
	si := fleet.groups[g].free[0]
	fleet.groups[g].free = fleet.groups[g].free[1:]
	return si
}

// freeShifts counts the shifts not yet driving a route.
func (fleet *fleetState) freeShifts() int {
	n := 0
	for _, g := range fleet.groups {
		n += len(g.free)
	}
	return n
}

// returnShift puts the shift with the given ID back among group g's free
// shifts, in request order.
func (fleet *fleetState) returnShift(m *model, g int, id string) {
	for si, s := range m.req.Shifts {
		if s.ID == id {
			free := fleet.groups[g].free
			// A shift whose trips were of two kinds of one group is
			// given back once.
			if at, found := slices.BinarySearch(free, si); !found {
				fleet.groups[g].free = slices.Insert(free, at, si)
			}
			return
		}
	}
}

// dropRoutes takes the routes gone (indices into routes, ascending) off
// the plan, their trailer units free over their times, and a shift none of whose
// trips is left; the other trips of a shift keep their times, which stay
// legal: the shift only drives less, and waits longer at the DC, where
// waiting counts as a break.
func (fleet *fleetState) dropRoutes(m *model, gone []int) {
	type shift struct {
		id   string
		kind vehicleKind
	}
	var shifts []shift
	for k := len(gone) - 1; k >= 0; k-- {
		ri := gone[k]
		s := shift{fleet.routes[ri].Shift, fleet.placed[ri].kind}
		if !slices.Contains(shifts, s) {
			shifts = append(shifts, s)
		}
		fleet.routes = slices.Delete(fleet.routes, ri, ri+1)
		fleet.placed = slices.Delete(fleet.placed, ri, ri+1)
	}
	for _, s := range shifts {
		if slices.ContainsFunc(fleet.routes, func(r Route) bool { return r.Shift == s.id }) {
			continue
		}
		fleet.returnShift(m, s.kind.group, s.id)
	}
}

// leaveOut adds the orders in pool, which the routing rounds ran out
// for, to those left out for good, as NOT_PLANNED when routing gave them
// no reason; those a layout sent back are marked roundsRanOut, so that
// their message says the rounds, not the time, ended.
func (fleet *fleetState) leaveOut(pool []*order) {
	for _, o := range pool {
		if o.reason == "" {
			o.reason = ReasonNotPlanned
		}
		o.roundsRanOut = sentBackByLayout(o)
		fleet.leftOut = append(fleet.leftOut, o)
	}
}

// leaveUnreached adds the orders in pool, which the time limit left no
// routing round for, to those left out: NOT_PLANNED, as the orders a
// round's search did not come to, so that routeUnreached routes them;
// but those short of fleet keep their reason, since a round did try
// them and the room left on the routes (fillSpareRoom) is what may take
// them.
func (fleet *fleetState) leaveUnreached(pool []*order) {
	for _, o := range pool {
		if !shortOfFleet(o.reason) {
			o.reason, o.message = ReasonNotPlanned, ""
		}
		fleet.leftOut = append(fleet.leftOut, o)
	}
}

// leaveAfterRounds leaves out the orders in pool that rounds routing
// rounds did not carry: when the rounds ran out (routingRounds), for good
// (leaveOut); when time or a cut round ended them sooner, as unreached
// (leaveUnreached), for routeUnreached to route.
func (fleet *fleetState) leaveAfterRounds(pool []*order, rounds int) {
	if rounds < routingRounds {
		fleet.leaveUnreached(pool)
	} else {
		fleet.leaveOut(pool)
	}
}

// takeLeftOut takes out of the orders left out, and returns, those with
// pallets that again reports true for: the pool of a routing round that
// tries them again.
func (fleet *fleetState) takeLeftOut(again func(*order) bool) []*order {
	var pool, kept []*order
	for _, o := range fleet.leftOut {
		if len(o.pallets) > 0 && again(o) {
			o.roundsRanOut = false // rounds of its own begin
			pool = append(pool, o)
		} else {
			kept = append(kept, o)
		}
	}
	fleet.leftOut = kept
	return pool
}

// roomLeft is what placed route ri has room for, as routing counts it.
func (fleet *fleetState) roomLeft(m *model, ri int) constraints.Load {
	pr := &fleet.placed[ri]
	room := m.kindCapacity(pr.kind)
	for _, x := range pr.orders {
		room.Positions -= x.load.Positions
		room.WeightKg -= x.load.WeightKg
		room.VolumeM3 -= x.load.VolumeM3
	}
	return room
}

// spareFloor is the floor positions left on the placed routes but skip
// and those in gone, as routing counts them.
func (fleet *fleetState) spareFloor(m *model, skip int, gone []int) int {
	spare := 0
	for ri, pr := range fleet.placed {
		if ri == skip || slices.Contains(gone, ri) {
			continue
		}
		room := m.kindCapacity(pr.kind).Positions
		for _, o := range pr.orders {
			room -= o.load.Positions
		}
		spare += max(0, room)
	}
	return spare
}

// nearestRoutes lists the placed routes but skip and those in gone, the
// one whose nearest stop is nearest store s first: a part of an order
// rides best, and is most often on time, on a route that passes by.
func (fleet *fleetState) nearestRoutes(m *model, s, skip int, gone []int) []int {
	type near struct {
		route int
		m     float64
	}
	var ns []near
	for ri, pr := range fleet.placed {
		if ri == skip || slices.Contains(gone, ri) {
			continue
		}
		best := m.matrix.Distance(0, 1+s)
		for _, o := range pr.orders {
			best = min(best, m.matrix.Distance(1+o.store, 1+s))
		}
		ns = append(ns, near{ri, best})
	}
	slices.SortStableFunc(ns, func(a, b near) int { return cmp.Compare(a.m, b.m) })
	out := make([]int, len(ns))
	for k, n := range ns {
		out[k] = n.route
	}
	return out
}

// unassignLeftOut lists the pallets of the orders left out for good as
// unassigned, each with the reason and a message that says what stands in
// the way, given the fleet as it is now.
func (fleet *fleetState) unassignLeftOut(m *model) {
	for _, o := range fleet.leftOut {
		if len(o.pallets) > 0 {
			fleet.unassigned = append(fleet.unassigned, fleet.unassignOrder(m, o)...)
		}
	}
}

// unassignOrder is o's pallets as unassigned, with a message that says
// what stands in the way. An order that the doors of every trailer type
// it may ride on could not unload, on a trip routing gave it (doorsOnly),
// is LOAD_LAYOUT with the message of the last such trip, which names the
// trailer type, the zone and the stop, whatever became of it after: the
// orders it was routed again with, or planning, ended before a trip that
// its doors unload took it, and a dispatcher needs to know that the
// trailers' doors, not the fleet, are what to change. An order that had a
// type whose doors never failed it keeps the reason it was last left out
// for on those types (fleet, dock, hours), or NOT_PLANNED when planning
// (the time limit, the context) or the routing rounds ended while it was
// sent back, its message saying which (roundsRanOut), and which types'
// doors failed it.
func (fleet *fleetState) unassignOrder(m *model, o *order) []Unassigned {
	reason, msg := o.reason, o.message
	store := m.req.Stores[o.store].ID
	switch {
	case doorsOnly(o):
		reason = ReasonLoadLayout
		types, n := m.doorTypes(o)
		what := "the only trailer type that carries"
		if n > 1 {
			what = "the trailer types that carry"
		}
		msg = fmt.Sprintf("store %s: the doors of %s, %s these %s pallets there, could not unload them in stop order: %s",
			store, types, what, o.class, o.doorMessage)
	case sentBackByLayout(o) && o.roundsRanOut:
		// Loadable alone (makeOrders laid it out): what it lacked is a
		// route with room, and a round to find one; an iteration budget
		// or a longer time limit gives no more rounds.
		reason = ReasonNotPlanned
		msg = fmt.Sprintf("store %s: the floor of the trip the last routing round gave these pallets could not take them beside its other stops, and that was the last of the %d rounds that route again what the layouts send back; alone they fit a trailer", store, routingRounds)
	case sentBackByLayout(o):
		// As above, but the time limit or the context ended the rounds.
		reason = ReasonNotPlanned
		msg = fmt.Sprintf("store %s: the floor of the trip routing gave these pallets could not take them beside its other stops, and planning ended before another trip took them", store)
	case msg == "" || o.reason != ReasonLoadLayout:
		msg = m.explainOrder(o, fleet)
	}
	if reason != ReasonLoadLayout && o.doorMessage != "" {
		types, n := m.doorTypes(o)
		verb := "carries"
		if n > 1 {
			verb = "carry"
		}
		msg += fmt.Sprintf(" (the doors of %s, which also %s them, could not unload them in stop order: %s)", types, verb, o.doorMessage)
	}
	var out []Unassigned
	for _, pi := range o.pallets {
		p := m.req.Pallets[pi]
		out = append(out, Unassigned{Pallet: p.ID, Store: p.Store, Reason: reason, Message: msg})
	}
	return out
}
