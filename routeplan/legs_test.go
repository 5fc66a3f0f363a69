package routeplan

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"pgregory.net/rapid"
)

// sliceLegs reads a problem's own matrices, as a caller's matrix would be.
type sliceLegs struct {
	n        int
	dist, du []float64
}

func (l sliceLegs) LegDistance(a, b int) float64 { return l.dist[a*l.n+b] }
func (l sliceLegs) LegDuration(a, b int) float64 { return l.du[a*l.n+b] }

// TestLegsSolveAsSlices: a problem whose matrices come through Legs gets
// the very solution it gets from Distance and Duration, for the same seed
// and iteration budget.
func TestLegsSolveAsSlices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genProblem(t)
		opts := Options{MaxIterations: 60, Seed: 3}
		want, err := Solve(context.Background(), p, opts)
		if err != nil {
			t.Fatal(err)
		}
		q := *p
		q.Legs = sliceLegs{p.N, p.Distance, p.Duration}
		q.Distance, q.Duration = nil, nil
		got, err := Solve(context.Background(), &q, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("with Legs:\n%+v\nwith slices:\n%+v", got, want)
		}
	})
}

// TestLegsChecked: Legs with slices beside them, and bad entries read
// through them, are reported with their paths.
func TestLegsChecked(t *testing.T) {
	p := benchProblem(5, false)
	q := *p
	dist := append([]float64(nil), p.Distance...)
	dist[1*p.N+2] = math.NaN()
	q.Legs = sliceLegs{p.N, dist, p.Duration}
	err := Check(&q)
	if !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("want the violations, got %v", err)
	}
	paths := map[string]bool{}
	for _, v := range constraints.AsViolations(err) {
		paths[v.Path] = true
	}
	for _, want := range []string{"legs", constraints.Index("legs.distance", 1*p.N+2)} {
		if !paths[want] {
			t.Errorf("no violation at %s: %v", want, err)
		}
	}
}
