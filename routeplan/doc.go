// Package routeplan solves vehicle routing problems with time windows: which
// sites each vehicle visits, in what order, and when.
//
// A Problem holds a distance and a duration matrix over locations, the sites
// to serve (one or more time windows each, a service time, a demand vector
// of any dimension, a group and a value) and a heterogeneous fleet of
// vehicle types (count, capacity vector, start and end location, shift,
// start service with start windows, maximum duty and driving time, a break
// rule, a limit on the groups of one route, fixed, distance and time
// costs). Resources are pools several vehicle types draw from: a route
// takes one unit of each resource its type lists, so that a type can be a
// pairing (a driver shift with a trailer type, say) and the search decides
// which pairings drive. A type may let its routes drive several trips
// (MaxTrips): between two, the vehicle returns to its start location and
// takes the start service again inside a start window (a driver hooking
// the next loaded trailer), the capacity bounds each trip's load, and the
// duty, driving and break rule span the whole route. A type may load its
// trips ahead, off the driver's duty (Loading): a trip's loading begins
// inside a start window and ends at most its staging before the trip
// starts. A resource may be taken per trip (Resource.PerTrip: a trailer
// a trip), or per trip at a time (Resource.Timed: units that turn, held
// from a trip's loading to its return and turnaround, or over its loading
// only, a dock door, the units held at every instant within the count;
// a site such a resource alone keeps out is ResourceBusy); a type may
// cost per trip (TripCost), and the FewestTrips objective counts trips
// where Hierarchical counts routes (and then, with routes of several
// trips, trips). Solve returns routes with a complete schedule (start of
// loading, departure, arrival, service start and departure at
// every site) that satisfies every constraint, and lists the sites it could
// not serve with a Reason rather than failing the call. When the fleet
// cannot serve every site, it serves the most value (Site.Value) first.
//
// Schedules follow one exact model, which callers may re-check on their own:
// the start service (loading) begins at or after the shift start inside one
// of the type's start windows and lasts StartService plus the per-unit time
// of the route's load; the vehicle departs when it is done or later, and
// duty and time cost count from its beginning. Driving happens only on
// legs, uninterrupted; service starts inside one of the site's windows, not
// before arrival; a departure later than the end of service is a rest taken
// at the site; and under a break rule the driving accumulated since the last
// non-driving period (departure minus arrival) of at least BreakDuration may
// never exceed BreakAfter. Under rush hours (Problem.Rush) a leg that
// leaves at d arrives at Rush.Arrive(d, its Duration), and that whole time
// counts as driving; Durations remain free flow, the least any leg takes,
// so that the bounds that rule moves out keep them. With integral inputs
// every time in a Solution is integral, because the solver only adds,
// subtracts and compares (and rounds a leg's slowdown up to whole seconds). An
// Evaluator times any given route by the same model and code, or says which
// rule it breaks.
//
// Solve is anytime: it stops at Options.TimeLimit, Options.MaxIterations or
// when its context is cancelled, and returns the best feasible solution found
// so far; a construction cut short is one, with the sites it did not reach
// unassigned. It runs Options.Streams independent searches on Options.Workers
// goroutines and keeps the best; the same Problem, Seed, Streams and
// MaxIterations give the same Solution, whatever the number of workers. A
// panic in a search stream stops the others and comes back as a
// *PanicError, not as a crash of the process.
//
// The search: a cheapest-insertion construction (most valuable sites first,
// then far sites first), then, under the Hierarchical objective, route
// elimination (empty the shortest route, forbid new ones, ruin and recreate
// until every site is back, with absence weights on the sites that stay
// out), then ruin-and-recreate with simulated annealing: remove strings of
// consecutive sites from routes near a random site (SISR, Christiaens and
// Vanden Berghe 2020), reinsert them at their cheapest places with blinks,
// and polish with a granular local search (relocate, swap, 2-opt, 2-opt*).
// A new route takes the cheapest vehicle type, ranked once per site, whose
// vehicle and resources are free (newroute.go).
//
// # Inside
//
// One way to evaluate a move. Every route caches its segments
// (segment.go), rebuilt in one place (instance.refresh) after every change:
// per node its location, distance, load, earliest departure and latest
// start, and outside the Solomon case the driving, work, site groups and
// its schedule under R, the model without the break rule, forward and
// backward with how far it may shift (segmenttime.go). A move is a join
// (join.go): a prefix of one route, a few sites, a suffix of a route. Its
// bound comes in stages, each only when the one before leaves it in:
// distances, then the other sums (load, groups, loading, driving), then
// the timing; in the Solomon case (every site at most one window, no
// break, duty, driving limit, time cost, start service or group limit:
// solomon.go) the same stages answer exactly. Moves that keep a route's
// sites are bounded first from the distances of their new legs
// (reorder.go). A bound only rules a move out; the exact simulation
// (schedule.go, departure.go: the break rule and the best departure) is
// the one acceptance step for a move whose bound passes, so the search
// takes exactly the moves it would take without bounds. Each search
// stream keeps what the simulation said of its last candidate routes
// (simulations.go), and relocate keeps the bound of a route without the
// site it moves while that route is unchanged (relocate.go): both give
// what computing again gives.
//
// Local search drives a list of operators (operator.go), one file each
// (relocate.go, swap.go, twoopt.go, twooptstar.go): an operator's evaluate
// bounds and simulates its candidates for a pair of neighbouring sites and
// leaves the first improving one as a proposal, which one apply commits.
// Ruin and recreate drive lists of ruin methods (ruin.go) and recreate
// methods (ruinrecreate.go) the same way.
//
// Trips (trips.go): a reload between two trips is one more site of the
// instance, at the start location, so that every move, bound and the
// simulation see it as any site; only the load differs, which a reload
// empties. An insertion may also put a site on a trip of its own, first
// or last on a route, with a free reload of the route's class, and
// mergeTrips joins two trips into one. Under Loading the simulation times
// each trip start in the windows of its own load, the bounds in those of
// every load (tripstart.go).
//
// To add an operator, write a file with a type whose evaluate builds its
// candidates as joins (or, for a route's own sites in another order, as
// proposeOne does) and add it to operators. To add a rule, extend the
// segment algebra, which sums, checks or times it per node and across a
// join (segment.go, join.go, segmenttime.go), and the simulation
// (schedule.go); a rule that leaves the Solomon case clears
// instance.exact (instance.go). Operators need no change.
package routeplan
