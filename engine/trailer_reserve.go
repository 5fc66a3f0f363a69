package engine

import (
	"math"
	"slices"

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
// orders: FLEET_EXHAUSTED pallets from 3,783 to 1,699 at 30 s).
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
func preferTrailers(m *model, pool []*order, freeShifts int) {
	req := m.req
	if len(req.Fleet) < 2 || len(pool) < reserveMinOrders {
		return
	}
	reach, total := trailerReach(req, pool)
	if !driversToSpare(req, total, freeShifts) {
		return
	}
	types := make([]int, len(req.Fleet))
	for ti := range types {
		types[ti] = ti
	}
	slices.SortStableFunc(types, func(a, b int) int { return reach[a] - reach[b] })
	groups := ordersByTrailers(req, pool)
	fillTrailerTypes(req, groups, types)
	for _, g := range groups {
		if !g.covered || countTrue(g.filled) == countTrue(g.trailers) {
			continue
		}
		for _, o := range g.orders {
			o.prefer = g.filled
		}
	}
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

// driversToSpare reports whether freeShifts are enough to restrict orders
// of total floor positions to some trailers. Restricted orders share
// routes with fewer others, so the plan may need more routes, hence
// drivers: restrict only when the drivers are as plentiful as the
// trailers must be, reserveSlack times the routes the floor positions
// need at the least.
func driversToSpare(req *Request, total, freeShifts int) bool {
	most := 0
	for _, t := range req.Fleet {
		most = max(most, routingCapacity(t).Positions)
	}
	return most > 0 && float64(freeShifts) >= reserveSlack*math.Ceil(float64(total)/float64(most))
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
// spare, into the room of every unit of the trailer types, in the order
// types gives, the groups with the fewest alternatives first: it marks the
// types each group's positions went to (filled) and the groups whose
// positions all found room (covered).
func fillTrailerTypes(req *Request, groups []*trailerGroup, types []int) {
	left := make([]float64, len(groups)) // positions still to place, with the slack
	for i, g := range groups {
		left[i] = reserveSlack * float64(g.need)
	}
	for _, ti := range types {
		t := req.Fleet[ti]
		room := float64(t.Count * routingCapacity(t).Positions)
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
			groups[i].filled[ti] = true
			if left[i] <= 0 {
				groups[i].covered = true
			}
		}
	}
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
