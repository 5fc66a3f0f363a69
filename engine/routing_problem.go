package engine

import (
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
	// doors is the dock doors' resource in p, -1 when the DC has as many
	// as it needs.
	doors int
}

// seconds converts an instant to routing time, whole seconds from the
// horizon's beginning, rounded down; secondsUp rounds up. Window and shift
// starts round up and ends round down, so that routing never uses an
// instant the request does not allow.
func (m *model) seconds(t time.Time) float64 {
	return math.Floor(t.Sub(m.origin).Seconds())
}

func (m *model) secondsUp(t time.Time) float64 {
	return math.Ceil(t.Sub(m.origin).Seconds())
}

func (m *model) instant(s float64) time.Time {
	return m.origin.Add(time.Duration(s) * time.Second)
}

// ceilSeconds and floorSeconds turn durations into whole routing seconds:
// work rounds up and limits round down, so that routing's schedule always
// holds for the request.
func ceilSeconds(d time.Duration) float64  { return math.Ceil(d.Seconds()) }
func floorSeconds(d time.Duration) float64 { return math.Floor(d.Seconds()) }

// windows converts instants to routing windows; a list that ends up empty
// (closed over the whole horizon) becomes one window routing cannot use,
// since an empty list means "always open" to routeplan.
func (m *model) windows(ws []constraints.Window) []routeplan.Window {
	var out []routeplan.Window
	for _, w := range ws {
		if a, b := m.secondsUp(w.Start), m.seconds(w.End); a <= b {
			out = append(out, routeplan.Window{Start: a, End: b})
		}
	}
	if len(out) == 0 {
		out = []routeplan.Window{closedWindow}
	}
	return out
}

// closedWindow stands for a list of windows closed over the whole horizon:
// far before it, so that no loading ahead of a trip (routeplan's Loading,
// which moves start windows later) reaches it.
var closedWindow = routeplan.Window{Start: -1e12, End: -1e12 + 1}

// routingProblem builds the routing problem for the orders in pool with the
// shifts and trailers still free in fleet. Each (shift group, trailer type,
// zone count) is a vehicle type taking one unit of the group's resource and
// one of the trailer type's a trip.
func routingProblem(m *model, fleet *fleetState, pool []*order) *routing {
	p := &routeplan.Problem{N: 1 + len(m.req.Stores), Objective: m.req.Options.Objective.routing(), Rush: m.rush}
	setRoutingMatrix(p, m)
	shiftRes, trailerRes := addFleetResources(p, m, fleet, pool)
	r := &routing{p: p, doors: addDoorResource(p, m, fleet)}
	r.addVehicleTypes(m, fleet, pool, shiftRes, trailerRes)
	for _, o := range pool {
		site := m.site(o, 1+o.store)
		site.VehicleTypes = []int{}
		for t, k := range r.kinds {
			if m.compatible(o, k) {
				site.VehicleTypes = append(site.VehicleTypes, t)
			}
		}
		p.Sites = append(p.Sites, site)
	}
	return r
}

// setRoutingMatrix gives p the request's distances and durations: copies
// up to copiedLocations, else the matrix itself (see matrixLegs).
func setRoutingMatrix(p *routeplan.Problem, m *model) {
	n := p.N
	if n > copiedLocations {
		p.Legs = matrixLegs{m.matrix}
		return
	}
	p.Distance, p.Duration = make([]float64, n*n), make([]float64, n*n)
	for i := range n {
		for j := range n {
			p.Distance[i*n+j] = m.matrix.Distance(i, j)
			p.Duration[i*n+j] = float64(m.matrix.Seconds(i, j))
		}
	}
}

// addFleetResources adds to p a resource for each shift group with free
// shifts and one for each trailer type with units that some order in
// pool may ride on. It returns the resource of each group and each type,
// -1 for none.
func addFleetResources(p *routeplan.Problem, m *model, fleet *fleetState, pool []*order) (shiftRes, trailerRes []int) {
	shiftRes = make([]int, len(fleet.groups))
	for g, grp := range fleet.groups {
		shiftRes[g] = -1
		if len(grp.free) > 0 {
			shiftRes[g] = len(p.Resources)
			p.Resources = append(p.Resources, routeplan.Resource{ID: fmt.Sprintf("shifts %s–%s", grp.start.Format(time.RFC3339), grp.end.Format(time.RFC3339)), Count: len(grp.free)})
		}
	}
	trailerRes = make([]int, len(m.req.Fleet))
	useful := make([]bool, len(m.req.Fleet))
	for ti, t := range m.req.Fleet {
		trailerRes[ti] = -1
		for _, o := range pool {
			useful[ti] = useful[ti] || o.trailers[ti]
		}
		if t.Count > 0 && useful[ti] && routingCapacity(t).Positions > 0 {
			trailerRes[ti] = len(p.Resources)
			// A unit a trip at a time: each trip's trailer is loaded
			// while the driver is out, so the trips of a shift take units
			// of their own, and a unit loads again once it is back and
			// turned; the routes planned so far hold theirs.
			p.Resources = append(p.Resources, routeplan.Resource{ID: "trailers " + t.ID, Count: t.Count,
				Timed: true, Turnaround: ceilSeconds(m.req.Turnaround()), Busy: fleet.busyUnits(m, ti)})
		}
	}
	return shiftRes, trailerRes
}

// addDoorResource adds to p the DC's dock doors, when it sets how many,
// and returns their resource (-1 for none): a Timed resource each trip
// holds over its loading, the loadings of the routes planned so far
// holding theirs, so that routing keeps no more loadings at one instant
// than there are doors (see dock_doors.go).
func addDoorResource(p *routeplan.Problem, m *model, fleet *fleetState) int {
	n := m.req.DC.DockDoors
	if n == 0 {
		return -1
	}
	p.Resources = append(p.Resources, routeplan.Resource{ID: "dock doors", Count: n,
		Timed: true, Holds: routeplan.HoldLoading, Busy: fleet.busyDoors(m)})
	return len(p.Resources) - 1
}

// addVehicleTypes adds to r's problem a vehicle type for every kind of
// route (shift group, trailer type, zone count) the resources
// allow, each taking its group's and its type's resource, with the
// reserve surcharges on its fixed cost.
func (r *routing) addVehicleTypes(m *model, fleet *fleetState, pool []*order, shiftRes, trailerRes []int) {
	// A trailer carries at most as many pallets on its floor as its
	// positions hold (four quarter pallets, two halves or one other
	// pallet each) plus one on top of each for the pallets that may be
	// stacked.
	stackable, perPosition := 0, 1
	for _, o := range pool {
		for _, pi := range o.pallets {
			p := &m.req.Pallets[pi]
			if p.MayBeStacked {
				stackable++
			}
			perPosition = max(perPosition, 4/positionQuarters(p))
		}
	}
	dock := m.dockWindows()
	oneTrip := m.oneTripEnough(fleet, pool)
	reserve := reserveSurcharges(m, pool)
	shiftReserve := shiftSurcharges(m, fleet.groups, pool, reserveStep(m.req))
	opened := newShiftSurcharges(m, fleet.groups)
	for g, grp := range fleet.groups {
		if shiftRes[g] < 0 {
			continue
		}
		for ti := range m.req.Fleet {
			if trailerRes[ti] < 0 {
				continue
			}
			for _, z := range m.zoneCounts(ti, pool) {
				k := vehicleKind{group: g, trailer: ti, zones: z}
				vt := m.vehicleType(k, grp, stackable, perPosition, dock)
				if oneTrip {
					vt.MaxTrips = 1
				}
				if vt.ShiftEnd < vt.ShiftStart {
					continue // a shift shorter than a second
				}
				vt.Count = len(grp.free)
				vt.Resources = []int{shiftRes[g], trailerRes[ti]}
				if r.doors >= 0 {
					vt.Resources = append(vt.Resources, r.doors)
				}
				extra := reserve[ti] + shiftReserve[g] + opened[g]
				vt.FixedCost += extra
				r.p.VehicleTypes = append(r.p.VehicleTypes, vt)
				r.kinds = append(r.kinds, k)
				r.surcharge = append(r.surcharge, extra)
			}
		}
	}
}

// oneTripEnough reports whether routing may give each shift one trip only:
// under FewestTrailers, which counts trailer loads and not drivers, when
// the free shifts outnumber the loads the pool needs (trailersLowerBound)
// by a quarter. A search of single trips is faster on such a day, and
// finds as few loads; where drivers are short, or counted (FewestDrivers,
// and LowestCost when a shift costs), a shift drives several trips.
func (m *model) oneTripEnough(fleet *fleetState, pool []*order) bool {
	if m.req.Options.Objective != FewestTrailers {
		return false
	}
	var idx []int
	for _, o := range pool {
		idx = append(idx, o.pallets...)
	}
	return fleet.freeShifts()*4 >= trailersLowerBound(m.req, idx)*5
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
func (m *model) dockWindows() []routeplan.Window {
	if m.alwaysDock {
		return nil
	}
	return m.windows(m.dockWin)
}

// vehicleType is the routing vehicle type of kind k, its shift of group
// grp, with one vehicle and no resources: a trailer that carries at most
// perPosition pallets per floor position plus one on top of each of the
// stackable pallets, starting inside a dock window and the shift.
//
// A routing route is a driver's shift: up to the group's trip limit trips
// (none: as many as there are orders). Each trip starts with the hook-up
// (routing's start service, on duty); its loading is the DC's work, off
// the driver's duty (routing's Loading): it starts inside the dock hours
// and ends by the hook-up, no more than the staging limit before it, and
// placeLoadings puts it on the clock. The shift costs its cost once and
// each trip its trailer's fixed cost.
func (m *model) vehicleType(k vehicleKind, grp shiftGroup, stackable, perPosition int, dock []routeplan.Window) routeplan.VehicleType {
	t := m.req.Fleet[k.trailer]
	capa := m.kindCapacity(k)
	floor := perPosition * capa.Positions
	most := floor + min(floor, stackable)
	perPallet := make([]float64, dims)
	perPallet[dimPallets] = ceilSeconds(m.req.DC.LoadingPerPallet)
	vt := routeplan.VehicleType{
		ID:           fmt.Sprintf("%s/%d/%s", t.ID, k.zones, grp.start.Format(time.RFC3339)),
		Count:        1,
		Capacity:     vector(capa, most),
		ShiftStart:   m.secondsUp(grp.start),
		ShiftEnd:     m.seconds(grp.end),
		StartService: ceilSeconds(m.req.HookTime()),
		StartWindows: dock,
		Loading: &routeplan.TripLoading{Fixed: ceilSeconds(m.req.DC.LoadingFixed), PerUnit: perPallet,
			Staging: floorSeconds(m.req.StagingLimit(t))},
		MaxDuty:       floorSeconds(grp.limits.MaxDuty),
		MaxDriving:    floorSeconds(grp.limits.MaxDriving),
		BreakAfter:    floorSeconds(grp.limits.BreakAfter),
		BreakDuration: ceilSeconds(grp.limits.BreakDuration),
		MaxTrips:      grp.maxTrips,
		FixedCost:     grp.cost,
		TripCost:      t.Costs.Fixed,
		DistanceCost:  t.Costs.PerKm / 1000,
		TimeCost:      t.Costs.PerHour / 3600,
	}
	if vt.MaxTrips == 0 {
		vt.MaxTrips = noTripLimit
	}
	switch t.Equipment.Kind {
	case constraints.Reefer:
		vt.MaxGroups = 1 // one set point a trip
	case constraints.MultiTempReefer:
		vt.MaxGroups = t.Equipment.Zones()
		if k.zones > 0 {
			vt.MaxGroups = k.zones
		}
	}
	return vt
}

// noTripLimit is routing's trip limit for a shift without one: more trips
// than a day has orders (routing keeps a reload per trip after the first,
// no more than one per order).
const noTripLimit = 1 << 20

// site is the routing site of order o at matrix location loc, open to
// every vehicle type.
func (m *model) site(o *order, loc int) routeplan.Site {
	return routeplan.Site{
		ID:       fmt.Sprintf("%s/%s", m.req.Stores[o.store].ID, o.class),
		Location: loc,
		// Docking is once per stop: two orders of a store served one
		// after the other share it, as they share the stop in the plan.
		Service:     ceilSeconds(time.Duration(len(o.pallets)) * m.req.Stores[o.store].Unloading.PerPallet),
		StopService: ceilSeconds(m.req.Stores[o.store].Unloading.Fixed),
		Demand:      m.demand(o),
		Windows:     m.windows(m.storeWin[o.store]),
		Group:       int(o.class),
		Value:       float64(len(o.pallets)),
	}
}

// demand is order o in routing's dimensions. An order whose half pallets
// leave one alone (an odd number of them and no quarter pallets) counts
// half a position less than its layout takes: loadplan stands that half
// beside the lone half of the next stop of its class. A route whose layout
// finds no such pair sends its last stop back, and an order sent back for
// its layout counts whole from then on.
func (m *model) demand(o *order) []float64 {
	v := vector(o.load, len(o.pallets))
	if o.laidOutWhole {
		return v
	}
	halves, quarters := 0, 0
	for _, pi := range o.pallets {
		l, w := m.req.Pallets[pi].Footprint.Dims()
		switch {
		case w > 508 || l > 1220:
		case l > 610:
			halves++
		default:
			quarters++
		}
	}
	if halves%2 == 1 && quarters == 0 {
		v[dimPositions] -= 0.5
	}
	return v
}
