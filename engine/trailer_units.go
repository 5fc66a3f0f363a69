package engine

import (
	"fmt"
	"time"
)

// assignTrailerUnits gives each route, in order of loading start, the
// lowest unit of its trailer type free by then: a unit is taken from its
// loading's start until the DC's turnaround after it returns. Routing
// keeps the routes of a type within its count, so a unit is always free;
// should none be, the route is dropped as FLEET_EXHAUSTED rather than
// planned on a unit twice. It returns the routes kept and the unassigned
// pallets.
func assignTrailerUnits(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	turn := m.req.Turnaround()
	freeAt := make([][]time.Time, len(m.req.Fleet)) // by type, by unit − 1 of the units used so far
	kept := routes[:0]
	for _, r := range routes {
		ti := m.trailer[r.Trailer]
		t := m.req.Fleet[ti]
		unit := 0
		for u, at := range freeAt[ti] {
			if !at.After(r.LoadingStart) {
				unit = u + 1
				break
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
		freeAt[ti][unit-1] = r.Return.Add(turn)
		r.TrailerUnit = t.UnitID(unit)
		kept = append(kept, r)
	}
	return kept, unassigned
}
