package routeplan

import (
	"context"
	"math/rand/v2"
	"sort"
	"sync"
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
	if err := Validate(p); err != nil {
		return nil, err
	}
	if len(p.Sites) == 0 {
		return &Solution{}, nil
	}
	start := time.Now()
	in := newInstance(p)
	sc := &scratch{}
	reasons := make(map[int]Reason)
	var servable, dropped []int
	for i := range p.Sites {
		if r, ok := in.singletonReason(i, sc); !ok {
			reasons[i] = r
			dropped = append(dropped, i)
			continue
		}
		servable = append(servable, i)
	}
	nb := newNeighbours(in, neighbourCount)

	workers := max(opts.Workers, 1)
	var mu sync.Mutex // serialises Progress calls and the shared incumbent
	var shared objective
	haveShared := false
	results := make([]*search, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		sr := &search{
			in: in, nb: nb, sc: &scratch{}, ctx: ctx, opts: opts, start: start,
			// Worker w draws from its own stream of the seed, so that the
			// result depends on Seed and Workers only.
			rng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x9e3779b97f4a7c15+uint64(w))),
		}
		if opts.TimeLimit > 0 {
			sr.deadline = start.Add(opts.TimeLimit)
		}
		sr.maxIter = opts.MaxIterations
		if sr.maxIter == 0 && opts.TimeLimit == 0 {
			sr.maxIter = DefaultIterations
		}
		if opts.Progress != nil {
			sr.onImprove = func(pr Progress, obj objective) {
				mu.Lock()
				defer mu.Unlock()
				if !haveShared || obj.less(shared) {
					shared, haveShared = obj, true
					opts.Progress(pr)
				}
			}
		}
		results[w] = sr
		wg.Add(1)
		go func() {
			defer wg.Done()
			sr.run(servable, dropped)
		}()
	}
	wg.Wait()
	var best *search
	for _, sr := range results {
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
	for _, sr := range results {
		sol.Iterations += sr.iter
	}
	return sol, nil
}

// run is one worker's whole search: construction, then the phases.
func (sr *search) run(servable, dropped []int) {
	in, nb, rng, sc := sr.in, sr.nb, sr.rng, sr.sc
	st := newState(in)
	st.dropped = dropped
	// Construction: far sites first, as seeds of routes (Solomon's I1 idea),
	// each at its cheapest feasible place.
	order := append([]int(nil), servable...)
	depot := 0
	if len(in.types) > 0 {
		depot = in.types[0].StartLocation
	}
	sort.SliceStable(order, func(a, b int) bool {
		return in.legDist(depot, in.sites[order[a]].Location) > in.legDist(depot, in.sites[order[b]].Location)
	})
	for _, u := range order {
		if sr.ctx.Err() != nil {
			return
		}
		st.recreate([]int{u}, nb, 0, rng, sc)
	}
	st.dropEmpty()
	sr.best = st.clone()
	sr.report()
	st.localSearch(nb, rng, sc, sr.stop, nil)
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

// singletonReason decides whether site i can be served at all, by a route of
// its own with some compatible vehicle, and why not.
func (in *instance) singletonReason(i int, sc *scratch) (Reason, bool) {
	compatible, fits := false, false
	window := false
	for t := range in.types {
		if !in.allowed[i][t] || in.types[t].Count == 0 {
			continue
		}
		compatible = true
		sc.seq = append(sc.seq[:0], i)
		switch in.evaluate(t, sc.seq, &sc.sch, false) {
		case feasible:
			return 0, true
		case failCapacity:
			continue
		case failWindow:
			window = true
		}
		fits = true
	}
	switch {
	case !compatible:
		return NoCompatibleVehicle, false
	case !fits:
		return Capacity, false
	case window:
		return TimeWindow, false
	}
	return ShiftLimit, false
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
			for _, s := range r.seq {
				st.unassigned = append(st.unassigned, s)
			}
			continue
		}
		rt := Route{VehicleType: r.typ, Depart: sch.depart, Return: sch.ret, Distance: sch.dist, Duration: sch.duty(), Driving: sch.drive}
		rt.Visits = make([]Visit, len(r.seq))
		for k, s := range r.seq {
			rt.Visits[k] = Visit{Site: s, Arrival: sch.arr[k], Start: sch.start[k], Departure: sch.dep[k]}
		}
		sol.Routes = append(sol.Routes, rt)
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
