package vrptw

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Random draws an instance in the style of the Gehring & Homberger RC1
// class: n customers, clustered and uniform in equal parts, on a square
// grid that grows with sqrt(n), with tight windows, service 10, demand 1..40,
// capacity 200 and a fleet of n/4 vehicles. It is for measuring time to a
// first solution and memory at sizes no published set has.
func Random(n int, seed uint64) *Instance {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	side := math.Round(math.Sqrt(float64(n)) * 16)
	horizon := math.Round(side * 3.6)
	in := &Instance{Name: fmt.Sprintf("random%d", n), Vehicles: max(n/4, 1), Capacity: 200}
	c := side / 2
	in.Customers = append(in.Customers, Customer{ID: 0, X: c, Y: c, Due: horizon})
	centres := make([][2]float64, max(n/100, 1))
	for k := range centres {
		centres[k] = [2]float64{rng.Float64() * side, rng.Float64() * side}
	}
	for i := 1; i <= n; i++ {
		var x, y float64
		if i%2 == 0 {
			x, y = rng.Float64()*side, rng.Float64()*side
		} else {
			ct := centres[rng.IntN(len(centres))]
			x = ct[0] + rng.NormFloat64()*side/40
			y = ct[1] + rng.NormFloat64()*side/40
		}
		x = math.Round(math.Min(math.Max(x, 0), side))
		y = math.Round(math.Min(math.Max(y, 0), side))
		d := math.Hypot(x-c, y-c)
		// A window the vehicle can reach from the depot and return from.
		earliest, latest := math.Ceil(d), math.Floor(horizon-d-10)
		mid := earliest + rng.Float64()*(latest-earliest)
		half := 15 + rng.Float64()*45
		ready := math.Max(earliest, math.Round(mid-half))
		due := math.Min(latest, math.Round(mid+half))
		if due < ready {
			ready, due = earliest, latest
		}
		in.Customers = append(in.Customers, Customer{
			ID: i, X: x, Y: y, Demand: float64(1 + rng.IntN(40)),
			Ready: ready, Due: due, Service: 10,
		})
	}
	return in
}
