package routeplan

// instance is the solver's read-only view of a validated Problem, with the
// lookups the search needs precomputed.
type instance struct {
	p       *Problem
	n       int
	dist    []float64
	dur     []float64
	sites   []Site
	types   []VehicleType
	dims    int
	allowed [][]bool // allowed[site][type]
	// fast is true when every site has at most one window and no type has
	// a break rule, a duty or driving limit or a time cost: then a route's
	// earliest departures and latest starts decide every inter-route move
	// in constant time (see fast.go).
	fast bool
	// symmetric is true when both matrices are symmetric.
	symmetric bool
}

func newInstance(p *Problem) *instance {
	in := &instance{p: p, n: p.N, dist: p.Distance, dur: p.Duration, sites: p.Sites, types: p.VehicleTypes}
	// The search reads Site.Service as the whole service time: fold the
	// per-unit part in, on a copy, so the caller's Problem stays as it is.
	for i := range p.Sites {
		if len(p.Sites[i].ServicePerUnit) > 0 {
			in.sites = append([]Site(nil), p.Sites...)
			for j := range in.sites {
				in.sites[j].Service = in.sites[j].ServiceTime()
				in.sites[j].ServicePerUnit = nil
			}
			break
		}
	}
	if len(p.VehicleTypes) > 0 {
		in.dims = len(p.VehicleTypes[0].Capacity)
	}
	in.allowed = make([][]bool, len(p.Sites))
	in.fast = true
	for i := range p.Sites {
		a := make([]bool, len(p.VehicleTypes))
		if p.Sites[i].VehicleTypes == nil {
			for t := range a {
				a[t] = true
			}
		} else {
			for _, t := range p.Sites[i].VehicleTypes {
				a[t] = true
			}
		}
		in.allowed[i] = a
		if len(p.Sites[i].Windows) > 1 {
			in.fast = false
		}
	}
	for _, vt := range p.VehicleTypes {
		if vt.BreakAfter > 0 || vt.MaxDuty > 0 || vt.MaxDriving > 0 || vt.TimeCost > 0 {
			in.fast = false
		}
	}
	in.symmetric = symmetric(p.Distance, p.N) && symmetric(p.Duration, p.N)
	return in
}

func symmetric(m []float64, n int) bool {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if m[i*n+j] != m[j*n+i] {
				return false
			}
		}
	}
	return true
}

// legDur and legDist are the travel time and distance between locations.
func (in *instance) legDur(a, b int) float64  { return in.dur[a*in.n+b] }
func (in *instance) legDist(a, b int) float64 { return in.dist[a*in.n+b] }

// earliestIn returns the earliest time not before t inside one of ws (sorted),
// the end of that window, and false when every window has closed. An empty
// list imposes nothing.
func earliestIn(ws []Window, t float64) (start, end float64, ok bool) {
	if len(ws) == 0 {
		return t, inf, true
	}
	for _, w := range ws {
		if t > w.End {
			continue
		}
		if t < w.Start {
			return w.Start, w.End, true
		}
		return t, w.End, true
	}
	return 0, 0, false
}
