package routeplan

// The start service is the work at the start location before departure
// (loading). It takes loadingTime, begins no earlier than the shift start
// and inside one of the type's StartWindows, and the vehicle departs when
// it is done or later; the duty counts from its beginning. A route is
// simulated from its departure, and its beginning is then the latest one
// that still lets it depart on time, so that the driver is on duty as
// briefly as possible.

// loadingTime is the start service of a route of type t carrying load (one
// entry per capacity dimension; nil when there are none).
func (in *instance) loadingTime(t int, load []float64) float64 {
	vt := &in.types[t]
	l := vt.StartService
	for k, u := range vt.StartServicePerUnit {
		if k < len(load) {
			l += u * load[k]
		}
	}
	return l
}

// earliestDeparture is the first time a route of type t whose start
// service takes l and begins inside ws can leave, and false when every
// window closes before the shift starts.
func (in *instance) earliestDeparture(t int, l float64, ws []Window) (float64, bool) {
	vt := &in.types[t]
	b, _, ok := earliestIn(ws, vt.ShiftStart)
	return b + l, ok
}

// beginFor is when the start service of a route of type t departing at
// depart begins: the latest instant inside a window of ws that leaves the
// l seconds of loading before departure. Departures come from
// earliestDeparture plus a delay, so one always exists at or after the
// shift start; the fallback only keeps the function total.
func (in *instance) beginFor(t int, depart, l float64, ws []Window) float64 {
	vt := &in.types[t]
	b, ok := latestIn(ws, depart-l)
	if !ok || b < vt.ShiftStart {
		return vt.ShiftStart
	}
	return b
}
