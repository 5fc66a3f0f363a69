package routeplan

import (
	"context"
	"sort"
	"time"
)

// neighbourCount is the size of the granular neighbourhoods.
const neighbourCount = 30

// Solve plans routes for p. It returns an error only when p is invalid
// (a constraints.Violations error listing every problem), or when ctx is
// cancelled before the first complete solution exists; otherwise it returns
// the best solution found when the search stops (time limit, iteration
// limit or cancellation).
func Solve(ctx context.Context, p *Problem, opts Options) (*Solution, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	if len(p.Sites) == 0 {
		return &Solution{}, nil
	}
	start := time.Now()
	in := newInstance(p)
	servable, dropped, reasons := in.prepareOpenings(&scratch{})
	nb := newNeighbours(in, neighbourCount)

	streams := runStreams(ctx, in, nb, opts, start, servable, dropped, reasons)
	// The best stream wins; a tie goes to the lowest index, so that the
	// result does not depend on which stream finished first.
	var best *search
	for _, sr := range streams {
		if sr.best == nil {
			continue
		}
		if best == nil || sr.best.obj.less(best.best.obj) {
			best = sr
		}
	}
	if best == nil {
		return nil, ctx.Err()
	}
	sol := best.best.solution(reasons)
	for _, sr := range streams {
		sol.Iterations += sr.iter
	}
	return sol, nil
}

// run is one stream's whole search: construction, then the phases.
func (sr *search) run(servable, dropped []int) {
	in, nb, rng, sc := sr.in, sr.nb, sr.rng, sr.sc
	// A finished stream keeps its best solution only: its scratch (a few
	// MB on a 5,000-store day) goes while the other streams run.
	defer func() { sr.sc = nil }()
	st := newState(in)
	st.dropped = dropped
	// Construction: far sites first, as seeds of routes (Solomon's I1 idea),
	// each at its cheapest feasible place; when sites differ in value, the
	// most valuable first, so that a short fleet leaves the cheap ones out.
	order := append([]int(nil), servable...)
	depot := 0
	if len(in.types) > 0 {
		depot = in.types[0].StartLocation
	}
	sort.SliceStable(order, func(a, b int) bool {
		va, vb := in.value[order[a]], in.value[order[b]]
		if va != vb {
			return va > vb
		}
		return in.legDist(depot, in.sites[order[a]].Location) > in.legDist(depot, in.sites[order[b]].Location)
	})
	for _, u := range order {
		if sr.ctx.Err() != nil {
			return
		}
		st.recreate([]int{u}, nb, 0, rng, sc)
	}
	st.dropEmpty()
	sr.best = st.bareClone()
	sr.report()
	st.localSearch(nb, rng, sc, sr.stop, nil)
	st.refill(nb, rng, sc, sr.stop)
	sr.offer(st)
	if len(servable) <= 1 {
		return // nothing left to improve
	}
	if in.p.Objective == Hierarchical {
		// Fewer routes first: give the route elimination half the budget.
		sr.minimiseRoutes(0.5)
	}
	sr.anneal()
}

// publicRoute is the public form of route seq of type t scheduled in sch.
func publicRoute(t int, seq []int, sch *schedule) Route {
	rt := Route{VehicleType: t, Start: sch.begin, Depart: sch.depart, Return: sch.ret, Distance: sch.dist, Duration: sch.duty(), Driving: sch.drive}
	rt.Visits = make([]Visit, len(seq))
	for k, s := range seq {
		rt.Visits[k] = Visit{Site: s, Arrival: sch.arr[k], Start: sch.start[k], Departure: sch.dep[k]}
	}
	return rt
}

func (st *state) totalCost() float64 {
	c := 0.0
	for _, r := range st.routes {
		c += r.cost
	}
	return c
}

func (st *state) totalDistance() float64 {
	d := 0.0
	for _, r := range st.routes {
		d += r.dist
	}
	return d
}

// solution turns a state into the public form, with every route departing
// as late as it can so that drivers do not wait at the first sites.
func (st *state) solution(reasons map[int]Reason) *Solution {
	in := st.in
	sol := &Solution{}
	var sch schedule
	for _, r := range st.routes {
		if len(r.seq) == 0 {
			continue
		}
		if in.evaluate(r.typ, r.seq, &sch, true) != feasible {
			// Cannot happen (the property tests check every route the
			// search accepts); never return a route that breaks a rule.
			st.unassigned = append(st.unassigned, r.seq...)
			continue
		}
		sol.Routes = append(sol.Routes, publicRoute(r.typ, r.seq, &sch))
		sol.Cost += sch.cost
		sol.Distance += sch.dist
	}
	sort.SliceStable(sol.Routes, func(a, b int) bool {
		ra, rb := sol.Routes[a], sol.Routes[b]
		if ra.VehicleType != rb.VehicleType {
			return ra.VehicleType < rb.VehicleType
		}
		return ra.Visits[0].Site < rb.Visits[0].Site
	})
	sol.Vehicles = len(sol.Routes)
	for _, i := range st.dropped {
		sol.Unassigned = append(sol.Unassigned, Unassigned{Site: i, Reason: reasons[i]})
	}
	for _, i := range st.unassigned {
		sol.Unassigned = append(sol.Unassigned, Unassigned{Site: i, Reason: FleetExhausted})
	}
	sort.Slice(sol.Unassigned, func(a, b int) bool { return sol.Unassigned[a].Site < sol.Unassigned[b].Site })
	return sol
}
