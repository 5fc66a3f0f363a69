package routeplan

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// TestNegativeIsLessThanZero holds the inlined test of an improvement to
// the comparison it writes out: every bound and move decides with it, so
// a difference would change which moves the search takes.
func TestNegativeIsLessThanZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		near := func(name string) float64 {
			// Values around the tolerance, where the two could part.
			switch rapid.IntRange(0, 3).Draw(t, name+"Kind") {
			case 0:
				return 0
			case 1:
				return float64(rapid.IntRange(-3, 3).Draw(t, name+"Eps")) * eps / 2
			case 2:
				return math.NaN()
			}
			return rapid.Float64Range(-1e6, 1e6).Draw(t, name)
		}
		d := objective{lost: near("lost"), vehicles: rapid.IntRange(-2, 2).Draw(t, "vehicles"), value: near("value"), tie: near("tie")}
		if got, want := d.negative(), d.less(objective{}); got != want {
			t.Fatalf("%+v: negative %v, less than zero %v", d, got, want)
		}
	})
}
