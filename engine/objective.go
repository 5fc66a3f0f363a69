package engine

import (
	"encoding/json"
	"fmt"

	"github.com/haulplan/haulplan/routeplan"
)

// Objective is what Plan minimises once it delivers every pallet it can.
// The zero value, FewestTrailers, is the default: a DC's trailers and
// drivers are its scarce, expensive part of the day (a tractor, a trailer
// and a driver shift cost more than the kilometres of a route), and load
// plans are asked to "minimize the number of vehicles needed"; a planner
// who pays per kilometre and has trailers to spare chooses LowestCost.
type Objective int

const (
	// FewestTrailers minimises the trailer loads (routes, one a trip)
	// first, then their cost: the units a plan needs follow from how its
	// loads overlap through the day, each unit turning after its return.
	// The search
	// spends part of its time emptying routes into the others (route
	// elimination), so that a plan does not carry a trailer it can do
	// without to save a few kilometres; its last twentieth takes off the
	// routes whose pallets fit the room left on the others, so a store's
	// pallets of one temperature class may come on two trailers (a split
	// delivery) when that saves a trailer, unless Options.WholeDeliveries
	// is set.
	FewestTrailers Objective = iota
	// LowestCost minimises the total cost of the routes: each trailer
	// type's fixed cost per route plus its cost per km and per hour of
	// duty. A route is opened whenever that is cheaper, so a plan may use
	// more trailers than FewestTrailers to drive fewer kilometres.
	LowestCost
	// FewestDrivers minimises the driver shifts used first, then the
	// routes, then their cost: a shift drives as many trips as its hours
	// allow.
	FewestDrivers
)

// objectiveNames are the JSON names, by Objective.
var objectiveNames = []string{"trailers", "cost", "drivers"}

// fewestRoutes reports whether o ranks plans by a count of units first
// (trailer loads or shifts), so that the planner takes routes off
// (eliminateRoutes) and keeps versatile trailers back under either.
func (o Objective) fewestRoutes() bool { return o == FewestTrailers || o == FewestDrivers }

// Valid reports whether o is one of the defined objectives.
func (o Objective) Valid() bool { return o >= FewestTrailers && int(o) < len(objectiveNames) }

// String returns the objective's JSON name: "trailers", "cost" or
// "drivers".
func (o Objective) String() string {
	if o.Valid() {
		return objectiveNames[o]
	}
	return fmt.Sprintf("Objective(%d)", int(o))
}

// MarshalJSON writes the objective's name.
func (o Objective) MarshalJSON() ([]byte, error) {
	if !o.Valid() {
		return nil, fmt.Errorf("engine: cannot marshal %v", o)
	}
	return json.Marshal(o.String())
}

// routing is the routeplan objective that ranks plans as o does, where a
// routing route is a driver's shift: FewestTrailers counts its trips
// (trailer loads; the units they need follow from how the loads overlap,
// which the DC's schedule decides), FewestDrivers the shifts.
func (o Objective) routing() routeplan.Objective {
	switch o {
	case LowestCost:
		return routeplan.Cost
	case FewestDrivers:
		return routeplan.Hierarchical
	}
	return routeplan.FewestTrips
}
