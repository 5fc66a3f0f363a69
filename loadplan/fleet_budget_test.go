package loadplan

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestPackFleetBudgetIgnoresTimeLimit: with MaxLayouts the plan is the
// same whatever the time limit (as long as it does not end the call) and
// from run to run.
func TestPackFleetBudgetIgnoresTimeLimit(t *testing.T) {
	fleet := scarceFleet()
	ps := mixedPallets(200, 25, 11)
	sig := func(limit time.Duration) string {
		plan, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: limit, MaxLayouts: 500, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		s := fmt.Sprint(plan.LowerBound, plan.Optimal, len(plan.Unplaced))
		for _, l := range plan.Loads {
			s += fmt.Sprint(l.Trailer, l.Stores)
			for _, p := range l.Pallets {
				s += p.ID + " "
			}
		}
		return s
	}
	a := sig(time.Minute)
	if b := sig(10 * time.Minute); a != b {
		t.Fatal("same budget, other time limit: other plan")
	}
	if b := sig(time.Minute); a != b {
		t.Fatal("same budget: two runs differ")
	}
}

// TestPackFleetCancelledIsNotOptimal: pallets left because ctx ended
// before they were packed mean the plan proves nothing; with nothing
// packed, zero loads meet the bound of zero all the same.
func TestPackFleetCancelledIsNotOptimal(t *testing.T) {
	fleet := []FleetTrailer{{Trailer: testTrailer(constraints.DryVan), Count: 3}}
	var ps []Pallet
	for i := range 20 {
		ps = append(ps, storePallet(fmt.Sprint("p", i), "S", 100, constraints.Ambient))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	plan, err := PackFleet(ctx, fleet, ps, FleetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, plan)
	if plan.Optimal || len(plan.Unplaced) != len(ps) {
		t.Fatalf("cancelled before packing: %d unplaced, optimal %v; want %d, false", len(plan.Unplaced), plan.Optimal, len(ps))
	}
}

// TestPackFleetBudgetBinds: MaxLayouts bounds the search. On this
// instance first-fit needs 14 trailers and the search finds 13 within a
// few hundred layouts; five layouts are not enough to move, so a budget
// that is ignored shows as 13.
func TestPackFleetBudgetBinds(t *testing.T) {
	fleet, ps := mixedFleet(), mixedPallets(400, 48, 6)
	ff, _ := firstFitCount(fleet, ps)
	small, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, MaxLayouts: 5})
	if err != nil {
		t.Fatal(err)
	}
	large, err := PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Minute, MaxLayouts: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	checkFleetPlan(t, fleet, ps, small)
	if len(small.Loads) != ff || len(large.Loads) >= ff {
		t.Fatalf("first-fit %d; budget 5: %d trailers, budget 100,000: %d; want %d and fewer", ff, len(small.Loads), len(large.Loads), ff)
	}
}

// countdownCtx is a context that ends after its Err has said nil n times,
// so a test can end it at an exact point of PackFleet without a clock.
type countdownCtx struct {
	context.Context
	n int
}

func (c *countdownCtx) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestPackFleetStopsAfterFirstPacking: a deadline already past when the
// first packing completes, or a context that ends right then, stops the
// search there: the plan is first-fit's 14 trailers where the search would
// find 13. Neither needs a clock: the deadline is a nanosecond, and the
// context ends after as many checks as first-fit makes.
func TestPackFleetStopsAfterFirstPacking(t *testing.T) {
	fleet, ps := mixedFleet(), mixedPallets(400, 48, 2)
	counter := &countdownCtx{Context: context.Background(), n: 1 << 30}
	f := newFleetPacker(counter, fleet, ps, farFuture)
	a, _ := f.firstFit(f.storeOrder(f.screen(&FleetPlan{})))
	checks := 1<<30 - counter.n
	for name, run := range map[string]func() (*FleetPlan, error){
		"time limit": func() (*FleetPlan, error) {
			return PackFleet(context.Background(), fleet, ps, FleetOptions{TimeLimit: time.Nanosecond})
		},
		"context": func() (*FleetPlan, error) {
			return PackFleet(&countdownCtx{Context: context.Background(), n: checks}, fleet, ps, FleetOptions{TimeLimit: time.Minute})
		},
	} {
		plan, err := run()
		if err != nil {
			t.Fatal(err)
		}
		checkFleetPlan(t, fleet, ps, plan)
		if len(plan.Loads) != len(a.loads) || len(plan.Unplaced) != 0 {
			t.Errorf("%s: %d trailers, %d unplaced; want first-fit's %d and none", name, len(plan.Loads), len(plan.Unplaced), len(a.loads))
		}
	}
}
