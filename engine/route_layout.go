package engine

import (
	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// acceptRoute lays out a routing route on its trailer and keeps it in fleet,
// with a shift of its group and a unit of its trailer type. When the floor
// cannot take the route's pallets, its last stop goes back (the unloading
// order makes the last stop's pallets the first loaded, at the nose) and
// the rest is timed again, until a layout succeeds or no stop is left. It
// returns the orders sent back.
func acceptRoute(m *model, fleet *fleetState, r *routing, rr routeplan.Route, pool []*order) []*order {
	kind := r.kinds[rr.VehicleType]
	var back []*order
	for len(rr.Visits) > 0 {
		route, err := m.buildRoute(kind, rr, pool)
		if err == nil {
			var orders []*order
			for _, v := range rr.Visits {
				orders = append(orders, pool[v.Site])
			}
			fleet.keepRoute(m, route, kind, orders)
			return back
		}
		last := pool[rr.Visits[len(rr.Visits)-1].Site]
		last.reason, last.message = ReasonLoadLayout, err.Error()
		back = append(back, last)
		sites := make([]int, len(rr.Visits)-1)
		for k := range sites {
			sites[k] = rr.Visits[k].Site
		}
		if len(sites) == 0 {
			break
		}
		// Fewer stops take less loading and end sooner: time them again.
		// A shorter route of a feasible one is feasible but for the
		// break rule on the new last leg; drop more stops if need be.
		for len(sites) > 0 {
			t, ok := r.timeRoute(rr.VehicleType, sites)
			if ok {
				rr = t
				break
			}
			o := pool[sites[len(sites)-1]]
			o.reason, o.message = ReasonShiftLimit, ""
			back = append(back, o)
			sites = sites[:len(sites)-1]
		}
		if len(sites) == 0 {
			break
		}
	}
	return back
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
	prev := 0
	for _, vis := range rr.Visits {
		o := pool[vis.Site]
		sid := req.Stores[o.store].ID
		if n := len(r.Stops); n > 0 && r.Stops[n-1].Store == sid {
			// Two orders of one store back to back are one stop.
			r.Stops[n-1].Departure = m.instant(vis.Departure)
		} else {
			arr, start := m.instant(vis.Arrival), m.instant(vis.Start)
			r.Stops = append(r.Stops, Stop{Store: sid, Arrival: arr, Start: start, Departure: m.instant(vis.Departure), Wait: start.Sub(arr)})
			d, dur := m.travel(prev, 1+o.store)
			r.Metrics.DistanceM += d
			r.Metrics.Driving += dur
			r.Metrics.Wait += start.Sub(arr)
			prev = 1 + o.store
		}
		k := len(r.Stops) - 1
		for _, pi := range o.pallets {
			p := req.Pallets[pi]
			r.Stops[k].Pallets = append(r.Stops[k].Pallets, p.ID)
			lp = append(lp, layoutPallet(p, k))
			load = load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
	}
	d, dur := m.travel(prev, 0)
	r.Metrics.DistanceM += d
	r.Metrics.Driving += dur

	lay, err := loadplan.PlanTrailer(layoutTrailer(tt), lp, len(r.Stops))
	if err != nil {
		return nil, err
	}
	r.Load = fromLayout(lay)
	rm := &r.Metrics
	rm.Stops, rm.Pallets = len(r.Stops), len(lp)
	rm.WeightKg, rm.VolumeM3 = load.WeightKg, load.VolumeM3
	rm.Positions = lay.Load.Positions
	m.tripTimes(r, len(lp))
	rm.Duration = r.Return.Sub(r.Start)
	rm.PosUtil, rm.WeightUtil, rm.VolumeUtil = constraints.Load{Positions: rm.Positions, WeightKg: load.WeightKg, VolumeM3: load.VolumeM3}.Utilisation(tt.capacity())
	rm.Cost = tt.Costs.Route(rm.DistanceM, rm.Duration)
	return r, nil
}

// tripTimes sets the times of trip r, n pallets, before its departure:
// the driver hooks up for the DC's hook time before departing (Start),
// and loading ends as the hook-up begins, the DC's loading time after it
// starts. Routing's start service, loading and hook-up together, began
// no later than this loading starts.
func (m *model) tripTimes(r *Route, n int) {
	r.Start = r.Depart.Add(-m.req.HookTime())
	r.LoadingEnd = r.Start
	r.LoadingStart = r.LoadingEnd.Add(-m.req.DC.LoadingTime(n))
}

func fromLayout(l *loadplan.Layout) LoadPlan {
	var lp LoadPlan
	for _, z := range l.Zones {
		lp.Zones = append(lp.Zones, Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for _, p := range l.Placements {
		lp.Placements = append(lp.Placements, Placement{Pallet: p.Pallet, Row: p.Row, Side: p.Side.String(), Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level})
	}
	for _, a := range l.Axles {
		lp.Axles = append(lp.Axles, AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lp
}
