package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/routeplan"
)

// Routing dimensions: floor positions, kilograms, cubic metres, and the
// pallet count, which the loading time at the DC is charged on.
const (
	dimPositions = iota
	dimWeight
	dimVolume
	dimPallets
	dims
)

// vector is a load and a pallet count in routing's dimensions.
func vector(l constraints.Load, pallets int) []float64 {
	v := make([]float64, dims)
	v[dimPositions], v[dimWeight], v[dimVolume], v[dimPallets] = float64(l.Positions), l.WeightKg, l.VolumeM3, float64(pallets)
	return v
}

// copiedLocations is the most locations (the DC and the stores) whose
// matrix routing gets as two copied slices of float64, which it reads
// fastest; above it routing reads the request's matrix in place through
// routeplan.Legs, so that a day of 5,000 stores does not hold 400 MB of
// copies beside the matrix's 200 MB.
const copiedLocations = 1500

// matrixLegs is the request's matrix as routing reads it: metres, and
// whole seconds.
type matrixLegs struct{ m *geo.Matrix }

func (l matrixLegs) LegDistance(a, b int) float64 { return l.m.Distance(a, b) }
func (l matrixLegs) LegDuration(a, b int) float64 { return float64(l.m.Seconds(a, b)) }

// routing is one round's routing problem and how to read its answer.
type routing struct {
	p     *routeplan.Problem
	kinds []vehicleKind // by routeplan vehicle type
	// ev times routes of p again (see timeRoute): made on first use, since
	// making one checks and reads the whole matrix, a second or more on
	// thousands of stores, and most rounds never need it.
	ev    *routeplan.Evaluator
	evErr error
	// surcharge is what routing's fixed cost adds to the trailer's, by
	// routeplan vehicle type (see reserveSurcharges).
	surcharge []float64
}

// seconds converts an instant to routing time, whole seconds from the
// horizon's beginning, rounded down; secondsUp rounds up. Window and shift
// starts round up and ends round down, so that routing never uses an
// instant the request does not allow.
func (pl *planner) seconds(t time.Time) float64 {
	return math.Floor(t.Sub(pl.m.origin).Seconds())
}

func (pl *planner) secondsUp(t time.Time) float64 {
	return math.Ceil(t.Sub(pl.m.origin).Seconds())
}

func (pl *planner) instant(s float64) time.Time {
	return pl.m.origin.Add(time.Duration(s) * time.Second)
}

// ceilSeconds and floorSeconds turn durations into whole routing seconds:
// work rounds up and limits round down, so that routing's schedule always
// holds for the request.
func ceilSeconds(d time.Duration) float64  { return math.Ceil(d.Seconds()) }
func floorSeconds(d time.Duration) float64 { return math.Floor(d.Seconds()) }

// windows converts instants to routing windows; a list that ends up empty
// (closed over the whole horizon) becomes one window routing cannot use,
// since an empty list means "always open" to routeplan.
func (pl *planner) windows(ws []constraints.Window) []routeplan.Window {
	var out []routeplan.Window
	for _, w := range ws {
		if a, b := pl.secondsUp(w.Start), pl.seconds(w.End); a <= b {
			out = append(out, routeplan.Window{Start: a, End: b})
		}
	}
	if len(out) == 0 {
		out = []routeplan.Window{{Start: -2, End: -1}}
	}
	return out
}

// routingProblem builds the routing problem for the orders in pool with the
// shifts and trailers still free. Each (shift group, trailer type, set
// point) is a vehicle type taking one unit of the group's resource and one
// of the trailer type's.
func (pl *planner) routingProblem(pool []*order) *routing {
	m, req := pl.m, pl.m.req
	n := 1 + len(req.Stores)
	p := &routeplan.Problem{N: n, Objective: req.Options.Objective.routing()}
	if n > copiedLocations {
		p.Legs = matrixLegs{m.matrix}
	} else {
		p.Distance, p.Duration = make([]float64, n*n), make([]float64, n*n)
		for i := range n {
			for j := range n {
				p.Distance[i*n+j] = m.matrix.Distance(i, j)
				p.Duration[i*n+j] = float64(m.matrix.Seconds(i, j))
			}
		}
	}
	// A trailer carries at most a pallet per floor position plus one on
	// top of each for the pallets that may be stacked.
	stackable := 0
	for _, o := range pool {
		for _, pi := range o.pallets {
			if req.Pallets[pi].MayBeStacked {
				stackable++
			}
		}
	}
	dock := pl.dockWindows()
	shiftRes := make([]int, len(pl.groups))
	for g, grp := range pl.groups {
		shiftRes[g] = -1
		if len(grp.free) > 0 {
			shiftRes[g] = len(p.Resources)
			p.Resources = append(p.Resources, routeplan.Resource{ID: fmt.Sprintf("shifts %s–%s", grp.start.Format(time.RFC3339), grp.end.Format(time.RFC3339)), Count: len(grp.free)})
		}
	}
	trailerRes := make([]int, len(req.Fleet))
	useful := make([]bool, len(req.Fleet))
	for ti, t := range req.Fleet {
		trailerRes[ti] = -1
		for _, o := range pool {
			useful[ti] = useful[ti] || o.trailers[ti]
		}
		if pl.trailersLeft[ti] > 0 && useful[ti] && routingCapacity(t).Positions > 0 {
			trailerRes[ti] = len(p.Resources)
			p.Resources = append(p.Resources, routeplan.Resource{ID: "trailers " + t.ID, Count: pl.trailersLeft[ti]})
		}
	}

	r := &routing{p: p}
	reserve := pl.reserveSurcharges(pool)
	shiftReserve := pl.shiftSurcharges(pool, reserveStep(req))
	for g, grp := range pl.groups {
		if shiftRes[g] < 0 {
			continue
		}
		for ti := range req.Fleet {
			if trailerRes[ti] < 0 {
				continue
			}
			for _, sp := range pl.setPoints(ti, pool) {
				for _, z := range pl.zoneCounts(ti, pool) {
					k := vehicleKind{group: g, trailer: ti, setPoint: sp, zones: z}
					vt := pl.vehicleType(k, stackable, dock)
					if vt.ShiftEnd < vt.ShiftStart {
						continue // a shift shorter than a second
					}
					vt.Count = min(len(grp.free), pl.trailersLeft[ti])
					vt.Resources = []int{shiftRes[g], trailerRes[ti]}
					vt.FixedCost += reserve[ti] + shiftReserve[g]
					p.VehicleTypes = append(p.VehicleTypes, vt)
					r.kinds = append(r.kinds, k)
					r.surcharge = append(r.surcharge, reserve[ti]+shiftReserve[g])
				}
			}
		}
	}
	for _, o := range pool {
		site := pl.site(o, 1+o.store)
		site.VehicleTypes = []int{}
		for t, k := range r.kinds {
			if pl.compatible(o, k) {
				site.VehicleTypes = append(site.VehicleTypes, t)
			}
		}
		p.Sites = append(p.Sites, site)
	}
	return r
}

// timeRoute times sites, in order, on one vehicle of type t as routing would,
// and reports whether that route keeps every rule. Solve has accepted the
// problem by then, so the evaluator cannot fail on it; should it, no route
// is feasible.
func (r *routing) timeRoute(t int, sites []int) (routeplan.Route, bool) {
	if r.ev == nil && r.evErr == nil {
		r.ev, r.evErr = routeplan.NewEvaluator(r.p)
	}
	if r.evErr != nil {
		return routeplan.Route{}, false
	}
	rr, _, ok := r.ev.Route(t, sites)
	return rr, ok
}

// dockWindows are the routing windows in which loading may start; nil
// when the dock is always open.
func (pl *planner) dockWindows() []routeplan.Window {
	if pl.m.alwaysDock {
		return nil
	}
	return pl.windows(pl.m.dockWin)
}

// vehicleType is the routing vehicle type of kind k, with one vehicle and
// no resources: a trailer that carries at most a pallet per floor position
// plus one on top of each of the stackable pallets, loading at the DC
// charged per pallet and starting inside a dock window and the shift.
func (pl *planner) vehicleType(k vehicleKind, stackable int, dock []routeplan.Window) routeplan.VehicleType {
	t := pl.m.req.Fleet[k.trailer]
	grp := pl.groups[k.group]
	capa := pl.kindCapacity(k)
	most := capa.Positions + min(capa.Positions, stackable)
	perPallet := make([]float64, dims)
	perPallet[dimPallets] = ceilSeconds(pl.m.req.DC.LoadingPerPallet)
	vt := routeplan.VehicleType{
		ID:                  fmt.Sprintf("%s/%s/%d/%s", t.ID, k.setPoint, k.zones, grp.start.Format(time.RFC3339)),
		Count:               1,
		Capacity:            vector(capa, most),
		ShiftStart:          pl.secondsUp(grp.start),
		ShiftEnd:            pl.seconds(grp.end),
		StartServicePerUnit: perPallet,
		StartWindows:        dock,
		MaxDuty:             floorSeconds(grp.limits.MaxDuty),
		MaxDriving:          floorSeconds(grp.limits.MaxDriving),
		BreakAfter:          floorSeconds(grp.limits.BreakAfter),
		BreakDuration:       ceilSeconds(grp.limits.BreakDuration),
		FixedCost:           t.Costs.Fixed,
		DistanceCost:        t.Costs.PerKm / 1000,
		TimeCost:            t.Costs.PerHour / 3600,
	}
	if t.Equipment.Kind == constraints.MultiTempReefer {
		vt.MaxGroups = t.Equipment.Zones()
		if k.zones > 0 {
			vt.MaxGroups = k.zones
		}
	}
	return vt
}

// site is the routing site of order o at matrix location loc, open to
// every vehicle type.
func (pl *planner) site(o *order, loc int) routeplan.Site {
	m := pl.m
	return routeplan.Site{
		ID:       fmt.Sprintf("%s/%s", m.req.Stores[o.store].ID, o.class),
		Location: loc,
		// Docking is once per stop: two orders of a store served one
		// after the other share it, as they share the stop in the plan.
		Service:     ceilSeconds(time.Duration(len(o.pallets)) * m.req.Stores[o.store].Unloading.PerPallet),
		StopService: ceilSeconds(m.req.Stores[o.store].Unloading.Fixed),
		Demand:      vector(o.load, len(o.pallets)),
		Windows:     pl.windows(m.storeWin[o.store]),
		Group:       int(o.class),
		Value:       float64(len(o.pallets)),
	}
}

// route runs one round of routing on the orders in pool with the shifts
// and trailers still free, searching until the instant until, lays every
// route out, keeps the routes that pass, and returns the orders to try
// again: those a layout sent back, and when there are any, those the fleet
// had no room for, since what the rejected routes leave free may carry
// them. When until has passed before the search can begin, it routes
// nothing and returns pool. Either way, when time was too short for the
// search to try every order, it sets routingCut.
func (pl *planner) route(ctx context.Context, pool []*order, until time.Time, round int) ([]*order, error) {
	req := pl.m.req
	if pl.freeShifts() == 0 {
		for _, o := range pool {
			pl.setReason(o, ReasonFleetExhausted)
		}
		pl.final = append(pl.final, pool...)
		return nil, nil
	}
	r := pl.routingProblem(pool)
	streams := req.Options.Streams
	if streams == 0 {
		streams = DefaultStreams
	}
	// Counted from here: building the problem took part of the time.
	limit := until.Sub(pl.now())
	if limit <= 0 || ctx.Err() != nil {
		pl.routingCut = true
		return pool, nil
	}
	sol, err := routeplan.Solve(ctx, r.p, routeplan.Options{
		TimeLimit: limit, MaxIterations: req.Options.Iterations,
		Seed: req.Options.Seed + int64(round), Streams: streams, Workers: req.Options.Workers,
		Progress: pl.routingProgress(r, pool, round),
	})
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Cancelled before routing had a solution: these orders stay
		// unplanned, and the plan so far is still returned.
		return pool, nil
	}
	if err != nil {
		// Invalid routing input, or a panic in a search stream
		// (*routeplan.PanicError): a bug either way.
		return nil, fmt.Errorf("%w: routing: %w", ErrInternal, err)
	}
	var back, short []*order
	widened := false
	for _, u := range sol.Unassigned {
		o := pool[u.Site]
		pl.setReason(o, reasonOf(u.Reason))
		pl.routingCut = pl.routingCut || u.Reason == routeplan.NotReached
		// An order kept off the versatile trailers that found no room
		// goes back with every type it is compatible with.
		if o.prefer != nil {
			o.prefer, widened = nil, true
			short = append(short, o)
			continue
		}
		if o.reason == ReasonFleetExhausted {
			short = append(short, o)
		} else {
			pl.final = append(pl.final, o)
		}
	}
	for _, rr := range sol.Routes {
		back = append(back, pl.acceptRoute(r, rr, pool)...)
	}
	if len(back) == 0 && !widened {
		pl.final = append(pl.final, short...)
		return nil, nil
	}
	return append(back, short...), nil
}

// setReason records why routing left o out. A store no compatible vehicle
// type could serve had compatible trailers whose units or shifts are all
// taken when its order has any compatible trailer type at all.
func (pl *planner) setReason(o *order, reason string) {
	if reason == ReasonNoCompatibleTrailer && firstTrue(o.trailers) >= 0 {
		reason = ReasonFleetExhausted
	}
	o.reason, o.message = reason, ""
}

func reasonOf(r routeplan.Reason) string {
	switch r {
	case routeplan.NoCompatibleVehicle:
		return ReasonNoCompatibleTrailer
	case routeplan.Capacity:
		return ReasonCapacity
	case routeplan.TimeWindow:
		return ReasonTimeWindow
	case routeplan.ShiftLimit:
		return ReasonShiftLimit
	case routeplan.FleetExhausted:
		return ReasonFleetExhausted
	}
	return ReasonNotPlanned // routeplan.NotReached: the time limit ended first
}
