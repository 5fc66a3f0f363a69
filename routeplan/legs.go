package routeplan

// Legs is a travel matrix the caller already holds, read in place instead
// of being copied into Problem.Distance and Problem.Duration: on 5,000
// stores those two slices take 400 MB, while a matrix of float32 metres
// and int32 seconds (geo.Matrix) takes half that and is built anyway.
// LegDistance and LegDuration return the leg from location from to
// location to, both in [0, Problem.N), in the units of Distance and
// Duration. They must be safe for concurrent reads and return the same
// value for the same leg on every call: the streams of Solve read them
// from several goroutines.
type Legs interface {
	LegDistance(from, to int) float64
	LegDuration(from, to int) float64
}

// legDur and legDist are the travel time and distance between locations.
func (in *instance) legDur(a, b int) float64 {
	if in.matrix != nil {
		return in.matrix.LegDuration(a, b)
	}
	return in.dur[a*in.n+b]
}

func (in *instance) legDist(a, b int) float64 {
	if in.matrix != nil {
		return in.matrix.LegDistance(a, b)
	}
	return in.dist[a*in.n+b]
}

// symmetricLegs reports whether both matrices are symmetric; ok is false
// when stop, asked before each row, said to stop first.
func (in *instance) symmetricLegs(stop func() bool) (symmetric, ok bool) {
	for i := 0; i < in.n; i++ {
		if stop() {
			return false, false
		}
		for j := i + 1; j < in.n; j++ {
			if in.legDist(i, j) != in.legDist(j, i) || in.legDur(i, j) != in.legDur(j, i) {
				return false, true
			}
		}
	}
	return true, true
}

// distTo and durTo read the leg from a to b; on symmetric matrices they
// read row b, which stays in cache while one site's moves are evaluated.
func (in *instance) distTo(a, b int) float64 {
	if in.symmetric {
		return in.legDist(b, a)
	}
	return in.legDist(a, b)
}

func (in *instance) durTo(a, b int) float64 {
	if in.symmetric {
		return in.legDur(b, a)
	}
	return in.legDur(a, b)
}
