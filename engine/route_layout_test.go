package engine

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// loneHalvesRequest: three stores that receive one after the other (S0
// until 06:00, S1 from 06:00 to 10:00, S2 from 10:00), on 10-position dry
// vans (two units, two drivers from 04:00). S0 has four pallets and a half, S1
// three pallets, S2 two pallets and a half. Routing counts each lone half
// as half a position (its layout may pair it with another stop's), so one
// trailer takes all three stores by its count: 4.5 + 3 + 2.5. On the floor
// the two halves cannot share a position, since S1's pallets stand between
// their stops: the three stores take 11 positions and the route's last
// stop goes back to routing.
func loneHalvesRequest() Request {
	req := packingRequest(3, 2, []TrailerType{dryVan(2, 10)})
	req.Options.Objective = FewestTrailers
	opening := [][2]string{{"00:00", "06:00"}, {"06:00", "10:00"}, {"10:00", "24:00"}}
	for i := range req.Stores {
		for d := range req.Stores[i].Hours.Days {
			req.Stores[i].Hours.Days[d] = []constraints.Opening{{Open: opening[i][0], Close: opening[i][1]}}
		}
	}
	add := func(store string, full int, half bool) {
		for range full {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-P%d", store, len(req.Pallets)), Store: store,
				WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
		}
		if half {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-H%d", store, len(req.Pallets)), Store: store,
				WeightKg: 200, Footprint: HalfFootprint, HeightMM: 1200, Temperature: constraints.Ambient})
		}
	}
	add("S0", 4, true)
	add("S1", 3, false)
	add("S2", 2, true)
	return req
}

// offsetClock is the wall clock moved ahead by offset nanoseconds.
type offsetClock struct{ offset atomic.Int64 }

func (c *offsetClock) now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// TestLayoutSentBackOrderIsRoutedAgain: when the first routing round's
// route cannot be laid out and the time for routing rounds ends with it
// (the clock jumps to the last fortieth of the limit, past the rounds'
// share and before the closing steps), the order its layout sent back is
// still planned: it is loadable alone, and the trailer and driver left
// carry it. Before, it stayed unassigned as LOAD_LAYOUT.
func TestLayoutSentBackOrderIsRoutedAgain(t *testing.T) {
	req := loneHalvesRequest()
	clock := &offsetClock{}
	sentBack := false
	req.Options.Progress = func(p Progress) {
		if p.Phase == PhaseLayouts && p.Round == 1 {
			sentBack = p.Routes == 1
			clock.offset.Store(int64(p.Limit*39/40 - p.Elapsed))
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
		t.Fatalf("the first round kept other than one route: the request no longer sends a stop back")
	}
	if len(plan.Unassigned) > 0 {
		u := plan.Unassigned[0]
		t.Fatalf("%d pallets unassigned, first %s %s (%s); want every pallet delivered", len(plan.Unassigned), u.Pallet, u.Reason, u.Message)
	}
}
