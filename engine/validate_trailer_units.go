package engine

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// unitTrip is a route on a trailer unit: when the unit is busy with it.
type unitTrip struct {
	path      string
	from, til time.Time // loading start; return plus the turnaround
}

// checkTrailerUnits checks each route's trailer unit: one of its trailer
// type's units ("<type>-NN", NN from 1 to the type's count), and never
// loaded for a trip before it is back from the one before and turned
// around.
func (c *planCheck) checkTrailerUnits(routes []Route) constraints.Violations {
	var vs constraints.Violations
	turn := c.req.Turnaround()
	busy := map[string][]unitTrip{}
	var units []string // in order of first use
	for ri := range routes {
		r := &routes[ri]
		path := constraints.Index("routes", ri)
		ti, ok := c.trailer[r.Trailer]
		if !ok {
			continue // routeAlone reports it
		}
		if !c.unitOf(&c.req.Fleet[ti], r.TrailerUnit, path+".trailerUnit", &vs) {
			continue
		}
		if busy[r.TrailerUnit] == nil {
			units = append(units, r.TrailerUnit)
		}
		busy[r.TrailerUnit] = append(busy[r.TrailerUnit], unitTrip{path, r.LoadingStart, r.Return.Add(turn)})
	}
	for _, u := range units {
		trips := busy[u]
		slices.SortStableFunc(trips, func(a, b unitTrip) int { return a.from.Compare(b.from) })
		latest := trips[0] // the trip busy the longest so far
		for _, t := range trips[1:] {
			if t.from.Before(latest.til) {
				vs.Add(CodeTrailerUnitBusy, t.path+".trailerUnit", "unit %s is loaded at %s, before it is back from %s and turned around (%v) at %s",
					u, c.at(t.from), latest.path, turn, c.at(latest.til))
			}
			if t.til.After(latest.til) {
				latest = t
			}
		}
	}
	return vs
}

// unitOf reports whether unit names a unit of trailer type t, and
// reports at path why when it does not.
func (c *planCheck) unitOf(t *TrailerType, unit, path string, vs *constraints.Violations) bool {
	first, last := t.UnitID(1), t.UnitID(max(1, t.Count))
	if unit == "" {
		vs.Add(CodeTrailerUnit, path, "trailerUnit: required, the unit of trailer type %q that runs the trip, %s to %s", t.ID, first, last)
		return false
	}
	digits, ok := strings.CutPrefix(unit, t.ID+"-")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 1 || t.UnitID(n) != unit {
		vs.Add(CodeTrailerUnit, path, "trailerUnit %q is not a unit of trailer type %q, whose units are %s to %s", unit, t.ID, first, last)
		return false
	}
	if n > t.Count {
		vs.Add(CodeFleetCount, path, "trailerUnit %s: trailer type %q has %d units, %s to %s", unit, t.ID, t.Count, first, last)
		return false
	}
	return true
}
