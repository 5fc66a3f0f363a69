package engine

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/routeplan"
)

// assignTrailerUnits gives each route, in order of loading start, a unit
// of its trailer type free by then: of those free, the one free the
// longest, so that the dock doors (assignDockDoors, after it) have the
// most room to load it earlier. A unit is taken from its loading's start
// until the DC's turnaround after it returns. A new unit is taken only
// when every unit used so far is busy, so the units used are the most
// trips of the type that hold one at one instant, which routing keeps
// within the count (unitsFit); should a route still find none, it is
// dropped as FLEET_EXHAUSTED rather than planned on a unit twice. It
// returns the routes kept, the unassigned pallets, and for each route
// kept when its unit became free (the zero time for a unit not used
// before): its loading may start no earlier.
func assignTrailerUnits(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned, []time.Time) {
	turn := m.req.Turnaround()
	freeAt := make([][]time.Time, len(m.req.Fleet)) // by type, by unit − 1 of the units used so far
	kept := routes[:0]
	var notBefore []time.Time
	for _, r := range routes {
		ti := m.trailer[r.Trailer]
		t := m.req.Fleet[ti]
		unit := 0
		for u, at := range freeAt[ti] {
			if !at.After(r.LoadingStart) && (unit == 0 || at.Before(freeAt[ti][unit-1])) {
				unit = u + 1
			}
		}
		if unit == 0 && len(freeAt[ti]) < t.Count {
			freeAt[ti] = append(freeAt[ti], time.Time{})
			unit = len(freeAt[ti])
		}
		if unit == 0 {
			msg := fmt.Sprintf("all %d units of trailer type %s are on other trips when its loading starts", t.Count, t.ID)
			unassigned = append(unassigned, unassignTrip(m, &r, ReasonFleetExhausted, msg)...)
			continue
		}
		notBefore = append(notBefore, freeAt[ti][unit-1])
		freeAt[ti][unit-1] = r.Return.Add(turn)
		r.TrailerUnit = t.UnitID(unit)
		kept = append(kept, r)
	}
	return kept, unassigned, notBefore
}

// unitHold is the interval [from, til) over which route r, as the plan
// will have it, holds its trailer unit: from its loading's start in the
// dock hours (placeLoading; the dock doors may only make it earlier, no
// earlier than the unit is free) to its return plus the turnaround.
func (m *model) unitHold(r Route) (from, til time.Time) {
	m.placeLoading(&r)
	return r.LoadingStart, r.Return.Add(m.req.Turnaround())
}

// unitsFit reports whether trips, routes on trailer type ti, can join the
// plan's routes but those in skip (indices into fleet.routes): at no
// instant at which one of them holds a unit do more routes of the type
// hold one than it has units.
func (fleet *fleetState) unitsFit(m *model, ti int, trips []*Route, skip []int) bool {
	type event struct {
		at    time.Time
		delta int
		mine  bool
	}
	var ev []event
	for _, r := range trips {
		from, til := m.unitHold(*r)
		ev = append(ev, event{from, 1, true}, event{til, -1, true})
	}
	for ri, r := range fleet.routes {
		if m.trailer[r.Trailer] != ti || slices.Contains(skip, ri) {
			continue
		}
		from, til := m.unitHold(r)
		ev = append(ev, event{from, 1, false}, event{til, -1, false})
	}
	// A hold is open at its end: at one instant, ends come first.
	slices.SortFunc(ev, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	held, mine := 0, 0
	for _, e := range ev {
		held += e.delta
		if e.mine {
			mine += e.delta
		}
		if e.delta > 0 && mine > 0 && held > m.req.Fleet[ti].Count {
			return false
		}
	}
	return true
}

// busyUnits are the holds (unitHold) of the plan's routes on trailer type
// ti, in routing's seconds, widened to whole seconds: what a routing
// round's trips of the type share the units with.
func (fleet *fleetState) busyUnits(m *model, ti int) []routeplan.Window {
	var out []routeplan.Window
	for _, r := range fleet.routes {
		if m.trailer[r.Trailer] == ti {
			from, til := m.unitHold(r)
			out = append(out, routeplan.Window{Start: m.seconds(from), End: m.secondsUp(til)})
		}
	}
	return out
}
