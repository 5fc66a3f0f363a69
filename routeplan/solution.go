package routeplan

// Solution is the result of Solve.
type Solution struct {
	// Routes are the used routes, ordered by vehicle type, then by the
	// first site served.
	Routes []Route
	// Unassigned lists the sites left unserved, ordered by site index.
	Unassigned []Unassigned
	// Cost is the weighted cost of the routes (see Cost), whatever the
	// objective; Distance is their total distance; Vehicles is len(Routes),
	// and Trips counts their trips (Vehicles plus their reloads).
	Cost, Distance float64
	Vehicles       int
	Trips          int
	// Iterations is the number of search iterations run, all streams
	// together.
	Iterations int
}

// Route is the work of one vehicle.
type Route struct {
	// VehicleType indexes Problem.VehicleTypes.
	VehicleType int
	// Visits are the sites served, in order, all trips together.
	Visits []Visit
	// Reloads are the returns to the start location between trips, in
	// order; none for a route of one trip.
	Reloads []Reload
	// Start is when the start service begins (Depart when there is none),
	// Depart when the vehicle leaves its start location, Return when it
	// reaches its end location.
	Start, Depart, Return float64
	// Distance and Driving sum the legs; Duration is Return-Start.
	Distance, Duration, Driving float64
	// LoadingStarts, under its type's Loading, is when each trip's
	// loading begins, one per trip: the latest instant in the type's
	// start windows that leaves the loading done before the trip's start
	// service begins, or earlier, within the type's Staging, where a
	// resource held over loadings (HoldLoading) has every unit held then
	// (the trailer is loaded ahead and staged). Each loading lasts its
	// Loading's duration for the trip's load. Nil without Loading.
	LoadingStarts []float64
}

// Visit is one stop of a route.
type Visit struct {
	// Site indexes Problem.Sites.
	Site int
	// Arrival is when the vehicle reaches the site, Start when service
	// starts (inside a window) and Departure when it leaves; time between
	// Start+Service and Departure is a rest.
	Arrival, Start, Departure float64
}

// Reload is a return to the start location between two trips of a route.
type Reload struct {
	// After is the number of visits before it: trip k+2 begins with
	// Visits[Reloads[k].After].
	After int
	// Arrival is when the vehicle is back, Start when the reload (the
	// start service) begins, inside a start window, and Departure when
	// the next trip leaves.
	Arrival, Start, Departure float64
}

// Unassigned is a site Solve could not serve.
type Unassigned struct {
	Site   int
	Reason Reason
	// Resource, for ResourceBusy, indexes the Timed resource in
	// Problem.Resources whose units are all held; 0 otherwise.
	Resource int
}

// Reason says why a site was left unassigned.
type Reason int

const (
	// NoCompatibleVehicle: no vehicle type that may serve the site has a
	// vehicle (Count > 0).
	NoCompatibleVehicle Reason = iota + 1
	// Capacity: the site's demand exceeds the capacity of every compatible
	// vehicle type.
	Capacity
	// TimeWindow: no compatible vehicle can reach the site and start
	// service inside one of its windows, even on a route of its own.
	TimeWindow
	// ShiftLimit: a route serving only this site would break the shift end,
	// the maximum duty or driving time, or the break rule.
	ShiftLimit
	// FleetExhausted: the site could be served on a route of its own, but
	// the fleet ran out of vehicles or resources for it.
	FleetExhausted
	// GroupLimit: the route carries more distinct Site.Group values than
	// its type's MaxGroups. Only Evaluator.Route reports it: a site alone
	// is always within the limit.
	GroupLimit
	// NotReached: the search stopped (its time limit ended or its context
	// was cancelled) before its first construction came to the site.
	NotReached
	// TripLimit: the route drives more trips than its type's MaxTrips.
	// Only Evaluator.Route reports it.
	TripLimit
	// ResourceBusy: the site could be served on a route of its own by
	// every type that may still open one, but on each such route its trip
	// finds every unit of one Timed resource (Unassigned.Resource) held,
	// however long it waits within its windows: every dock door loading
	// other trailers, say. A vehicle and a unit of every other resource
	// are free for it.
	ResourceBusy
)

// String returns the stable code of the reason, such as "TIME_WINDOW".
func (r Reason) String() string {
	switch r {
	case NoCompatibleVehicle:
		return "NO_COMPATIBLE_VEHICLE"
	case Capacity:
		return "CAPACITY"
	case TimeWindow:
		return "TIME_WINDOW"
	case ShiftLimit:
		return "SHIFT_LIMIT"
	case FleetExhausted:
		return "FLEET_EXHAUSTED"
	case GroupLimit:
		return "GROUP_LIMIT"
	case NotReached:
		return "NOT_REACHED"
	case TripLimit:
		return "TRIP_LIMIT"
	case ResourceBusy:
		return "RESOURCE_BUSY"
	}
	return "UNKNOWN"
}
