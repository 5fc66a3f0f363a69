package engine

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// A trailer type is the more versatile the more of the day's pallets it
// can carry: a multi-temperature reefer carries every class to every
// store that takes its length, a reefer one class at a time, a dry van
// ambient pallets alone. Routing drives a shift's trips on one trailer
// type, so a reefer shift's afternoon trip of ambient pallets rides a
// reefer, and a unit that chilled and frozen pallets could have had turns
// for ambient ones while dry vans stand in the yard. A DC sends such a
// trip on a dry van, and keeps its reefers for what only they carry.

// versatility is, by trailer type, how many pallets of the orders placed
// and left out it can carry.
func (fleet *fleetState) versatility(m *model) []int {
	out := make([]int, len(m.req.Fleet))
	count := func(o *order) {
		for ti := range out {
			if o.trailers[ti] {
				out[ti] += len(o.pallets)
			}
		}
	}
	for _, p := range fleet.placed {
		for _, o := range p.orders {
			count(o)
		}
	}
	for _, o := range fleet.leftOut {
		count(o)
	}
	return out
}

// spareVersatileUnits moves each trip onto the least versatile trailer
// type that carries all its orders and has a unit free over its times,
// when that type is less versatile than its own and an order left out
// for want of a unit or a driver (wantedOff) rides its own type but not
// that one: the trip is timed again alone on the new type, between the
// trips of its shift before and after it (so its shift and its place
// among them stay), its floor laid out again, and the units and dock
// doors must still suffice (unitsFit, doorsFit) and the shift still drive
// it (withTrip). A day with nothing such left out, or no shift free to
// drive it, keeps its trips where routing put them. A route kept from a
// previous plan stays as it is. It frees units of the versatile types for
// the orders left out, for a later routing of them (routeLeftovers) to
// take, and reports how many trips moved. It tries at most retypeTries
// moves (so that an iteration budget gives the same plan on any machine)
// and stops when pc's time is up.
//
// A trip moved off its shift's type leaves a shift of two types, which
// route elimination and the spare-room fill leave alone
// (fleetState.replaceOrders): delivering the pallets left out comes
// before the routes those phases might save.
func spareVersatileUnits(ctx context.Context, pc *planContext, fleet *fleetState) int {
	m := pc.m
	if fleet.freeShifts() == 0 {
		return 0
	}
	vers := fleet.versatility(m)
	moved, tries := 0, 0
	for ri := range fleet.routes {
		p := fleet.placed[ri]
		if p.kept {
			continue
		}
		var to []int
		for tj, t := range m.req.Fleet {
			if t.Count > 0 && vers[tj] < vers[p.kind.trailer] && ordersRide(p.orders, tj) && fleet.wantedOff(p.kind.trailer, tj) {
				to = append(to, tj)
			}
		}
		slices.SortStableFunc(to, func(a, b int) int { return cmp.Compare(vers[a], vers[b]) })
		for _, tj := range to {
			if tries >= retypeTries || pc.stopped(ctx) {
				return moved
			}
			tries++
			if fleet.retypeTrip(m, ri, tj) {
				moved++
				break
			}
		}
	}
	return moved
}

// retypeTries bounds the moves spareVersatileUnits tries, each a trip
// timed and laid out again.
const retypeTries = 2000

// wantedOff reports whether an order left out for want of a trailer unit
// or a driver (FLEET_EXHAUSTED, which a later routing round takes again)
// rides trailer type ti but not tj: one that a unit of ti moved onto tj
// may carry. An order left out for want of a dock door gains nothing from
// a unit: the doors' time is what it lacks.
func (fleet *fleetState) wantedOff(ti, tj int) bool {
	return slices.ContainsFunc(fleet.leftOut, func(o *order) bool {
		return o.reason == ReasonFleetExhausted && o.trailers[ti] && !o.trailers[tj]
	})
}

// ordersRide reports whether trailer type ti may carry every one of
// orders.
func ordersRide(orders []*order, ti int) bool {
	for _, o := range orders {
		if !o.trailers[ti] {
			return false
		}
	}
	return true
}

// retypeTrip times route ri's orders alone on trailer type tj as the same
// trip of its shift (see spareVersatileUnits) and makes it so when it
// can; it reports whether it did, and when not, nothing changes.
func (fleet *fleetState) retypeTrip(m *model, ri, tj int) bool {
	was := fleet.routes[ri]
	si := slices.IndexFunc(m.req.Shifts, func(s constraints.Shift) bool { return s.ID == was.Shift })
	if si < 0 {
		return false
	}
	sh := m.req.Shifts[si]
	limits := m.req.ShiftLimits(si)
	var others []int
	for _, x := range fleet.shiftTrips(ri) {
		if x != ri {
			others = append(others, x)
		}
	}
	// The trip keeps its place among the shift's trips: after the one
	// before it returns, before the one after it starts, and the whole
	// duty within its limit.
	from, til := sh.Start, sh.End
	var driving time.Duration
	for _, x := range others {
		r := fleet.routes[x]
		driving += r.Metrics.Driving
		if !r.Start.After(was.Start) && r.Return.After(from) {
			from = r.Return
		}
		if r.Start.After(was.Start) && r.Start.Before(til) {
			til = r.Start
		}
	}
	if len(others) > 0 {
		first, last := fleet.routes[others[0]].Start, fleet.routes[others[len(others)-1]].Return
		if at := last.Add(-limits.MaxDuty); at.After(from) {
			from = at
		}
		if at := first.Add(limits.MaxDuty); at.Before(til) {
			til = at
		}
	}
	if til.Sub(from) < was.Return.Sub(was.Start)-was.Metrics.Wait {
		return false
	}
	p := fleet.placed[ri]
	grp := fleet.groups[p.kind.group]
	grp.start, grp.end = from, til
	grp.limits.MaxDriving -= driving
	grp.limits.MaxDuty = til.Sub(from)
	grp.maxTrips = 1
	if grp.limits.MaxDriving <= 0 || grp.limits.MaxDuty <= 0 {
		return false
	}
	for _, z := range m.zoneCounts(tj, p.orders) {
		kind := vehicleKind{group: p.kind.group, trailer: tj, zones: z}
		rr, ok := m.retime(kind, grp, [][]*order{p.orders})
		if !ok || len(rr.Reloads) != 0 {
			continue
		}
		built, _, err := m.buildTrips(kind, rr, p.orders)
		if err != nil || !fleet.unitsFit(m, tj, built, []int{ri}) || !fleet.doorsFit(m, built, []int{ri}) {
			continue
		}
		fleet.routes[ri] = *built[0]
		fleet.routes[ri].Shift = was.Shift
		if _, ok := fleet.withTrip(m, si, others, ri); !ok {
			fleet.routes[ri] = was
			continue
		}
		fleet.placed[ri] = placedRoute{kind: kind, orders: p.orders}
		return true
	}
	return false
}
