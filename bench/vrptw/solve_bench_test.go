package vrptw

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/haulplan/haulplan/routeplan"
)

// BenchmarkSolomonIterations solves the first instance of each Solomon
// class (c101, c201, r101, r201, rc101, rc201) under both conventions at a
// budget of 2,000 iterations, seed 1: the work of a search past its
// construction on the instances the tables score, which a change to
// routeplan's exact case must not slow down (routeplan's BenchmarkSolve200
// stops at 200 iterations, mostly construction). The plans are the same
// on every run, so ns/op compares two commits' speed alone.
func BenchmarkSolomonIterations(b *testing.B) {
	dir := dataDir(b)
	var ins []*Instance
	for _, name := range []string{"c101", "c201", "r101", "r201", "rc101", "rc201"} {
		f, err := os.Open(filepath.Join(dir, "solomon", name+".txt"))
		if err != nil {
			b.Skipf("benchmark data not found: %v", err)
		}
		in, err := Read(f)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, in)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, in := range ins {
			for _, c := range []Convention{Hierarchical, Distance} {
				if _, err := routeplan.Solve(context.Background(), in.Problem(c), routeplan.Options{MaxIterations: 2000, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
