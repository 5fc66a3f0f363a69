package routeplan

import "time"

// Options tune Solve. The zero value means: no time limit (stop after the
// default number of iterations), seed 0, one worker, no progress reports.
type Options struct {
	// TimeLimit bounds the whole call, counted from it: preparation,
	// constructions and search; 0 means no limit. A construction the limit
	// cuts short keeps the routes it built, and leaves the sites it did not
	// come to unassigned with NotReached (all of them, when the limit ends
	// before the first construction begins). Past the limit, Solve only
	// finishes the insertion or move under way and writes the solution out.
	TimeLimit time.Duration
	// MaxIterations bounds the number of search iterations of each stream; 0 means
	// DefaultIterations when TimeLimit is 0, and unlimited otherwise.
	MaxIterations int
	// Seed makes the search reproducible.
	Seed int64
	// Streams is the number of independent searches, each from its own
	// random stream of Seed; Solve returns the best. 0 means 1. The same
	// Problem, Seed, Streams and MaxIterations give the same Solution
	// whatever Workers is; under a TimeLimit the number of iterations, and
	// so the result, depends on the machine's speed and load.
	Streams int
	// Workers is the number of goroutines that run the streams; 0 means
	// min(Streams, GOMAXPROCS). It changes how fast, never what. A worker
	// with several streams runs them one after the other, each with an
	// equal share of the time it has left under a TimeLimit (a construction
	// may overrun its share, never the limit); streams not begun when the
	// limit ends are never begun.
	Workers int
	// Progress, when set, is called each time the best solution of all
	// workers improves. Calls never overlap, but with several workers they
	// come from the workers' goroutines.
	Progress func(Progress)
	// ProgressInterval, when above 0, is the least time between two
	// Progress calls: an improvement found sooner after the last call is
	// neither reported nor copied (each report copies the incumbent into
	// Best, which on large problems costs more than the search between
	// two improvements). The first improvement is always reported; later
	// ones are reported when they beat every one reported before. It
	// changes what is reported, never the search.
	ProgressInterval time.Duration
}

// DefaultIterations is the iteration budget when neither TimeLimit nor
// MaxIterations is set.
const DefaultIterations = 2000

// Progress reports the incumbent during a search.
type Progress struct {
	Elapsed   time.Duration
	Iteration int
	// Cost, Vehicles, Trips and Distance describe the incumbent as in
	// Solution.
	Cost     float64
	Vehicles int
	Trips    int
	Distance float64
	// Unassigned counts the sites the incumbent leaves out, including those
	// no vehicle can serve; Feasible is true when it serves every site that
	// can be served.
	Unassigned int
	Feasible   bool
	// Best is the incumbent itself, in the form Solve returns: a snapshot
	// the callee may keep, read and pass to other goroutines. Its
	// unassigned sites are FleetExhausted where Solve's solution may say
	// ResourceBusy: telling them apart tries each on a route of its own,
	// which only the solution Solve returns pays for.
	Best *Solution
}
