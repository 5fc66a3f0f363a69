package binpack

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// benchProblem draws a Falkenauer-like uniform instance: n weights in
// [20, 100], capacity 150.
func benchProblem(n int, d int) Problem {
	rng := rand.New(rand.NewPCG(7, uint64(n*d)))
	p := Problem{Capacity: make([]int64, d)}
	for k := range p.Capacity {
		p.Capacity[k] = 150
	}
	for range n {
		s := make([]int64, d)
		for k := range s {
			s[k] = 20 + rng.Int64N(81)
		}
		p.Sizes = append(p.Sizes, s)
	}
	return p
}

func BenchmarkSolve1D(b *testing.B) {
	p := benchProblem(500, 1)
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{TimeLimit: time.Second}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSolve3D(b *testing.B) {
	p := benchProblem(200, 3)
	for b.Loop() {
		if _, err := Solve(context.Background(), p, Options{TimeLimit: 100 * time.Millisecond}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFirstFitDecreasing(b *testing.B) {
	p := benchProblem(1000, 1)
	for b.Loop() {
		if _, err := FirstFitDecreasing(p); err != nil {
			b.Fatal(err)
		}
	}
}
