// Package routeplan solves vehicle routing problems with time windows: which
// sites each vehicle visits, in what order, and when.
//
// A Problem holds a distance and a duration matrix over locations, the sites
// to serve (one or more time windows each, a service time and a demand vector
// of any dimension) and a heterogeneous fleet of vehicle types (count,
// capacity vector, start and end location, shift, maximum duty and driving
// time, a break rule, fixed, distance and time costs). Solve returns routes
// with a complete schedule (arrival, service start and departure at every
// site) that satisfies every constraint, and lists the sites it could not
// serve with a Reason rather than failing the call.
//
// Schedules follow one exact model, which callers may re-check on their own:
// driving happens only on legs, uninterrupted; service starts inside one of
// the site's windows, not before arrival; a departure later than the end of
// service is a rest taken at the site; and under a break rule the driving
// accumulated since the last non-driving period (departure minus arrival) of
// at least BreakDuration may never exceed BreakAfter. With integral inputs
// every time in a Solution is integral, because the solver only adds,
// subtracts and compares.
//
// Solve is anytime: it stops at Options.TimeLimit, Options.MaxIterations or
// when its context is cancelled, and returns the best feasible solution found
// so far. The same Problem, Seed, Workers and MaxIterations give the same
// Solution.
//
// The search: a cheapest-insertion construction (far sites first), then,
// under the Hierarchical objective, route elimination (empty the shortest
// route, forbid new ones, ruin and recreate until every site is back, with
// absence weights on the sites that stay out), then ruin-and-recreate with
// simulated annealing: remove strings of consecutive sites from routes near
// a random site (SISR, Christiaens and Vanden Berghe 2020), reinsert them at
// their cheapest places with blinks, and polish with a granular local search
// (relocate, swap, 2-opt, 2-opt*). When every site has at most one window and
// no break, duty, driving limit or time cost applies (the Solomon case),
// moves are checked in constant time from each route's earliest departures
// and latest starts; otherwise each candidate route is simulated exactly.
package routeplan
