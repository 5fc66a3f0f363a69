package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// Lock says which parts of Request.Previous a re-plan keeps as they are.
// A locked route keeps its trailer unit, dock door, loading, floor
// layout, stops and their times to the second; a locked store keeps its
// route (trailer unit, shift and trip). The zero Lock fixes nothing: the
// previous plan is then only preferred, under Options.Stability.
type Lock struct {
	// Before, when set, fixes every route of the previous plan whose
	// loading has started by then (LoadingStart ≤ Before): its loaders
	// are at work or done. It is also the clock that says which locked
	// routes have departed (Depart ≤ Before): those stay to the second
	// and to the placement. A locked route that has not departed (and
	// every locked route when Before is not set) may take late pallets of
	// the stores it visits where its floor has room without moving a
	// placed pallet, its times moving only by the loading and unloading
	// they add and the return by at most Options.ChangeTolerance (see
	// engine/locked_route_pallets.go). Late pallets that do not fit ride
	// another route.
	Before time.Time `json:"before,omitzero"`
	// Routes fixes the previous plan's routes with these ids, whatever
	// the time.
	Routes []string `json:"routes,omitempty"`
	// Stores keeps each of these stores on the route and trip of the
	// previous plan that delivers it, by fixing that route (see below).
	Stores []string `json:"stores,omitempty"`
}

// departed reports whether previous route r has left the DC by the lock's
// clock: Before is set and r departs by then. A route locked by name or
// store with no Before has not departed.
func (l Lock) departed(r *Route) bool { return !l.Before.IsZero() && !r.Depart.After(l.Before) }

// IsZero reports whether the lock fixes nothing.
func (l Lock) IsZero() bool { return l.Before.IsZero() && len(l.Routes) == 0 && len(l.Stores) == 0 }

// A lock fixes whole routes (a locked route that has not departed may
// only take late pallets where its floor has room, see Before). Besides the routes Lock names and those
// loading by Lock.Before:
//   - a locked store fixes the route that delivers it (each, when several
//     do): keeping a store on its route and trip with its arrival is
//     keeping the route, since any other change to the route moves the
//     store's arrival;
//   - a locked trip fixes the earlier trips of its shift: the driver's
//     day up to the locked trip stays as it was, so the locked trip keeps
//     its number and the hours of service before it hold.
// Later trips of a shift with a locked trip are not fixed: re-planning
// keeps the shift for them after the last locked trip returns.

// lockedRoute is a route of the previous plan that the lock fixes, and
// the path of the lock member that fixes it, which is where a problem
// with it is reported.
type lockedRoute struct {
	index int    // into Previous.Routes
	by    string // "lock.routes[2]", "lock.before", "lock.stores[0]"
}

// lockedRoutes lists the routes of r.Previous that r.Lock fixes, in the
// previous plan's order; none without a previous plan.
func (r *Request) lockedRoutes() []lockedRoute {
	if r.Previous == nil || r.Lock.IsZero() {
		return nil
	}
	routes := r.Previous.Routes
	by := make([]string, len(routes))
	ids := map[string]int{}
	for i, rt := range routes {
		if _, dup := ids[rt.ID]; !dup {
			ids[rt.ID] = i
		}
	}
	for k, id := range r.Lock.Routes {
		if i, ok := ids[id]; ok && by[i] == "" {
			by[i] = constraints.Index("lock.routes", k)
		}
	}
	if !r.Lock.Before.IsZero() {
		for i, rt := range routes {
			if by[i] == "" && !rt.LoadingStart.After(r.Lock.Before) {
				by[i] = "lock.before"
			}
		}
	}
	for k, s := range r.Lock.Stores {
		for i, rt := range routes {
			if by[i] == "" && slices.ContainsFunc(rt.Stops, func(st Stop) bool { return st.Store == s }) {
				by[i] = constraints.Index("lock.stores", k)
			}
		}
	}
	// The earlier trips of a locked trip's shift, on the locked trip's
	// account.
	for i, rt := range routes {
		if by[i] == "" {
			continue
		}
		for j, e := range routes {
			if by[j] == "" && e.Shift == rt.Shift && e.Trip < rt.Trip {
				by[j] = by[i]
			}
		}
	}
	var out []lockedRoute
	for i, b := range by {
		if b != "" {
			out = append(out, lockedRoute{i, b})
		}
	}
	return out
}

// previousPlan checks the shape of the previous plan and the lock: what
// re-planning reads of them must be there and unambiguous. Whether a
// locked route still keeps every rule under this request is for Plan to
// find (it reports it under the lock's path); the rest of the previous
// plan may be anything a plan was, since only what stays of it matters.
func (c checker) previousPlan(r Request) {
	if r.Previous == nil {
		if !r.Lock.IsZero() {
			c.add(CodeRequired, "previous", "previous: required with a lock, which fixes parts of the previous plan")
		}
		return
	}
	prev := r.Previous
	ids := map[string]int{}
	type key struct {
		unit, shift string
		trip        int
	}
	keys := map[key]int{}
	pallets := map[string]string{}
	for i, rt := range prev.Routes {
		path := constraints.Index("previous.routes", i)
		if c.id(rt.ID, path+".id") {
			if j, dup := ids[rt.ID]; dup {
				c.add(CodeDuplicateID, path+".id", "route id %q is also previous.routes[%d]", rt.ID, j)
			} else {
				ids[rt.ID] = i
			}
		}
		if rt.Trip < 1 {
			c.add(CodeInvalidValue, path+".trip", "trip %d: the shift's trips count from 1", rt.Trip)
		}
		k := key{rt.TrailerUnit, rt.Shift, rt.Trip}
		if j, dup := keys[k]; dup {
			c.add(CodeDuplicateID, path, "trailer unit %q, shift %q, trip %d is also previous.routes[%d]: re-planning tells routes apart by trailer unit, shift and trip", rt.TrailerUnit, rt.Shift, rt.Trip, j)
		} else {
			keys[k] = i
		}
		for si, st := range rt.Stops {
			spath := constraints.Index(path+".stops", si)
			if st.Store == "" {
				c.add(CodeRequired, spath+".store", "store: required")
			}
			for pk, id := range st.Pallets {
				if at, dup := pallets[id]; dup {
					c.add(CodeDuplicateID, constraints.Index(spath+".pallets", pk), "pallet %q is also delivered at %s", id, at)
				} else {
					pallets[id] = spath
				}
			}
		}
	}
	for k, id := range r.Lock.Routes {
		if _, ok := ids[id]; !ok {
			c.add(CodeUnknownRef, constraints.Index("lock.routes", k), "the previous plan has no route %q", id)
		}
	}
	stores := map[string]bool{}
	for _, s := range r.Stores {
		stores[s.ID] = true
	}
	delivered := map[string]bool{}
	for _, rt := range prev.Routes {
		for _, st := range rt.Stops {
			delivered[st.Store] = true
		}
	}
	for k, s := range r.Lock.Stores {
		path := constraints.Index("lock.stores", k)
		switch {
		case !stores[s]:
			c.add(CodeUnknownRef, path, "store %q is not in the request: a removed store cannot keep its route", s)
		case !delivered[s]:
			c.add(CodeUnknownRef, path, "the previous plan does not deliver store %q: there is no route for it to keep", s)
		}
	}
	c.lockedRoutesKept(r)
}

// lockedRoutesKept reports each locked route that the request takes away
// what it is made of: its shift, its trailer type or unit, a store or a
// pallet it delivers (a pallet the request no longer has, or has for
// another store), its dock door. Each is reported at the path of the lock
// that fixes the route, since that is what the dispatcher changes: unlock
// the route, or keep what it needs.
func (c checker) lockedRoutesKept(r Request) {
	shifts := map[string]bool{}
	for _, s := range r.Shifts {
		shifts[s.ID] = true
	}
	trailers := map[string]TrailerType{}
	for _, t := range r.Fleet {
		trailers[t.ID] = t
	}
	stores := map[string]bool{}
	for _, s := range r.Stores {
		stores[s.ID] = true
	}
	pallets := map[string]string{}
	for _, p := range r.Pallets {
		pallets[p.ID] = p.Store
	}
	for _, lr := range r.lockedRoutes() {
		rt := r.Previous.Routes[lr.index]
		what := fmt.Sprintf("locked route %s (previous.routes[%d])", rt.ID, lr.index)
		if !shifts[rt.Shift] {
			c.add(CodeUnknownRef, lr.by, "%s: its shift %q is not in the request", what, rt.Shift)
		}
		if t, ok := trailers[rt.Trailer]; !ok {
			c.add(CodeUnknownRef, lr.by, "%s: its trailer type %q is not in the fleet", what, rt.Trailer)
		} else if _, ok := unitNumber(t, rt.TrailerUnit); !ok {
			c.add(CodeUnknownRef, lr.by, "%s: its trailer unit %q is not one of the %d units of type %s", what, rt.TrailerUnit, t.Count, t.ID)
		}
		if n := r.DC.DockDoors; n > 0 && rt.DockDoor > n {
			c.add(CodeUnknownRef, lr.by, "%s: it loads at dock door %d, and the DC has %d", what, rt.DockDoor, n)
		}
		for _, st := range rt.Stops {
			if !stores[st.Store] {
				c.add(CodeUnknownRef, lr.by, "%s: it delivers store %q, which the request no longer has", what, st.Store)
				continue
			}
			for _, id := range st.Pallets {
				switch s, ok := pallets[id]; {
				case !ok:
					c.add(CodeUnknownRef, lr.by, "%s: it carries pallet %q, which the request no longer has", what, id)
				case s != st.Store:
					c.add(CodeUnknownRef, lr.by, "%s: it carries pallet %q to store %q, and the request has it for store %q", what, id, st.Store, s)
				}
			}
		}
	}
}

// unitNumber is the number of trailer type t's unit named unit, and
// whether unit names one of t's units.
func unitNumber(t TrailerType, unit string) (int, bool) {
	digits, ok := strings.CutPrefix(unit, t.ID+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 1 && n <= t.Count && t.UnitID(n) == unit
}
