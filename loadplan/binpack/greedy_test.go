package binpack

import (
	"slices"
	"testing"
)

// TestGreedyOrder pins FFD and BFD to the textbook rules on an
// instance where they differ (computed by hand): decreasing 77, 69, 53,
// 26, 5 into bins of 100. FFD puts 26 with 69 and 5 with 77; BFD puts 5
// into the fullest bin that takes it, 69 + 26.
func TestGreedyOrder(t *testing.T) {
	p := OneDim(100, []int64{77, 69, 5, 26, 53})
	ffd, err := FirstFitDecreasing(p)
	if err != nil {
		t.Fatal(err)
	}
	bfd, err := BestFitDecreasing(p)
	if err != nil {
		t.Fatal(err)
	}
	eq := func(a, b [][]int) bool {
		return slices.EqualFunc(a, b, func(x, y []int) bool { return slices.Equal(x, y) })
	}
	if want := [][]int{{0, 2}, {1, 3}, {4}}; !eq(ffd, want) {
		t.Errorf("FFD %v, want %v", ffd, want)
	}
	if want := [][]int{{0}, {1, 3, 2}, {4}}; !eq(bfd, want) {
		t.Errorf("BFD %v, want %v", bfd, want)
	}
}

// TestBFDTiesToFirstBin: Best-Fit Decreasing breaks ties between
// equally full bins towards the bin opened first: 3 goes with the first 6.
func TestBFDTiesToFirstBin(t *testing.T) {
	bfd, err := BestFitDecreasing(OneDim(10, []int64{6, 6, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0, 2}, {1}}; len(bfd) != 2 || !slices.Equal(bfd[0], want[0]) || !slices.Equal(bfd[1], want[1]) {
		t.Fatalf("BFD %v, want %v", bfd, want)
	}
}
