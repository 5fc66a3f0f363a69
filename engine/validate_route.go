package engine

import (
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// routePallet is a pallet on a route's trailer and the index of the stop
// that unloads it.
type routePallet struct {
	p    *Pallet
	stop int
}

// routeAlone checks one route on its own (everything but the shift,
// trailers and pallets it shares with other routes) and recomputes its
// metrics.
func (c *planCheck) routeAlone(r *Route, path string) (routeFigures, constraints.Violations) {
	var vs constraints.Violations
	req := c.req
	ti, trailerOK := c.trailer[r.Trailer]
	if !trailerOK {
		vs.Add(CodeUnknownTrailer, path+".trailer", "no trailer type %q", r.Trailer)
	}
	si, shiftOK := c.shift[r.Shift]
	if !shiftOK {
		vs.Add(CodeUnknownShift, path+".shift", "no shift %q", r.Shift)
	}
	if len(r.Stops) == 0 {
		vs.Add(CodeEmptyRoute, path+".stops", "a route must visit at least one store")
	}

	// What is on board: each known pallet, at the stop that lists it.
	var fig routeFigures
	m := &fig.m
	m.Stops = len(r.Stops)
	var onBoard []routePallet
	listed := map[string]bool{}
	var classes []constraints.Temperature
	for k, st := range r.Stops {
		spath := constraints.Index(path+".stops", k)
		sx, storeOK := c.store[st.Store]
		if !storeOK {
			vs.Add(CodeUnknownStore, spath+".store", "no store %q", st.Store)
		}
		if len(st.Pallets) == 0 {
			vs.Add(CodeEmptyStopOnLoad, spath+".pallets", "a stop must deliver at least one pallet")
		}
		for j, id := range st.Pallets {
			ppath := constraints.Index(spath+".pallets", j)
			pi, ok := c.pallet[id]
			if !ok {
				vs.Add(CodeUnknownPallet, ppath, "no pallet %q", id)
				continue
			}
			p := &req.Pallets[pi]
			if storeOK && p.Store != st.Store {
				vs.Add(CodeWrongStore, ppath, "pallet %q belongs to store %q, not %q", id, p.Store, st.Store)
			}
			m.Pallets++
			m.WeightKg += p.WeightKg
			m.VolumeM3 += p.volume()
			classes = append(classes, p.Temperature)
			if !listed[id] { // a second listing is PALLET_TWICE; the floor holds it once
				listed[id] = true
				onBoard = append(onBoard, routePallet{p, k})
			}
		}
		if trailerOK && storeOK {
			t := req.Fleet[ti]
			if limit := req.Stores[sx].MaxTrailerLengthMM; limit > 0 && t.nominalLength() > limit {
				vs.Add(CodeTrailerTooLong, spath+".store", "trailer type %q is %d mm long, store %q takes at most %d mm", t.ID, t.nominalLength(), st.Store, limit)
			}
		}
	}
	if trailerOK && !carriesAll(req.Fleet[ti].Equipment, classes) {
		vs.Add(CodeTemperature, path+".trailer", "a %s cannot carry this mix of temperature classes on one trip", req.Fleet[ti].Equipment.Kind)
	}

	vs = append(vs, c.checkTimes(r, path, si, shiftOK, &fig)...)
	if trailerOK {
		vs = append(vs, c.checkLoading(r, path, &req.Fleet[ti], m.Pallets)...)
	}
	m.Duration = r.Return.Sub(r.Start)

	if trailerOK {
		t := &req.Fleet[ti]
		f := floorCheck{t: t, pallets: onBoard, stops: len(r.Stops), lp: &r.Load, path: path + ".load"}
		vs = append(vs, f.run()...)
		m.Positions = f.positions
		fig.withTrailer(t)
	}
	return fig, vs
}

// carriesAll reports whether one trip of the equipment can carry all the
// classes: each one it carries at all, and no more distinct classes than
// it has zones (a dry van AMBIENT only, a reefer one class).
func carriesAll(e constraints.Equipment, classes []constraints.Temperature) bool {
	distinct := map[constraints.Temperature]bool{}
	for _, t := range classes {
		if !e.Carries(t) {
			return false
		}
		distinct[t] = true
	}
	return len(distinct) <= e.Zones()
}

// checkTimes checks the route's times from its start (the driver comes on
// duty) to its return: the shift, the hook-up, travel on every leg, the
// stores' receiving hours and unloading. It adds distance, driving and
// wait to fig and records the legs in it for the hours of service, which
// bind the shift's trips together (checkShiftTrips).
func (c *planCheck) checkTimes(r *Route, path string, si int, shiftOK bool, fig *routeFigures) constraints.Violations {
	var vs constraints.Violations
	req := c.req
	m := &fig.m
	if shiftOK {
		sh := req.Shifts[si]
		if r.Start.Before(sh.Start) {
			vs.Add(CodeShiftWindow, path+".start", "the driver comes on duty %s, before shift %q starts at %s", c.at(r.Start), sh.ID, c.at(sh.Start))
		}
		if r.Return.After(sh.End) {
			vs.Add(CodeShiftWindow, path+".return", "returns %s, after shift %q ends at %s", c.at(r.Return), sh.ID, c.at(sh.End))
		}
	}
	if got, hook := r.Depart.Sub(r.Start), req.HookTime(); got < hook {
		vs.Add(CodeHookTime, path+".depart", "departs %v after the driver comes on duty at %s; hooking up a trailer takes %v", got, c.at(r.Start), hook)
	}

	// Legs: from the DC to each stop in turn and back. A stop at an
	// unknown store (reported above) breaks the chain of legs.
	var legs []constraints.Leg
	var legPaths []string
	drive := func(from, to int, leave time.Time, leavePath string, arrive time.Time, arrivePath string) {
		metres, d, routed := c.byLeg.leg(from, to)
		if !routed {
			vs.Add(CodeNoRoute, arrivePath, "drives from %s to %s, a leg the road matrix has no route for", c.byLeg.placeName(from), c.byLeg.placeName(to))
			legs = append(legs, constraints.Leg{Depart: leave, Arrive: arrive})
			legPaths = append(legPaths, arrivePath)
			return
		}
		m.DistanceM += metres
		// Under a travel profile the leg takes what driving through its
		// slow periods takes, from the instant it leaves.
		want := c.rush.Arrive(leave, d)
		m.Driving += want.Sub(leave)
		if !arrive.Equal(want) {
			if slow := want.Sub(leave) - d; slow > 0 {
				vs.Add(CodeTravelTime, arrivePath, "arrives %s; leaving %s at %s, %v of driving at free flow takes %v more in the travel profile's slow periods and arrives %s",
					c.at(arrive), leavePath, c.at(leave), d, slow, c.at(want))
			} else {
				vs.Add(CodeTravelTime, arrivePath, "arrives %s; leaving %s at %s, %v of driving arrives %s", c.at(arrive), leavePath, c.at(leave), d, c.at(want))
			}
		}
		legs = append(legs, constraints.Leg{Depart: leave, Arrive: want})
		legPaths = append(legPaths, arrivePath)
	}
	place, leave, leavePath := 0, r.Depart, path+".depart"
	for k, st := range r.Stops {
		spath := constraints.Index(path+".stops", k)
		sx, ok := c.store[st.Store]
		if !ok {
			place = -1
			continue
		}
		if place >= 0 {
			drive(place, 1+sx, leave, leavePath, st.Arrival, spath+".arrival")
		}
		vs = append(vs, c.checkStopTimes(&st, sx, spath, m)...)
		place, leave, leavePath = 1+sx, st.Departure, spath+".departure"
	}
	if place >= 0 && len(r.Stops) > 0 {
		drive(place, 0, leave, leavePath, r.Return, path+".return")
	}
	fig.legs, fig.legPaths = legs, legPaths
	return vs
}

// checkStopTimes checks stop st, at store sx, at path spath: unloading
// starts no sooner than the arrival and inside the store's receiving
// hours, the wait it reports is the time from arrival to that start, and
// the stop lasts at least the unloading of its pallets. It adds the wait
// to m.
func (c *planCheck) checkStopTimes(st *Stop, sx int, spath string, m *RouteMetrics) constraints.Violations {
	var vs constraints.Violations
	if st.Start.Before(st.Arrival) {
		vs.Add(CodeEarlyStart, spath+".start", "unloading starts %s, before the arrival at %s", c.at(st.Start), c.at(st.Arrival))
	}
	if !inWindows(c.storeWindows(sx), st.Start) {
		vs.Add(CodeOpeningHours, spath+".start", "unloading starts %s, outside store %q's receiving hours", c.at(st.Start), st.Store)
	}
	wait := st.Start.Sub(st.Arrival)
	if st.Wait != wait {
		vs.Add(CodeMetric, spath+".wait", "reports a wait of %v; from arrival to the start of unloading is %v", st.Wait, wait)
	}
	if wait > 0 {
		m.Wait += wait
	}
	unloading := c.req.Stores[sx].Unloading.Time(len(st.Pallets))
	if got := st.Departure.Sub(st.Start); got < unloading {
		vs.Add(CodeServiceTime, spath+".departure", "leaves %v after unloading starts; unloading %d pallets takes %v", got, len(st.Pallets), unloading)
	}
	return vs
}

// inWindows reports whether t lies in one of the windows, ends included.
func inWindows(ws []constraints.Window, t time.Time) bool {
	for _, w := range ws {
		if !t.Before(w.Start) && !t.After(w.End) {
			return true
		}
	}
	return false
}
