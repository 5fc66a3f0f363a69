package engine

import (
	"cmp"
	"fmt"
	"slices"
)

// finish orders the routes by departure, names them, and totals the metrics.
func (pl *planner) finish() Result {
	return assemble(pl.m, pl.routes, pl.unassigned)
}

// assemble makes a plan of routes and unassigned pallets (both taken over):
// routes ordered by loading start and named, unassigned pallets in request
// order, and the totals.
func assemble(m *model, routes []Route, unassigned []Unassigned) Result {
	pl := &planner{m: m, routes: routes, unassigned: unassigned}
	slices.SortStableFunc(pl.routes, func(a, b Route) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.Shift, b.Shift)
	})
	plan := Result{Routes: pl.routes, Unassigned: pl.unassigned}
	if plan.Routes == nil {
		plan.Routes = []Route{}
	}
	if plan.Unassigned == nil {
		plan.Unassigned = []Unassigned{}
	}
	order := make(map[string]int, len(pl.m.req.Pallets))
	for i, p := range pl.m.req.Pallets {
		order[p.ID] = i
	}
	slices.SortStableFunc(plan.Unassigned, func(a, b Unassigned) int { return cmp.Compare(order[a.Pallet], order[b.Pallet]) })
	var util float64
	for i := range plan.Routes {
		r := &plan.Routes[i]
		r.ID = fmt.Sprintf("R%d", i+1)
		t := &plan.Metrics
		t.Routes++
		t.Stops += r.Metrics.Stops
		t.Pallets += r.Metrics.Pallets
		t.DistanceM += r.Metrics.DistanceM
		t.Duration += r.Metrics.Duration
		t.Driving += r.Metrics.Driving
		t.Wait += r.Metrics.Wait
		t.Cost += r.Metrics.Cost
		util += r.Metrics.PosUtil
	}
	plan.Metrics.Unassigned = len(plan.Unassigned)
	var routed []int
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				routed = append(routed, pl.m.pallet[id])
			}
		}
	}
	plan.Metrics.TrailersLowerBound = trailersLowerBound(pl.m.req, routed)
	if plan.Metrics.Routes > 0 {
		plan.Metrics.PosUtil = util / float64(plan.Metrics.Routes)
	}
	return plan
}
