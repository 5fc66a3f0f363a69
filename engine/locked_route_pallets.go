package engine

import (
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

// A locked route that has not departed (Lock.departed) takes late pallets
// of the stores it visits where its floor has room without moving a
// placed pallet (loadplan.AddPallets): its trailer, door, stops and their
// order and its layout stay; the pallets ride in space the layout left
// free, on the free side of a row, in a position shared with half
// pallets, in a new row at the door end, or on a pallet that may carry
// them. The times move as the added pallets make them, and no further:
//
//   - its loading starts when it did and ends later by the added pallets'
//     loading (DC.LoadingPerPallet each);
//   - the driver comes on duty and departs later by the part of that the
//     trailer's wait in the yard before the hook-up does not absorb;
//   - each stop moves later by that plus the unloading added at the stops
//     before it (Unloading.PerPallet a pallet), its departure also by its
//     own, and the return by all of it;
//   - the return moves by at most the change tolerance
//     (Options.ChangeTolerance), so that no stop on the driver's paper
//     moves by more than a dispatcher tolerates, and every rule of the
//     request still holds beside the other locked routes (store hours,
//     shift and hours of service, the trailer unit and the dock door).
//
// Pallets that do not fit so ride other routes. Validate (checkLocks)
// holds a locked route to exactly this.

// gainLatePallets lets the locked routes (m.fixed) that have not departed
// take late pallets of their stores, as above, route by route in the
// previous plan's order and stop by stop, and marks the pallets taken
// kept. A late pallet is one of the request that no route of the previous
// plan carried.
func (m *model) gainLatePallets() {
	req := m.req
	onPrevious := map[string]bool{}
	for _, r := range req.Previous.Routes {
		for _, st := range r.Stops {
			for _, id := range st.Pallets {
				onPrevious[id] = true
			}
		}
	}
	late := map[string][]int{}
	for pi, p := range req.Pallets {
		if !onPrevious[p.ID] && !m.kept[pi] {
			late[p.Store] = append(late[p.Store], pi)
		}
	}
	if len(late) == 0 {
		return
	}
	for k := range m.fixed {
		r := &m.fixed[k]
		if req.Lock.departed(r) || !slices.ContainsFunc(r.Stops, func(st Stop) bool { return len(late[st.Store]) > 0 }) {
			continue
		}
		gained, ok := m.withLatePallets(k, late)
		if !ok {
			continue
		}
		m.fixed[k] = gained
		for _, st := range gained.Stops {
			for _, id := range st.Pallets {
				pi := m.pallet[id]
				if !m.kept[pi] {
					m.kept[pi] = true
					late[st.Store] = slices.DeleteFunc(late[st.Store], func(x int) bool { return x == pi })
				}
			}
		}
	}
}

// latePallet is a late pallet a locked route takes, at its stop.
type latePallet struct{ stop, pallet int }

// withLatePallets is locked route m.fixed[k] with as many of its stores'
// late pallets (late, by store) as its floor and times allow, and whether
// it takes any: pallets are added stop by stop while the floor has room
// and the times stay within the tolerance; of those, the most that keep
// every rule beside the other locked routes.
func (m *model) withLatePallets(k int, late map[string][]int) (Route, bool) {
	req := m.req
	was := m.fixed[k]
	ti, ok := m.trailer[was.Trailer]
	if !ok {
		return Route{}, false
	}
	t := req.Fleet[ti]
	tr := layoutTrailer(t)
	var placed []loadplan.Pallet
	for i, st := range was.Stops {
		for _, id := range st.Pallets {
			placed = append(placed, layoutPallet(req.Pallets[m.pallet[id]], i))
		}
	}
	lay := toLayout(was.Load)
	tol := m.changeTolerance()
	var taken []latePallet
	layouts := []*loadplan.Layout{lay} // after each pallet taken
	for i, st := range was.Stops {
		s, ok := m.store[st.Store]
		if !ok {
			continue
		}
		for _, pi := range late[st.Store] {
			p := req.Pallets[pi]
			if !m.fits(p, t, s) {
				continue
			}
			if _, _, moved := m.gainShifts(&was, slices.Concat(taken, []latePallet{{i, pi}})); moved > tol {
				break // the next pallets of this stop move the times as much
			}
			lp := layoutPallet(p, i)
			next, added := loadplan.AddPallets(tr, placed, len(was.Stops), lay, []loadplan.Pallet{lp})
			if len(added) == 0 {
				continue
			}
			lay, placed = next, append(placed, lp)
			taken = append(taken, latePallet{i, pi})
			layouts = append(layouts, lay)
		}
	}
	others := m.sharingResources(k)
	for n := len(taken); n > 0; n-- {
		r := m.gainedRoute(&was, taken[:n], layouts[n])
		vs, err := validateRoutes(req, append(others, r))
		if err == nil && len(vs) == 0 {
			return r, true
		}
	}
	return Route{}, false
}

// sharingResources are the locked routes other than m.fixed[k] that share
// its shift, trailer unit or dock door: those whose rules its new times
// may break.
func (m *model) sharingResources(k int) []Route {
	r := m.fixed[k]
	var out []Route
	for j, o := range m.fixed {
		if j != k && (o.Shift == r.Shift || o.TrailerUnit == r.TrailerUnit || o.DockDoor == r.DockDoor) {
			out = append(out, o)
		}
	}
	return out
}

// gainShifts is how far the pallets taken move route was's times: the
// loading's end (the added loading), the driver's start and departure
// (the part of it the yard wait does not absorb), and the return (that
// and all the added unloading).
func (m *model) gainShifts(was *Route, taken []latePallet) (loadingEnd, depart, ret time.Duration) {
	req := m.req
	loadingEnd = time.Duration(len(taken)) * req.DC.LoadingPerPallet
	depart = max(0, was.LoadingEnd.Add(loadingEnd).Sub(was.Start))
	ret = depart
	for _, g := range taken {
		if s, ok := m.store[was.Stops[g.stop].Store]; ok {
			ret += req.Stores[s].Unloading.PerPallet
		}
	}
	return loadingEnd, depart, ret
}

// gainedRoute is locked route was with the pallets taken, laid out as lay
// (was's layout with them added), and its times moved as they make them.
func (m *model) gainedRoute(was *Route, taken []latePallet, lay *loadplan.Layout) Route {
	req := m.req
	r := cloneRoute(*was)
	loadingEnd, depart, _ := m.gainShifts(was, taken)
	r.LoadingEnd = r.LoadingEnd.Add(loadingEnd)
	r.Start, r.Depart = r.Start.Add(depart), r.Depart.Add(depart)
	var load constraints.Load
	shift := depart
	for i := range r.Stops {
		st := &r.Stops[i]
		s := m.store[st.Store]
		n := 0
		for _, g := range taken {
			if g.stop == i {
				p := req.Pallets[g.pallet]
				st.Pallets = append(st.Pallets, p.ID)
				load = load.Add(constraints.Load{WeightKg: p.WeightKg, VolumeM3: p.volume()})
				n++
			}
		}
		u := time.Duration(n) * req.Stores[s].Unloading.PerPallet
		st.Arrival, st.Start, st.Departure = st.Arrival.Add(shift), st.Start.Add(shift), st.Departure.Add(shift+u)
		if b := st.Break; b != nil {
			b.Start, b.Duration = st.Arrival, st.Departure.Sub(st.Arrival)
			b.Unloading = req.Stores[s].Unloading.Time(len(st.Pallets))
			b.Rest = b.Duration - b.Wait - b.Unloading
		}
		shift += u
	}
	r.Return = r.Return.Add(shift)
	r.Load = fromLayout(lay)
	t := req.Fleet[m.trailer[r.Trailer]]
	rm := &r.Metrics
	rm.Pallets += len(taken)
	rm.WeightKg += load.WeightKg
	rm.VolumeM3 += load.VolumeM3
	rm.Positions = lay.Load.Positions
	rm.Duration = r.Return.Sub(r.Start)
	rm.PosUtil, rm.WeightUtil, rm.VolumeUtil = constraints.Load{Positions: rm.Positions, WeightKg: rm.WeightKg, VolumeM3: rm.VolumeM3}.Utilisation(t.capacity())
	rm.Cost = t.Costs.Route(rm.DistanceM, rm.Duration)
	return r
}

// toLayout is a route's load plan as package loadplan has it (fromLayout
// the other way).
func toLayout(lp LoadPlan) *loadplan.Layout {
	lay := &loadplan.Layout{}
	for _, z := range lp.Zones {
		lay.Zones = append(lay.Zones, loadplan.Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for _, p := range lp.Placements {
		side, _ := loadplan.ParseSide(p.Side)
		lay.Placements = append(lay.Placements, loadplan.Placement{Pallet: p.Pallet, Row: p.Row, Side: side, Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level, Slot: p.Slot})
	}
	for _, a := range lp.Axles {
		lay.Axles = append(lay.Axles, loadplan.AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lay
}
