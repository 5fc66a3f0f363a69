package engine

import (
	"math"
	"slices"
	"time"

	"github.com/haulplan/haulplan/routeplan"
)

// Keeping versatile trailers for the freight that needs them. Under the
// fewest-trailers objective, routing ranks plans of as many routes by
// cost, and a route opens on the cheapest trailer that serves its first
// store. On a grocery day that hands the 48 ft dry vans (cheaper than the
// 53 ft ones) to stores that take any trailer, so that the stores limited
// to 48 ft must take the multi-temperature reefers for their ambient
// freight, and their frozen freight, which only those reefers reach there,
// is left behind while 53 ft vans stand idle (dcday, 5,000 stores).
//
// So each trailer type is ranked by how much of the day's freight it could
// carry (the floor positions of the orders it is compatible with: a 53 ft
// dry van takes the ambient freight of the stores that accept 53 ft, a
// 48 ft dry van the ambient freight of every store, a reefer any freight
// of those stores, a multi-temperature 48 ft reefer all of it), and
// routing's fixed cost of a route grows by one reserveStep per rank: the
// least versatile trailer that can do a job is the first choice, the
// versatile ones stay free for the orders that need them, and a plan that
// needs fewer of them ranks first among plans of as many routes. The step
// is the largest fixed cost of the fleet, so it outweighs the cost
// differences between the types; it steers routing only: the plan's costs
// are computed from the request's own, and the cost objective leaves
// routing's costs as they are.
func reserveSurcharges(m *model, pool []*order) []float64 {
	req := m.req
	extra := make([]float64, len(req.Fleet))
	if !req.Options.Objective.fewestRoutes() {
		return extra
	}
	reach, _ := trailerReach(req, pool)
	levels := slices.Clone(reach)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	step := reserveStep(req)
	for ti := range req.Fleet {
		extra[ti] = step * float64(slices.Index(levels, reach[ti]))
	}
	return extra
}

// shiftSurcharges do for driver shifts what reserveSurcharges do for
// trailers, within one trailer rank: a shift group is ranked by how much
// of the day's freight it could deliver (the floor positions of the orders
// whose store it can reach inside one of its receiving windows and come
// back from before the shift ends, by travel time alone), and a route's
// fixed cost grows by step per rank. So a store that a late shift can
// serve gets the late shift, and the early shifts stay for the stores
// that close early (dcday at 5,000 stores: every shift from 21:00 to 07:30
// drove while those from 07:45 stood idle and 1,671 pallets stayed
// behind). step is a trailer rank's step divided by the number of shift
// ranks, so that the trailer choice comes first.
func shiftSurcharges(m *model, groups []shiftGroup, pool []*order, trailerStep float64) []float64 {
	extra := make([]float64, len(groups))
	if !m.req.Options.Objective.fewestRoutes() || trailerStep <= 0 {
		return extra
	}
	reach := make([]int, len(groups))
	for g, grp := range groups {
		if len(grp.free) == 0 {
			continue
		}
		for _, o := range pool {
			there := m.matrix.Duration(0, 1+o.store)
			back := m.matrix.Duration(1+o.store, 0)
			for _, w := range m.storeWin[o.store] {
				if !grp.start.Add(there).After(w.End) && !w.Start.Add(back).After(grp.end) {
					reach[g] += o.load.Positions
					break
				}
			}
		}
	}
	levels := slices.Clone(reach)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	step := trailerStep / float64(len(levels)+1)
	for g := range groups {
		extra[g] = step * float64(slices.Index(levels, reach[g]))
	}
	return extra
}

// reserveStep is the surcharge of one trailer rank: the largest fixed cost
// of the fleet, or 1.
func reserveStep(req *Request) float64 {
	step := 0.0
	for _, t := range req.Fleet {
		step = max(step, t.Costs.Fixed)
	}
	if step <= 0 {
		step = 1
	}
	return step
}

// routingCost is what routing's solution costs in the request's terms:
// its own cost less the reserve surcharges of the routes' trailers.
func (r *routing) routingCost(sol *routeplan.Solution) float64 {
	c := sol.Cost
	for _, rr := range sol.Routes {
		c -= r.surcharge[rr.VehicleType]
	}
	return c
}

// reserveSlack is how much room the less versatile trailers must have
// beyond an order group's floor positions before the group is kept off
// the more versatile ones: routes do not fill every position.
const reserveSlack = 1.15

// reserveMinOrders is the fewest orders for which preferTrailers restricts
// them. Orders restricted to some trailers can leave one out that a route
// of the unrestricted round would have taken (a route needs a driver, and
// the round after cannot add to the routes of the first); on small days
// the search finds the right trailers in its time without the restriction,
// on large ones its first plan decides (dcday at 5,000 stores, 15,000
// orders: FLEET_EXHAUSTED pallets from 3,783 to 1,699 at 30 s). Small days
// whose units must turn are left unrestricted too: on dcday's realistic
// day at 200 stores (519 orders, 3,000 iterations a stream, seeds 1-3
// drivers and 1 trailers), restricting with trips counted left 34 pallets
// behind in all against 48, but drove 2 to 3 more shifts and 3 to 6 more
// trailer units on each drivers day, and left 31 behind against none on
// the trailers day.
const reserveMinOrders = 2000

// preferTrailers keeps freight off the versatile trailers while the less
// versatile ones can carry it. Orders are grouped by the trailer types
// they are compatible with; the types are filled, least versatile first
// (by reach, as in reserveSurcharges), with the floor positions of the
// groups compatible with them, as water fills vessels. A group whose
// positions fit, reserveSlack to spare, in the types it filled before any
// more versatile one is restricted to those types (order.prefer) for the
// first routing round: on a grocery day, the ambient freight of the stores
// that take 53 ft trailers to the 53 ft dry vans, that of the 48 ft stores
// to the 48 ft dry vans, and the reefers, single- and multi-temperature,
// stay for the chilled and frozen freight, which has nowhere else to go.
// Orders the restricted round leaves out go back with every compatible
// type (see routeRound). Both objectives restrict, since delivering the
// pallets comes before either, but only on large days with drivers to
// spare: freeShifts is the number of shifts free.
//
// On a day whose freight does not fit its units loaded once
// (unitsMustTurn), a day's room is counted in trips: a trailer unit turns
// and runs several trips, a shift drives several (dayTrips), so that the
// reservation still holds when units and drivers are fewer than the
// trailer loads, where counting each once would give up and let the
// ambient freight take the reefers the cold freight needs (dcday's
// realistic day at 1,000 stores: about 900 ambient pallets on reefers and
// 1,000 chilled and frozen ones left behind; none on reefers and about
// 650 left behind with trips counted).
func preferTrailers(m *model, pool []*order, freeShifts int) {
	req := m.req
	if len(req.Fleet) < 2 || len(pool) < reserveMinOrders {
		return
	}
	reach, total := trailerReach(req, pool)
	types := make([]int, len(req.Fleet))
	for ti := range types {
		types[ti] = ti
	}
	slices.SortStableFunc(types, func(a, b int) int { return reach[a] - reach[b] })
	groups := ordersByTrailers(req, pool)
	day := oneTripADay(len(req.Fleet))
	if unitsMustTurn(req, groups, types) {
		day = m.dayTrips(pool, reach)
	}
	if !driversToSpare(req, total, float64(freeShifts)*day.perShift) {
		return
	}
	fillTrailerTypes(req, groups, types, day.perUnit)
	for _, g := range groups {
		if !g.covered || countTrue(g.filled) == countTrue(g.trailers) {
			continue
		}
		for _, o := range g.orders {
			o.prefer = g.filled
		}
	}
}

// oneTripADay counts each of types trailer types' units and each shift
// once.
func oneTripADay(types int) tripsPerDay {
	day := tripsPerDay{perUnit: make([]float64, types), perShift: 1}
	for ti := range day.perUnit {
		day.perUnit[ti] = 1
	}
	return day
}

// tripsPerDay is how many trips the fleet makes in the day: perUnit, by
// trailer type, the trips one unit of it runs (it turns), and perShift
// the mean trips a driver shift drives; each at least 1.
type tripsPerDay struct {
	perUnit  []float64
	perShift float64
}

// dayTrips estimates the trips of the day for pool: each trailer type's
// units run typical trips (unitTrips) of the freight it is kept for, the
// orders no type of less reach (trailerReach) is compatible with: a
// reefer's are those of chilled and frozen freight, fewer pallets a store
// and so more stops than a dry van's. A type kept for nothing runs those
// of the orders it is compatible with. Each shift drives typical trips of
// the largest trailer with any order (shiftDayTrips). A unit or shift
// counts at least once, as on a day without turns.
func (m *model) dayTrips(pool []*order, reach []int) tripsPerDay {
	req := m.req
	day := tripsPerDay{perUnit: make([]float64, len(req.Fleet)), perShift: 1}
	hop := m.nearestHops(pool)
	closing := m.storesClose(pool)
	most := 0
	for ti, t := range req.Fleet {
		day.perUnit[ti] = 1
		positions := routingCapacity(t).Positions
		keptFor := func(o *order) bool {
			for tj, can := range o.trailers {
				if can && reach[tj] < reach[ti] {
					return false
				}
			}
			return o.trailers[ti]
		}
		trip, ok := m.estimateTrip(pool, keptFor, positions, hop)
		if !ok {
			trip, ok = m.estimateTrip(pool, func(o *order) bool { return o.trailers[ti] }, positions, hop)
		}
		if !ok {
			continue
		}
		most = max(most, positions)
		day.perUnit[ti] = max(1, m.unitTrips(t, trip, closing))
	}
	trip, ok := m.estimateTrip(pool, func(*order) bool { return true }, most, hop)
	if !ok || len(req.Shifts) == 0 {
		return day
	}
	sum := 0.0
	for si := range req.Shifts {
		sum += m.shiftDayTrips(si, trip, closing)
	}
	day.perShift = max(1, sum/float64(len(req.Shifts)))
	return day
}

// trailerReach is, for each trailer type, the floor positions of the
// orders in pool it is compatible with, and total the positions of all.
func trailerReach(req *Request, pool []*order) (reach []int, total int) {
	reach = make([]int, len(req.Fleet))
	for _, o := range pool {
		total += o.load.Positions
		for ti, ok := range o.trailers {
			if ok {
				reach[ti] += o.load.Positions
			}
		}
	}
	return reach, total
}

// driversToSpare reports whether the free shifts, which drive shiftTrips
// trips in the day, are enough to restrict orders of total floor
// positions to some trailers. Restricted orders share routes with fewer
// others, so the plan may need more routes, hence drivers: restrict only
// when the drivers' trips are as plentiful as the trailers must be,
// reserveSlack times the routes the floor positions need at the least.
func driversToSpare(req *Request, total int, shiftTrips float64) bool {
	most := 0
	for _, t := range req.Fleet {
		most = max(most, routingCapacity(t).Positions)
	}
	return most > 0 && shiftTrips >= reserveSlack*math.Ceil(float64(total)/float64(most))
}

// trailerGroup is the orders compatible with the same trailer types, and
// how the types' room covers them (see fillTrailerTypes).
type trailerGroup struct {
	trailers []bool
	need     int    // floor positions
	filled   []bool // the types its positions went to
	covered  bool
	orders   []*order
}

// ordersByTrailers groups the orders in pool by the trailer types they are
// compatible with, in the order the groups first appear.
func ordersByTrailers(req *Request, pool []*order) []*trailerGroup {
	var groups []*trailerGroup
	key := func(bs []bool) string {
		b := make([]byte, len(bs))
		for i, v := range bs {
			b[i] = '0'
			if v {
				b[i] = '1'
			}
		}
		return string(b)
	}
	byKey := map[string]*trailerGroup{}
	for _, o := range pool {
		k := key(o.trailers)
		g := byKey[k]
		if g == nil {
			g = &trailerGroup{trailers: o.trailers, filled: make([]bool, len(req.Fleet))}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.need += o.load.Positions
		g.orders = append(g.orders, o)
	}
	return groups
}

// fillTrailerTypes pours the groups' floor positions, reserveSlack to
// spare, into the room of the trailer types' trips (Count units each
// running unitTrips of its type in the day; see pourTrailerTypes): it
// marks the types each group's positions went to (filled) and the groups
// whose positions all found room (covered).
func fillTrailerTypes(req *Request, groups []*trailerGroup, types []int, unitTrips []float64) {
	filled, covered := pourTrailerTypes(req, groups, types, unitTrips, reserveSlack)
	for i, g := range groups {
		g.filled, g.covered = filled[i], covered[i]
	}
}

// pourTrailerTypes pours slack times the groups' floor positions into the
// room of the trailer types' trips (Count units each running unitTrips of
// its type), in the order types gives, the groups with the fewest
// alternatives first. filled is, by group, the types its positions went
// to; covered whether they all found room.
func pourTrailerTypes(req *Request, groups []*trailerGroup, types []int, unitTrips []float64, slack float64) (filled [][]bool, covered []bool) {
	left := make([]float64, len(groups)) // positions still to place, with the slack
	filled, covered = make([][]bool, len(groups)), make([]bool, len(groups))
	for i, g := range groups {
		left[i] = slack * float64(g.need)
		filled[i] = make([]bool, len(req.Fleet))
		covered[i] = left[i] <= 0
	}
	for _, ti := range types {
		t := req.Fleet[ti]
		room := unitTrips[ti] * float64(t.Count*routingCapacity(t).Positions)
		order := make([]int, 0, len(groups))
		for i, g := range groups {
			if g.trailers[ti] && left[i] > 0 {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return countTrue(groups[a].trailers) - countTrue(groups[b].trailers) })
		for _, i := range order {
			take := min(room, left[i])
			if take <= 0 {
				continue
			}
			room -= take
			left[i] -= take
			filled[i][ti] = true
			if left[i] <= 0 {
				covered[i] = true
			}
		}
	}
	return filled, covered
}

// unitsMustTurn reports whether the day's freight (groups) finds no room,
// by the pour of pourTrailerTypes without slack, in the trailer units
// loaded once each: some freight can only ride a unit's second trip. Only
// then does the reservation count the trips a unit and a shift make in
// the day (dayTrips). On a day whose units, loaded once, hold the freight
// of every kind, the search need not turn a unit, and its first round
// often does not: counting turns there credits the less versatile types
// with room the first round's routes do not use, keeps freight off the
// versatile types that would have carried it, and leaves it to rounds cut
// short (dcday's standard day at 5,000 stores, whose units are 1.25 times
// its freight: 2,035 routes all delivered with each unit counted once,
// 2,170 routes with 69 FLEET_EXHAUSTED pallets, or 1,787 NOT_PLANNED and
// 302 FLEET_EXHAUSTED, with turns counted).
func unitsMustTurn(req *Request, groups []*trailerGroup, types []int) bool {
	once := make([]float64, len(req.Fleet))
	for ti := range once {
		once[ti] = 1
	}
	_, covered := pourTrailerTypes(req, groups, types, once, 1)
	return slices.Contains(covered, false)
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// typicalTrip is what a trip of one trailer type looks like on the day,
// estimated from the orders it is compatible with: it steers the
// reservation, it bounds nothing.
type typicalTrip struct {
	loading time.Duration // loading a full trailer at the DC
	length  time.Duration // from hook-up to return
	driving time.Duration // of length
	out     time.Duration // from the DC to the first store
	back    time.Duration // from the last store to the DC
}

// estimateTrip is the typical trip of a trailer of capacity positions
// carrying the orders in pool that ok accepts: a full trailer; as many
// stops as its positions hold of a store's such orders, on the mean over
// the stores; the travel out and back, the unloading at a stop and of a
// pallet, and between two stops the travel from a store to its nearest
// (hop, by store, see nearestHops), each the mean over the stores
// weighted by their orders' positions. It is false when ok accepts no
// order.
func (m *model) estimateTrip(pool []*order, ok func(*order) bool, positions int, hop []time.Duration) (typicalTrip, bool) {
	byStore := map[int]int{} // positions
	var stores []int
	for _, o := range pool {
		if ok(o) {
			if _, seen := byStore[o.store]; !seen {
				stores = append(stores, o.store)
			}
			byStore[o.store] += o.load.Positions
		}
	}
	if len(stores) == 0 || positions <= 0 {
		return typicalTrip{}, false
	}
	var w, out, back, between, fixed, perPallet, atStop float64 // seconds, weighted by positions
	for _, s := range stores {
		p := float64(byStore[s])
		if p <= 0 {
			continue
		}
		if !m.matrix.Routed(0, 1+s) || !m.matrix.Routed(1+s, 0) {
			continue // no trip reaches it
		}
		un := m.req.Stores[s].Unloading
		w += p
		out += p * m.matrix.Duration(0, 1+s).Seconds()
		back += p * m.matrix.Duration(1+s, 0).Seconds()
		between += p * hop[s].Seconds()
		fixed += p * un.Fixed.Seconds()
		perPallet += p * un.PerPallet.Seconds()
		atStop += float64(min(byStore[s], positions))
	}
	if w == 0 {
		return typicalTrip{}, false
	}
	stops := max(1, float64(positions)*float64(len(stores))/atStop)
	// A mean over w, no longer than maxTrip: a trip longer runs no trip in
	// a day anyway.
	sec := func(s float64) time.Duration {
		return time.Duration(min(s/w, maxTrip.Seconds()) * float64(time.Second))
	}
	t := typicalTrip{loading: m.req.DC.LoadingTime(positions), out: sec(out), back: sec(back)}
	t.driving = sec(out + back + (stops-1)*between)
	t.length = m.req.HookTime() + t.driving + sec(stops*fixed+float64(positions)*perPallet)
	return t, true
}

// maxTrip bounds the parts of a typical trip: a week.
const maxTrip = 7 * 24 * time.Hour

// nearestHops is, for each store with an order in pool, the travel from it
// to the nearest other such store it has a route to (0 when none).
func (m *model) nearestHops(pool []*order) []time.Duration {
	hop := make([]time.Duration, len(m.req.Stores))
	var stores []int
	seen := make([]bool, len(m.req.Stores))
	for _, o := range pool {
		if !seen[o.store] {
			seen[o.store] = true
			stores = append(stores, o.store)
		}
	}
	for _, a := range stores {
		best := time.Duration(-1)
		for _, b := range stores {
			if a != b && m.matrix.Routed(1+a, 1+b) {
				if d := m.matrix.Duration(1+a, 1+b); best < 0 || d < best {
					best = d
				}
			}
		}
		hop[a] = max(best, 0)
	}
	return hop
}

// tripSpread is how the trips of a day spread around the typical one: a
// unit or a shift is counted as the mean of the trips it runs at each of
// these lengths, so that a day in which the typical trip just misses a
// second one still counts the shorter trips that make it.
var tripSpread = []float64{0.8, 0.9, 1, 1.1, 1.2}

// storesClose is when the stores of pool stop receiving, the mean of
// their last receiving window's end weighted by their orders' floor
// positions: a trip whose stops end later than that misses most of them.
func (m *model) storesClose(pool []*order) time.Time {
	var sum float64 // seconds after origin, by position
	pos := 0
	for _, o := range pool {
		var last time.Time
		for _, w := range m.storeWin[o.store] {
			if w.End.After(last) {
				last = w.End
			}
		}
		if last.IsZero() {
			continue
		}
		sum += float64(o.load.Positions) * last.Sub(m.origin).Seconds()
		pos += o.load.Positions
	}
	if pos == 0 {
		return m.end
	}
	return m.origin.Add(time.Duration(sum / float64(pos) * float64(time.Second)))
}

// unitTrips is the trips one unit of trailer type t runs in the day, each
// like trip: it loads inside the dock hours, no earlier than the staging
// limit before a driver comes on, leaves a hook time after loading and not
// before the driver's hook-up, ends its stops by closing and is back by the
// last shift's end; then it turns (the DC's turnaround) and loads again.
// It is the mean over the shifts' starts as the first trip's driver, and
// over tripSpread's lengths.
func (m *model) unitTrips(t TrailerType, trip typicalTrip, closing time.Time) float64 {
	hook, turn := m.req.HookTime(), m.req.Turnaround()
	staging := m.req.StagingLimit(t)
	total, runs := 0, 0
	for _, sh := range m.req.Shifts {
		for _, f := range tripSpread {
			runs++
			length := time.Duration(f * float64(trip.length))
			stops := length - hook - trip.back
			free := sh.Start.Add(-staging - trip.loading)
			for {
				load, ok := m.nextDockStart(free)
				if !ok {
					break
				}
				depart := load.Add(trip.loading + hook)
				if first := sh.Start.Add(hook); depart.Before(first) {
					depart = first
				}
				back := depart.Add(length - hook)
				if depart.Add(stops).After(closing) || back.After(m.end) {
					break
				}
				total++
				free = back.Add(turn)
			}
		}
	}
	if runs == 0 {
		return 0
	}
	return float64(total) / float64(runs)
}

// nextDockStart is the first instant from at on at which loading may
// start, and false when the dock hours end before.
func (m *model) nextDockStart(at time.Time) (time.Time, bool) {
	if m.alwaysDock || m.dockWin == nil {
		return at, true
	}
	for _, w := range m.dockWin {
		if at.Before(w.End) {
			if at.Before(w.Start) {
				return w.Start, true
			}
			return at, true
		}
	}
	return time.Time{}, false
}

// shiftDayTrips is the trips shift si drives in its day, each like trip
// (averaged over tripSpread): one after another from its start, each
// ending its stops by closing, within the shift, its duty and driving
// limits and its MaxTrips.
func (m *model) shiftDayTrips(si int, trip typicalTrip, closing time.Time) float64 {
	sh := m.req.Shifts[si]
	hos := m.req.ShiftLimits(si)
	end := sh.End
	if hos.MaxDuty > 0 && sh.Start.Add(hos.MaxDuty).Before(end) {
		end = sh.Start.Add(hos.MaxDuty)
	}
	total := 0
	for _, f := range tripSpread {
		length := time.Duration(f * float64(trip.length))
		driving := time.Duration(f * float64(trip.driving))
		at, drove, n := sh.Start, time.Duration(0), 0
		for sh.MaxTrips <= 0 || n < sh.MaxTrips {
			back := at.Add(length)
			if back.Add(-trip.back).After(closing) || back.After(end) ||
				(hos.MaxDriving > 0 && drove+driving > hos.MaxDriving) {
				break
			}
			n++
			at, drove = back, drove+driving
		}
		total += n
	}
	return float64(total) / float64(len(tripSpread))
}
