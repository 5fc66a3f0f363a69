package binpack

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

func TestCheckListsEveryViolation(t *testing.T) {
	p := Problem{
		Capacity: []int64{10, 0},
		Sizes:    [][]int64{{3, 1}, {-1, 2}, {11, 0}, {1}},
	}
	err := p.Check()
	if !errors.Is(err, constraints.ErrInvalid) {
		t.Fatalf("Check() = %v, want a constraints.Violations", err)
	}
	vs := constraints.AsViolations(err)
	want := map[string]string{
		"capacity[1]": "OUT_OF_RANGE",
		"sizes[1][0]": "NEGATIVE",
		"sizes[2][0]": "INVALID_VALUE",
		"sizes[3]":    "SIZE_MISMATCH",
	}
	if len(vs) != len(want) {
		t.Fatalf("got %d violations, want %d: %v", len(vs), len(want), vs)
	}
	for _, v := range vs {
		if want[v.Path] != v.Code {
			t.Errorf("unexpected violation %v", v)
		}
	}
	if err := (Problem{}).Check(); !constraints.AsViolations(err).Has("REQUIRED") {
		t.Errorf("empty problem: %v, want REQUIRED", err)
	}
	if _, err := Solve(context.Background(), p, Options{}); !errors.Is(err, constraints.ErrInvalid) {
		t.Errorf("Solve on an invalid problem: %v", err)
	}
}

func TestValidateFindsFaults(t *testing.T) {
	p := OneDim(10, []int64{6, 5, 4})
	cases := []struct {
		name string
		bins [][]int
		code string
	}{
		{"ok", [][]int{{0, 2}, {1}}, ""},
		{"overfull", [][]int{{0, 1}, {2}}, "CAPACITY"},
		{"twice", [][]int{{0, 2}, {1, 2}}, "INVALID_VALUE"},
		{"missing", [][]int{{0, 2}}, "REQUIRED"},
		{"unknown", [][]int{{0, 2}, {1, 7}}, "OUT_OF_RANGE"},
		{"empty bin", [][]int{{0, 2}, {1}, {}}, "INVALID_VALUE"},
	}
	for _, c := range cases {
		err := Validate(p, c.bins)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !constraints.AsViolations(err).Has(c.code) {
			t.Errorf("%s: %v, want code %s", c.name, err, c.code)
		}
	}
}

func TestBounds(t *testing.T) {
	cases := []struct {
		c      int64
		w      []int64
		l1, l2 int
	}{
		{10, nil, 0, 0},
		{10, []int64{0, 0}, 1, 1},
		{10, []int64{5, 5, 5, 5}, 2, 2},
		// Three items above half the capacity need three bins though they
		// total less than two bins.
		{10, []int64{6, 6, 6}, 2, 3},
		// Martello–Toth: with K = 3, items 7 leave room 3 each; the 4s fit
		// nowhere beside them and need ceil(16/10) = 2 more bins.
		{10, []int64{7, 7, 4, 4, 4, 4}, 3, 4},
	}
	for _, c := range cases {
		p := OneDim(c.c, c.w)
		if got := L1(p); got != c.l1 {
			t.Errorf("L1(%v) = %d, want %d", c.w, got, c.l1)
		}
		if got := L2(p); got != c.l2 {
			t.Errorf("L2(%v) = %d, want %d", c.w, got, c.l2)
		}
	}
}

func TestLPBoundBeatsL2(t *testing.T) {
	// Every bin holds at most two of these items (three would need 3*34 >
	// 100), yet L1 = L2 = 3; the LP bound is ceil(7/2) = 4.
	w := []int64{34, 34, 34, 34, 34, 34, 34}
	// An iteration budget, not the time, ends the search before the LP
	// bound: a loaded machine does not skip the LP.
	res, err := Solve(context.Background(), OneDim(100, w), Options{TimeLimit: time.Hour, MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Bounds.L2 != 3 || res.Stats.Bounds.LP != 4 || !res.Optimal || len(res.Bins) != 4 {
		t.Fatalf("got %d bins, bounds %+v, optimal %v; want 4 bins proven by LP = 4", len(res.Bins), res.Stats.Bounds, res.Optimal)
	}
}

func TestSolveCancelledReturnsValidPacking(t *testing.T) {
	w := make([]int64, 300)
	for i := range w {
		w[i] = int64(200 + (i*7919)%301)
	}
	p := OneDim(1000, w)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// An hour: only the cancel can end the call within the test run.
	res, err := Solve(ctx, p, Options{TimeLimit: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(p, res.Bins); err != nil {
		t.Fatal(err)
	}
	if !res.Optimal && res.Stats.Stop != StopCancelled {
		t.Errorf("Stop = %v, want cancelled", res.Stats.Stop)
	}
}

func TestSolveEmptyAndZeroItems(t *testing.T) {
	res, err := Solve(context.Background(), OneDim(5, nil), Options{})
	if err != nil || len(res.Bins) != 0 || !res.Optimal {
		t.Errorf("empty problem: %+v, %v", res, err)
	}
	p := Problem{Capacity: []int64{5, 5}, Sizes: [][]int64{{0, 0}, {0, 0}}}
	res, err = Solve(context.Background(), p, Options{})
	if err != nil || len(res.Bins) != 1 || !res.Optimal {
		t.Errorf("zero-size items: %+v, %v", res, err)
	}
}

func TestExportedFunctionsDoNotPanicOnInvalidInput(t *testing.T) {
	bad := []Problem{
		{},
		{Capacity: []int64{0}, Sizes: [][]int64{{1}}},
		{Capacity: []int64{5}, Sizes: [][]int64{{1, 2}, nil}},
		{Capacity: []int64{5, 5}, Sizes: [][]int64{{-1, 9}}},
	}
	for i, p := range bad {
		if L1(p) != 0 || L2(p) != 0 {
			t.Errorf("problem %d: bounds of an invalid problem should be 0", i)
		}
		if _, err := FirstFitDecreasing(p); err == nil {
			t.Errorf("problem %d: FFD accepted an invalid problem", i)
		}
		if _, err := BestFitDecreasing(p); err == nil {
			t.Errorf("problem %d: BFD accepted an invalid problem", i)
		}
		if err := Validate(p, [][]int{{0}}); err == nil {
			t.Errorf("problem %d: Validate accepted a packing of an invalid problem", i)
		}
	}
}
