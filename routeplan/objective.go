package routeplan

// ranked is the objective of one used route whose cost terms are in o,
// ranked by the problem's Objective: under Hierarchical the route counts
// as a vehicle first, so that fewer routes beat any saving in cost.
// Every place that prices a route goes through here, so that the choice
// of objective lives in one function.
func (in *instance) ranked(o objective) objective {
	if in.hierarchical {
		o.vehicles = in.oneRoute
	}
	return o
}

// tripsScale is what a route counts under Hierarchical with routes of
// several trips, besides one for each of its trips: more than any
// solution has trips, so that the routes come first and the trips next.
const tripsScale = 1 << 24

// countedTrips is o, the objective of a used route, with the route's
// trips counted as the objective ranks them: under FewestTrips as its
// vehicles, under Hierarchical right after its route (tripsScale).
func (in *instance) countedTrips(o objective, trips int) objective {
	switch {
	case in.tripsRanked:
		o.vehicles = trips
	case in.tripsSecond:
		o.vehicles = tripsScale + trips
	}
	return o
}
