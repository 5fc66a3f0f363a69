package binpack_test

import (
	"context"
	"fmt"
	"time"

	"github.com/haulplan/haulplan/loadplan/binpack"
)

func ExampleSolve() {
	// Pallet weights (kg) for trailers that carry 1,000 kg each.
	p := binpack.OneDim(1000, []int64{500, 400, 300, 300, 250, 250})
	res, err := binpack.Solve(context.Background(), p, binpack.Options{TimeLimit: time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("bins:", len(res.Bins), "lower bound:", res.LowerBound, "optimal:", res.Optimal)
	fmt.Println("valid:", binpack.Validate(p, res.Bins) == nil)
	// Output:
	// bins: 2 lower bound: 2 optimal: true
	// valid: true
}

func ExampleSolve_vector() {
	// Two dimensions: floor positions (capacity 26) and weight (capacity 20,000 kg).
	p := binpack.Problem{
		Capacity: []int64{26, 20000},
		Sizes: [][]int64{
			{10, 3000}, {10, 3000}, {6, 12000}, {6, 9000}, {16, 4000},
		},
	}
	res, err := binpack.Solve(context.Background(), p, binpack.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("bins:", len(res.Bins), "optimal:", res.Optimal)
	// Output:
	// bins: 2 optimal: true
}
