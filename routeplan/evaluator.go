package routeplan

// Evaluator checks and times given routes of one Problem with the rules
// and the code Solve uses: a caller that must change a route after Solve
// (drop its last stops when a trailer cannot be loaded, say) re-times it
// exactly as Solve would have, and learns why a route is infeasible. An
// Evaluator is safe for concurrent use.
type Evaluator struct {
	in *instance
}

// NewEvaluator checks p as Solve does (returning the same
// constraints.Violations error) and prepares it for evaluation. p must not
// change while the Evaluator is in use.
func NewEvaluator(p *Problem) (*Evaluator, error) {
	if err := Check(p); err != nil {
		return nil, err
	}
	return &Evaluator{in: newInstance(p)}, nil
}

// ReloadSite, in a list of sites given to Evaluator.Route, stands for a
// return to the start location to reload between two trips.
const ReloadSite = -1

// Route times a route of the given vehicle type serving sites in order (each
// site once; ReloadSite between two sites marks a return to reload, for a type
// of several trips; one that would begin or end an empty trip is left
// out) and returns it as Solve would report it: with its start
// service, departing as late as it can without returning later, and its
// distance, duration and driving. When the route breaks a rule it returns
// false and the first rule broken, checked in this order:
// NoCompatibleVehicle (a site does not allow the type, or an index is out of
// range, or a reload a type of one trip), TripLimit, Capacity, GroupLimit,
// then TimeWindow or ShiftLimit as the schedule meets them. An empty route is feasible and has zero times.
// Route does not count vehicles or resources: that is the caller's fleet.
func (e *Evaluator) Route(vehicleType int, sites []int) (Route, Reason, bool) {
	in := e.in
	if vehicleType < 0 || vehicleType >= len(in.types) {
		return Route{}, NoCompatibleVehicle, false
	}
	seq := make([]int, len(sites))
	for k, i := range sites {
		if i == ReloadSite {
			c := in.reloadClass[vehicleType]
			if c < 0 {
				return Route{}, NoCompatibleVehicle, false
			}
			i = in.reloads[c][0] // any of the class evaluates alike
		} else if i < 0 || i >= in.nSites {
			return Route{}, NoCompatibleVehicle, false
		}
		seq[k] = i
	}
	seq, _ = in.trimEmptyTrips(seq)
	var sch schedule
	switch in.evaluate(vehicleType, seq, &sch, true) {
	case feasible:
	case failCompatible:
		return Route{}, NoCompatibleVehicle, false
	case failTrips:
		return Route{}, TripLimit, false
	case failCapacity:
		return Route{}, Capacity, false
	case failGroups:
		return Route{}, GroupLimit, false
	case failWindow:
		return Route{}, TimeWindow, false
	default:
		return Route{}, ShiftLimit, false
	}
	return in.publicRoute(vehicleType, seq, &sch), 0, true
}
