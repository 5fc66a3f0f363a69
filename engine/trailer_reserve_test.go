package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// reserveDay is a day of 20 stores near the DC, each with ambient and
// chilled orders of one pallet, for drivers 12 h shifts from 04:00, vans
// dry vans and reefers reefers of 30 positions, and stores receiving over
// receiving (UTC, every day).
func reserveDay(t *testing.T, drivers, vans, reefers int, receiving [2]string, ambient, chilled int) (*model, []*order) {
	t.Helper()
	req := packingRequest(20, drivers, []TrailerType{packingTrailer("VAN", constraints.DryVan, vans), packingTrailer("REEF", constraints.Reefer, reefers)})
	for i := range req.Stores {
		req.Stores[i].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: dailyOpenings(receiving[0], receiving[1])}
	}
	for s := range req.Stores {
		for k := range ambient + chilled {
			class := constraints.Ambient
			if k >= ambient {
				class = constraints.Chilled
			}
			addPallets(&req, req.Stores[s].ID, class, 1)
		}
	}
	if err := req.Check(); err != nil {
		t.Fatalf("setup: %v", err)
	}
	m, err := prepare(context.Background(), &req)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	var pool []*order
	for pi, p := range req.Pallets {
		o := &order{store: m.store[p.Store], class: p.Temperature, pallets: []int{pi}, load: constraints.Load{Positions: 1, WeightKg: p.WeightKg},
			trailers: []bool{p.Temperature == constraints.Ambient, true}}
		pool = append(pool, o)
	}
	return m, pool
}

// preferred counts, by class, the orders kept to the dry vans alone and
// those left free to ride any compatible trailer.
func preferred(pool []*order) (kept, free map[constraints.Temperature]int) {
	kept, free = map[constraints.Temperature]int{}, map[constraints.Temperature]int{}
	for _, o := range pool {
		switch {
		case o.prefer == nil:
			free[o.class]++
		case o.prefer[0] && !o.prefer[1]:
			kept[o.class]++
		default:
			panic(fmt.Sprintf("order of %v preferring %v", o.class, o.prefer))
		}
	}
	return kept, free
}

// largeDay is reserveDay with 75 ambient and 30 chilled orders a store,
// 2,100 orders in all (the reservation acts from reserveMinOrders on),
// and units dry vans and units reefers.
func largeDay(t *testing.T, drivers, units int, receiving [2]string) (*model, []*order) {
	t.Helper()
	return reserveDay(t, drivers, units, units, receiving, 75, 30)
}

// TestReserveCountsTurns: 30 dry vans and 30 reefers, loaded once, hold
// 1,800 of the day's 2,100 positions, so units must turn. Stores that
// receive all day let each dry van turn and run several short trips, and
// 40 shifts drive several each, so the 30 dry vans carry the 1,500
// ambient pallets and the ambient freight is kept off the reefers, which
// stay for the chilled freight. Counting each unit and each shift as one
// trip (900 positions, 40 trips for the 70 the freight needs) would keep
// nothing.
func TestReserveCountsTurns(t *testing.T) {
	m, pool := largeDay(t, 40, 30, [2]string{"00:00", "24:00"})
	preferTrailers(m, pool, len(m.req.Shifts))
	kept, free := preferred(pool)
	if kept[constraints.Ambient] != 1500 || free[constraints.Chilled] != 600 {
		t.Fatalf("kept to dry vans %v, free %v; want the 1500 ambient kept, the 600 chilled free", kept, free)
	}
}

// TestReserveCountsUnitsOnceWhenTheyHoldTheDay: 40 dry vans and 40
// reefers, loaded once, hold 2,400 positions, room for the day's 2,100
// (the dry vans 1,200 of the 1,500 ambient, the reefers the rest beside
// the 600 chilled): no unit need turn, so each counts one trip, as on a
// day without turns, though the stores receive all day and a van could
// run several. The dry vans then lack reserveSlack's room for the
// ambient freight, which keeps the reefers too: nothing is restricted.
// Counting turns here would keep the 1,500 ambient orders to 40 vans
// that the first round need not turn (dcday's standard 5,000-store day).
func TestReserveCountsUnitsOnceWhenTheyHoldTheDay(t *testing.T) {
	m, pool := largeDay(t, 40, 40, [2]string{"00:00", "24:00"})
	preferTrailers(m, pool, len(m.req.Shifts))
	if kept, _ := preferred(pool); len(kept) != 0 {
		t.Fatalf("kept to dry vans %v; want nothing kept: the units hold the day loaded once", kept)
	}
}

// TestReserveOneTripADay: stores that receive from 04:00 to 06:00 leave
// each unit and each shift one trip in the day, so the dry vans (900
// positions) cannot carry the ambient freight alone, and it keeps the
// reefers too: nothing is restricted.
func TestReserveOneTripADay(t *testing.T) {
	m, pool := largeDay(t, 200, 30, [2]string{"04:00", "06:00"})
	preferTrailers(m, pool, len(m.req.Shifts))
	if kept, _ := preferred(pool); len(kept) != 0 {
		t.Fatalf("kept to dry vans %v; want nothing kept: the dry vans run once", kept)
	}
}

// TestReserveNeedsDriversTrips: units must turn, and five shifts drive
// several trips each, but fewer than 1.15 × the 70 trailer loads of the
// day's freight, so nothing is restricted: trips kept to some trailers
// may need more of them.
func TestReserveNeedsDriversTrips(t *testing.T) {
	m, pool := largeDay(t, 5, 30, [2]string{"00:00", "24:00"})
	preferTrailers(m, pool, len(m.req.Shifts))
	if kept, _ := preferred(pool); len(kept) != 0 {
		t.Fatalf("kept to dry vans %v; want nothing kept with 5 shifts", kept)
	}
}

// TestReserveLeavesSmallDays: a day of 400 orders, fewer than
// reserveMinOrders, is left to the search, whether its 5 dry vans and 5
// reefers, loaded once, hold only 300 of its 400 positions (the units
// must turn) or its 20 of each hold them all: nothing is restricted,
// though counting turns the dry vans would carry the ambient freight.
func TestReserveLeavesSmallDays(t *testing.T) {
	allDay := [2]string{"00:00", "24:00"}
	for _, units := range []int{5, 20} {
		m, pool := reserveDay(t, 40, units, units, allDay, 15, 5)
		preferTrailers(m, pool, len(m.req.Shifts))
		if kept, _ := preferred(pool); len(kept) != 0 {
			t.Fatalf("%d units of each: kept to dry vans %v; want nothing kept on a small day", units, kept)
		}
	}
}
