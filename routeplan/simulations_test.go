package routeplan

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// TestSimulationsGiveTheSimulation: evaluateCandidate answers what evaluate
// answers (feasible or not, and the distance and cost of a feasible
// route) for candidates met again, after others took their slot, and for
// candidates whose slot holds others.
func TestSimulationsGiveTheSimulation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		in := newInstance(p)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		draw := func() []int {
			n := rng.IntN(min(len(p.Sites), 3) + 1)
			return rng.Perm(len(p.Sites))[:n]
		}
		// Few slots, so that candidates share them.
		sims := simulations{slots: make([]simulation, 1<<rapid.IntRange(0, 3).Draw(t, "slots"))}
		var s, want schedule
		type met struct {
			typ int
			seq []int
		}
		var seen []met
		for try := 0; try < 40; try++ {
			typ := rapid.IntRange(0, len(p.VehicleTypes)-1).Draw(t, "type")
			seq := draw()
			if len(seen) > 0 && rapid.Bool().Draw(t, "again") {
				old := seen[rapid.IntRange(0, len(seen)-1).Draw(t, "which")]
				typ, seq = old.typ, old.seq
			}
			seen = append(seen, met{typ, seq})
			got := in.evaluateCandidate(typ, seq, &s, &sims)
			f := in.evaluate(typ, seq, &want, false)
			if got != f {
				t.Fatalf("type %d, %v: %v, simulated %v", typ, seq, got, f)
			}
			if f == feasible && (s.dist != want.dist || s.cost != want.cost) {
				t.Fatalf("type %d, %v: distance %g cost %g, simulated %g and %g", typ, seq, s.dist, s.cost, want.dist, want.cost)
			}
		}
	})
}
