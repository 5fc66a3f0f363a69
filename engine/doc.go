// Package engine is haulplan's small public API: a planning Request in, a
// Plan out, and an independent Validate that re-checks any plan against the
// request it answers.
//
//	req, err := engine.DecodeRequest(r)   // strict JSON; every bad field reported with its path
//	plan, err := engine.Plan(ctx, req)    // routes, trailer load plans, unassigned pallets, metrics
//	err = engine.Validate(req, plan)      // recomputes everything from the request alone
//
// Plan groups pallets by store and temperature class and cuts each group
// into orders that one trailer carries, laid out (loadplan.PackFleet when a
// group needs more than one); it lets loadplan.PackFleet pack all pallets
// into the fewest trailers of the fleet to choose which trailer units get
// the driver shifts and what single-temperature reefers are set to; it
// routes the orders with routeplan under the request's time limit, lays out
// every route's trailer with loadplan (zones, reverse stop order, axle
// loads), sends what cannot be laid out back to routing, and finally runs
// Validate on its own result: it never returns a plan that Validate
// rejects. The plan's metrics carry trailersLowerBound, a proven lower
// bound on the routes any plan needs for the pallets it delivers
// (loadplan.FleetLowerBound), so a plan can be judged against it.
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
//
// JSON form. Member names are those of the struct tags; durations are Go
// duration strings ("90s", "1h30m") or numbers of seconds, instants RFC 3339,
// lengths in millimetres, weights in kilograms, volumes in cubic metres,
// distances in metres. A request:
//
//	{
//	  "dc": {"id", "name", "location": {"lat", "lng"}, "dockHours": WeeklyHours, "loadingPerPallet"},
//	  "stores": [{"id", "name", "location", "hours": WeeklyHours,
//	              "unloading": {"fixed", "perPallet"}, "maxTrailerLengthMM"}],
//	  "pallets": [{"id", "store", "weightKg", "volumeM3", "footprint": "STANDARD"|"HALF"|{"lengthMM", "widthMM"},
//	               "heightMM", "temperature": "AMBIENT"|"CHILLED"|"FROZEN", "mayBeStacked", "mayCarry"}],
//	  "fleet": [{"id", "name", "count", "lengthMM", "inside": {"lengthMM", "widthMM", "heightMM"},
//	             "palletPositions", "payloadKg", "volumeM3",
//	             "equipment": {"kind": "DRY_VAN"|"REEFER"|"MULTI_TEMP_REEFER", "maxZones"},
//	             "axles": {"kingpinMM", "axleGroupMM", "tareKg", "tareCentreMM", "kingpinLimitKg", "axleGroupLimitKg"},
//	             "costs": {"fixed", "perKm", "perHour"}}],
//	  "shifts": [{"id", "start", "end", "limits": HoursOfService}],
//	  "hoursOfService": {"maxDriving", "maxDuty", "breakAfterDriving", "breakDuration"},
//	  "travel": {"speedKmh", "circuity"},
//	  "options": {"timeLimit", "seed", "workers", "iterations"}
//	}
//
// where WeeklyHours is {"timeZone": "America/Chicago", "days": {"mon": [{"open": "06:00",
// "close": "22:00"}], ...}, "closedDates": ["2026-11-26"]} (a close at or before the open
// crosses midnight). A plan (Result):
//
//	{
//	  "routes": [{"id", "trailer", "shift", "start", "depart", "return",
//	              "stops": [{"store", "arrival", "start", "departure", "wait", "pallets": [id]}],
//	              "load": {"zones": [{"temperature", "firstRow", "lastRow", "fromMM", "toMM"}],
//	                       "placements": [{"pallet", "row", "side": "LEFT"|"RIGHT"|"CENTER", "turned", "zone", "xMM", "level"}],
//	                       "axles": [{"afterStop", "kingpinKg", "axleGroupKg"}]},
//	              "metrics": RouteMetrics}],
//	  "unassigned": [{"pallet", "reason", "message"}],
//	  "metrics": Metrics
//	}
package engine
