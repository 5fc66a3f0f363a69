//go:build race

package engine

// raceEnabled is true when the race detector runs, which slows the
// planner about tenfold; timing tests allow for it.
const raceEnabled = true
