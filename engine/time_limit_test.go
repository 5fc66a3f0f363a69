package engine

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/routeplan"
)

// limitClock is the clock Plan's phases read the time limit on: the real
// time until it expires, a day later after, past any limit the tests set.
// It expires when told to, or after a number of reads.
type limitClock struct {
	reads, expireAfter atomic.Int64 // expireAfter 0: only when told
	expired            atomic.Bool
}

func (c *limitClock) now() time.Time {
	n := c.reads.Add(1)
	if a := c.expireAfter.Load(); a > 0 && n > a {
		c.expired.Store(true)
	}
	if c.expired.Load() {
		return time.Now().Add(24 * time.Hour)
	}
	return time.Now()
}

// TestPlanTimeLimitOverBeforeOrders: when the time limit is over as the
// planning begins (here, right after the call's start), Plan still returns
// a plan that Validate accepts, but does no more: on the 48-store sample
// with 256 search streams, no order is cut, no routing round runs, and
// every pallet is unassigned as NOT_PLANNED, saying why.
func TestPlanTimeLimitOverBeforeOrders(t *testing.T) {
	req := loadSample(t)
	req.Options.Streams = 256
	phases := map[Phase]int{}
	req.Options.Progress = func(p Progress) { phases[p.Phase]++ }
	clock := &limitClock{}
	clock.expireAfter.Store(1) // the call's start
	plan, err := planWithClock(context.Background(), req, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(req, plan); err != nil {
		t.Fatal(err)
	}
	if phases[PhaseRouting] != 0 {
		t.Errorf("%d routing reports; routing ran past the time limit", phases[PhaseRouting])
	}
	if plan.Metrics.Routes != 0 || len(plan.Unassigned) != len(req.Pallets) {
		t.Fatalf("%d routes, %d of %d pallets unassigned; want nothing planned", plan.Metrics.Routes, len(plan.Unassigned), len(req.Pallets))
	}
	for _, u := range plan.Unassigned {
		if u.Reason != ReasonNotPlanned || u.Message != notPacked {
			t.Fatalf("pallet %s: %s %q; want %s %q", u.Pallet, u.Reason, u.Message, ReasonNotPlanned, notPacked)
		}
	}
}

// planExpiringAfterRouting plans req with a time limit that ends as the
// first routing round's routes are laid out (its LAYOUTS report), and
// checks the plan as planOK does.
func planExpiringAfterRouting(t *testing.T, req Request) Result {
	t.Helper()
	clock := &limitClock{}
	req.Options.Progress = func(p Progress) {
		if p.Phase == PhaseLayouts {
			clock.expired.Store(true)
		}
	}
	plan, err := planWithClock(context.Background(), req, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(req, plan); err != nil {
		t.Fatal(err)
	}
	if plan.Metrics.Pallets+len(plan.Unassigned) != len(req.Pallets) {
		t.Fatalf("%d delivered + %d unassigned != %d pallets", plan.Metrics.Pallets, len(plan.Unassigned), len(req.Pallets))
	}
	return plan
}

// TestRouteEliminationStopsAtTheTimeLimit: three stores of 12 pallets on
// three 18-position trailers; route elimination, given the time, takes a
// route off (TestEliminationSplitsAStoreToSaveATrailer). When the limit
// ends with the first routing round, even with an iteration budget it
// does not begin: the plan keeps its three routes, every pallet delivered.
func TestRouteEliminationStopsAtTheTimeLimit(t *testing.T) {
	plan := planExpiringAfterRouting(t, eliminationRequest(FewestTrailers))
	if plan.Metrics.Routes != 3 || plan.Metrics.Pallets != 36 {
		t.Fatalf("%d routes delivering %d pallets; want routing's 3 routes with all 36", plan.Metrics.Routes, plan.Metrics.Pallets)
	}
}

// spareRoomRequest: two stores of 10 pallets, one 16-position dry van and
// one driver of one trip. Routing moves whole orders, so its one route carries one
// store; the room left takes 6 of the other store's pallets.
func spareRoomRequest() Request {
	req := packingRequest(2, 1, []TrailerType{dryVan(1, 16)})
	req.Shifts[0].MaxTrips = 1 // else the driver's second trip takes the rest
	req.Options.Objective = LowestCost
	addPallets(&req, "S0", constraints.Ambient, 10)
	addPallets(&req, "S1", constraints.Ambient, 10)
	return req
}

// TestSpareRoomStopsAtTheTimeLimit: with time, the route of
// spareRoomRequest takes 16 pallets; when the limit ends with the first
// routing round, the spare room is not filled: 10 delivered, the other
// store's 10 FLEET_EXHAUSTED.
func TestSpareRoomStopsAtTheTimeLimit(t *testing.T) {
	if plan := planOK(t, spareRoomRequest()); plan.Metrics.Pallets != 16 {
		t.Fatalf("with time: %d pallets delivered; want 16, the room left filled", plan.Metrics.Pallets)
	}
	plan := planExpiringAfterRouting(t, spareRoomRequest())
	if r := unassignedReasons(plan); plan.Metrics.Pallets != 10 || r[ReasonFleetExhausted] != 10 {
		t.Fatalf("%d pallets delivered, unassigned by reason %v; want routing's 10 and 10 %s", plan.Metrics.Pallets, r, ReasonFleetExhausted)
	}
}

// TestPlanSearchPanicIsAnError: a panic on a search stream's goroutine
// (here from the Progress callback, which routing calls there) does not
// end the process: Plan returns an error that errors.Is ErrInternal and
// carries the *routeplan.PanicError with the panic's value and stack.
func TestPlanSearchPanicIsAnError(t *testing.T) {
	req := loadSample(t)
	req.Options.Iterations, req.Options.Streams, req.Options.Workers = 50, 4, 2
	req.Options.Progress = func(p Progress) {
		if p.Phase == PhaseRouting {
			panic(fmt.Sprintf("injected fault in round %d", p.Round))
		}
	}
	_, err := Plan(context.Background(), req)
	if !errors.Is(err, ErrInternal) {
		t.Fatalf("error %v; want ErrInternal", err)
	}
	var pe *routeplan.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v; want a *routeplan.PanicError in it", err)
	}
	if pe.Value != "injected fault in round 1" || len(pe.Stack) == 0 {
		t.Errorf("panic value %v, %d bytes of stack; want the injected fault and its stack", pe.Value, len(pe.Stack))
	}
}

// TestPlanRoutesWhatTheLimitLeftUnreached: when the time limit ends as
// the first routing round's routes are laid out, and a layout has sent a
// stop back (loneHalvesRequest: one route of three stores, whose last
// stop its floor cannot take), no routing round is left the time to
// route that stop again; it is loadable alone and the second van and
// driver stand free, so it is routed past the limit, and every pallet
// rides, whatever the objective: on haulbench's 5,000-store day at 60 s
// on a busy machine, such orders are some 300 orders and 1,700 pallets.
func TestPlanRoutesWhatTheLimitLeftUnreached(t *testing.T) {
	for _, objective := range []Objective{FewestTrailers, FewestDrivers, LowestCost} {
		req := loneHalvesRequest()
		req.Options.Objective = objective
		clock := &limitClock{}
		sentBack := false
		req.Options.Progress = func(p Progress) {
			if p.Phase == PhaseLayouts && p.Round == 1 {
				sentBack = p.Routes == 1 && p.Unassigned > 0
				clock.expired.Store(true)
			}
		}
		plan, err := planWithClock(context.Background(), req, clock.now)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(req, plan); err != nil {
			t.Fatal(err)
		}
		if !sentBack {
			t.Fatalf("%s: the first round's layouts sent nothing back: the request no longer tests a round the limit cut", objective)
		}
		if len(plan.Unassigned) > 0 {
			u := plan.Unassigned[0]
			t.Errorf("%s: %d pallets unassigned, first %s %s (%s); want every pallet delivered", objective, len(plan.Unassigned), u.Pallet, u.Reason, u.Message)
		}
	}
}

// jumpClock is the wall clock that, from its second read on, runs ahead
// by jump: a phase that reads the time as it begins finds, at its next
// read, that jump has passed, as on a machine busy with other work.
type jumpClock struct {
	reads atomic.Int64
	jump  time.Duration
}

func (c *jumpClock) now() time.Time {
	if c.reads.Add(1) == 1 {
		return time.Now()
	}
	return time.Now().Add(c.jump)
}

// TestRetimingAtABudgetTakesItsTries: retimeChains, which frees one of
// the two single-trip shifts of shiftsOnMorningTrips, is given half the
// time limit's passing as it begins. Under a time limit alone that is
// past the third of the time left it may take, and it frees none; with
// an iteration budget its tries bound it, not a share of the time, so it
// frees the shift as on a fast, quiet machine: the plan is the same on
// any machine.
func TestRetimingAtABudgetTakesItsTries(t *testing.T) {
	for _, iterations := range []int{100, 0} {
		pc, fleet := shiftsOnMorningTrips(t)
		pc.m.req.Options.Iterations = iterations
		clock := &jumpClock{jump: pc.deadline.Sub(pc.began) / 2}
		pc.now = clock.now
		want := 1
		if iterations == 0 {
			want = 0
		}
		if n := retimeChains(context.Background(), pc, fleet); n != want {
			t.Fatalf("%d iterations: retimeChains freed %d shifts after half the limit passed; want %d", iterations, n, want)
		}
		if pc.stopped(context.Background()) {
			t.Fatalf("%d iterations: the time limit is over: the test no longer tests a share of it", iterations)
		}
	}
}
