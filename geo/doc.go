// Package geo holds haulplan's geography: points in degrees, great-circle
// distance and bearing, a road travel model estimated from great-circle
// distance (speed bands with circuities falling with distance by default,
// or one speed and one circuity), and the n×n distance/duration Matrix the
// planners read travel from.
//
// Distances are haversine distances computed by github.com/paulmach/orb/geo
// on a sphere of radius EarthRadius (the WGS84 equatorial radius, 6378137 m,
// which is what orb uses). They are therefore about 0.1% above haversine
// distances on the mean Earth radius (6371.0088 km) that many published
// tables use; road distances multiply them by a circuity factor anyway.
//
// Durations are whole seconds so that a validator recomputing a plan from
// the request gets exactly the same numbers as the planner did. Callers with
// a real road network implement MatrixSource, or fill a Matrix with Set; a
// request that carries its own table (OSRM's, Valhalla's) holds it as a
// RoadMatrix, legs by place id with NoRoute for a leg without a route,
// whose slices a Matrix of the same places shares.
//
// Both give free-flow durations. A RushHours profile slows travel during
// periods of the day in the DC's time zone: resolved over a horizon to
// SlowIntervals, it turns a leg's free-flow duration and departure into
// an arrival by integrating the speed over the clock (Ichoua, Gendreau
// and Potvin 2003), so that leaving later never arrives earlier. Its two
// forms, SlowIntervals.Arrive on time.Time for validators and
// SlowTimeline.Arrive on float seconds for a solver's simulation, are one
// computation and agree to the second.
//
// The package imports no other haulplan package. It reports a bad point,
// travel model or profile as CoordinateError, ModelError and
// RushHoursError values with the field at fault; engine's Request.Check
// turns them into constraints.Violations with the request's paths.
package geo
