package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/haulplan/haulplan/constraints"
)

// CodeLockBroken: a route the request's lock fixes is not in the plan as
// the previous plan has it, or a route says it is locked and no lock
// fixes it.
const CodeLockBroken = "LOCK_BROKEN"

// checkLocks checks, for a request that carries a previous plan and a
// lock, that every route of the previous plan the lock fixes is in the
// plan unchanged: the same trailer unit, shift and trip, trailer type,
// dock door, loading, start, departure and return to the second, the same
// stops in the same order with the same times and pallets, and the same
// floor (zones and every placement); and that it is marked locked, and no
// other route is. Which routes the lock fixes is read here from the
// request's documentation (Lock, Request.Previous): the routes it names,
// those whose loading starts by Lock.Before, those that deliver a store it
// names, and the earlier trips of the shift of each of these.
func (c *planCheck) checkLocks(plan *Result) constraints.Violations {
	req := c.req
	if req.Previous == nil {
		return nil
	}
	prev := req.Previous.Routes
	fixes := make([]string, len(prev)) // the lock member that fixes each previous route, "" for none
	for i, r := range prev {
		switch {
		case slices.Contains(req.Lock.Routes, r.ID):
			fixes[i] = fmt.Sprintf("lock.routes[%d]", slices.Index(req.Lock.Routes, r.ID))
		case !req.Lock.Before.IsZero() && !r.LoadingStart.After(req.Lock.Before):
			fixes[i] = "lock.before"
		}
		for k, s := range req.Lock.Stores {
			if fixes[i] == "" && slices.ContainsFunc(r.Stops, func(st Stop) bool { return st.Store == s }) {
				fixes[i] = fmt.Sprintf("lock.stores[%d]", k)
			}
		}
	}
	for i := range prev {
		if fixes[i] != "" {
			continue
		}
		for j, later := range prev {
			if fixes[j] != "" && later.Shift == prev[i].Shift && later.Trip > prev[i].Trip {
				fixes[i] = fixes[j]
				break
			}
		}
	}
	type key struct {
		unit, shift string
		trip        int
	}
	at := map[key]int{}
	for ri, r := range plan.Routes {
		at[key{r.TrailerUnit, r.Shift, r.Trip}] = ri
	}
	var vs constraints.Violations
	locked := map[int]bool{}
	for i, was := range prev {
		if fixes[i] == "" {
			continue
		}
		ri, ok := at[key{was.TrailerUnit, was.Shift, was.Trip}]
		if !ok {
			vs.Add(CodeLockBroken, "routes", "%s fixes previous route %s (trailer unit %s, shift %s, trip %d), which the plan does not have",
				fixes[i], was.ID, was.TrailerUnit, was.Shift, was.Trip)
			continue
		}
		locked[ri] = true
		path := constraints.Index("routes", ri)
		for _, d := range lockedRouteDiff(&was, &plan.Routes[ri]) {
			vs.Add(CodeLockBroken, path+d.path, "%s fixes this route as previous route %s has it: %s", fixes[i], was.ID, d.what)
		}
		if !plan.Routes[ri].Locked {
			vs.Add(CodeLockBroken, path+".locked", "%s fixes this route (previous route %s): it must say locked", fixes[i], was.ID)
		}
	}
	for ri, r := range plan.Routes {
		if r.Locked && !locked[ri] {
			vs.Add(CodeLockBroken, constraints.Index("routes", ri)+".locked", "no lock fixes this route, yet it says locked")
		}
	}
	return vs
}

// routeDiff is one way a route differs from the route it must equal: the
// path under the route, and what differs.
type routeDiff struct{ path, what string }

// lockedRouteDiff lists how route b differs from a in what a lock fixes.
// Breaks are not compared: they are stated from the times and the
// shift's limits, which the trips after a locked trip may change.
func lockedRouteDiff(a, b *Route) []routeDiff {
	var out []routeDiff
	diff := func(path string, same bool, was, now any) {
		if !same {
			out = append(out, routeDiff{path, fmt.Sprintf("%v there, now %v", was, now)})
		}
	}
	diff(".trailer", a.Trailer == b.Trailer, a.Trailer, b.Trailer)
	diff(".dockDoor", a.DockDoor == b.DockDoor, a.DockDoor, b.DockDoor)
	diff(".loadingStart", a.LoadingStart.Equal(b.LoadingStart), a.LoadingStart, b.LoadingStart)
	diff(".loadingEnd", a.LoadingEnd.Equal(b.LoadingEnd), a.LoadingEnd, b.LoadingEnd)
	diff(".start", a.Start.Equal(b.Start), a.Start, b.Start)
	diff(".depart", a.Depart.Equal(b.Depart), a.Depart, b.Depart)
	diff(".return", a.Return.Equal(b.Return), a.Return, b.Return)
	if len(a.Stops) != len(b.Stops) {
		out = append(out, routeDiff{".stops", fmt.Sprintf("%d stops there, now %d", len(a.Stops), len(b.Stops))})
	} else {
		for k := range a.Stops {
			s, t := &a.Stops[k], &b.Stops[k]
			p := constraints.Index(".stops", k)
			diff(p+".store", s.Store == t.Store, s.Store, t.Store)
			diff(p+".arrival", s.Arrival.Equal(t.Arrival), s.Arrival, t.Arrival)
			diff(p+".start", s.Start.Equal(t.Start), s.Start, t.Start)
			diff(p+".departure", s.Departure.Equal(t.Departure), s.Departure, t.Departure)
			diff(p+".pallets", slices.Equal(s.Pallets, t.Pallets), s.Pallets, t.Pallets)
		}
	}
	diff(".load.zones", slices.Equal(a.Load.Zones, b.Load.Zones), a.Load.Zones, b.Load.Zones)
	if len(a.Load.Placements) != len(b.Load.Placements) {
		out = append(out, routeDiff{".load.placements", fmt.Sprintf("%d placements there, now %d", len(a.Load.Placements), len(b.Load.Placements))})
	} else {
		for k := range a.Load.Placements {
			diff(constraints.Index(".load.placements", k), a.Load.Placements[k] == b.Load.Placements[k], a.Load.Placements[k], b.Load.Placements[k])
		}
	}
	return out
}

// validateRoutes checks routes, a part of a plan for req (req already
// checked), as Validate checks a plan's routes: each route alone, the
// trips of each shift, the trailer units and the dock doors, with the
// paths of a plan whose routes they are ("routes[2].stops[0].arrival").
// It leaves out what only a whole plan has (every pallet accounted for,
// the totals and their bounds): a re-plan checks with it that the routes
// its lock fixes still keep the request's rules.
func validateRoutes(req *Request, routes []Route) (constraints.Violations, error) {
	plan := Result{Routes: routes}
	c, err := newPlanCheck(context.Background(), req, &plan)
	if err != nil {
		return nil, err
	}
	var vs constraints.Violations
	figs := make([]routeFigures, len(routes))
	for ri := range routes {
		path := constraints.Index("routes", ri)
		fig, rvs := c.routeAlone(&routes[ri], path)
		vs = append(vs, rvs...)
		vs = append(vs, fig.compare(path+".metrics", routes[ri].Metrics)...)
		figs[ri] = fig
	}
	vs = append(vs, c.checkShiftTrips(routes, figs)...)
	vs = append(vs, c.checkTrailerUnits(routes)...)
	vs = append(vs, c.checkDockDoors(routes)...)
	return vs, nil
}
