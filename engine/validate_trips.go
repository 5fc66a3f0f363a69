package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// shiftTrip is one route of a shift, with its path in the plan and the
// figures routeAlone recomputed for it.
type shiftTrip struct {
	r    *Route
	path string
	fig  *routeFigures
}

// checkShiftTrips checks the routes of each known shift as its trips, in
// the order of their starts: numbered 1, 2, …, each starting no earlier
// than the one before returns, no more than the shift's maxTrips, and
// under the shift's hours-of-service limits as one duty from the first
// trip's start to the last one's return, with the time at the DC between
// trips on duty and not driving. figs are routeAlone's figures, by route.
func (c *planCheck) checkShiftTrips(routes []Route, figs []routeFigures) constraints.Violations {
	var vs constraints.Violations
	byShift := make([][]shiftTrip, len(c.req.Shifts))
	for ri := range routes {
		if si, ok := c.shift[routes[ri].Shift]; ok {
			byShift[si] = append(byShift[si], shiftTrip{&routes[ri], constraints.Index("routes", ri), &figs[ri]})
		}
	}
	for si, trips := range byShift {
		if len(trips) == 0 {
			continue
		}
		slices.SortStableFunc(trips, func(a, b shiftTrip) int { return a.r.Start.Compare(b.r.Start) })
		ordered := c.checkTripOrder(si, trips, &vs)
		if !ordered {
			continue // the legs of overlapping trips are no one duty to check
		}
		limits := c.req.ShiftLimits(si)
		vs = append(vs, c.checkShiftDuty(si, trips, limits)...)
		vs = append(vs, c.checkBreaks(trips, limits)...)
	}
	return vs
}

// checkTripOrder checks the numbers, the sequence and the count of shift
// si's trips, sorted by start, and reports whether none starts before the
// one before it returns.
func (c *planCheck) checkTripOrder(si int, trips []shiftTrip, vs *constraints.Violations) bool {
	sh := c.req.Shifts[si]
	ordered := true
	for k, t := range trips {
		if t.r.Trip != k+1 {
			vs.Add(CodeTripOrder, t.path+".trip", "trip %d: it is trip %d of shift %q by its start at %s (a shift's trips are numbered 1, 2, … in time order)",
				t.r.Trip, k+1, sh.ID, c.at(t.r.Start))
		}
		if k > 0 {
			prev := trips[k-1]
			if t.r.Start.Before(prev.r.Return) {
				vs.Add(CodeTripOverlap, t.path+".start", "the driver of shift %q comes on duty for this trip at %s, before the trip before (%s) is back at %s",
					sh.ID, c.at(t.r.Start), prev.path, c.at(prev.r.Return))
				ordered = false
			}
		}
		if sh.MaxTrips > 0 && k == sh.MaxTrips {
			vs.Add(CodeMaxTrips, t.path+".shift", "shift %q drives %d trips; it may drive at most %d", sh.ID, len(trips), sh.MaxTrips)
		}
	}
	return ordered
}

// checkShiftDuty checks shift si's trips, in order, as one duty under the
// limits: on duty from the first trip's start to the last trip's return,
// driving every leg of every trip. A shift of one trip reports at the
// route's path; of several, a limit the whole duty breaks is reported at
// the last trip, its message naming the shift.
func (c *planCheck) checkShiftDuty(si int, trips []shiftTrip, limits constraints.HoursOfService) constraints.Violations {
	var legs []constraints.Leg
	var legPaths []string
	for _, t := range trips {
		legs = append(legs, t.fig.legs...)
		legPaths = append(legPaths, t.fig.legPaths...)
	}
	last := trips[len(trips)-1]
	duty := constraints.Duty{Start: trips[0].r.Start, End: last.r.Return, Legs: legs}
	vs := limits.Validate(duty, last.path, func(i int) string { return legPaths[i] })
	if len(trips) > 1 {
		for i := range vs {
			if vs[i].Path == last.path {
				vs[i].Message = fmt.Sprintf("shift %q over its %d trips from %s: %s", c.req.Shifts[si].ID, len(trips), c.at(duty.Start), vs[i].Message)
			}
		}
	}
	return vs
}

// Codes of the breaks a plan states (Stop.Break).
const (
	// CodeBreak: a stated break is not its stop's time on site from arrival
	// to departure, or is shorter than the shift's BreakDuration.
	CodeBreak = "BREAK"
	// CodeBreakMissing: the shift keeps the break rule, but its driving
	// since the last break the plan states passes BreakAfter, so the plan
	// does not say where the driver takes a break the rule needs.
	CodeBreakMissing = "BREAK_MISSING"
)

// checkBreaks checks the breaks the trips of one shift state, in order,
// against the break rule of limits h, from the plan's times (checkTimes
// checks those against travel and unloading): each stated break is its
// stop's whole time on site, from arrival to departure, at least
// BreakDuration long, and its parts are recomputed; and the shift states
// every break the rule needs: driving since the last stated break never
// passes BreakAfter. The time at the DC between two trips, from one's
// return to the next one's departure, is a break when it lasts
// BreakDuration, and needs no statement: the plan shows it. Where the
// shift breaks the rule itself, h.Validate's BREAK_REQUIRED says so, and
// no BREAK_MISSING is added.
func (c *planCheck) checkBreaks(trips []shiftTrip, h constraints.HoursOfService) constraints.Violations {
	var vs constraints.Violations
	var sinceAny, sinceStated time.Duration // driving since any stop long enough, since a stated break
	var leave time.Time
	drive := func(arrive time.Time, arrivePath string) {
		d := arrive.Sub(leave)
		sinceAny += d
		sinceStated += d
		if sinceStated > h.BreakAfter && sinceAny <= h.BreakAfter {
			vs.Add(CodeBreakMissing, arrivePath, "%v of driving since the last break the plan states, more than %v: no stop on the way says where the break of %v is taken",
				sinceStated, h.BreakAfter, h.BreakDuration)
			sinceStated = 0 // report each missing break once
		}
	}
	for n, t := range trips {
		r := t.r
		if n > 0 && r.Depart.Sub(trips[n-1].r.Return) >= h.BreakDuration {
			sinceAny, sinceStated = 0, 0
		}
		leave = r.Depart
		for k := range r.Stops {
			st := &r.Stops[k]
			spath := constraints.Index(t.path+".stops", k)
			drive(st.Arrival, spath+".arrival")
			leave = st.Departure
			long := st.Departure.Sub(st.Arrival) >= h.BreakDuration
			if long {
				sinceAny = 0
			}
			if st.Break == nil {
				continue
			}
			if long {
				sinceStated = 0
			}
			vs = append(vs, c.checkStatedBreak(st, spath, h)...)
		}
		if len(r.Stops) > 0 {
			drive(r.Return, t.path+".return")
		}
	}
	return vs
}

// checkStatedBreak checks the break stop st at spath states: its start,
// its length and its parts.
func (c *planCheck) checkStatedBreak(st *Stop, spath string, h constraints.HoursOfService) constraints.Violations {
	var vs constraints.Violations
	b := st.Break
	onSite := st.Departure.Sub(st.Arrival)
	bpath := spath + ".break"
	if !b.Start.Equal(st.Arrival) {
		vs.Add(CodeBreak, bpath+".start", "the break starts %s; a break at a stop starts at the arrival, %s", c.at(b.Start), c.at(st.Arrival))
	}
	switch {
	case onSite < h.BreakDuration:
		vs.Add(CodeBreak, bpath+".duration", "%v on site at store %q, arrival to departure, is shorter than a break of %v", onSite, st.Store, h.BreakDuration)
	case b.Duration != onSite:
		vs.Add(CodeBreak, bpath+".duration", "the break lasts %v; from arrival to departure is %v", b.Duration, onSite)
	}
	wait := st.Start.Sub(st.Arrival)
	if b.Wait != wait {
		vs.Add(CodeMetric, bpath+".wait", "reports %v of waiting in the break; from arrival to the start of unloading is %v", b.Wait, wait)
	}
	sx, ok := c.store[st.Store]
	if !ok {
		return vs // reported by routeAlone
	}
	unloading := c.req.Stores[sx].Unloading.Time(len(st.Pallets))
	if b.Unloading != unloading {
		vs.Add(CodeMetric, bpath+".unloading", "reports %v of unloading in the break; unloading %d pallets takes %v", b.Unloading, len(st.Pallets), unloading)
	}
	if rest := onSite - wait - unloading; b.Rest != rest {
		vs.Add(CodeMetric, bpath+".rest", "reports %v of rest in the break; %v on site less %v of waiting and %v of unloading is %v", b.Rest, onSite, wait, unloading, rest)
	}
	return vs
}
