package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/haulplan/haulplan/routeplan"
)

// Phase is the step of a planning call a Progress report comes from.
type Phase string

// The phases of a planning call, in order; routing and layouts repeat for
// each routing round.
const (
	PhaseOrders  Phase = "ORDERS"  // pallets grouped per store and class, cut into orders
	PhaseRouting Phase = "ROUTING" // a routing round searching
	PhaseLayouts Phase = "LAYOUTS" // the round's routes laid out on their trailers
	PhaseDone    Phase = "DONE"    // the plan is complete
)

// Progress is a report of a planning call under way: where it is and what
// the best plan found so far looks like.
type Progress struct {
	Elapsed time.Duration // since Plan was called
	Limit   time.Duration // the time limit in force
	Phase   Phase
	Round   int // routing round, from 1; 0 before routing
	// Routes, Delivered (pallets), Unassigned (pallets) and Cost describe
	// the best plan so far; while routing searches, Cost is its routing
	// cost, which the finished plan's cost equals.
	Routes, Delivered, Unassigned int
	Cost                          float64

	best func() (Result, error)
}

// Best returns the best plan found so far, complete: every route laid out
// on its trailer, every pallet delivered or listed as unassigned (those
// the search has not placed yet as NOT_PLANNED), and checked by Validate.
// It may be called from any goroutine, during the callback or later, as
// often as wanted; each call builds the plan anew from a snapshot taken
// when the report was made, which takes about as long as laying out every
// route, so call it when a plan is wanted (every few seconds, say), not on
// every report.
func (p Progress) Best() (Result, error) {
	if p.best == nil {
		return Result{}, fmt.Errorf("engine: no plan yet in phase %s", p.Phase)
	}
	return p.best()
}

// reporter sends Progress reports for one planning call.
type reporter struct {
	mu    sync.Mutex // calls never overlap
	to    func(Progress)
	began time.Time
	limit time.Duration
}

func (rp *reporter) send(p Progress) {
	if rp == nil {
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	p.Elapsed, p.Limit = time.Since(rp.began), rp.limit
	rp.to(p)
}

// report sends a report of the plan as it stands in fleet between routing
// rounds: the routes accepted so far and every pallet not on them.
func (pc *planContext) report(phase Phase, round int, fleet *fleetState) {
	if pc.progress == nil {
		return
	}
	s := snapshotOf(pc.m, fleet, nil, nil, nil)
	p := s.totals()
	p.Phase, p.Round = phase, round
	p.best = sync.OnceValues(s.plan)
	pc.progress.send(p)
}

// routingProgressInterval is the least time between two reports of a
// better routing solution: each copies the plan so far, which on a day of
// thousands of stores costs more than the search between two
// improvements (a seventh of the search's time at 5,000 stores when
// every improvement was reported).
const routingProgressInterval = 250 * time.Millisecond

// routingProgress is routeplan's progress callback for one round: each
// better routing solution is reported with the routes accepted before it
// in fleet.
func (pc *planContext) routingProgress(fleet *fleetState, r *routing, pool []*order, round int) func(routeplan.Progress) {
	if pc.progress == nil {
		return nil
	}
	return func(rp routeplan.Progress) {
		// routeplan calls this while Plan's goroutine waits for Solve, so
		// the fleet state is still; the snapshot copies what may change
		// after.
		s := snapshotOf(pc.m, fleet, r, pool, rp.Best)
		p := s.totals()
		p.Phase, p.Round = PhaseRouting, round+1
		p.best = sync.OnceValues(s.plan)
		pc.progress.send(p)
	}
}

// reportDone sends the report of the finished plan, after rounds routing
// rounds.
func (pc *planContext) reportDone(plan Result, rounds int) {
	if pc.progress == nil {
		return
	}
	p := Progress{Phase: PhaseDone, Round: rounds, Routes: plan.Metrics.Routes, Delivered: plan.Metrics.Pallets,
		Unassigned: plan.Metrics.Unassigned, Cost: plan.Metrics.Cost}
	// Best hands out copies: the caller owns the plan Plan returns. The
	// plan is encoded now, as it is, and decoded only when Best is called.
	final, err := json.Marshal(plan)
	p.best = func() (Result, error) { return DecodePlan(bytes.NewReader(final)) }
	if err == nil {
		pc.progress.send(p)
	}
}

// snapshot is what a plan so far is made of, copied so that the phases
// may go on: accepted routes, unassigned pallets, the orders left out with
// their pallets and reasons, the free shifts, and a routing solution of
// the round under way with its problem and orders.
type snapshot struct {
	m          *model
	routes     []Route
	unassigned []Unassigned
	leftOut    []order // copies: the phases trim their orders later
	groups     []shiftGroup
	r          *routing
	pool       []order
	sol        *routeplan.Solution
}

// snapshotOf copies the plan so far in fleet, with the routing solution sol
// of problem r on the orders in pool when a round is under way.
func snapshotOf(m *model, fleet *fleetState, r *routing, pool []*order, sol *routeplan.Solution) *snapshot {
	s := &snapshot{m: m, routes: slices.Clone(fleet.routes), unassigned: slices.Clone(fleet.unassigned),
		r: r, sol: sol}
	for _, o := range fleet.leftOut {
		s.leftOut = append(s.leftOut, *o)
	}
	for _, g := range fleet.groups {
		g.free = slices.Clone(g.free)
		s.groups = append(s.groups, g)
	}
	if sol != nil {
		for _, o := range pool {
			s.pool = append(s.pool, *o)
		}
	}
	return s
}

// totals are the figures of the snapshot's plan, without laying it out.
func (s *snapshot) totals() Progress {
	var p Progress
	for _, r := range slices.Concat(s.m.fixed, s.routes) { // a re-plan's locked routes too
		p.Routes++
		p.Delivered += r.Metrics.Pallets
		p.Cost += r.Metrics.Cost
	}
	if s.sol != nil {
		p.Routes += s.sol.Vehicles
		p.Cost += s.r.routingCost(s.sol)
		for _, rr := range s.sol.Routes {
			for _, v := range rr.Visits {
				p.Delivered += len(s.pool[v.Site].pallets)
			}
		}
	}
	p.Unassigned = len(s.m.req.Pallets) - p.Delivered
	return p
}

// plan builds the snapshot's plan: the routing solution's routes laid out
// (a route whose floor fails leaves its orders unassigned), every pallet
// on no route listed as unassigned, and the whole checked by Validate.
func (s *snapshot) plan() (Result, error) {
	req := s.m.req
	fleet := &fleetState{groups: s.groups}
	routes := slices.Clone(s.routes)
	unassigned := slices.Clone(s.unassigned)
	on := make([]bool, len(req.Pallets))
	for _, r := range slices.Concat(s.m.fixed, routes) { // assemble adds a re-plan's locked routes
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				on[s.m.pallet[id]] = true
			}
		}
	}
	if s.sol != nil {
		ptrs := make([]*order, len(s.pool))
		for i := range s.pool {
			ptrs[i] = &s.pool[i]
		}
		for _, rr := range s.sol.Routes {
			kind := s.r.kinds[rr.VehicleType]
			trips, _, err := s.m.buildTrips(kind, rr, ptrs)
			if err != nil || len(fleet.groups[kind.group].free) == 0 {
				continue // its pallets are listed below
			}
			shift := req.Shifts[fleet.takeShift(kind.group)].ID
			for _, route := range trips {
				route.Shift = shift
				routes = append(routes, *route)
			}
			for _, v := range rr.Visits {
				for _, pi := range s.pool[v.Site].pallets {
					on[pi] = true
				}
			}
		}
	}
	listed := make([]bool, len(req.Pallets))
	for _, u := range unassigned {
		listed[s.m.pallet[u.Pallet]] = true
	}
	for i := range s.leftOut {
		o := &s.leftOut[i]
		if len(o.pallets) > 0 {
			us := fleet.unassignOrder(s.m, o)
			for _, u := range us {
				listed[s.m.pallet[u.Pallet]] = true
			}
			unassigned = append(unassigned, us...)
		}
	}
	for i, p := range req.Pallets {
		if !on[i] && !listed[i] {
			unassigned = append(unassigned, Unassigned{Pallet: p.ID, Store: p.Store, Reason: ReasonNotPlanned,
				Message: fmt.Sprintf("store %s: the search has not placed this pallet yet", p.Store)})
		}
	}
	plan := assemble(s.m, routes, unassigned)
	if err := Validate(*req, plan); err != nil {
		return Result{}, fmt.Errorf("%w: %w", ErrInternal, err)
	}
	return plan, nil
}
