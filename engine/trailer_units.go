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
// longest. A unit is taken from its loading's start until the DC's
// turnaround after it returns. A new unit is taken only when every unit
// used so far is busy, so the units used are the most trips of the type
// that hold one at one instant, which routing keeps within the count
// (unitsFit); should a route still find none, it is dropped as
// FLEET_EXHAUSTED rather than planned on a unit twice. It returns the
// routes kept and the unassigned pallets.
//
// The locked routes of a re-plan (m.fixed) hold their units over their
// times whatever comes: no route takes a unit over a locked route's hold.
// A route that names a unit already (one kept from the previous plan)
// takes that unit when it is free, so that its paperwork stays, and the
// other routes keep off such units while they have others.
func assignTrailerUnits(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	turn := m.req.Turnaround()
	type unitHolds map[string][]hold
	fixed, wanted := unitHolds{}, unitHolds{}
	for _, r := range m.fixed {
		fixed[r.TrailerUnit] = append(fixed[r.TrailerUnit], hold{r.LoadingStart, r.Return.Add(turn)})
	}
	for _, r := range routes {
		if r.TrailerUnit != "" {
			wanted[r.TrailerUnit] = append(wanted[r.TrailerUnit], hold{r.LoadingStart, r.Return.Add(turn)})
		}
	}
	clashes := func(hs []hold, h hold, self bool) bool {
		for _, o := range hs {
			if self && o == h {
				self = false // the route's own wish
				continue
			}
			if o.from.Before(h.til) && h.from.Before(o.til) {
				return true
			}
		}
		return false
	}
	// By type, by unit − 1, up to the highest unit used so far: when each
	// unit is free again, and whether it has been used (a type may have a
	// million units: only those used take room).
	freeAt := make([][]time.Time, len(m.req.Fleet))
	used := make([][]bool, len(m.req.Fleet))
	kept := routes[:0]
	for _, r := range routes {
		ti := m.trailer[r.Trailer]
		t := m.req.Fleet[ti]
		h := hold{r.LoadingStart, r.Return.Add(turn)}
		free := func(u int, soft bool) bool {
			if u < len(freeAt[ti]) && freeAt[ti][u].After(r.LoadingStart) {
				return false
			}
			if len(fixed) == 0 && len(wanted) == 0 {
				return true
			}
			id := t.UnitID(u + 1)
			return !clashes(fixed[id], h, false) && (!soft || !clashes(wanted[id], h, id == r.TrailerUnit))
		}
		unit := 0
		if u, ok := unitNumber(t, r.TrailerUnit); ok && free(u-1, false) {
			unit = u
		}
		for _, soft := range []bool{true, false} {
			if unit != 0 {
				break
			}
			for u := range freeAt[ti] {
				if used[ti][u] && free(u, soft) && (unit == 0 || freeAt[ti][u].Before(freeAt[ti][unit-1])) {
					unit = u + 1
				}
			}
			for u := 0; unit == 0 && u < t.Count; u++ {
				if (u >= len(used[ti]) || !used[ti][u]) && free(u, soft) {
					unit = u + 1
				}
			}
		}
		if unit == 0 {
			msg := fmt.Sprintf("all %d units of trailer type %s are on other trips when its loading starts", t.Count, t.ID)
			unassigned = append(unassigned, unassignTrip(m, &r, ReasonFleetExhausted, msg)...)
			continue
		}
		for len(freeAt[ti]) < unit {
			freeAt[ti], used[ti] = append(freeAt[ti], time.Time{}), append(used[ti], false)
		}
		used[ti][unit-1] = true
		freeAt[ti][unit-1] = h.til
		r.TrailerUnit = t.UnitID(unit)
		kept = append(kept, r)
	}
	return kept, unassigned
}

// unitHold is the interval [from, til) over which route r, as the plan
// will have it, holds its trailer unit: from its loading's start in the
// dock hours (placeLoading) to its return plus the turnaround.
func (m *model) unitHold(r Route) (from, til time.Time) {
	m.placeLoading(&r)
	return r.LoadingStart, r.Return.Add(m.req.Turnaround())
}

// unitsFit reports whether trips, routes on trailer type ti, can join the
// plan's routes but those in skip (indices into fleet.routes): at no
// instant at which one of them holds a unit do more routes of the type
// hold one than it has units.
func (fleet *fleetState) unitsFit(m *model, ti int, trips []*Route, skip []int) bool {
	var mine, others []hold
	for _, r := range trips {
		from, til := m.unitHold(*r)
		mine = append(mine, hold{from, til})
	}
	for ri, r := range fleet.routes {
		if m.trailer[r.Trailer] != ti || slices.Contains(skip, ri) {
			continue
		}
		from, til := m.unitHold(r)
		others = append(others, hold{from, til})
	}
	others = append(others, m.fixedUnitHolds(ti)...)
	return holdsWithin(mine, others, m.req.Fleet[ti].Count)
}

// hold is an interval [from, til) over which a trip holds a trailer unit
// or a dock door.
type hold struct{ from, til time.Time }

// holdsWithin reports whether, at every instant at which one of mine
// holds a unit, at most count of mine and others together hold one. A
// hold is open at its end, and one that ends where it starts holds no
// instant.
func holdsWithin(mine, others []hold, count int) bool {
	type event struct {
		at    time.Time
		delta int
		mine  bool
	}
	var ev []event
	for k, hs := range [2][]hold{mine, others} {
		for _, h := range hs {
			if h.til.After(h.from) {
				ev = append(ev, event{h.from, 1, k == 0}, event{h.til, -1, k == 0})
			}
		}
	}
	// At one instant, ends come first.
	slices.SortFunc(ev, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	held, held0 := 0, 0
	for _, e := range ev {
		held += e.delta
		if e.mine {
			held0 += e.delta
		}
		if e.delta > 0 && held0 > 0 && held > count {
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
	for _, h := range m.fixedUnitHolds(ti) {
		out = append(out, routeplan.Window{Start: m.seconds(h.from), End: m.secondsUp(h.til)})
	}
	return out
}

// fixedUnitHolds are the holds of the locked routes (m.fixed) on trailer
// type ti: from their loading's start to their return plus the
// turnaround, as the previous plan has them.
func (m *model) fixedUnitHolds(ti int) []hold {
	var out []hold
	for _, r := range m.fixed {
		if m.trailer[r.Trailer] == ti {
			out = append(out, hold{r.LoadingStart, r.Return.Add(m.req.Turnaround())})
		}
	}
	return out
}
