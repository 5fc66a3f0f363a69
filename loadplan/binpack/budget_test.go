package binpack

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// budgetProblem is a 3-dimensional problem with 300 items whose sizes are
// weakly correlated across dimensions: the search does not meet the bound
// on it within a small budget, so the budget is what ends it.
func budgetProblem() Problem {
	rng := rand.New(rand.NewPCG(7, 11))
	p := Problem{Capacity: []int64{1000, 1000, 1000}}
	for range 300 {
		a := int64(100 + rng.IntN(300))
		p.Sizes = append(p.Sizes, []int64{a, int64(50 + rng.IntN(400)), 450 - a/2 + int64(rng.IntN(100))})
	}
	return p
}

// TestIterationBudgetIsDeterministic: with MaxIterations the packing does
// not depend on the time limit or the machine's speed, and the search
// stops at the budget.
func TestIterationBudgetIsDeterministic(t *testing.T) {
	for _, c := range []struct {
		p      Problem
		budget int64
	}{{budgetProblem(), 1000}, {oneDimensional(), 4000}} {
		p, budget := c.p, c.budget
		var first Result
		for k, limit := range []time.Duration{time.Minute, 3 * time.Minute} {
			res, err := Solve(context.Background(), p, Options{TimeLimit: limit, Seed: 3, MaxIterations: budget})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Stop != StopIterations {
				t.Fatalf("d=%d: stopped by %v after %d iterations, want the budget", len(p.Capacity), res.Stats.Stop, res.Stats.Iterations)
			}
			// The search looks at its budget every 16 moves.
			if res.Stats.Iterations > budget+16 {
				t.Fatalf("d=%d: %d iterations, budget %d", len(p.Capacity), res.Stats.Iterations, budget)
			}
			if err := Validate(p, res.Bins); err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				first = res
			} else if !reflect.DeepEqual(first.Bins, res.Bins) || first.Stats.Iterations != res.Stats.Iterations {
				t.Fatalf("d=%d: two runs with the same budget differ: %d and %d bins, %d and %d iterations",
					len(p.Capacity), len(first.Bins), len(res.Bins), first.Stats.Iterations, res.Stats.Iterations)
			}
		}
	}
}

// oneDimensional is a 1-dimensional problem of 80 items of a quarter to
// nearly half the capacity that 4,000 moves do not pack at its bound, so
// that the search slices, the LP bound and the dives all run.
func oneDimensional() Problem {
	rng := rand.New(rand.NewPCG(15, 9))
	p := Problem{Capacity: []int64{100000}}
	for range 80 {
		p.Sizes = append(p.Sizes, []int64{int64(25000 + rng.IntN(20000))})
	}
	return p
}
