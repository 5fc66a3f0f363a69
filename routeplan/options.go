package routeplan

import "time"

// Options tune Solve. The zero value means: no time limit (stop after the
// default number of iterations), seed 0, one worker, no progress reports.
type Options struct {
	// TimeLimit bounds the search; 0 means no limit. The first complete
	// solution is always built, even when it takes longer.
	TimeLimit time.Duration
	// MaxIterations bounds the number of search iterations; 0 means
	// DefaultIterations when TimeLimit is 0, and unlimited otherwise.
	MaxIterations int
	// Seed makes the search reproducible.
	Seed int64
	// Workers is the number of parallel searches; 0 means 1. The same
	// Seed and Workers give the same Solution.
	Workers int
	// Progress, when set, is called from Solve's goroutine each time the
	// incumbent improves.
	Progress func(Progress)
}

// DefaultIterations is the iteration budget when neither TimeLimit nor
// MaxIterations is set.
const DefaultIterations = 2000

// Progress reports the incumbent during a search.
type Progress struct {
	Elapsed   time.Duration
	Iteration int
	// Cost, Vehicles and Distance describe the incumbent as in Solution.
	Cost     float64
	Vehicles int
	Distance float64
	// Feasible is true when the incumbent serves every servable site.
	Feasible bool
}
