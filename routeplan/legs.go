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
// They read the slices inline, and the caller's matrix through a call of
// its own, so that they and distTo and durTo stay small enough to inline
// into the bounds that run for every candidate move.
func (in *instance) legDur(a, b int) float64 {
	if in.matrix == nil {
		return in.dur[a*in.n+b]
	}
	return in.matrixDur(a, b)
}

func (in *instance) legDist(a, b int) float64 {
	if in.matrix == nil {
		return in.dist[a*in.n+b]
	}
	return in.matrixDist(a, b)
}

//go:noinline
func (in *instance) matrixDur(a, b int) float64 { return in.matrix.LegDuration(a, b) }

//go:noinline
func (in *instance) matrixDist(a, b int) float64 { return in.matrix.LegDistance(a, b) }

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
// The row and column strides (toRow, toCol: see instance) make that
// choice without a branch, which keeps them small enough to inline.
func (in *instance) distTo(a, b int) float64 {
	if in.matrix == nil {
		return in.dist[a*in.toCol+b*in.toRow]
	}
	return in.matrixDistTo(a, b)
}

func (in *instance) durTo(a, b int) float64 {
	if in.matrix == nil {
		return in.dur[a*in.toCol+b*in.toRow]
	}
	return in.matrixDurTo(a, b)
}

//go:noinline
func (in *instance) matrixDistTo(a, b int) float64 {
	if in.symmetric {
		a, b = b, a
	}
	return in.matrix.LegDistance(a, b)
}

//go:noinline
func (in *instance) matrixDurTo(a, b int) float64 {
	if in.symmetric {
		a, b = b, a
	}
	return in.matrix.LegDuration(a, b)
}
