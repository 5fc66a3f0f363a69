package engine

import (
	"context"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// Codes of plan violations reported by Validate, besides the load-plan codes
// of package loadplan (POSITIONS, PAYLOAD, UNLOADING_ORDER, AXLE_KINGPIN, …,
// reported under routes[i].load) and the hours-of-service codes of package
// constraints (DRIVING_LIMIT, DUTY_LIMIT, BREAK_REQUIRED).
const (
	CodeUnknownTrailer = "UNKNOWN_TRAILER"
	CodeUnknownShift   = "UNKNOWN_SHIFT"
	CodeUnknownStore   = "UNKNOWN_STORE"
	CodeUnknownPallet  = "UNKNOWN_PALLET"
	CodeFleetCount     = "FLEET_COUNT" // a trailer unit numbered beyond its type's count
	CodeEmptyRoute     = "EMPTY_ROUTE"
	CodeWrongStore     = "WRONG_STORE"
	CodePalletTwice    = "PALLET_TWICE"
	CodePalletMissing  = "PALLET_MISSING"
	CodeTemperature    = "TEMPERATURE"
	CodeTrailerTooLong = "TRAILER_TOO_LONG"
	CodeDockHours      = "DOCK_HOURS"
	CodeShiftWindow    = "SHIFT_WINDOW"
	CodeLoadingTime    = "LOADING_TIME"
	CodeTravelTime     = "TRAVEL_TIME"
	// CodeNoRoute: a leg the request's road matrix has no route for.
	CodeNoRoute         = "NO_ROUTE"
	CodeOpeningHours    = "OPENING_HOURS"
	CodeEarlyStart      = "EARLY_START"
	CodeServiceTime     = "SERVICE_TIME"
	CodeMetric          = "METRIC_MISMATCH"
	CodeUnknownReason   = "UNKNOWN_REASON"
	CodeDuplicateRoute  = "DUPLICATE_ROUTE_ID"
	CodeEmptyStopOnLoad = "EMPTY_STOP"
	// CodeHookTime: a trip departs sooner after its start (the driver
	// coming on duty) than the DC's hook time.
	CodeHookTime = "HOOK_TIME"
	// CodeStaging: a trip's loading ends after its start, or so long
	// before it that the loaded trailer waits in the yard longer than its
	// staging limit.
	CodeStaging = "STAGING"
	// CodeTripOrder: a shift's trips are not numbered 1, 2, … in the order
	// of their starts.
	CodeTripOrder = "TRIP_ORDER"
	// CodeTripOverlap: a trip starts before the shift's previous trip is
	// back at the DC.
	CodeTripOverlap = "TRIP_OVERLAP"
	// CodeMaxTrips: a shift drives more trips than its maxTrips.
	CodeMaxTrips = "MAX_TRIPS"
	// CodeTrailerUnit: a trip's trailer unit is missing or is not a unit
	// of its trailer type.
	CodeTrailerUnit = "TRAILER_UNIT"
	// CodeTrailerUnitBusy: a trailer unit is loaded for a trip before it
	// is back from its previous trip and turned around.
	CodeTrailerUnitBusy = "TRAILER_UNIT_BUSY"
	// CodeDockDoor: a trip's dock door is below 1, or beyond the DC's
	// dock doors.
	CodeDockDoor = "DOCK_DOOR"
	// CodeDockDoorBusy: two loadings on one dock door at once.
	CodeDockDoorBusy = "DOCK_DOOR_BUSY"
)

// Validate checks plan against req from the request alone: it recomputes
// every distance and travel time, every wait, the opening and dock hours,
// each trip's loading, staging and hook-up, the trips of each shift (in
// order, within maxTrips and the shift, and under the hours-of-service
// limits as one duty), the trailer units and their turnaround, the dock
// doors, capacities,
// temperature compatibility, each trailer's floor layout and its
// unloading in stop order through the trailer type's doors, the axle loads at departure and after every stop, that every
// pallet is delivered exactly once or listed as unassigned, and every
// metric the plan reports. It trusts no number in the plan. Given a
// previous plan and a lock (Request.Previous, Request.Lock), it also
// checks that every route the lock fixes is in the plan unchanged, to the
// second and to the placement (LOCK_BROKEN).
//
// It is the project's oracle, so it shares no code with the planner: only
// the request and plan types, and packages constraints and geo. The floor
// rules are those documented in package loadplan (and enforced there by
// loadplan.Validate), written again here from their documentation. Travel is
// computed only for the legs the routes drive: from Request.Travel leg by
// leg, read from Request.RoadMatrix as given (a leg it has no route for is
// NO_ROUTE), or by asking Options.Matrix for the DC and the stores visited.
//
// Instants in messages are given in the request's time zone (the DC's dock
// hours', else the first store's, else UTC).
//
// It returns nil for a valid plan, the request's own violations when the
// request is invalid, the matrix source's error when Options.Matrix fails,
// and otherwise a constraints.Violations with one entry per problem, each
// with the JSON path of the plan member at fault.
func Validate(req Request, plan Result) error {
	if err := req.Check(); err != nil {
		return err
	}
	c, err := newPlanCheck(context.Background(), &req, &plan)
	if err != nil {
		return err
	}
	return c.checkPlan(&plan).Err()
}

// planCheck is what Validate derives from the request (and, for the travel
// matrix, from the stores the plan visits) before it reads the plan.
type planCheck struct {
	req     *Request
	store   map[string]int
	pallet  map[string]int
	trailer map[string]int
	shift   map[string]int
	// from and to are the horizon: the earliest shift start and the latest
	// shift end, over which weekly hours are resolved.
	from, to time.Time
	loc      *time.Location // for instants in messages
	byLeg    *legTravel
	// rush is the travel profile's slow intervals over the horizon and a
	// day either side (none without a profile): every leg is timed
	// through them.
	rush     geo.SlowIntervals
	storeWin map[int][]constraints.Window // resolved on first use
	dockAny  bool                         // no dock hours: loading may start at any time
}

func newPlanCheck(ctx context.Context, req *Request, plan *Result) (*planCheck, error) {
	c := &planCheck{
		req:      req,
		store:    make(map[string]int, len(req.Stores)),
		pallet:   make(map[string]int, len(req.Pallets)),
		trailer:  make(map[string]int, len(req.Fleet)),
		shift:    make(map[string]int, len(req.Shifts)),
		storeWin: map[int][]constraints.Window{},
		loc:      req.TimeZone(),
	}
	for i, s := range req.Stores {
		c.store[s.ID] = i
	}
	for i, p := range req.Pallets {
		c.pallet[p.ID] = i
	}
	for i, t := range req.Fleet {
		c.trailer[t.ID] = i
	}
	for i, s := range req.Shifts {
		c.shift[s.ID] = i
		if i == 0 || s.Start.Before(c.from) {
			c.from = s.Start
		}
		if i == 0 || s.End.After(c.to) {
			c.to = s.End
		}
	}
	c.dockAny = req.DC.DockHours == nil
	if len(req.RushHours) > 0 && len(req.Shifts) > 0 {
		// Check has required the DC's zone and loaded it.
		if loc, err := time.LoadLocation(req.dcZone()); err == nil {
			c.rush = req.RushHours.Intervals(loc, c.from.Add(-24*time.Hour), c.to.Add(24*time.Hour))
		}
	}
	var visited []int
	seen := map[int]bool{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			if si, ok := c.store[st.Store]; ok && !seen[si] {
				seen[si] = true
				visited = append(visited, si)
			}
		}
	}
	t, err := newLegTravel(ctx, req, visited)
	if err != nil {
		return nil, err
	}
	c.byLeg = t
	return c, nil
}

// at formats an instant for a message: RFC 3339 with the offset of the
// request's time zone.
func (c *planCheck) at(t time.Time) string { return t.In(c.loc).Format(time.RFC3339) }

// storeWindows returns the receiving hours of store s over the horizon.
func (c *planCheck) storeWindows(s int) []constraints.Window {
	if ws, ok := c.storeWin[s]; ok {
		return ws
	}
	var ws []constraints.Window
	if len(c.req.Shifts) > 0 {
		// Request.Check has checked the hours, so Resolve cannot fail.
		ws, _ = c.req.Stores[s].Hours.Resolve(c.from, c.to)
	}
	c.storeWin[s] = ws
	return ws
}

// dockOpenAt reports whether loading may start at t: t lies in the dock
// hours (ends included), whenever it is. Loading is not the driver's work,
// so it may start before the earliest shift, and the dock hours are
// resolved around t rather than over the shifts' horizon.
func (c *planCheck) dockOpenAt(t time.Time) bool {
	if c.dockAny {
		return true
	}
	// Request.Check has checked the hours, so Resolve cannot fail.
	ws, _ := c.req.DC.DockHours.Resolve(t, t)
	return len(ws) > 0
}

// checkPlan checks the whole plan: the resources and pallets routes share
// (shifts, trailer units, dock doors), each route on its own (routeAlone),
// the unassigned list and the totals.
func (c *planCheck) checkPlan(plan *Result) constraints.Violations {
	var vs constraints.Violations
	req := c.req
	where := make([]string, len(req.Pallets)) // path at which each pallet is accounted for
	ids := make(map[string]bool, len(plan.Routes))
	var delivered []int // indices of the pallets the routes deliver, each once
	var sum planSums
	figs := make([]routeFigures, len(plan.Routes))

	for ri := range plan.Routes {
		r := &plan.Routes[ri]
		path := constraints.Index("routes", ri)
		if ids[r.ID] {
			vs.Add(CodeDuplicateRoute, path+".id", "route id %q is used twice", r.ID)
		}
		ids[r.ID] = true
		for k, st := range r.Stops {
			for j, id := range st.Pallets {
				pi, ok := c.pallet[id]
				if !ok {
					continue // routeAlone reports it
				}
				ppath := constraints.Index(constraints.Index(path+".stops", k)+".pallets", j)
				if where[pi] != "" {
					vs.Add(CodePalletTwice, ppath, "pallet %q is already delivered at %s", id, where[pi])
					continue
				}
				where[pi] = ppath
				delivered = append(delivered, pi)
			}
		}
		fig, rvs := c.routeAlone(r, path)
		vs = append(vs, rvs...)
		vs = append(vs, fig.compare(path+".metrics", r.Metrics)...)
		sum.add(fig)
		figs[ri] = fig
	}
	vs = append(vs, c.checkShiftTrips(plan.Routes, figs)...)
	vs = append(vs, c.checkTrailerUnits(plan.Routes)...)
	vs = append(vs, c.checkDockDoors(plan.Routes)...)
	vs = append(vs, c.checkUnassigned(plan.Unassigned, where)...)
	vs = append(vs, c.checkLocks(plan)...)
	sum.unassigned = len(plan.Unassigned)
	sum.bound = trailersLowerBound(req, delivered)
	sum.fleet = fleetLowerBounds(req, delivered, sum.bound, c.byLeg.mx, func(place int) int { return c.byLeg.row[place] })
	sum.resources(req, c.shift, plan.Routes)
	return append(vs, sum.compare("metrics", plan.Metrics)...)
}

// checkUnassigned checks the unassigned list, and that every pallet is
// accounted for: where holds the path at which each pallet is delivered
// ("" for none) and gets the unassigned ones'.
func (c *planCheck) checkUnassigned(us []Unassigned, where []string) constraints.Violations {
	var vs constraints.Violations
	req := c.req
	for i, u := range us {
		path := constraints.Index("unassigned", i)
		pi, ok := c.pallet[u.Pallet]
		if !ok {
			vs.Add(CodeUnknownPallet, path+".pallet", "no pallet %q", u.Pallet)
			continue
		}
		if !reasons[u.Reason] {
			vs.Add(CodeUnknownReason, path+".reason", "unknown reason %q", u.Reason)
		}
		if want := req.Pallets[pi].Store; u.Store != want {
			vs.Add(CodeWrongStore, path+".store", "pallet %q belongs to store %q, not %q", u.Pallet, want, u.Store)
		}
		if where[pi] != "" {
			vs.Add(CodePalletTwice, path+".pallet", "pallet %q is already accounted for at %s", u.Pallet, where[pi])
			continue
		}
		where[pi] = path
	}
	for i, p := range req.Pallets {
		if where[i] == "" {
			vs.Add(CodePalletMissing, "unassigned", "pallet %q (pallets[%d]) is neither delivered nor listed as unassigned", p.ID, i)
		}
	}
	return vs
}
