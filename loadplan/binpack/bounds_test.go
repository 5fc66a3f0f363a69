package binpack

import (
	"context"
	"testing"
)

// TestVectorBoundsPerDimension: in several dimensions L1 and L2 are
// the best over the dimensions, and a packing is checked in each.
func TestVectorBoundsPerDimension(t *testing.T) {
	p := Problem{Capacity: []int64{10, 100}, Sizes: [][]int64{{1, 60}, {1, 60}, {1, 60}, {9, 1}}}
	if l1, l2 := L1(p), L2(p); l1 != 2 || l2 != 3 {
		t.Fatalf("L1 %d L2 %d, want 2 and 3 (three items above half of dimension 1)", l1, l2)
	}
	if err := Validate(p, [][]int{{0, 3}, {1}, {2}}); err != nil {
		t.Fatal(err)
	}
	if err := Validate(p, [][]int{{0, 1, 3}, {2}}); err == nil {
		t.Fatal("120 in a dimension of 100 accepted")
	}
	res, err := Solve(context.Background(), p, Options{})
	if err != nil || len(res.Bins) != 3 || !res.Optimal {
		t.Fatalf("got %+v, %v", res, err)
	}
}
