package routeplan

import "math"

var inf = math.Inf(1)

// failure says which rule made a route infeasible; it feeds the Reason of
// sites that end up unassigned.
type failure int

const (
	feasible       failure = iota
	failCompatible         // a site does not allow the vehicle type
	failCapacity
	failGroups // more distinct site groups than the type's MaxGroups
	failWindow
	failShift
	failDuty  // only the duty limit is broken: a later departure may fix it
	failTrips // more trips than the type's MaxTrips
)

// schedule is the timing of one route, computed by simulate.
type schedule struct {
	// begin is when the start service begins (depart when there is none).
	begin, depart, ret float64
	// rested says that the break rule made the vehicle rest somewhere.
	rested          bool
	dist, drive     float64
	arr, start, dep []float64
	cost            float64
	// Scratch space of evaluate and delayDeparture, kept to avoid
	// allocating.
	load []float64
	trip []float64
	// tw, when set, holds the windows of the route's trip starts (see
	// tripstart.go), in twBuf.
	tw    *tripWindows
	twBuf tripWindows
	// notBefore, when set, holds trips back (see holdback.go): the start
	// service of trip j (0 the first) begins no earlier than notBefore[j],
	// and the route departs no later than departBy.
	notBefore []float64
	departBy  float64
	groups    []int
	cands     []float64
	back      []float64 // scratch of departures under rush hours
	tmp       *schedule
}

func (s *schedule) duty() float64 { return s.ret - s.begin }

// simulate plays route seq of type t forward from departure time depart,
// after a start service of l, serving each site as early as possible and
// resting only when the break rule demands it before the next leg. It fills
// s and reports the first rule broken. The result never gets earlier when
// depart gets later, which evaluate relies on.
func (in *instance) simulate(t int, seq []int, depart, l float64, s *schedule) failure {
	f, _ := in.play(t, seq, depart, l, s, false)
	return f
}

// play is simulate. With untilWaitBreak set, it stops at the first site
// where the vehicle waits and the time on site counts as a break (see
// waitServedAsBreak), and reports true: s then holds the times up to that
// site only.
func (in *instance) play(t int, seq []int, depart, l float64, s *schedule, untilWaitBreak bool) (failure, bool) {
	vt := &in.types[t]
	s.depart = depart
	s.begin = depart
	s.rested = false
	if ws := in.routeStartWindows(t, s.tw); l > 0 || len(ws) > 0 {
		s.begin = in.beginFor(t, depart, l, ws)
	}
	if in.rush.Len() == 0 && s.tw == nil {
		return in.playFree(vt, seq, depart, s, untilWaitBreak)
	}
	// The times go into arrays sized once; k sites have times when play
	// returns at the k-th, and the sums stay in registers until it returns.
	n := len(seq)
	arr, start, dep := grow(s.arr, n), grow(s.start, n), grow(s.dep, n)
	s.arr, s.start, s.dep = arr, start, dep
	var dist, drive float64
	breakAfter, breakDuration := vt.BreakAfter, vt.BreakDuration
	rush := in.rush.Len() > 0
	prev := vt.StartLocation
	now := depart
	since := 0.0 // driving since the last qualifying break
	arrived := depart
	reloads := 0
	var ws []Window
	for k := 0; k <= n; k++ {
		next := vt.EndLocation
		var site *Site
		if k < n {
			site = &in.sites[seq[k]]
			next = site.Location
			ws, reloads = in.siteWindows(seq, k, reloads, s.tw)
		}
		leg := in.legDur(prev, next)
		// Under rush hours the leg takes what it takes leaving now; free
		// is its free-flow time.
		free := leg
		if rush {
			leg = in.rush.Arrive(now, free) - now
		}
		if breakAfter > 0 {
			if leg > breakAfter && !rush {
				s.cut(k, dist, drive)
				return failShift, false
			}
			if since+leg > breakAfter {
				if k == 0 {
					s.cut(k, dist, drive)
					return failShift, false // a leg longer than the rule allows
				}
				// Rest at the current site, as late as possible in the route:
				// resting earlier would only delay more visits.
				if now-arrived < breakDuration {
					s.rested = true
					now = arrived + breakDuration
					dep[k-1] = now
					if untilWaitBreak && start[k-1] > arr[k-1] && dep[k-1]-arr[k-1] >= breakDuration {
						s.cut(k, dist, drive)
						return feasible, true
					}
					if rush {
						leg = in.rush.Arrive(now, free) - now // leaving after the rest
					}
				}
				since = 0
			}
			if leg > breakAfter {
				// Under rush hours the leg from after the rest can be
				// longer than the rule allows; without, this failed above.
				s.cut(k, dist, drive)
				return failShift, false
			}
			since += leg
		}
		dist += in.legDist(prev, next)
		drive += leg
		now += leg
		if k == n {
			break
		}
		st, _, ok := earliestIn(ws, now)
		if !ok {
			s.cut(k, dist, drive)
			return failWindow, false
		}
		arrived = now
		arr[k], start[k] = now, st
		now = st + site.Service
		if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != next) {
			now += in.stop[seq[k]]
		}
		dep[k] = now
		if breakAfter > 0 && now-arrived >= breakDuration {
			since = 0
			if untilWaitBreak && st > arrived && dep[k]-arr[k] >= breakDuration {
				s.cut(k+1, dist, drive)
				return feasible, true
			}
		}
		prev = next
	}
	s.dist, s.drive = dist, drive
	s.ret = now
	if now > vt.ShiftEnd || (vt.MaxDriving > 0 && drive > vt.MaxDriving) {
		return failShift, false
	}
	if vt.MaxDuty > 0 && now-s.begin > vt.MaxDuty {
		return failDuty, false
	}
	return feasible, false
}

// playFree is play after its start, without rush hours and without trip
// windows (s.tw nil), the common case: the same steps in the same order,
// the sites in a loop that reads their windows directly, and the leg to
// the end depot after it, so that the loop keeps fewer values live. A leg
// longer than the break rule allows fails before any rest: without rush
// hours a leg takes what it takes whenever it leaves, so that the first
// leg, driven with nothing before it, never needs one.
func (in *instance) playFree(vt *VehicleType, seq []int, depart float64, s *schedule, untilWaitBreak bool) (failure, bool) {
	n := len(seq)
	arr, start, dep := grow(s.arr, n), grow(s.start, n), grow(s.dep, n)
	s.arr, s.start, s.dep = arr, start, dep
	breakAfter, breakDuration := vt.BreakAfter, vt.BreakDuration
	var dist, drive float64
	prev := vt.StartLocation
	now := depart
	since := 0.0 // driving since the last qualifying break
	arrived := depart
	for k, i := range seq {
		site := &in.sites[i]
		next := site.Location
		leg := in.legDur(prev, next)
		if breakAfter > 0 {
			if leg > breakAfter {
				s.cut(k, dist, drive)
				return failShift, false
			}
			if since+leg > breakAfter { // so k > 0
				// Rest at the current site, as late as possible in the
				// route: resting earlier would only delay more visits.
				if now-arrived < breakDuration {
					s.rested = true
					now = arrived + breakDuration
					dep[k-1] = now
					if untilWaitBreak && start[k-1] > arr[k-1] && dep[k-1]-arr[k-1] >= breakDuration {
						s.cut(k, dist, drive)
						return feasible, true
					}
				}
				since = 0
			}
			since += leg
		}
		dist += in.legDist(prev, next)
		drive += leg
		now += leg
		st, _, ok := earliestIn(site.Windows, now)
		if !ok {
			s.cut(k, dist, drive)
			return failWindow, false
		}
		arrived = now
		arr[k], start[k] = now, st
		now = st + site.Service
		if in.stop != nil && (k == 0 || in.sites[seq[k-1]].Location != next) {
			now += in.stop[i]
		}
		dep[k] = now
		if breakAfter > 0 && now-arrived >= breakDuration {
			since = 0
			if untilWaitBreak && st > arrived && dep[k]-arr[k] >= breakDuration {
				s.cut(k+1, dist, drive)
				return feasible, true
			}
		}
		prev = next
	}
	next := vt.EndLocation
	leg := in.legDur(prev, next)
	if breakAfter > 0 {
		if leg > breakAfter {
			s.cut(n, dist, drive)
			return failShift, false
		}
		if since+leg > breakAfter && now-arrived < breakDuration { // so n > 0
			s.rested = true
			now = arrived + breakDuration
			dep[n-1] = now
			if untilWaitBreak && start[n-1] > arr[n-1] && dep[n-1]-arr[n-1] >= breakDuration {
				s.cut(n, dist, drive)
				return feasible, true
			}
		}
	}
	dist += in.legDist(prev, next)
	drive += leg
	now += leg
	s.dist, s.drive = dist, drive
	s.ret = now
	if now > vt.ShiftEnd || (vt.MaxDriving > 0 && drive > vt.MaxDriving) {
		return failShift, false
	}
	if vt.MaxDuty > 0 && now-s.begin > vt.MaxDuty {
		return failDuty, false
	}
	return feasible, false
}

// cut keeps the times of the first k sites of s, with the distance and
// driving so far, when play returns before the end of the route.
func (s *schedule) cut(k int, dist, drive float64) {
	s.arr, s.start, s.dep = s.arr[:k], s.start[:k], s.dep[:k]
	s.dist, s.drive = dist, drive
}

// evaluate decides whether seq is a feasible route for type t and fills s
// with its schedule and cost. With tight set, or when the duty matters (a
// duty limit, a time cost), it departs as late as it can without returning
// later, so that the vehicle does not wait at its first sites.
func (in *instance) evaluate(t int, seq []int, s *schedule, tight bool) failure {
	for _, i := range seq {
		if !in.allowed[i][t] {
			return failCompatible
		}
	}
	return in.evaluateAllowed(t, seq, s, tight)
}

// evaluateAllowed is evaluate for sites known to allow type t.
func (in *instance) evaluateAllowed(t int, seq []int, s *schedule, tight bool) failure {
	if len(seq) == 0 {
		// An empty route is an unused vehicle: nothing to check, no cost.
		*s = schedule{arr: s.arr[:0], start: s.start[:0], dep: s.dep[:0], load: s.load, trip: s.trip, twBuf: s.twBuf, groups: s.groups, cands: s.cands, back: s.back, tmp: s.tmp}
		return feasible
	}
	vt := &in.types[t]
	s.load = grow(s.load, in.dims)
	if reloads := in.reloadsIn(seq); reloads > 0 {
		if reloads > vt.trips()-1 {
			return failTrips
		}
		s.trip = grow(s.trip, in.dims)
		if !in.tripLoadsFit(seq, vt.Capacity, s.load, s.trip) {
			return failCapacity
		}
	} else {
		for d := 0; d < in.dims; d++ {
			load := 0.0
			for _, i := range seq {
				load += in.sites[i].Demand[d]
			}
			if load > vt.Capacity[d] {
				return failCapacity
			}
			s.load[d] = load
		}
	}
	if vt.MaxGroups > 0 {
		var over bool
		if over, s.groups = in.tooManyGroups(seq, vt.MaxGroups, s.groups); over {
			return failGroups
		}
	}
	s.tw = nil
	if vt.Loading != nil && len(vt.StartWindows) > 0 {
		in.fillTripWindows(t, seq, &s.twBuf)
		s.tw = &s.twBuf
	}
	if s.notBefore != nil && !in.holdTripsBack(t, seq, s) {
		return failWindow
	}
	l := in.loadingTime(t, s.load)
	depart, ok := in.earliestDeparture(t, l, in.routeStartWindows(t, s.tw))
	if !ok {
		return failShift
	}
	// A later departure returns no earlier, unless the earliest one waits
	// long enough somewhere for the wait to count as a break: departing
	// later shortens that wait below a break, and the rest the rule then
	// needs may fall where it costs less (at a site whose work is nearly a
	// break); or unless the earliest one rests: departing later may miss
	// a window and wait for the next, a wait that serves as the break and
	// spares the rest. Then no departure is ruled out by the earliest one's return,
	// and when the departure is searched anyway, the earliest one is
	// played no further than that wait: the search plays it in full only
	// when a later departure may not beat it.
	search := tight || vt.TimeCost > 0
	f, waited := in.play(t, seq, depart, l, s, search)
	monotone := !waited && !s.rested && !in.waitServedAsBreak(t, s)
	if monotone && f == failShift && in.rush.Len() > 0 && (vt.BreakAfter > 0 || vt.MaxDriving > 0) {
		// Under rush hours legs are FIFO, so a route that rests nowhere
		// keeps every time no earlier when it departs later; but its legs
		// may get shorter, so that a leg the break rule rejects, or
		// driving beyond the limit, may fit a later departure.
		monotone = false
	}
	if f != feasible && f != failDuty && (monotone || (f != failShift && f != failWindow)) {
		return f
	}
	if search || f != feasible {
		if !in.delayDeparture(t, seq, l, s, !waited, f == feasible || f == failDuty, monotone) {
			return failShift
		}
	}
	s.cost = vt.FixedCost + vt.TripCost*float64(1+in.reloadsIn(seq)) + vt.DistanceCost*s.dist + vt.TimeCost*s.duty()
	return feasible
}

// waitServedAsBreak reports whether, in the simulation s of a route of type
// t (complete or up to the site where it failed), the driver waits at a site
// and the time on site counts as a break.
func (in *instance) waitServedAsBreak(t int, s *schedule) bool {
	vt := &in.types[t]
	if vt.BreakAfter == 0 {
		return false
	}
	for k := range s.arr {
		if s.start[k] > s.arr[k] && k < len(s.dep) && s.dep[k]-s.arr[k] >= vt.BreakDuration {
			return true
		}
	}
	return false
}

// swapTimes makes the times of o, a simulation of the same route, s's,
// and leaves s's in o: o is scratch space, and swapping costs less than
// copying.
func (s *schedule) swapTimes(o *schedule) {
	s.begin, s.depart, s.ret, s.dist, s.drive = o.begin, o.depart, o.ret, o.dist, o.drive
	s.arr, o.arr = o.arr, s.arr
	s.start, o.start = o.start, s.start
	s.dep, o.dep = o.dep, s.dep
}
