package loadplan

import (
	"context"
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// TestLayoutMemory: a set laid out once is not laid out again, and a set
// the cheap checks reject costs no layout at all.
func TestLayoutMemory(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 2}}
	var ps []Pallet
	for i := range 40 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), fmt.Sprint("S", i%3), 300, constraints.Ambient))
	}
	f := newFleetPacker(context.Background(), fleet, ps, farFuture)
	f.screen(&FleetPlan{})
	calls := f.calls
	ten := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for range 3 {
		if f.makeLoad(0, ten) == nil {
			t.Fatal("ten pallets do not lay out")
		}
	}
	if f.calls != calls+1 {
		t.Fatalf("%d layouts for one set asked three times, want 1", f.calls-calls)
	}
	all := make([]int, len(ps))
	for i := range all {
		all[i] = i
	}
	if f.makeLoad(0, all) != nil || f.calls != calls+1 {
		t.Fatalf("40 pallets on 30 positions: load made or laid out (%d layouts)", f.calls-calls)
	}
}
