package vrptw

import "fmt"

// Validate verifies routes (customer numbers) against the instance under c with
// the benchmark's own rules, independently of routeplan: every customer
// exactly once, load within capacity, service starting by the due date
// (waiting allowed), return to the depot by its due date, no more routes
// than vehicles. It returns the total distance in instance units.
func (in *Instance) Validate(c Convention, routes [][]int) (float64, error) {
	n := len(in.Customers)
	if len(routes) > in.Vehicles {
		return 0, fmt.Errorf("vrptw: %d routes, fleet has %d vehicles", len(routes), in.Vehicles)
	}
	s := c.Scale()
	seen := make([]bool, n)
	total := 0.0
	depot := in.Customers[0]
	for k, r := range routes {
		if len(r) == 0 {
			return 0, fmt.Errorf("vrptw: route %d is empty", k+1)
		}
		t := depot.Ready * s
		load := 0.0
		prev := 0
		for _, id := range r {
			if id <= 0 || id >= n {
				return 0, fmt.Errorf("vrptw: route %d: no customer %d", k+1, id)
			}
			if seen[id] {
				return 0, fmt.Errorf("vrptw: customer %d visited twice", id)
			}
			seen[id] = true
			cu := in.Customers[id]
			d := in.arc(c, prev, id)
			total += d
			t += d
			if t < cu.Ready*s {
				t = cu.Ready * s
			}
			if t > cu.Due*s {
				return 0, fmt.Errorf("vrptw: route %d: customer %d served at %g, due %g", k+1, id, t/s, cu.Due)
			}
			t += cu.Service * s
			load += cu.Demand
			prev = id
		}
		d := in.arc(c, prev, 0)
		total += d
		if t+d > depot.Due*s {
			return 0, fmt.Errorf("vrptw: route %d returns at %g, depot due %g", k+1, (t+d)/s, depot.Due)
		}
		if load > in.Capacity {
			return 0, fmt.Errorf("vrptw: route %d carries %g, capacity %g", k+1, load, in.Capacity)
		}
	}
	for id := 1; id < n; id++ {
		if !seen[id] {
			return 0, fmt.Errorf("vrptw: customer %d not visited", id)
		}
	}
	return total / s, nil
}
