package engine

import (
	"context"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// Codes of plan violations reported by Validate, besides the load-plan codes
// of package loadplan (POSITIONS, PAYLOAD, UNLOADING_ORDER, AXLE_KINGPIN, …,
// reported under routes[i].load) and the hours-of-service codes of package
// constraints (DRIVING_LIMIT, DUTY_LIMIT, BREAK_REQUIRED).
const (
	CodeUnknownTrailer  = "UNKNOWN_TRAILER"
	CodeUnknownShift    = "UNKNOWN_SHIFT"
	CodeUnknownStore    = "UNKNOWN_STORE"
	CodeUnknownPallet   = "UNKNOWN_PALLET"
	CodeShiftReused     = "SHIFT_REUSED"
	CodeFleetCount      = "FLEET_COUNT"
	CodeEmptyRoute      = "EMPTY_ROUTE"
	CodeWrongStore      = "WRONG_STORE"
	CodePalletTwice     = "PALLET_TWICE"
	CodePalletMissing   = "PALLET_MISSING"
	CodeTemperature     = "TEMPERATURE"
	CodeTrailerTooLong  = "TRAILER_TOO_LONG"
	CodeDockHours       = "DOCK_HOURS"
	CodeShiftWindow     = "SHIFT_WINDOW"
	CodeLoadingTime     = "LOADING_TIME"
	CodeTravelTime      = "TRAVEL_TIME"
	CodeOpeningHours    = "OPENING_HOURS"
	CodeEarlyStart      = "EARLY_START"
	CodeServiceTime     = "SERVICE_TIME"
	CodeMetric          = "METRIC_MISMATCH"
	CodeUnknownReason   = "UNKNOWN_REASON"
	CodeDuplicateRoute  = "DUPLICATE_ROUTE_ID"
	CodeEmptyStopOnLoad = "EMPTY_STOP"
)

// Validate checks plan against req from the request alone: it recomputes
// every distance and travel time, every wait, the opening and dock hours,
// the shifts and hours-of-service limits, trailer counts, capacities,
// temperature compatibility, each trailer's floor layout and unloading
// order, the axle loads at departure and after every stop, that every
// pallet is delivered exactly once or listed as unassigned, and every
// metric the plan reports. It trusts no number in the plan.
//
// It is the project's oracle, so it shares no code with the planner: only
// the request and plan types, and packages constraints and geo. The floor
// rules are those documented in package loadplan (and enforced there by
// loadplan.Validate), written again here from their documentation. Travel is
// computed only for the legs the routes drive: from Request.Travel leg by
// leg, or by asking Options.Matrix for the DC and the stores visited.
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
	storeWin map[int][]constraints.Window // resolved on first use
	dockWin  []constraints.Window
	dockAny  bool // no dock hours: loading may start at any time
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
	if req.DC.DockHours == nil {
		c.dockAny = true
	} else if len(req.Shifts) > 0 {
		ws, err := req.DC.DockHours.Resolve(c.from, c.to)
		if err != nil {
			return nil, err
		}
		c.dockWin = ws
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

// dockOpenAt reports whether loading may start at t.
func (c *planCheck) dockOpenAt(t time.Time) bool {
	if c.dockAny {
		return true
	}
	for _, w := range c.dockWin {
		if !t.Before(w.Start) && !t.After(w.End) {
			return true
		}
	}
	return false
}

// checkPlan checks the whole plan: the resources and pallets routes share, each
// route on its own (routeAlone), the unassigned list and the totals.
func (c *planCheck) checkPlan(plan *Result) constraints.Violations {
	var vs constraints.Violations
	req := c.req
	where := make([]string, len(req.Pallets)) // path at which each pallet is accounted for
	shiftRoute := make([]string, len(req.Shifts))
	perType := make([]int, len(req.Fleet))
	ids := make(map[string]bool, len(plan.Routes))
	var delivered []int // indices of the pallets the routes deliver, each once
	var sum planSums

	for ri := range plan.Routes {
		r := &plan.Routes[ri]
		path := constraints.Index("routes", ri)
		if ids[r.ID] {
			vs.Add(CodeDuplicateRoute, path+".id", "route id %q is used twice", r.ID)
		}
		ids[r.ID] = true
		if ti, ok := c.trailer[r.Trailer]; ok {
			perType[ti]++
			if perType[ti] == req.Fleet[ti].Count+1 {
				vs.Add(CodeFleetCount, path+".trailer", "more routes on trailer type %q than its count of %d", r.Trailer, req.Fleet[ti].Count)
			}
		}
		if si, ok := c.shift[r.Shift]; ok {
			if prev := shiftRoute[si]; prev != "" {
				vs.Add(CodeShiftReused, path+".shift", "shift %q already drives %s", r.Shift, prev)
			} else {
				shiftRoute[si] = path
			}
		}
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
	}

	for i, u := range plan.Unassigned {
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
	sum.unassigned = len(plan.Unassigned)
	sum.bound = trailersLowerBound(req, delivered)
	return append(vs, sum.compare("metrics", plan.Metrics)...)
}
