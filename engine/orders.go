package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// order is what routing moves: the pallets of one store in one temperature
// class, split further when they exceed the biggest compatible trailer.
type order struct {
	store    int
	class    constraints.Temperature
	pallets  []int // indices into Request.Pallets
	load     constraints.Load
	trailers []bool // compatible trailer types, by index
	// prefer, when set, narrows trailers for a routing round: the types
	// this order is kept to while they have room (see preferTrailers).
	prefer  []bool
	reason  string // why it was last sent back, for the unassigned list
	message string
	// laidOutWhole: a trip's layout sent the order back, so routing counts
	// its floor positions whole (see model.demand).
	laidOutWhole bool
	// doorTrouble marks the trailer types (by index) whose doors could not
	// unload a trip routing gave the order, and doorMessage says where, for
	// the last such trip: see noteDoorTrouble (door_stops.go) and, for the
	// reason it gives, unassignOrder (fleet_state.go).
	doorTrouble []bool
	doorMessage string
	// offered: since routing last tried the order (routeRound),
	// fillSpareRoom offered it, left out, to the routes with room as far
	// as its budget of tries went, and the time limit did not cut the
	// offer short. A re-plan's routeUnrouted does not offer it again.
	offered bool
	// roundsRanOut: the routing rounds of the phase that last routed the
	// order ran out (routingRounds) with it sent back by a layout
	// (leaveOut), not the time: no further round was left to try it.
	roundsRanOut bool
}

// palletPositions is the floor positions a pallet takes on a trailer: 1 when
// two fit side by side, else 2 (it stands alone in the row).
func palletPositions(p Pallet, t TrailerType) int {
	_, w := p.Footprint.Dims()
	if 2*w <= t.Inside.WidthMM {
		return 1
	}
	return 2
}

// fits reports whether pallet p can ride on trailer type t to store s at
// all: temperature, the store's length limit, height and floor width.
func (m *model) fits(p Pallet, t TrailerType, s int) bool {
	_, w := p.Footprint.Dims()
	lim := m.req.Stores[s].MaxTrailerLengthMM
	return t.Equipment.Carries(p.Temperature) && routingCapacity(t).Positions > 0 &&
		(lim == 0 || t.nominalLength() <= lim) &&
		p.HeightMM <= t.Inside.HeightMM && w <= t.Inside.WidthMM &&
		p.WeightKg <= t.PayloadKg && p.volume() <= t.capacity().VolumeM3
}

// makeOrders groups pallets by store and class, drops the ones no trailer
// type can carry, and cuts each group into orders that one trailer of its
// biggest compatible type carries: see packGroup. It returns the orders,
// and the pallets it left out as unassigned: those no trailer carries or
// lays out, and the groups it has not come to when the time limit ends or
// ctx is cancelled, NOT_PLANNED.
func makeOrders(ctx context.Context, pc *planContext) (orders []*order, unassigned []Unassigned, err error) {
	m, req := pc.m, pc.m.req
	type key struct {
		store int
		class constraints.Temperature
	}
	groups := map[key][]int{}
	var keys []key
	for i, p := range req.Pallets {
		if m.kept != nil && m.kept[i] {
			continue // on a route of the previous plan kept (kept_shifts.go)
		}
		k := key{m.store[p.Store], p.Temperature}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	for ki, k := range keys {
		if pc.stopped(ctx) {
			// Time is up: the stores not reached get no orders.
			for _, k := range keys[ki:] {
				for _, pi := range groups[k] {
					p := req.Pallets[pi]
					unassigned = append(unassigned, Unassigned{Pallet: p.ID, Store: p.Store, Reason: ReasonNotPlanned, Message: notPacked})
				}
			}
			return orders, unassigned, nil
		}
		if why := m.noRoad(k.store); why != "" {
			for _, pi := range groups[k] {
				p := req.Pallets[pi]
				unassigned = append(unassigned, Unassigned{Pallet: p.ID, Store: p.Store, Reason: ReasonNoRoad, Message: why})
			}
			continue
		}
		ok, left := m.carriedPallets(groups[k], k.store)
		unassigned = append(unassigned, left...)
		if len(ok) == 0 {
			continue
		}
		compat, best := m.trailersForAll(ok, k.store)
		if best < 0 {
			// Pallets of the group fit different trailer types but no
			// single one: route each pallet on its own.
			for _, pi := range ok {
				o := &order{store: k.store, class: k.class, trailers: make([]bool, len(req.Fleet))}
				for ti, t := range req.Fleet {
					o.trailers[ti] = t.Count > 0 && m.fits(req.Pallets[pi], t, k.store)
				}
				m.addPallet(o, pi, req.Fleet[firstTrue(o.trailers)])
				orders = append(orders, o)
			}
			continue
		}
		packed, left, err := packGroup(ctx, pc, k.store, k.class, ok, compat, best)
		if err != nil {
			return nil, nil, err
		}
		orders, unassigned = append(orders, packed...), append(unassigned, left...)
	}
	return orders, unassigned, nil
}

// carriedPallets splits pallets idx of store s into those some trailer
// type of the fleet can carry there (ok) and, with their reasons, those
// none can (unassigned).
func (m *model) carriedPallets(idx []int, s int) (ok []int, unassigned []Unassigned) {
	req := m.req
	for _, pi := range idx {
		p := req.Pallets[pi]
		carried := false
		for _, t := range req.Fleet {
			if t.Count > 0 && m.fits(p, t, s) {
				carried = true
			}
		}
		if !carried {
			reason, msg := m.explainPallet(p, s)
			unassigned = append(unassigned, Unassigned{Pallet: p.ID, Store: p.Store, Reason: reason, Message: msg})
			continue
		}
		ok = append(ok, pi)
	}
	return ok, unassigned
}

// trailersForAll are the trailer types of the fleet that can carry every
// one of pallets idx to store s (compat, by index), and best, the one of
// them with the most routing capacity, -1 when there is none.
func (m *model) trailersForAll(idx []int, s int) (compat []bool, best int) {
	req := m.req
	compat = make([]bool, len(req.Fleet))
	best = -1
	for ti, t := range req.Fleet {
		c := true
		for _, pi := range idx {
			if !m.fits(req.Pallets[pi], t, s) {
				c = false
				break
			}
		}
		compat[ti] = c && t.Count > 0
		if compat[ti] && (best < 0 || routingCapacity(t).Positions > routingCapacity(req.Fleet[best]).Positions) {
			best = ti
		}
	}
	return compat, best
}

// groupPackLimit bounds loadplan.PackFleet on one store's pallets of one
// class; it returns sooner when it meets its lower bound, as it does for
// all but odd groups.
const groupPackLimit = 50 * time.Millisecond

// layoutsPerPallet sizes PackFleet's budget of layouts after its first
// packing: enough to meet the lower bound on the instances measured
// (bench/results/packfleet.md) and far below a second on hundreds of
// pallets.
const layoutsPerPallet = 20

// notPacked is the message of the pallets makeOrders did not come to.
const notPacked = "the time limit ended, or planning was cancelled, before this pallet was packed"

// packOptions are PackFleet's options for n pallets within limit, and
// within the time left.
func (pc *planContext) packOptions(n int, limit time.Duration) loadplan.FleetOptions {
	limit = min(limit, pc.deadline.Sub(pc.now()))
	return loadplan.FleetOptions{TimeLimit: max(limit, time.Millisecond), MaxLayouts: max(1, layoutsPerPallet*n), Seed: pc.seed}
}

// packGroup cuts the pallets idx of one store and class into orders. The
// group is laid out on a trailer of type best (its routing capacity: a
// multi-temperature reefer keeps room for its other zones); when it does
// not fit whole, loadplan.PackFleet packs it into the fewest such
// trailers. Each order so is loadable alone, and its floor positions are
// those of its layout, stacking included, so routing counts what the floor
// really takes. Pallets that no layout takes alone are unassigned with
// loadplan's reason. It returns the orders and the pallets unassigned.
func packGroup(ctx context.Context, pc *planContext, store int, class constraints.Temperature, idx []int, compat []bool, best int) (orders []*order, unassigned []Unassigned, err error) {
	m, req := pc.m, pc.m.req
	bt := req.Fleet[best]
	tr := layoutTrailer(bt)
	tr.Positions = routingCapacity(bt).Positions
	lp := make([]loadplan.Pallet, len(idx))
	byID := make(map[string]int, len(idx))
	for j, pi := range idx {
		lp[j] = layoutPallet(req.Pallets[pi], 0)
		byID[req.Pallets[pi].ID] = pi
	}
	add := func(pallets []int, positions int) {
		o := &order{store: store, class: class, trailers: compat, pallets: pallets}
		for _, pi := range pallets {
			p := req.Pallets[pi]
			o.load = o.load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
		o.load.Positions = positions
		orders = append(orders, o)
	}
	if _, err := loadplan.PlanTrailer(tr, lp, 1); err == nil {
		// The order takes its floor with its own stackable pallets
		// stacked: a route stacks them when its floor runs out.
		add(idx, loadplan.StackedPositions(tr, lp))
		return orders, nil, nil
	}
	fp, err := loadplan.PackFleet(ctx, []loadplan.FleetTrailer{{Trailer: tr, Count: len(idx)}}, lp, pc.packOptions(len(lp), pc.groupLimit))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: packing the pallets of store %q: %w", ErrInternal, req.Stores[store].ID, err)
	}
	for _, l := range fp.Loads {
		var pallets []int
		for _, p := range l.Pallets {
			pallets = append(pallets, byID[p.ID])
		}
		add(pallets, l.Layout.Load.Positions)
	}
	for _, u := range fp.Unplaced {
		pi := byID[u.Pallet]
		if u.Code == loadplan.CodeCancelled {
			unassigned = append(unassigned, Unassigned{Pallet: u.Pallet, Store: req.Stores[store].ID, Reason: ReasonNotPlanned, Message: notPacked})
			continue
		}
		// Not on the biggest type: perhaps alone on another one.
		o := &order{store: store, class: class, trailers: make([]bool, len(req.Fleet))}
		found := false
		for ti, t := range req.Fleet {
			if !compat[ti] {
				continue
			}
			alone := layoutTrailer(t)
			alone.Positions = routingCapacity(t).Positions
			if _, err := loadplan.PlanTrailer(alone, []loadplan.Pallet{layoutPallet(req.Pallets[pi], 0)}, 1); err == nil {
				o.trailers[ti], found = true, true
			}
		}
		if !found {
			unassigned = append(unassigned, Unassigned{Pallet: u.Pallet, Store: req.Stores[store].ID, Reason: ReasonLoadLayout,
				Message: fmt.Sprintf("store %s: no trailer that can reach the store has a legal floor layout for this pallet: %s", req.Stores[store].ID, u.Reason)})
			continue
		}
		m.addPallet(o, pi, req.Fleet[firstTrue(o.trailers)])
		orders = append(orders, o)
	}
	return orders, unassigned, nil
}

// firstTrue is the index of the first true entry, or -1.
func firstTrue(bs []bool) int {
	for i, b := range bs {
		if b {
			return i
		}
	}
	return -1
}

// addPallet adds pallet pi to o, as it stands on a trailer of type t.
func (m *model) addPallet(o *order, pi int, t TrailerType) {
	p := m.req.Pallets[pi]
	o.pallets = append(o.pallets, pi)
	o.load = o.load.Add(constraints.Load{Positions: palletPositions(p, t), WeightKg: p.WeightKg, VolumeM3: p.volume()})
}

// routingCapacity is the capacity routing may fill: the declared positions,
// less one position per extra zone a multi-temperature reefer may need
// (a zone with an odd count leaves half a row empty).
func routingCapacity(t TrailerType) constraints.Load {
	c := t.capacity()
	if z := t.Equipment.Zones(); z > 1 {
		c.Positions -= z - 1
	}
	return c
}
