package routeplan

import (
	"context"
	"testing"
)

// TestValues: when the fleet cannot serve every site, Solve serves the
// most value, whatever the number of sites.
func TestValues(t *testing.T) {
	for _, c := range []struct {
		name   string
		demand []float64
		value  []float64
		want   []int // sites served
	}{
		{"pallets, not orders", []float64{16, 8}, []float64{16, 8}, []int{0}},
		{"pallets, not orders, reversed", []float64{8, 16}, []float64{8, 16}, []int{1}},
		{"0 means 1: more sites", []float64{16, 8, 8}, nil, []int{1, 2}},
		{"one valuable site beats two", []float64{16, 8, 8}, []float64{5, 2, 2}, []int{0}},
		{"two beat one", []float64{16, 8, 8}, []float64{5, 3, 3}, []int{1, 2}},
		{"fractional values", []float64{12, 8, 8}, []float64{0.5, 0.3, 0.3}, []int{1, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.demand) + 1
			p := &Problem{N: n, Distance: make([]float64, n*n), Duration: make([]float64, n*n)}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						p.Distance[i*n+j], p.Duration[i*n+j] = 10, 10
					}
				}
			}
			for k, d := range c.demand {
				s := Site{Location: k + 1, Demand: []float64{d}}
				if c.value != nil {
					s.Value = c.value[k]
				}
				p.Sites = append(p.Sites, s)
			}
			p.VehicleTypes = []VehicleType{{Count: 1, Capacity: []float64{16}, ShiftEnd: 1000, DistanceCost: 1}}
			for seed := int64(0); seed < 5; seed++ {
				sol, err := Solve(context.Background(), p, Options{MaxIterations: 50, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if err := validateSolution(p, sol); err != nil {
					t.Fatal(err)
				}
				var got []int
				for _, r := range sol.Routes {
					for _, v := range r.Visits {
						got = append(got, v.Site)
					}
				}
				if !sameSet(got, c.want) {
					t.Fatalf("seed %d: serves %v, want %v", seed, got, c.want)
				}
				want := 0.0
				for _, i := range c.want {
					v := p.Sites[i].Value
					if v == 0 {
						v = 1 // 0 means 1
					}
					want += v
				}
				if v := servedValue(p, sol); v != want {
					t.Fatalf("seed %d: served value %g, want %g", seed, v, want)
				}
				for _, u := range sol.Unassigned {
					if u.Reason != FleetExhausted {
						t.Fatalf("site %d: reason %s", u.Site, u.Reason)
					}
				}
			}
		})
	}
}

func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[int]int{}
	for _, x := range a {
		in[x]++
	}
	for _, x := range b {
		in[x]--
	}
	for _, n := range in {
		if n != 0 {
			return false
		}
	}
	return true
}
