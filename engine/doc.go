// Package engine is haulplan's small public API: a planning Request in, a
// Plan out, and an independent Validate that re-checks any plan against the
// request it answers.
//
//	req, err := engine.DecodeRequest(r)   // strict JSON; every problem reported once with its path
//	plan, err := engine.Plan(ctx, req)    // routes, trailer load plans, unassigned pallets, metrics
//	err = engine.Validate(req, plan)      // recomputes everything from the request alone
//
// Plan groups pallets by store and temperature class and cuts each group
// into orders that one trailer carries, laid out (loadplan.PackFleet when a
// group needs more than one). Routing (routeplan) then shares the fleet out
// as two resources: a route takes one driver shift and one trailer unit of
// a type, and the search chooses, route by route, which trailer type each
// shift pulls and, trip by trip, what a single-temperature reefer is set
// to (one class a trip; it may change between trips), with the
// stores' length limits, receiving hours and the dock hours in view. Every
// route's trailer is laid out with loadplan (zones, reverse stop order,
// unloading through the trailer's doors, axle loads); what cannot be laid
// out goes back to routing with the fleet left. When the fleet cannot carry everything, routing delivers the most
// pallets it can.
//
// Phases. Plan (planWithClock, plan.go) runs these in order. Each is a
// function: what it reads and never changes travels in one planContext
// (the model, the seed, the clock and deadlines, the progress reporter),
// and the plan as it is built in one fleetState (fleet_state.go: the shift
// groups with their free shifts, the routes so far (whose times say when
// their trailer units are busy), the orders left out for good, the pallets
// unassigned), which the phases
// that change it take as a parameter.
//
//  1. prepare(ctx, &req) → model: the checked request indexed, its travel
//     matrix, every weekly schedule resolved to instants (model.go).
//  2. A re-plan (Request.Previous, previous_plan.go): model.fixRoutes takes the
//     routes the lock fixes over as they are (model.fixed, whose shifts'
//     time, trailer units and dock doors the later phases leave alone), and
//     gainLatePallets (locked_route_pallets.go) gives a locked route that has
//     not departed late pallets of its stores where its floor has room,
//     without moving a placed pallet; newFleetState(model, nil) → fleet state, the shifts grouped;
//     continueLockedShifts lets a shift with locked trips drive on after
//     them; seedPrevious (kept_shifts.go) keeps the previous plan's other
//     routes that the request allows, with late pallets where worth it, a
//     store leaving its trip whole where that frees room for the late
//     pallets of others (kept_shift_late_pallets.go; model.kept marks
//     their pallets). Without a previous plan only
//     newFleetState runs.
//  3. makeOrders(ctx, pc) → orders, unassigned pallets: the pallets of a
//     store and class, but those kept, cut into orders one trailer
//     carries (orders.go).
//  4. preferTrailers(model, orders, free shifts): on large days, keeps
//     orders off the versatile trailers for the first round, in
//     order.prefer (trailer_reserve.go).
//  5. routeOrders(ctx, pc, fleet state, orders) → rounds, cut: routing
//     rounds (routing_round.go), each routeRound building the routing
//     problem from the orders and the fleet left (routing_problem.go),
//     searching, and laying each trip of each routing route (a driver's
//     shift) out on its trailer (acceptRoute, route_layout.go; trips,
//     shift_trips.go); it adds the trips and the orders left out to the
//     fleet state. A round after the first also offers each shift that
//     drives trips already, for the time after its last one
//     (continueDrivingShifts, shift_continuation.go), so that what a
//     layout sent back rides on a driver out already rather than on a
//     shift opened for it. A later phase that changes a trip times its
//     whole shift again (fleetState.replaceOrders).
//  6. routeUnreached(ctx, pc, fleet state, rounds) → rounds: the orders
//     the time limit left unreached (a round's search had not come to
//     them, or no round had the time to route what a trip's floor sent
//     back) get rounds of one search stream of a few iterations, before
//     the deadline (unrouted_orders.go). Then fillSpareRoom(ctx, pc,
//     fleet state): routes with room left take part of what the fleet
//     had no room for (spare_room.go).
//  7. Under FewestDrivers, unless the request re-plans a previous plan,
//     retimeAcrossKinds(ctx, pc, fleet state) → shifts freed: a shift of
//     one trip hands it to a shift of any trailer kind, the trip alone
//     timed again after or before that shift's trips (shift_trips.go), in
//     a third of the time left (with an iteration budget, within its
//     tries alone); then retimeChains(ctx, pc, fleet state) → shifts
//     freed: a shift of one trip hands it to a shift of the same trailer
//     kind that can drive it timed again, before or after its own trips,
//     in a third of the time then left (likewise); then
//     spareVersatileUnits(model, fleet state) → trips moved: a trip moves
//     to the least versatile trailer type that carries it (a reefer's
//     ambient trip to a dry van) when an order left out needs the type it
//     leaves (trailer_versatility.go).
//  8. Under FewestTrailers or FewestDrivers,
//     eliminateRoutes(ctx, pc, fleet state) →
//     routes taken off (route_elimination.go; never a route kept from a
//     previous plan, which takes pallets only where none of its stops is
//     retimed for them, kept_routes.go). When it took any, when phase 7
//     freed a shift or moved a trip, or when
//     orders a trip's floor sent back (acceptRoute) are still out,
//     routeLeftovers routes again what was left behind with the units
//     freed, and fillSpareRoom runs again.
//  9. Under every objective, a re-plan routes past the time limit the
//     orders it left unrouted (routeUnrouted, unrouted_orders.go: those
//     the search had not come to, those a layout sent back after the last
//     round, those short of fleet whose offer of the room left the limit
//     cut): one round in one stream of a few iterations with the fleet
//     left, then fillSpareRoom, so that a late pallet is left behind for
//     want of room, never of time. A fresh plan whose routing began
//     routes so the orders still unreached (routeUnreached), its search
//     within a twentieth of the limit past it, then that round's layouts.
//  10. Under FewestTrailers or FewestDrivers, unless the request re-plans
//     a previous plan, chainShifts(model, fleet state) → shifts freed: a
//     shift of one trip hands it, as it is timed, to another shift that
//     can drive it too (shift_trips.go).
//  11. fleet state unassignLeftOut: the pallets of the orders left out,
//     with a reason and a message (unassigned.go).
//  12. assemble(model, routes, unassigned) → Result: the routes fitted
//     into the DC's day by scheduleDC (dc_schedule.go: each trip's loading
//     in the dock hours, loading_schedule.go; a trailer unit,
//     trailer_units.go; a dock door, dock_doors.go; the trips of each shift
//     numbered), ordered, named and their breaks stated across each
//     shift's trips, the totals and the fleet bounds (result_assembly.go,
//     fleet_bounds.go), the locked routes among them as they are; then
//     Validate, and with a previous plan the result's Changes.
//
// A new phase is a function of its own, in a file named after it, that
// takes ctx, the planContext, the fleetState when it changes the plan,
// and its own inputs, and returns what it makes; planWithClock calls it
// in its place. State that lives past the phase goes in fleetState (and,
// when a progress report's plan must show it, into the copy snapshotOf
// makes); what it only reads goes in planContext.
//
// Objective. Options.Objective says what routing minimises once it
// delivers every pallet it can: FewestTrailers (the default, "trailers" in
// JSON) minimises the trailer loads (routes, one a trip), then their
// cost; FewestDrivers ("drivers") the shifts used, then the routes, then
// their cost. Routing's route is a driver's shift of one or more trips
// (shift_trips.go), so under FewestDrivers it minimises the shifts and
// under FewestTrailers the trips; the trailer units follow from how the
// trips overlap (assignTrailerUnits turns them through the day): routing
// keeps the trips of a type that hold a unit at one instant, from the
// start of their loading in the dock hours to their return plus the
// turnaround, within the type's count (a timed routeplan.Resource, with
// the routes of earlier rounds busy), and every phase that changes a
// route checks it again (fleetState.unitsFit). LowestCost ("cost")
// minimises the cost alone (the shifts' costs are added to the plan's), each
// trailer type's fixed cost per route plus its cost per km and per hour,
// and may use more trailers to drive fewer kilometres. The default is what
// a DC planner asks of a load plan: trailers and drivers are the day's
// scarce, expensive part (the interface document asks load plans to
// "minimize the number of vehicles needed"). Under FewestTrailers the
// search spends part of its time emptying routes into the others, and
// keeps versatile trailers for the freight that needs them: among trailer
// types it prefers the one that could carry the least of the day's
// freight (a 53 ft dry van before a 48 ft one, either before a reefer, a
// single-temperature reefer before a multi-temperature one) and, among
// driver shifts, the latest that reaches the route's stores, so that the
// early shifts stay for the stores that close early. Under either
// objective, on large days (thousands of orders, drivers to spare), the
// first routing round keeps ambient freight off the reefers while the dry
// vans have room for it, so that chilled and frozen freight does not run
// out of reefers while dry vans stand idle. A multi-temperature
// reefer's route holds one floor position back for every zone beyond the
// first that its freight uses (a zone with an odd count leaves half a row
// empty).
//
// Plan computes each route's times from the routing
// schedule and its metrics from that schedule and the layout, and finally
// runs Validate, which recomputes everything in code of its own: Plan
// never returns a plan that Validate rejects. The plan's metrics carry
// trailersLowerBound, a proven lower bound on the routes any plan needs
// for the pallets it delivers (the larger of loadplan.FleetLowerBound and
// a count of floor positions under Validate's stacking, temperature and
// length rules), so a plan can be judged against it.
//
// Unassigned pallets name their store, a reason code and a message in the
// planner's terms: the store's receiving hours and the earliest arrival
// any shift can make, the payload a pallet exceeds, the trailers that were
// all on other routes.
//
// Progress. Options.Progress receives a report at each phase (orders,
// each routing round, its layouts, done) and at a better plan the search
// finds (in each round the first at once, then at most four a second):
// elapsed time, routes, pallets delivered, cost. A report's
// Best method builds the best plan so far, complete and validated, from a
// snapshot, on any goroutine: a service shows it while the job runs.
// Cancelling the context makes Plan return the best plan as the time limit
// does, within the bound Options.TimeLimit states.
//
// Failures. An invalid request gives a constraints.Violations listing every
// problem with its path. ErrInternal marks a bug in haulplan: a plan
// Validate rejects, or a panic in a search stream's goroutine (including
// one in Options.Progress, which routing calls there), which Plan returns
// as an error wrapping a *routeplan.PanicError with the panic's value and
// stack instead of ending the process. Panics on Plan's own goroutine
// reach its caller as usual.
//
// Reproducibility. Options.Streams independent search streams (default
// DefaultStreams, not the number of cores) run on Options.Workers
// goroutines; with an iteration budget (Options.Iterations) that ends
// within the time limit, the same request and seed give the same plan on
// any machine and any number of cores. A search that ends on its time
// limit has run as many iterations as the machine managed, so its plan
// depends on the machine's speed and load.
//
// Time model. Driving happens only on legs between locations, uninterrupted:
// a stop's arrival is the previous departure plus the travel time from the
// request's matrix (geo.TravelModel by default: the haversine distance cut
// into speed bands, each driven over its circuity at its speed, in whole
// seconds; or the road matrix the request carries, Request.RoadMatrix,
// "travel"."matrix" in JSON, read as given: one-way legs stay one-way, a
// leg without a route is never driven, and a store the DC has no route to
// or back from is NO_ROAD). Unloading must start inside one of the
// store's opening windows and the departure comes no earlier than the end
// of unloading (fixed time plus time per pallet); any longer dwell is rest.
// A trip is loaded at a dock door by the DC's staff: loading starts inside
// the dock hours (any of the dock's windows on any day, before the shift
// if need be) and lasts the DC's loadingFixed plus loadingPerPallet for
// each pallet; the loaded trailer may wait in the yard up to the staging
// limit (the trailer type's maxStaging, else the DC's; 0 by default: none).
// The driver comes on duty for the trip (Route.Start) when the trailer is
// loaded and staged, and departs no sooner than the DC's hookTime later.
// A shift may drive several trips, one after another: its duty runs from
// its first trip's start to its last trip's return, lies inside the shift,
// and keeps the hours-of-service limits as one duty, with waiting,
// unloading and rest at stops, and the time at the DC between trips,
// counting as non-driving time for the break rule
// (constraints.HoursOfService). Routing times each trip's hook-up (its
// start service, on duty) where its loading, off duty, can have started
// in the dock hours and ended no more than the staging limit before it
// (routeplan's Loading). With dockDoors set, the doors are a resource of
// routing too (a timed routeplan.Resource held over each loading, the
// loadings of earlier rounds busy): where every door is loading at a
// trip's loading, routing loads it earlier, within the staging limit and
// the dock hours (the trailer waits loaded in the yard), or else holds
// the trip back at the DC until a door is free, so that night loading
// ahead of the morning's trips uses every door and every trip routing
// keeps has one; every phase that changes a route checks the doors again
// (fleetState.doorsFit), and assignDockDoors numbers them.
//
// Resources. Each route runs on one trailer unit of its type ("DRY53-04",
// one of the type's Count units) and is driven by one shift; a unit may
// run several trips, free again the DC's trailerTurnaround after it
// returns, and a shift may drive up to its maxTrips. At most dockDoors
// trailers load at once (0: no limit); a store whose trips find no door
// free at any time they could load is left out as DOCK_CAPACITY. A shift's hours-of-service limits
// are its own, field by field, else the request's hoursOfService, else
// the US defaults.
//
// JSON form. Member names are those of the struct tags, matched exactly
// (case included); durations are Go duration strings ("90s", "1h30m") or,
// on input, numbers of seconds; instants RFC 3339, lengths in millimetres,
// weights in kilograms, volumes in cubic metres, distances in metres. The
// Go types hold time.Duration and time.Time: the JSON form is handled in
// reading (DecodeRequest, DecodePlan, and UnmarshalJSON on Request and
// Result) and in writing (json.Marshal, MarshalIndent: MarshalJSON methods
// on the types that hold durations write them as strings). Reading
// reports every problem of the document with its path, a problem repeated
// over a list once ("pallets[0..399].weightkg", with its count), up to
// MaxViolations entries. A request, with its required members marked *
// (absent, each is a REQUIRED violation; the others have the defaults the
// types' doc comments give):
//
//	{
//	  "dc"*: {"id"*, "name", "location"*: {"lat"*, "lng"*}, "timeZone"¶, "dockHours": WeeklyHours, "loadingPerPallet"*,
//	          "loadingFixed", "hookTime", "trailerTurnaround", "dockDoors", "maxStaging"},
//	  "stores": [{"id"*, "name", "location"*, "hours"*: WeeklyHours,
//	              "unloading"*: {"fixed"*, "perPallet"*}, "maxTrailerLengthMM"}],
//	  "pallets": [{"id"*, "store"*, "weightKg"*, "volumeM3", "footprint"*: "STANDARD"|"HALF"|{"lengthMM"*, "widthMM"*},
//	               "heightMM"*, "temperature"*: "AMBIENT"|"CHILLED"|"FROZEN", "mayBeStacked", "mayCarry"}],
//	  "fleet"†: [{"id"*, "name", "count"*, "lengthMM"‡, "inside"*: {"lengthMM"*, "widthMM"*, "heightMM"*},
//	             "palletPositions"*, "payloadKg"*, "volumeM3",
//	             "equipment"*: {"kind"*: "DRY_VAN"|"REEFER"|"MULTI_TEMP_REEFER", "maxZones"},
//	             "doors": [{"side"*: "REAR"|"CURB"|"ROAD", "fromMM", "toMM"}],
//	             "axles"*: {"kingpinMM"*, "axleGroupMM"*, "tareKg"*, "tareCentreMM"*, "kingpinLimitKg"*, "axleGroupLimitKg"*},
//	             "costs"*: {"fixed", "perKm", "perHour"}, "maxStaging"}],
//	  "shifts"†: [{"id"*, "start"*, "end"*, "limits": HoursOfService, "maxTrips", "cost"}],
//	  "hoursOfService": {"maxDriving", "maxDuty", "breakAfterDriving", "breakDuration"},
//	  "travel": {"bands": [{"upToKm", "speedKmh"*, "circuity"*}], "speedKmh", "circuity",
//	             "profile": [{"from"*: "06:30", "to"*: "09:00", "factor"*: 0.6, "days": ["mon", ...]}],
//	             "matrix": {"ids"*: ["DC", "S1", ...], "distancesM"*: [[0, 1200.5, ...], ...], "durationsS"*: [[0, 95, null, ...], ...]}},
//	  "options": {"timeLimit", "seed", "streams", "workers", "iterations", "objective": "trailers"|"drivers"|"cost",
//	              "wholeDeliveries": false|true}
//	}
//
// where WeeklyHours is {"timeZone"§: "America/Chicago", "days"*: {"mon": [{"open"*: "06:00",
// "close"*: "22:00"}], ...}, "closedDates": ["2026-11-26"]} (a close at or before the open
// crosses midnight); † marks members required as soon as there is a pallet, ‡
// a trailer's outside length, required when a store limits the length, §
// the time zone, required of hours that state an opening or a closed date,
// and ¶ the DC's zone, required with a travel profile unless the dock hours
// name one. A plan (Result):
//
//	{
//	  "routes": [{"id", "trailer", "shift", "trip", "trailerUnit", "dockDoor", "loadingStart", "loadingEnd",
//	              "start", "depart", "return",
//	              "stops": [{"store", "arrival", "start", "departure", "wait", "pallets": [id],
//	                         "break": {"start", "duration", "wait", "unloading", "rest"}}],
//	              "load": {"zones": [{"temperature", "firstRow", "lastRow", "fromMM", "toMM"}],
//	                       "placements": [{"pallet", "row", "side": "LEFT"|"RIGHT"|"CENTER", "turned", "zone", "xMM", "level", "slot"}],
//	                       "axles": [{"afterStop", "kingpinKg", "axleGroupKg"}]},
//	              "metrics": RouteMetrics}],
//	  "unassigned": [{"pallet", "store", "reason", "message"}],
//	  "metrics": Metrics
//	}
//
// A stop holds "break" only where the driver takes an hours-of-service break
// (see Break). Rows, zones, levels and afterStop count from 0, as indices
// (see LoadPlan); the reports of package engine/report number rows, zones
// and stops from 1. Half and quarter pallets share a floor position (one
// row, one side): "slot" says where across it a pallet stands, 0 against
// the side's wall (the default, written only when 1), 1 one pallet width
// in from there (see Placement).
//
// Changes. Changes(previous, next, ChangeOptions{}) compares two plans of
// one day store by store, as the people holding the previous plan's
// paperwork need it: each store that differs is ADDED, REMOVED, or one or
// more of MOVED (its pallets ride another set of routes), RETIMED (its
// first or last arrival moved by more than the tolerance, 15 minutes by
// default) and PALLETS_CHANGED. Routes are told apart by trailer unit,
// shift and trip, never by id (Plan numbers routes by loading start, so
// ids are not stable from one plan to the next). Its JSON form
// (PlanChanges):
//
//	{
//	  "tolerance": "15m0s",
//	  "stores": [{"store", "kinds": ["MOVED"|"RETIMED"|"PALLETS_CHANGED"|"ADDED"|"REMOVED"],
//	              "from": [{"id", "trailerUnit", "shift", "trip"}], "to": [...],
//	              "oldArrival", "newArrival", "oldLastArrival", "newLastArrival", "oldPallets", "newPallets"}],
//	  "metrics": {"storesCompared", "storesAdded", "storesRemoved", "storesMoved", "storesRetimed",
//	              "storesMovedOrRetimed", "storesPalletsChanged", "routesChanged"}
//	}
//
// An arrival a plan does not have (an ADDED store's old one) is left out.
package engine
