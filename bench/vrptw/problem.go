package vrptw

import (
	"math"
	"strconv"

	"github.com/haulplan/haulplan/routeplan"
)

// Convention is how arcs are measured and what is minimised.
type Convention int

const (
	// Hierarchical: Euclidean distance in double precision; fewest
	// vehicles first, then distance (SINTEF).
	Hierarchical Convention = iota
	// Distance: each arc truncated to one decimal, also as travel time;
	// distance only (DIMACS 2021, CVRPLIB).
	Distance
)

// Scale is the factor between the problem built for c and the instance's
// units: problems under Distance count tenths so that they are integral.
func (c Convention) Scale() float64 {
	if c == Distance {
		return 10
	}
	return 1
}

// arc is the length of the arc between two customers under c, in the
// problem's units (tenths under Distance).
func (in *Instance) arc(c Convention, a, b int) float64 {
	dx := in.Customers[a].X - in.Customers[b].X
	dy := in.Customers[a].Y - in.Customers[b].Y
	if c == Distance {
		// floor(sqrt(100·d²)) is floor(10·d) without the rounding of a
		// product; sqrt is correctly rounded, so exact squares stay exact.
		return math.Floor(math.Sqrt(100 * (dx*dx + dy*dy)))
	}
	return math.Sqrt(dx*dx + dy*dy)
}

// Problem builds the routeplan problem of the instance under c: location i
// is customer i, site i-1 is customer i, one vehicle type with the fleet
// size and capacity, a shift from the depot's ready time to its due date
// (the latest return), and a cost of one per unit of distance.
func (in *Instance) Problem(c Convention) *routeplan.Problem {
	n := len(in.Customers)
	s := c.Scale()
	p := &routeplan.Problem{N: n, Distance: make([]float64, n*n)}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			p.Distance[a*n+b] = in.arc(c, a, b)
		}
	}
	p.Duration = p.Distance // travel time = distance (speed 1)
	depot := in.Customers[0]
	p.VehicleTypes = []routeplan.VehicleType{{
		ID: "vehicle", Count: in.Vehicles, Capacity: []float64{in.Capacity},
		ShiftStart: depot.Ready * s, ShiftEnd: depot.Due * s, DistanceCost: 1,
	}}
	for i := 1; i < n; i++ {
		cu := in.Customers[i]
		p.Sites = append(p.Sites, routeplan.Site{
			ID: strconv.Itoa(cu.ID), Location: i,
			Windows: []routeplan.Window{{Start: cu.Ready * s, End: cu.Due * s}},
			Service: cu.Service * s, Demand: []float64{cu.Demand},
		})
	}
	if c == Hierarchical {
		p.Objective = routeplan.Hierarchical
	}
	return p
}

// Routes lists the customer numbers of each route of sol, a solution of a
// problem built by Problem.
func Routes(sol *routeplan.Solution) [][]int {
	out := make([][]int, 0, len(sol.Routes))
	for _, r := range sol.Routes {
		ids := make([]int, len(r.Visits))
		for k, v := range r.Visits {
			ids[k] = v.Site + 1
		}
		out = append(out, ids)
	}
	return out
}
