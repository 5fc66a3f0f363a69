package routeplan

import "github.com/haulplan/haulplan/geo"

// Problem is one routing instance. It is read, never modified, by Solve.
type Problem struct {
	// N is the number of locations; Distance and Duration are N*N matrices
	// in row-major order, entry i*N+j being the leg from location i to j.
	N int
	// Distance is in cost units (metres in haulplan).
	Distance []float64
	// Duration is the travel time of each leg (seconds in haulplan).
	Duration []float64
	// Legs, when set, supplies every leg's distance and duration instead
	// of Distance and Duration, which must then be empty: a matrix the
	// caller holds anyway, read in place rather than copied.
	Legs Legs
	// Sites are the places to serve, each exactly once.
	Sites []Site
	// VehicleTypes is the fleet.
	VehicleTypes []VehicleType
	// Resources are pools that several vehicle types draw from: a used
	// route of a type takes one unit of every resource its type lists in
	// VehicleType.Resources, and no more routes than a resource's Count
	// take it. Driver shifts and trailer units, for example, are two
	// resources a route takes one of each; a vehicle type is then a pairing
	// of the two, and the search decides which pairings drive.
	Resources []Resource
	// Objective chooses what Solve minimises; the zero value is Cost.
	Objective Objective
	// Rush, when it has slow intervals, makes travel time depend on the
	// clock: a leg whose Duration (free flow) starts at time d arrives at
	// Rush.Arrive(d, free), on the seconds of the Problem's times, so
	// that a leg driven in a rush hour takes longer (and counts as
	// driving for the hours of service). Durations stay free flow, the
	// shortest any leg takes. The zero value leaves every leg at its
	// Duration. Build it with geo.SlowIntervals.Timeline on the epoch the
	// times count from.
	Rush geo.SlowTimeline
}

// Objective selects the quantity Solve minimises. Serving every site that
// can be served always comes first, whatever the objective.
type Objective int

const (
	// Cost minimises the weighted cost: for every used route its type's
	// FixedCost + TripCost*trips + DistanceCost*distance +
	// TimeCost*(Return-Start).
	Cost Objective = iota
	// Hierarchical minimises the number of routes first, then (with
	// routes of several trips) their trips, then the weighted cost as
	// Cost counts it. With DistanceCost 1 and no other cost, that is the
	// total distance: the classic ranking of the Solomon benchmarks.
	Hierarchical
	// FewestTrips minimises the number of trips first (a route of k trips
	// counts k: trailer loads, where a route is a driver's shift), then
	// the weighted cost. Without types of several trips it is
	// Hierarchical.
	FewestTrips
)

// String returns "cost", "hierarchical" or "trips".
func (o Objective) String() string {
	switch o {
	case Cost:
		return "cost"
	case Hierarchical:
		return "hierarchical"
	case FewestTrips:
		return "trips"
	}
	return "unknown"
}

// Resource is a pool of Count units shared by vehicle types.
type Resource struct {
	// ID is the caller's name for the resource; Solve does not interpret it.
	ID    string
	Count int
	// PerTrip makes a route take a unit for each of its trips, not one
	// for the route: a trailer per trailer load, say, while the driver's
	// shift is one for the route.
	PerTrip bool
	// Timed makes a route take a unit for each of its trips, as PerTrip
	// does, and Count bound the trips that hold a unit at one instant,
	// not the trips in all: a unit turns, and serves another trip once it
	// is back. A trip holds its unit over [from, its return +
	// Turnaround) (under HoldLoading, over its loading only: see Holds),
	// where from is when its loading starts under its
	// type's Loading (the latest instant that leaves the loading before
	// the trip's start service begins, inside one of the type's
	// StartWindows when it has any), else when its start service begins.
	// The times are those of the route as Solution reports it. When every
	// unit is out at a trip's time, Solve may hold the trip back: it
	// waits at the start location (its start service, and its loading,
	// begin later) until a unit is free for the whole hold, as long as
	// its sites' windows and the shift still allow it.
	Timed bool
	// Holds says which part of a trip holds a unit of a Timed resource:
	// the whole trip (HoldTrip, the zero value: a trailer unit), or only
	// its loading (HoldLoading: a dock door).
	Holds Holds
	// Turnaround is how long a Timed unit stays held after its hold ends
	// (unloading empties, washing a reefer).
	Turnaround float64
	// Busy are intervals [Start, End) over which units of a Timed
	// resource are held outside the problem (trips planned before), one
	// unit each: at every instant, Count less the Busy intervals that
	// hold it are free for the problem's trips.
	Busy []Window
}

// Holds is the part of a trip over which it holds a unit of a Timed
// resource (Resource.Holds).
type Holds int

const (
	// HoldTrip: from the trip's loading start (or start service) to its
	// return, plus the resource's Turnaround.
	HoldTrip Holds = iota
	// HoldLoading: over the trip's loading, [its start, its end), plus the
	// resource's Turnaround: under its type's Loading, from the loading
	// start described at Resource.Timed for Loading's duration; without
	// Loading, its start service. A dock door is taken while a trailer
	// loads, not while it is out.
	HoldLoading
)

// Window is a closed interval of times: service may start at any t with
// Start <= t <= End.
type Window struct{ Start, End float64 }

// Site is a place to serve once.
type Site struct {
	// ID is the caller's name for the site; Solve does not interpret it.
	ID string
	// Location indexes the rows and columns of the matrices.
	Location int
	// Windows are sorted and do not overlap; empty means no restriction.
	Windows []Window
	// Service is the fixed part of the work at the site (docking,
	// paperwork).
	Service float64
	// StopService is work charged once per stop: a site served right
	// after another site at the same location shares that stop and is not
	// charged it again (docking once to unload two orders of one store,
	// say). It counts in ServiceTime only when the site opens its stop.
	StopService float64
	// ServicePerUnit, when set, adds time per unit of demand, one entry
	// per capacity dimension: the work takes ServiceTime() = Service +
	// Σ ServicePerUnit[k]·Demand[k] (unloading time per pallet, say).
	ServicePerUnit []float64
	// Demand has one entry per capacity dimension of the vehicle types.
	Demand []float64
	// VehicleTypes lists the indices of the vehicle types allowed to serve
	// the site; nil allows every type, an empty non-nil slice allows none.
	VehicleTypes []int
	// Group is the site's kind for VehicleType.MaxGroups (a temperature
	// class, say); it means nothing when no type sets MaxGroups.
	Group int
	// Value is what serving the site is worth when not every site can be
	// served: Solve first maximises the total Value of the sites it serves,
	// and only then minimises its objective. 0 means 1. The number of
	// pallets of an order, for example, makes a short fleet deliver the
	// most pallets rather than the most orders.
	Value float64
}

// VehicleType is a group of identical vehicles with their drivers' shift.
// All demand a route delivers is loaded at its start location.
type VehicleType struct {
	// ID is the caller's name for the type; Solve does not interpret it.
	ID string
	// Count is how many routes of this type may be used.
	Count int
	// Capacity limits the load of a route in every dimension.
	Capacity []float64
	// StartLocation and EndLocation are where routes leave and end.
	StartLocation, EndLocation int
	// A route starts (its start service begins, or it departs when there is
	// none) no earlier than ShiftStart and arrives at its end no later than
	// ShiftEnd.
	ShiftStart, ShiftEnd float64
	// StartService is work at the start location before departure
	// (loading, say): StartService + Σ StartServicePerUnit[k]·load[k],
	// where load is the route's total demand. It begins inside one of
	// StartWindows (sorted, disjoint; empty means any time) and may end
	// after that window closes; the vehicle departs when it is done or
	// later. The route's duty and time cost count from its beginning.
	StartService        float64
	StartServicePerUnit []float64
	StartWindows        []Window
	// MaxDuty bounds Return-Start; 0 means unlimited.
	MaxDuty float64
	// MaxDriving bounds the sum of leg durations; 0 means unlimited.
	MaxDriving float64
	// BreakAfter is the most driving allowed between two non-driving
	// periods of at least BreakDuration (US hours of service: 8 h and
	// 30 min); 0 means no break rule.
	BreakAfter, BreakDuration float64
	// A used route costs FixedCost + TripCost*trips +
	// DistanceCost*distance + TimeCost*(Return-Start): a driver's shift,
	// say, and a trailer load per trip.
	FixedCost, TripCost, DistanceCost, TimeCost float64
	// Resources lists indices into Problem.Resources; a used route of
	// this type takes one unit of each.
	Resources []int
	// MaxGroups, when positive, bounds the number of distinct Site.Group
	// values on one trip (the zones of a multi-temperature trailer, say,
	// or the one set point of a single-temperature one, which may change
	// between trips).
	MaxGroups int
	// Loading, when set, is each trip's loading, done ahead of the trip
	// and off the driver's duty (a DC loading trailers for the drivers to
	// hook): it begins inside one of StartWindows (empty: any time) and
	// ends at most its Staging before the trip's start service begins, so
	// StartWindows then bound the loading, and the duty begins with the
	// start service. Unset, StartWindows bound the start service itself.
	Loading *TripLoading
	// MaxTrips, when above 1, lets a route drive up to that many trips:
	// between two trips the vehicle returns to its start location and
	// reloads there (a driver hooking the next loaded trailer, say), which
	// takes StartService again and begins inside one of StartWindows, as
	// at the route's start. Capacity then bounds the load of each trip;
	// the route's duty, driving, break rule, shift and group limit span all
	// its trips (time at the start location between trips is not driving,
	// and counts as a break when long enough). Such a type must end where
	// it starts and have no StartServicePerUnit. 0 and 1 mean one trip.
	MaxTrips int
}

// TripLoading is the loading of each trip of a type (VehicleType.Loading):
// Fixed + Σ PerUnit[k]·load[k] for a trip carrying load, ending at most
// Staging before the trip's start service begins.
type TripLoading struct {
	Fixed   float64
	PerUnit []float64
	Staging float64
}

// duration is the loading of a trip carrying load.
func (tl *TripLoading) duration(load []float64) float64 {
	l := tl.Fixed
	for k, u := range tl.PerUnit {
		if k < len(load) {
			l += u * load[k]
		}
	}
	return l
}

// ServiceTime is how long the work at the site takes when it shares a
// stop: the fixed Service plus ServicePerUnit times the demand, dimension
// by dimension. A site that opens its stop takes StopService more.
func (s Site) ServiceTime() float64 {
	t := s.Service
	for k, u := range s.ServicePerUnit {
		if k < len(s.Demand) {
			t += u * s.Demand[k]
		}
	}
	return t
}
