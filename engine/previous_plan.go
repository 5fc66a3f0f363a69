package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// Re-planning a released plan (Request.Previous) happens in three places:
//
//   - fixRoutes takes the routes the lock fixes (Request.lockedRoutes)
//     over as they are, and checks that they still keep every rule of
//     the request; those that have not departed take late pallets of
//     their stores where their floors have room (gainLatePallets); they
//     hold their shifts' time, their trailer units and
//     their dock doors (m.fixed, read by the unit and door resources and
//     by scheduleDC), and a shift with locked trips may drive more trips
//     after them (continueLockedShifts);
//   - seedPrevious (kept_shifts.go) keeps every other route of the
//     previous plan that the request still allows, shift by shift,
//     without the pallets and stores the request dropped, and with the
//     late pallets of its stores
//     where the trailer has room and the change is worth it under
//     Options.Stability (see lateWorthIt), or where a store whose own
//     late pallets ride a second route anyway leaves its trip whole for
//     the room they need (releaseFor, releaseWorthIt; both in
//     kept_shift_late_pallets.go); only what it could not keep, and what
//     is new, is routed;
//   - after routing, a kept shift may take the late pallets of a store
//     another route delivers as a stop of its own, timed near its
//     previous trips and retiming none of their stops (kept_routes.go),
//     as route elimination folds small new routes into the others;
//   - replanChanges compares the plan with the previous one (Changes).
//
// Routing itself knows nothing of the previous plan: its vehicles are
// shift groups and trailer types, not the trailer units and trips a store
// keeps, so the previous plan is kept where those are known, here.

// fixRoutes sets m.fixed to the routes of the previous plan the lock
// fixes, each as the previous plan has it but marked Locked and its cost
// priced at the request's costs, and marks their pallets kept. It returns
// a constraints.Violations when a locked route no longer keeps a rule of
// the request (a store's new hours, a shift cut short, a pallet grown
// heavier): each at the path of the lock that fixes the route, saying
// what is wrong where on it, since a lock is never silently undone.
func (m *model) fixRoutes() error {
	req := m.req
	if req.Previous == nil {
		return nil
	}
	m.kept = make([]bool, len(req.Pallets))
	locked := req.lockedRoutes()
	if len(locked) == 0 {
		return nil
	}
	routes := make([]Route, len(locked))
	for k, lr := range locked {
		r := cloneRoute(req.Previous.Routes[lr.index])
		r.Locked = true
		r.Metrics.Cost = req.Fleet[m.trailer[r.Trailer]].Costs.Route(r.Metrics.DistanceM, r.Metrics.Duration)
		routes[k] = r
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				m.kept[m.pallet[id]] = true
			}
		}
	}
	// The locked routes alone, checked as Validate checks a plan's
	// routes: what it finds is what the lock asks that the request
	// forbids.
	vs, err := validateRoutes(req, routes)
	if err != nil {
		return err
	}
	var out constraints.Violations
	for _, v := range vs {
		k, rest, ok := routeOfPath(v.Path)
		if !ok || k >= len(locked) {
			k = 0 // a path that names no route: the first lock's
		}
		lr := locked[k]
		where := ""
		if rest != "" {
			where = " at " + strings.TrimPrefix(rest, ".")
		}
		out = append(out, constraints.Violation{Code: v.Code, Path: lr.by,
			Message: fmt.Sprintf("locked route %s (previous.routes[%d])%s: %s", req.Previous.Routes[lr.index].ID, lr.index, where, v.Message)})
	}
	if len(out) > 0 {
		return out
	}
	m.fixed = routes
	m.gainLatePallets()
	return nil
}

// validateBesideFixed is validateRoutes of the fixed routes followed by
// routes, routes of the previous plan as a re-plan keeps them: its
// violations at the paths of that slice. Called once fixRoutes is done
// (m.fixed final), as seedPrevious does.
func (m *model) validateBesideFixed(routes []Route) (constraints.Violations, error) {
	if m.besideFixed == nil {
		b, err := newBesideFixed(m.req, m.req.Previous, m.fixed)
		if err != nil {
			return nil, err
		}
		m.besideFixed = b
	}
	return m.besideFixed.validate(routes)
}

// routeOfPath splits a plan path "routes[3].stops[1].arrival" into the
// route's index and the rest (".stops[1].arrival").
func routeOfPath(path string) (int, string, bool) {
	rest, ok := strings.CutPrefix(path, "routes[")
	if !ok {
		return 0, "", false
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, "", false
	}
	k, err := strconv.Atoi(rest[:end])
	return k, rest[end+1:], err == nil
}

// continueLockedShifts takes each shift that drives a locked route out of
// the free shifts, and gives it back in a group of its own for the trips
// it may still drive after its last locked trip returns (shiftAfter).
// Where the locked trips drove since their last break, the driver rests
// at the DC for a break first or drives on with the driving between
// breaks shortened by that, as the previous plan's next trip of the
// shift did; a shift without one rests.
func (fleet *fleetState) continueLockedShifts(m *model) {
	byShift := map[string][]Route{}
	var order []string
	for _, r := range m.fixed {
		if byShift[r.Shift] == nil {
			order = append(order, r.Shift)
		}
		byShift[r.Shift] = append(byShift[r.Shift], r)
	}
	for _, id := range order {
		si := m.shift[id]
		g := fleet.groupOf(si)
		if g < 0 {
			continue
		}
		fleet.groups[g].free = slices.DeleteFunc(slices.Clone(fleet.groups[g].free), func(x int) bool { return x == si })
		trips := byShift[id]
		slices.SortStableFunc(trips, func(a, b Route) int { return a.Start.Compare(b.Start) })
		last := trips[len(trips)-1]
		rest := func(left constraints.HoursOfService, _ time.Duration) bool {
			next, ok := m.nextPreviousTrip(id, last)
			return !ok || next.Depart.Sub(last.Return) >= left.BreakDuration
		}
		if grp, ok := m.shiftAfter(si, trips, rest); ok {
			fleet.groups = append(fleet.groups, grp)
		}
	}
}

// nextPreviousTrip is the trip of shift id that follows last in the
// previous plan, and whether there is one.
func (m *model) nextPreviousTrip(id string, last Route) (Route, bool) {
	var next Route
	found := false
	for _, r := range m.req.Previous.Routes {
		if r.Shift == id && r.Start.After(last.Start) && (!found || r.Start.Before(next.Start)) {
			next, found = r, true
		}
	}
	return next, found
}

// groupOf is the group whose free shifts hold shift si, -1 for none.
func (fleet *fleetState) groupOf(si int) int {
	for g, grp := range fleet.groups {
		if slices.Contains(grp.free, si) {
			return g
		}
	}
	return -1
}

// stability is the option's weight in metres, 0 when changes cost nothing.
func (m *model) stability() float64 {
	s := m.req.Options.Stability
	if s == 0 {
		s = DefaultStability
	}
	return max(0, s) * 1000
}

// changeTolerance is the option's tolerance, or its default.
func (m *model) changeTolerance() time.Duration {
	if t := m.req.Options.ChangeTolerance; t > 0 {
		return t
	}
	return DefaultChangeTolerance
}

// replanChanges sets plan.Changes when the request carries a previous
// plan.
func (m *model) replanChanges(plan *Result) error {
	if m.req.Previous == nil {
		return nil
	}
	c, err := Changes(*m.req.Previous, *plan, ChangeOptions{Tolerance: m.changeTolerance()})
	if err != nil {
		return err
	}
	plan.Changes = &c
	return nil
}
