package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSentBackOrderSaysTheRoundsRanOut: an order a trip's layout sent
// back in the last routing round a phase has (routingRounds) is left out
// because no round was left to try it, not because time ended: at an
// iteration budget, with the time limit far off, its pallets are
// NOT_PLANNED with a message that says so, and never that planning ended.
// Taken again by a later phase's rounds, it no longer carries that mark.
func TestSentBackOrderSaysTheRoundsRanOut(t *testing.T) {
	req := spareRoomRequest()
	req.Options.TimeLimit = time.Hour
	m, pc, orders, fleet := orderedDay(t, req, time.Now)
	o := orders[1]
	// As acceptRoute leaves the last stop of a trip whose floor cannot
	// take its pallets: loadable alone, counted whole from now on.
	o.reason, o.message, o.laidOutWhole = ReasonLoadLayout, "no room for the last stop", true
	fleet.leaveAfterRounds([]*order{o}, routingRounds)
	if pc.stopped(context.Background()) {
		t.Fatal("the time limit is over: the test no longer tests rounds that ran out in time")
	}
	fleet.unassignLeftOut(m)
	if len(fleet.unassigned) != len(o.pallets) {
		t.Fatalf("%d pallets unassigned; want the order's %d", len(fleet.unassigned), len(o.pallets))
	}
	for _, u := range fleet.unassigned {
		if u.Reason != ReasonNotPlanned || strings.Contains(u.Message, "planning ended") ||
			!strings.Contains(u.Message, "last of the 3 rounds") {
			t.Fatalf("pallet %s: %s %q; want %s saying the routing rounds, not the time, ran out", u.Pallet, u.Reason, u.Message, ReasonNotPlanned)
		}
	}
	if again := fleet.takeLeftOut(routedAgain); len(again) != 1 || again[0].roundsRanOut {
		t.Fatalf("a later phase took %d orders, marked %v; want the order, its rounds begun anew", len(again), len(again) == 1 && again[0].roundsRanOut)
	}
}

// TestRoundWithoutTimeLeavesItsOrdersUnreached: a routing round whose
// time has passed before its search begins routes nothing, and its orders
// are left out as unreached, for routeUnreached, never as orders the
// rounds ran out for: were it the last round of its phase, an order a
// layout sent back before would otherwise say that the rounds, not the
// time, ended, and that a longer limit would not help.
func TestRoundWithoutTimeLeavesItsOrdersUnreached(t *testing.T) {
	req := spareRoomRequest()
	req.Options.TimeLimit = time.Hour
	now := time.Now()
	m, pc, orders, fleet := orderedDay(t, req, func() time.Time { return now })
	o := orders[1]
	o.reason, o.message, o.laidOutWhole = ReasonLoadLayout, "no room for the last stop", true
	past := roundBudget{until: now.Add(-time.Second), streams: 1}
	again, cut, err := routeRound(context.Background(), pc, fleet, orders, past, routingRounds-1)
	if err != nil || len(again) != 0 || !cut {
		t.Fatalf("routeRound gave %d orders back, cut %v, %v; want none back, cut", len(again), cut, err)
	}
	fleet.leaveAfterRounds(again, routingRounds)
	if len(fleet.leftOut) != len(orders) {
		t.Fatalf("%d orders left out; want the %d of the round", len(fleet.leftOut), len(orders))
	}
	for _, lo := range fleet.leftOut {
		if lo.roundsRanOut || !unreached(lo) {
			t.Fatalf("order of store %d left out marked rounds-ran-out %v, unreached %v; want unreached", lo.store, lo.roundsRanOut, unreached(lo))
		}
	}
	fleet.unassignLeftOut(m)
	for _, u := range fleet.unassigned {
		if strings.Contains(u.Message, "rounds") {
			t.Fatalf("pallet %s: %q; the time, not the rounds, ended", u.Pallet, u.Message)
		}
	}
}

// orderedDay checks req, a day of two stores with one order each, and
// returns its model, a plan context on the clock now, its orders and the
// fleet state before routing.
func orderedDay(t *testing.T, req Request, now func() time.Time) (*model, *planContext, []*order, *fleetState) {
	t.Helper()
	if err := req.Check(); err != nil {
		t.Fatal(err)
	}
	m, err := prepare(context.Background(), &req)
	if err != nil {
		t.Fatal(err)
	}
	pc := newPlanContext(m, now(), now)
	orders, unpacked, err := makeOrders(context.Background(), pc)
	if err != nil || len(orders) != 2 {
		t.Fatalf("%d orders (%v); want one a store", len(orders), err)
	}
	return m, pc, orders, newFleetState(m, unpacked)
}
