// Package engine is haulplan's small public API: a planning Request in, a
// Plan out, and an independent Validate that re-checks any plan against the
// request it answers.
//
//	req, err := engine.DecodeRequest(r)   // strict JSON; every bad field reported with its path
//	plan, err := engine.Plan(ctx, req)    // routes, trailer load plans, unassigned pallets, metrics
//	err = engine.Validate(req, plan)      // recomputes everything from the request alone
//
// Plan groups pallets by store and temperature class, routes them with
// routeplan under the request's time limit, lays out every route's trailer
// with loadplan (zones, reverse stop order, axle loads), sends what cannot
// be laid out back to routing, and finally runs Validate on its own result:
// it never returns a plan that Validate rejects.
//
// Time model. Driving happens only on legs between locations, uninterrupted:
// a stop's arrival is the previous departure plus the travel time from the
// request's matrix (geo.TravelModel by default: haversine × circuity at an
// average speed, in whole seconds). Unloading must start inside one of the
// store's opening windows and the departure comes no earlier than the end
// of unloading (fixed time plus time per pallet); any longer dwell is rest.
// The driver comes on duty when loading starts at the DC, which must be
// inside the dock hours; departure follows loading (time per pallet). The
// whole duty, from loading start to return at the DC, lies inside the
// driver's shift and keeps the hours-of-service limits, with waiting,
// unloading and rest at stops counting as non-driving time for the break
// rule (constraints.HoursOfService).
//
// Resources. Each route uses one trailer of its type and one driver shift;
// a plan uses at most Count trailers of a type and every shift at most once.
package engine
