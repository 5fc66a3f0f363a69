package engine

import (
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// A shift that already drives trips may drive more after the last of them
// returns: the driver hooks another loaded trailer and goes again. Routing
// sees such a shift as a group of its own (shiftAfter) that starts when
// its last trip is back, with what the trips leave of its hours, and costs
// nothing more, since the shift is paid already. Two kinds of shift get
// one: a re-plan's shift with locked trips, for the whole call
// (continueLockedShifts, previous_plan.go), and a shift that an earlier
// routing round gave trips, for one round at a time
// (continueDrivingShifts), so that the orders a layout sent back, or the
// fleet had no room for, may ride on a driver already out rather than on
// a shift opened for them.

// shiftAfter is the group of shift si alone for the trips it may still
// drive after trips, its trips so far (at least one) in the order driven,
// and whether it may drive any: from the last trip's return until the
// shift's end or its duty limit counted from its first trip, with the
// driving and trips the trips leave it, and nothing more to pay for the
// shift. Where the trips drove since their last break, the driver either
// rests at the DC for a break first, when the break rule leaves less
// driving than a second or rest says so, or drives on with the driving
// between breaks shortened by that (so that the first stretch after them
// keeps the break rule; a later one is held to less than it need be).
// rest is told the limits as they are left (the driving less what the
// trips drove) and the driving since the last break.
//
// Routing reads a limit of 0 as none: a limit the trips leave less than a
// second of (which routing's whole seconds round to 0) leaves no group.
func (m *model) shiftAfter(si int, trips []Route, rest func(left constraints.HoursOfService, since time.Duration) bool) (shiftGroup, bool) {
	sh := m.req.Shifts[si]
	lim := m.req.ShiftLimits(si)
	start, end := trips[len(trips)-1].Return, sh.End
	if lim.MaxDuty > 0 {
		if limit := trips[0].Start.Add(lim.MaxDuty); limit.Before(end) {
			end = limit
		}
	}
	driving, since := drivenSinceBreak(trips, lim.BreakDuration)
	if lim.MaxDriving > 0 {
		lim.MaxDriving -= driving
		if lim.MaxDriving < time.Second {
			return shiftGroup{}, false
		}
	}
	if lim.BreakAfter > 0 && since > 0 {
		if lim.BreakAfter-since < time.Second || rest(lim, since) {
			start = start.Add(lim.BreakDuration)
		} else {
			lim.BreakAfter -= since
		}
	}
	n := sh.MaxTrips
	if n > 0 {
		n -= len(trips)
		if n <= 0 {
			return shiftGroup{}, false
		}
	}
	if end.Sub(start) < time.Second {
		return shiftGroup{}, false
	}
	lim.MaxDuty = end.Sub(start)
	return shiftGroup{start: start, end: end, limits: lim, maxTrips: n, free: []int{si}, continued: true}, true
}

// drivenSinceBreak is the driving of a shift's trips, in the order driven,
// and the part of it since the last break: a stop on site, or a wait at
// the DC between two trips, of at least brk.
func drivenSinceBreak(trips []Route, brk time.Duration) (driving, since time.Duration) {
	for k, r := range trips {
		if k > 0 && r.Depart.Sub(trips[k-1].Return) >= brk {
			since = 0
		}
		leave := r.Depart
		for _, st := range r.Stops {
			driving += st.Arrival.Sub(leave)
			since += st.Arrival.Sub(leave)
			if st.Departure.Sub(st.Arrival) >= brk {
				since = 0
			}
			leave = st.Departure
		}
		driving += r.Return.Sub(leave)
		since += r.Return.Sub(leave)
	}
	return driving, since
}

// restWhenDue is the choice a routing round makes for a shift that drove
// since its last break: the driver rests at the DC before driving on
// unless the driving the shift has left fits in what the break rule
// leaves before a break, when resting would gain nothing.
func restWhenDue(left constraints.HoursOfService, since time.Duration) bool {
	return left.MaxDriving == 0 || left.MaxDriving > left.BreakAfter-since
}

// continuations are the groups continueDrivingShifts added for one
// routing round: fleet.groups[first:], and home, by group from first,
// the group its shift's routes are of, which the trips the round gives it
// are counted of once the round is over (endContinuations).
type continuations struct {
	first int
	home  []int
}

// continueDrivingShifts adds a group of its own (shiftAfter) to fleet for
// each shift that drives routes made in this call, for the trips it may
// drive after them, so that a routing round of the orders in pool may
// give it more trips rather than open another shift. A re-plan's locked
// trips of the shift count with its routes; a shift kept from the
// previous plan (seedPrevious) gets none, since its trips stay as the
// previous plan has them (keptTripsOf). A shift whose time or driving
// left is shorter than any trip to a store of pool takes (shortestTrip)
// gets none either: it could drive none, and every group adds a vehicle
// type per trailer kind to the round's search. When the objective counts
// no shifts (not FewestDrivers) and some shift is free, a shift whose
// group's shifts cost nothing gets none: a free shift can drive what a
// continued one can, and the groups the continued shifts add change the
// search of a day that has shifts to spare for nothing, and on the
// generated 1,000-store day they cost trailers. The round ends them with
// endContinuations.
func (fleet *fleetState) continueDrivingShifts(m *model, pool []*order) continuations {
	c := continuations{first: len(fleet.groups)}
	if len(fleet.routes) == 0 {
		return c
	}
	spare := m.req.Options.Objective != FewestDrivers && fleet.freeShifts() > 0
	duty, driving := m.shortestTrip(pool)
	byShift := map[int][]int{}
	kept := map[int]bool{}
	for ri, r := range fleet.routes {
		si := m.shift[r.Shift]
		byShift[si] = append(byShift[si], ri)
		kept[si] = kept[si] || fleet.placed[ri].kept
	}
	ids := make([]int, 0, len(byShift))
	for si := range byShift {
		if !kept[si] {
			ids = append(ids, si)
		}
	}
	slices.Sort(ids)
	for _, si := range ids {
		run := byShift[si]
		home := fleet.placed[run[0]].kind.group
		if spare && fleet.groups[home].cost == 0 {
			continue
		}
		var trips []Route
		for _, r := range m.fixed {
			if r.Shift == m.req.Shifts[si].ID {
				trips = append(trips, r)
			}
		}
		for _, ri := range run {
			trips = append(trips, fleet.routes[ri])
		}
		slices.SortStableFunc(trips, func(a, b Route) int { return a.Start.Compare(b.Start) })
		grp, ok := m.shiftAfter(si, trips, restWhenDue)
		if ok && grp.end.Sub(grp.start) >= duty && (grp.limits.MaxDriving == 0 || grp.limits.MaxDriving >= driving) {
			fleet.groups = append(fleet.groups, grp)
			c.home = append(c.home, home)
		}
	}
	return c
}

// shortestTrip bounds from below the duty and the driving of any trip to
// a store of an order of pool: the hook-up, the drive there and back at
// free flow (the shortest any drive takes) and the unloading of the
// order, less a minute for routing's rounding to whole seconds.
func (m *model) shortestTrip(pool []*order) (duty, driving time.Duration) {
	duty, driving = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for _, o := range pool {
		st := m.req.Stores[o.store]
		there := m.matrix.Duration(0, 1+o.store) + m.matrix.Duration(1+o.store, 0)
		unload := st.Unloading.Fixed + time.Duration(len(o.pallets))*st.Unloading.PerPallet
		duty = min(duty, m.req.HookTime()+there+unload-time.Minute)
		driving = min(driving, there-time.Minute)
	}
	return duty, driving
}

// endContinuations takes the groups c off fleet again: a trip a round
// gave one counts as of its shift's home group from then on, so that a
// later phase that times the shift again (replaceOrders), or frees it
// (dropRoutes), does so over the whole shift, and the next round
// continues the shift from its new last trip.
func (fleet *fleetState) endContinuations(c continuations) {
	for k := range fleet.placed {
		if g := fleet.placed[k].kind.group; g >= c.first {
			fleet.placed[k].kind.group = c.home[g-c.first]
		}
	}
	fleet.groups = fleet.groups[:c.first]
}

// newShiftSurcharges are what routing's fixed cost of a route adds, by
// group of groups, for the shift it adds to the day: under FewestDrivers,
// in a round that offers shifts already driving (continued groups), each
// other group's route costs newShiftSurcharge more, so that of two
// solutions with as many routes routing prefers the one that opens fewer
// shifts. Routing's Hierarchical objective counts a route on a continued
// group as one more route, as it counts a new shift; without the
// surcharge it leaves the choice between them to the kilometres. A round
// without continued groups adds nothing, since every route would pay the
// same.
func newShiftSurcharges(m *model, groups []shiftGroup) []float64 {
	extra := make([]float64, len(groups))
	if m.req.Options.Objective != FewestDrivers || !slices.ContainsFunc(groups, func(g shiftGroup) bool { return g.continued && len(g.free) > 0 }) {
		return extra
	}
	step := newShiftSurcharge(m.req)
	for g, grp := range groups {
		if !grp.continued {
			extra[g] = step
		}
	}
	return extra
}

// newShiftSurcharge is the surcharge of a route that opens a shift
// (newShiftSurcharges): the reserve step of every trailer type and one
// more, so that it outweighs the reserve surcharges of trailers and
// shifts together (reserveSurcharges, shiftSurcharges: less than a step
// a trailer rank), and a shift's saving weighs more than the trailer a
// route takes.
func newShiftSurcharge(req *Request) float64 {
	return reserveStep(req) * float64(len(req.Fleet)+1)
}
