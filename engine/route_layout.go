package engine

import (
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// acceptRoute lays out the trips of a routing route (a driver's shift) on
// their trailers and keeps them in fleet, with a shift of its group and a
// unit of its trailer type. When a trip's floor cannot take its pallets,
// that trip's last stop goes back (the unloading order makes the last
// stop's pallets the first loaded, at the nose), or when the doors cannot
// unload a stop, that stop moves last or an order goes back
// (door_stops.go), and the shift is timed again, until every trip's
// layout succeeds or no stop is left. It returns the orders sent back.
func acceptRoute(m *model, fleet *fleetState, r *routing, rr routeplan.Route, pool []*order) []*order {
	kind, typ := r.kinds[rr.VehicleType], rr.VehicleType
	var back []*order
	moved := map[int]bool{} // sites of stops moved last for the doors (door_stops.go)
	for len(rr.Visits) > 0 {
		trips, bad, err := m.buildTrips(kind, rr, pool)
		if err == nil {
			orders := make([][]*order, len(trips))
			for k, trip := range splitTrips(rr) {
				for _, v := range trip.Visits {
					orders[k] = append(orders[k], pool[v.Site])
				}
			}
			unitsFit := fleet.unitsFit(m, kind.trailer, trips, nil)
			if !unitsFit || !fleet.doorsFit(m, trips, nil) {
				// Laid out, the trips hold their units or doors longer
				// than routing timed them: the orders go back to routing.
				reason := ReasonFleetExhausted
				if unitsFit {
					reason = ReasonDockCapacity
				}
				for _, os := range orders {
					for _, o := range os {
						setReason(o, reason)
						back = append(back, o)
					}
				}
				return back
			}
			fleet.keepShift(m, trips, kind, orders)
			return back
		}
		trip := splitTrips(rr)[bad]
		lastVisit := trip.Visits[len(trip.Visits)-1]
		if i, why, ok := stuckPallet(err); ok { // door_stops.go: a stop the doors cannot unload
			vi := visitOfPallet(trip, pool, i)
			if later, ok := r.stopLast(typ, rr, bad, vi, pool, moved); ok {
				rr = later
				continue
			}
			back := doorBlocker(trip, pool, vi)
			lastVisit = trip.Visits[back]
			m.noteDoorTrouble(trip, pool, kind.trailer, back, why)
		}
		last := pool[lastVisit.Site]
		last.reason, last.message, last.laidOutWhole = ReasonLoadLayout, err.Error(), true
		back = append(back, last)
		sites := slices.DeleteFunc(routeSites(rr), func(s int) bool { return s == lastVisit.Site })
		// Fewer stops take less time and end sooner: time the shift again.
		// A shorter shift of a feasible one is feasible but for the break
		// rule on a new leg; drop more stops if need be.
		rr = routeplan.Route{}
		for hasVisit(sites) {
			t, ok := r.timeRoute(typ, sites)
			if ok {
				rr = t
				break
			}
			k := lastVisitIndex(sites)
			o := pool[sites[k]]
			o.reason, o.message = ReasonShiftLimit, ""
			back = append(back, o)
			sites = slices.Delete(sites, k, k+1)
		}
	}
	return back
}

// hasVisit reports whether sites (as routeSites lists them) has a site
// beside its reloads.
func hasVisit(sites []int) bool { return lastVisitIndex(sites) >= 0 }

// lastVisitIndex is the index of the last site of sites that is not a
// reload, -1 when there is none.
func lastVisitIndex(sites []int) int {
	for k := len(sites) - 1; k >= 0; k-- {
		if sites[k] != routeplan.ReloadSite {
			return k
		}
	}
	return -1
}

// buildRoute turns a routing route into a route with stops, times, a floor
// layout and metrics, computed from the routing schedule and the layout.
// It fails when the trailer's floor cannot take the pallets.
func (m *model) buildRoute(kind vehicleKind, rr routeplan.Route, pool []*order) (*Route, error) {
	req := m.req
	tt := req.Fleet[kind.trailer]
	r := &Route{Trailer: tt.ID, Depart: m.instant(rr.Depart), Return: m.instant(rr.Return)}
	var lp []loadplan.Pallet
	var load constraints.Load
	// A leg's driving is the time from leaving to arriving, which under
	// rush hours depends on when the leg starts.
	prev, left := 0, r.Depart
	for _, vis := range rr.Visits {
		o := pool[vis.Site]
		sid := req.Stores[o.store].ID
		if n := len(r.Stops); n > 0 && r.Stops[n-1].Store == sid {
			// Two orders of one store back to back are one stop.
			r.Stops[n-1].Departure = m.instant(vis.Departure)
			left = r.Stops[n-1].Departure
		} else {
			arr, start := m.instant(vis.Arrival), m.instant(vis.Start)
			r.Stops = append(r.Stops, Stop{Store: sid, Arrival: arr, Start: start, Departure: m.instant(vis.Departure), Wait: start.Sub(arr)})
			d, _ := m.travel(prev, 1+o.store)
			r.Metrics.DistanceM += d
			r.Metrics.Driving += arr.Sub(left)
			r.Metrics.Wait += start.Sub(arr)
			prev, left = 1+o.store, m.instant(vis.Departure)
		}
		k := len(r.Stops) - 1
		for _, pi := range o.pallets {
			p := req.Pallets[pi]
			r.Stops[k].Pallets = append(r.Stops[k].Pallets, p.ID)
			lp = append(lp, layoutPallet(p, k))
			load = load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
	}
	d, _ := m.travel(prev, 0)
	r.Metrics.DistanceM += d
	r.Metrics.Driving += r.Return.Sub(left)

	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lp, len(r.Stops))
	if err != nil {
		return nil, err
	}
	r.Load = fromLayout(lay)
	rm := &r.Metrics
	rm.Stops, rm.Pallets = len(r.Stops), len(lp)
	rm.WeightKg, rm.VolumeM3 = load.WeightKg, load.VolumeM3
	rm.Positions = lay.Load.Positions
	m.tripTimes(r, m.instant(rr.Start), len(lp), rr.LoadingStarts)
	rm.Duration = r.Return.Sub(r.Start)
	rm.PosUtil, rm.WeightUtil, rm.VolumeUtil = constraints.Load{Positions: rm.Positions, WeightKg: load.WeightKg, VolumeM3: load.VolumeM3}.Utilisation(tt.capacity())
	rm.Cost = tt.Costs.Route(rm.DistanceM, rm.Duration)
	return r, nil
}

// tripTimes sets the times of trip r, n pallets, before its departure:
// the driver comes on duty for the trip at start, when routing's start
// service (the hook-up) begins, and the loading ends then, the DC's
// loading time after it starts, or starts earlier where routing loaded
// it ahead (loadFrom, routing's loading start of the trip, when it is
// earlier: the dock doors were all loading then). placeLoadings moves a
// loading into the dock hours, within the staging limit.
func (m *model) tripTimes(r *Route, start time.Time, n int, loadFrom []float64) {
	loading := m.req.DC.LoadingTime(n)
	r.Start = start
	r.LoadingEnd = r.Start
	r.LoadingStart = r.LoadingEnd.Add(-loading)
	if len(loadFrom) == 1 {
		if at := m.instant(loadFrom[0]); at.Before(r.LoadingStart) {
			r.LoadingStart, r.LoadingEnd = at, at.Add(loading)
		}
	}
}

func fromLayout(l *loadplan.Layout) LoadPlan {
	var lp LoadPlan
	for _, z := range l.Zones {
		lp.Zones = append(lp.Zones, Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for _, p := range l.Placements {
		lp.Placements = append(lp.Placements, Placement{Pallet: p.Pallet, Row: p.Row, Side: p.Side.String(), Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level, Slot: p.Slot})
	}
	for _, a := range l.Axles {
		lp.Axles = append(lp.Axles, AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lp
}
