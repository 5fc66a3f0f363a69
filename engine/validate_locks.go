package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// CodeLockBroken: a route the request's lock fixes is not in the plan as
// the previous plan has it, or a route says it is locked and no lock
// fixes it.
const CodeLockBroken = "LOCK_BROKEN"

// checkLocks checks, for a request that carries a previous plan and a
// lock, that every route of the previous plan the lock fixes is in the
// plan unchanged (lockedRouteDiff): the same trailer unit, shift and
// trip, trailer type, dock door, loading, start, departure and return to
// the second, the same stops in the same order with the same times and
// pallets, and the same floor (zones and every placement), or, for one
// that has not departed by Lock.Before, the same with late pallets added
// in free floor space and the times they move; and that it is marked locked, and no
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
		mayGain := req.Lock.Before.IsZero() || was.Depart.After(req.Lock.Before)
		for _, d := range c.lockedRouteDiff(&was, &plan.Routes[ri], mayGain) {
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

// lockedRouteDiff lists how route b differs from a, a route of the
// previous plan that the lock fixes, in what the lock keeps. A route that
// has departed (mayGain false) keeps everything to the second and the
// placement. One that has not may carry more pallets of the stores it
// visits (Lock.Before), and then, with n pallets added and the DC's
// loading time per pallet l:
//   - each stop lists its pallets of a first and its added pallets after
//     them, and the floor keeps a's placements, first and unchanged, and
//     a's zones, but for the door-most zone's last row, which may grow;
//   - the loading starts as it did and ends n·l later; the start and the
//     departure move later by d, the part of n·l that a's wait from the
//     loading's end to its start does not absorb;
//   - each stop's arrival and start move later by d plus the unloading
//     added at the stops before it (the store's time per pallet each),
//     its departure also by its own, the return by d and all of it, and
//     that by at most the change tolerance.
//
// Breaks are not compared: they are stated from the times and the
// shift's limits, which the trips after a locked trip may change.
func (c *planCheck) lockedRouteDiff(a, b *Route, mayGain bool) []routeDiff {
	var out []routeDiff
	diff := func(path string, same bool, was, now any) {
		if !same {
			out = append(out, routeDiff{path, fmt.Sprintf("%v there, now %v", was, now)})
		}
	}
	sameStops := len(a.Stops) == len(b.Stops)
	added := make([]int, len(a.Stops)) // pallets b adds at each stop
	total := 0
	if sameStops {
		for k := range a.Stops {
			s, t := a.Stops[k].Pallets, b.Stops[k].Pallets
			if len(t) > len(s) && slices.Equal(t[:len(s)], s) {
				added[k] = len(t) - len(s)
				total += added[k]
			}
		}
	}
	if total > 0 && !mayGain {
		out = append(out, routeDiff{".stops", fmt.Sprintf("it departed by lock.before and carries %d pallets more", total)})
		total, added = 0, make([]int, len(a.Stops))
	}
	loading := time.Duration(total) * c.req.DC.LoadingPerPallet
	d := max(0, a.LoadingEnd.Add(loading).Sub(a.Start))
	diff(".trailer", a.Trailer == b.Trailer, a.Trailer, b.Trailer)
	diff(".dockDoor", a.DockDoor == b.DockDoor, a.DockDoor, b.DockDoor)
	diff(".loadingStart", a.LoadingStart.Equal(b.LoadingStart), a.LoadingStart, b.LoadingStart)
	diff(".loadingEnd", a.LoadingEnd.Add(loading).Equal(b.LoadingEnd), a.LoadingEnd.Add(loading), b.LoadingEnd)
	diff(".start", a.Start.Add(d).Equal(b.Start), a.Start.Add(d), b.Start)
	diff(".depart", a.Depart.Add(d).Equal(b.Depart), a.Depart.Add(d), b.Depart)
	shift := d
	if !sameStops {
		out = append(out, routeDiff{".stops", fmt.Sprintf("%d stops there, now %d", len(a.Stops), len(b.Stops))})
	} else {
		for k := range a.Stops {
			s, t := &a.Stops[k], &b.Stops[k]
			p := constraints.Index(".stops", k)
			diff(p+".store", s.Store == t.Store, s.Store, t.Store)
			var u time.Duration
			if sx, ok := c.store[s.Store]; ok {
				u = time.Duration(added[k]) * c.req.Stores[sx].Unloading.PerPallet
			}
			diff(p+".arrival", s.Arrival.Add(shift).Equal(t.Arrival), s.Arrival.Add(shift), t.Arrival)
			diff(p+".start", s.Start.Add(shift).Equal(t.Start), s.Start.Add(shift), t.Start)
			diff(p+".departure", s.Departure.Add(shift+u).Equal(t.Departure), s.Departure.Add(shift+u), t.Departure)
			if added[k] == 0 {
				diff(p+".pallets", slices.Equal(s.Pallets, t.Pallets), s.Pallets, t.Pallets)
			}
			shift += u
		}
	}
	diff(".return", a.Return.Add(shift).Equal(b.Return), a.Return.Add(shift), b.Return)
	tol := c.req.Options.ChangeTolerance
	if tol <= 0 {
		tol = DefaultChangeTolerance
	}
	if shift > tol {
		out = append(out, routeDiff{".return", fmt.Sprintf("the pallets added move the return by %v, more than the change tolerance of %v", shift, tol)})
	}
	zonesSame := len(a.Load.Zones) == len(b.Load.Zones)
	for k := 0; zonesSame && k < len(a.Load.Zones); k++ {
		za, zb := a.Load.Zones[k], b.Load.Zones[k]
		if total > 0 && k == len(a.Load.Zones)-1 && zb.LastRow >= za.LastRow {
			zb.LastRow = za.LastRow // the door-most zone may take rows at the door end
		}
		zonesSame = za == zb
	}
	diff(".load.zones", zonesSame, a.Load.Zones, b.Load.Zones)
	switch pa, pb := a.Load.Placements, b.Load.Placements; {
	case len(pb) < len(pa) || (total == 0 && len(pb) != len(pa)):
		out = append(out, routeDiff{".load.placements", fmt.Sprintf("%d placements there, now %d", len(pa), len(pb))})
	default:
		for k := range pa {
			diff(constraints.Index(".load.placements", k), pa[k] == pb[k], pa[k], pb[k])
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

// besideFixed is validateRoutes for the fixed routes of a re-plan
// followed by routes (the same violations at the same paths, the fixed
// routes numbered first), for the many calls that check a few routes
// beside the same fixed ones: what Validate derives from the request,
// and each fixed route checked alone, are made once, the first time
// (fixed must not change after). Each call then checks routes alone, and
// the trips of each shift, the trailer units and the dock doors of all of
// them together. At 1,000 stores, with some 200 locked routes, a re-plan
// checks a kept shift this way about 200 times. A route that visits a
// store no route of prev visits (the check's travel covers theirs) is
// checked by validateRoutes. Its planCheck fills caches as it goes, so
// one goroutine at a time uses it (a re-plan's phases run on one).
type besideFixed struct {
	req    *Request
	fixed  []Route
	c      *planCheck
	figs   []routeFigures         // by fixed route
	vs     constraints.Violations // the fixed routes' own
	stores map[string]bool        // the stores prev and the fixed routes visit
}

// newBesideFixed is the check of routes beside fixed, the routes a
// re-plan of req fixes, whose routes visit only stores that prev's do.
func newBesideFixed(req *Request, prev *Result, fixed []Route) (*besideFixed, error) {
	visits := Result{Routes: slices.Concat(prev.Routes, fixed)}
	c, err := newPlanCheck(context.Background(), req, &visits)
	if err != nil {
		return nil, err
	}
	b := &besideFixed{req: req, fixed: fixed, c: c, figs: make([]routeFigures, len(fixed)), stores: map[string]bool{}}
	for _, r := range visits.Routes {
		for _, st := range r.Stops {
			b.stores[st.Store] = true
		}
	}
	for ri := range fixed {
		path := constraints.Index("routes", ri)
		fig, rvs := c.routeAlone(&fixed[ri], path)
		b.vs = append(b.vs, rvs...)
		b.vs = append(b.vs, fig.compare(path+".metrics", fixed[ri].Metrics)...)
		b.figs[ri] = fig
	}
	return b, nil
}

// validate is validateRoutes(req, slices.Concat(fixed, routes)).
func (b *besideFixed) validate(routes []Route) (constraints.Violations, error) {
	all := slices.Concat(b.fixed, routes)
	for _, r := range routes {
		if slices.ContainsFunc(r.Stops, func(st Stop) bool { return !b.stores[st.Store] }) {
			return validateRoutes(b.req, all)
		}
	}
	vs := slices.Clone(b.vs)
	figs := slices.Concat(b.figs, make([]routeFigures, len(routes)))
	for k := range routes {
		ri := len(b.fixed) + k
		path := constraints.Index("routes", ri)
		fig, rvs := b.c.routeAlone(&all[ri], path)
		vs = append(vs, rvs...)
		vs = append(vs, fig.compare(path+".metrics", all[ri].Metrics)...)
		figs[ri] = fig
	}
	vs = append(vs, b.c.checkShiftTrips(all, figs)...)
	vs = append(vs, b.c.checkTrailerUnits(all)...)
	vs = append(vs, b.c.checkDockDoors(all)...)
	return vs, nil
}
