package engine

// This file holds the planner's own acceptance check of its routes: the
// validator as it was before Validate got code of its own. plan.go still
// calls model.validate and model.checkRoute; the planner is being rewritten
// to call Validate instead, and this file goes away with that change.
// Validate never calls anything here.

import (
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
)

func (m *model) validate(plan *Result) constraints.Violations {
	var vs constraints.Violations
	req := m.req
	delivered := make([]string, len(req.Pallets)) // path where each pallet was delivered
	shiftUsed := make([]string, len(req.Shifts))
	trailerUsed := make([]int, len(req.Fleet))
	routeIDs := map[string]bool{}
	var routed []int // pallets delivered by routes, each once
	var tot Metrics
	var utilSum float64

	for ri := range plan.Routes {
		r := &plan.Routes[ri]
		path := constraints.Index("routes", ri)
		if routeIDs[r.ID] {
			vs.Add(CodeDuplicateRoute, path+".id", "route id %q is used twice", r.ID)
		}
		routeIDs[r.ID] = true
		if ti, ok := m.trailer[r.Trailer]; ok {
			trailerUsed[ti]++
			if trailerUsed[ti] == req.Fleet[ti].Count+1 {
				vs.Add(CodeFleetCount, path+".trailer", "more routes on trailer type %q than its count of %d", r.Trailer, req.Fleet[ti].Count)
			}
		}
		if si, ok := m.shift[r.Shift]; ok {
			if shiftUsed[si] != "" {
				vs.Add(CodeShiftReused, path+".shift", "shift %q already drives %s", r.Shift, shiftUsed[si])
			} else {
				shiftUsed[si] = path
			}
		}
		for k, st := range r.Stops {
			for j, id := range st.Pallets {
				pi, ok := m.pallet[id]
				if !ok {
					continue // checkRoute reports it
				}
				ppath := constraints.Index(constraints.Index(path+".stops", k)+".pallets", j)
				if delivered[pi] != "" {
					vs.Add(CodePalletTwice, ppath, "pallet %q is already delivered at %s", id, delivered[pi])
					continue
				}
				delivered[pi] = ppath
				routed = append(routed, pi)
			}
		}
		rm, rvs := m.checkRoute(r, path)
		vs = append(vs, rvs...)
		vs = append(vs, compareRouteMetrics(path+".metrics", r.Metrics, rm)...)

		tot.Routes++
		tot.Stops += rm.Stops
		tot.Pallets += rm.Pallets
		tot.DistanceM += rm.DistanceM
		tot.Duration += rm.Duration
		tot.Driving += rm.Driving
		tot.Wait += rm.Wait
		tot.Cost += rm.Cost
		utilSum += rm.PosUtil
	}

	for i, u := range plan.Unassigned {
		path := constraints.Index("unassigned", i)
		pi, ok := m.pallet[u.Pallet]
		if !ok {
			vs.Add(CodeUnknownPallet, path+".pallet", "no pallet %q", u.Pallet)
			continue
		}
		if !reasons[u.Reason] {
			vs.Add(CodeUnknownReason, path+".reason", "unknown reason %q", u.Reason)
		}
		if delivered[pi] != "" {
			vs.Add(CodePalletTwice, path+".pallet", "pallet %q is already accounted for at %s", u.Pallet, delivered[pi])
			continue
		}
		delivered[pi] = path
	}
	for i, p := range req.Pallets {
		if delivered[i] == "" {
			vs.Add(CodePalletMissing, "unassigned", "pallet %q (pallets[%d]) is neither delivered nor listed as unassigned", p.ID, i)
		}
	}

	tot.Unassigned = len(plan.Unassigned)
	tot.TrailersLowerBound = m.trailerBound(routed)
	if tot.Routes > 0 {
		tot.PosUtil = utilSum / float64(tot.Routes)
	}
	vs = append(vs, compareMetrics("metrics", plan.Metrics, tot)...)
	return vs
}

// checkRoute checks one route on its own (everything but the resources and
// pallets it shares with other routes) and recomputes its metrics.
func (m *model) checkRoute(r *Route, path string) (RouteMetrics, constraints.Violations) {
	var vs constraints.Violations
	req := m.req
	ti, okT := m.trailer[r.Trailer]
	if !okT {
		vs.Add(CodeUnknownTrailer, path+".trailer", "no trailer type %q", r.Trailer)
	}
	si, okS := m.shift[r.Shift]
	if !okS {
		vs.Add(CodeUnknownShift, path+".shift", "no shift %q", r.Shift)
	}
	if len(r.Stops) == 0 {
		vs.Add(CodeEmptyRoute, path+".stops", "a route must visit at least one store")
	}

	// Pallets: each known, delivered at the stop of its own store, once.
	var lpPallets []loadplan.Pallet
	var classes []constraints.Temperature
	var load constraints.Load
	for k, st := range r.Stops {
		spath := constraints.Index(path+".stops", k)
		sIdx, okStore := m.store[st.Store]
		if !okStore {
			vs.Add(CodeUnknownStore, spath+".store", "no store %q", st.Store)
		}
		if len(st.Pallets) == 0 {
			vs.Add(CodeEmptyStopOnLoad, spath+".pallets", "a stop must deliver at least one pallet")
		}
		for j, id := range st.Pallets {
			ppath := constraints.Index(spath+".pallets", j)
			pi, ok := m.pallet[id]
			if !ok {
				vs.Add(CodeUnknownPallet, ppath, "no pallet %q", id)
				continue
			}
			p := req.Pallets[pi]
			if okStore && p.Store != st.Store {
				vs.Add(CodeWrongStore, ppath, "pallet %q belongs to store %q, not %q", id, p.Store, st.Store)
			}
			lpPallets = append(lpPallets, layoutPallet(p, k))
			classes = append(classes, p.Temperature)
			load = load.Add(constraints.Load{Positions: 1, WeightKg: p.WeightKg, VolumeM3: p.volume()})
		}
		if okT && okStore {
			if lim := req.Stores[sIdx].MaxTrailerLengthMM; lim > 0 && req.Fleet[ti].nominalLength() > lim {
				vs.Add(CodeTrailerTooLong, spath+".store", "trailer type %q is %d mm long, store %q takes at most %d mm", r.Trailer, req.Fleet[ti].nominalLength(), st.Store, lim)
			}
		}
	}
	if okT && !req.Fleet[ti].Equipment.CarriesTogether(classes) {
		vs.Add(CodeTemperature, path+".trailer", "a %s cannot carry this mix of temperature classes on one trip", req.Fleet[ti].Equipment.Kind)
	}

	// Times, travel and hours of service.
	rm := RouteMetrics{Stops: len(r.Stops), Pallets: len(lpPallets), WeightKg: load.WeightKg, VolumeM3: load.VolumeM3}
	var legs []constraints.Leg
	if okS {
		sh := req.Shifts[si]
		if r.Start.Before(sh.Start) {
			vs.Add(CodeShiftWindow, path+".start", "loading starts %s, before shift %q starts at %s", ts(r.Start), sh.ID, ts(sh.Start))
		}
		if r.Return.After(sh.End) {
			vs.Add(CodeShiftWindow, path+".return", "returns %s, after shift %q ends at %s", ts(r.Return), sh.ID, ts(sh.End))
		}
	}
	if !m.dockOpen(r.Start) {
		vs.Add(CodeDockHours, path+".start", "loading starts %s, outside the DC's dock hours", ts(r.Start))
	}
	if need := m.loading(len(lpPallets)); r.Depart.Sub(r.Start) < need {
		vs.Add(CodeLoadingTime, path+".depart", "departs %v after loading starts; loading %d pallets takes %v", r.Depart.Sub(r.Start), len(lpPallets), need)
	}
	prevLoc, prevDep, prevPath := 0, r.Depart, path+".depart"
	for k, st := range r.Stops {
		spath := constraints.Index(path+".stops", k)
		sIdx, ok := m.store[st.Store]
		if !ok {
			prevLoc = -1
			continue
		}
		if prevLoc >= 0 {
			d, dur := m.travel(prevLoc, 1+sIdx)
			rm.DistanceM += d
			rm.Driving += constraints.Duration(dur)
			if want := prevDep.Add(dur); !st.Arrival.Equal(want) {
				vs.Add(CodeTravelTime, spath+".arrival", "arrives %s; leaving %s at %s with %v of travel arrives %s", ts(st.Arrival), prevPath, ts(prevDep), dur, ts(want))
			}
			legs = append(legs, constraints.Leg{Depart: prevDep, Arrive: prevDep.Add(dur)})
		}
		if st.Start.Before(st.Arrival) {
			vs.Add(CodeEarlyStart, spath+".start", "unloading starts %s, before arrival at %s", ts(st.Start), ts(st.Arrival))
		}
		if !constraints.AnyContains(m.storeWin[sIdx], st.Start) {
			vs.Add(CodeOpeningHours, spath+".start", "unloading starts %s, outside store %q's receiving hours", ts(st.Start), st.Store)
		}
		if wait := st.Start.Sub(st.Arrival); st.Wait.D() != wait {
			vs.Add(CodeMetric, spath+".wait", "reports a wait of %v, arrival to start is %v", st.Wait, wait)
		}
		if w := st.Start.Sub(st.Arrival); w > 0 {
			rm.Wait += constraints.Duration(w)
		}
		if need := m.service(sIdx, len(st.Pallets)); st.Departure.Sub(st.Start) < need {
			vs.Add(CodeServiceTime, spath+".departure", "leaves %v after unloading starts; unloading %d pallets takes %v", st.Departure.Sub(st.Start), len(st.Pallets), need)
		}
		prevLoc, prevDep, prevPath = 1+sIdx, st.Departure, spath+".departure"
	}
	if prevLoc >= 0 && len(r.Stops) > 0 {
		d, dur := m.travel(prevLoc, 0)
		rm.DistanceM += d
		rm.Driving += constraints.Duration(dur)
		if want := prevDep.Add(dur); !r.Return.Equal(want) {
			vs.Add(CodeTravelTime, path+".return", "returns %s; leaving %s at %s with %v of travel arrives %s", ts(r.Return), prevPath, ts(prevDep), dur, ts(want))
		}
		legs = append(legs, constraints.Leg{Depart: prevDep, Arrive: prevDep.Add(dur)})
	}
	if okS {
		duty := constraints.Duty{Start: r.Start, End: r.Return, Legs: legs}
		vs = append(vs, m.limits(si).Check(duty, path, func(i int) string {
			if i < len(r.Stops) {
				return constraints.Index(path+".stops", i) + ".arrival"
			}
			return path + ".return"
		})...)
	}
	rm.Duration = constraints.Duration(r.Return.Sub(r.Start))

	// The floor: the independent layout check of loadplan.
	if okT {
		tr := layoutTrailer(req.Fleet[ti])
		lay, lvs := toLayout(&r.Load, path+".load")
		vs = append(vs, lvs...)
		for _, v := range loadplan.Check(tr, lpPallets, len(r.Stops), lay) {
			v.Path = constraints.Field(path+".load", v.Path)
			vs = append(vs, v)
		}
		for _, pl := range r.Load.Placements {
			// A stacked pallet takes no floor position (the one change
			// from the old validator: Validate now rejects the old count).
			if s, ok := loadplan.ParseSide(pl.Side); ok && pl.Level == 0 {
				rm.Positions += s.Positions()
			}
		}
		c := req.Fleet[ti].capacity()
		rm.PosUtil, rm.WeightUtil, rm.VolumeUtil = constraints.Load{Positions: rm.Positions, WeightKg: load.WeightKg, VolumeM3: load.VolumeM3}.Utilisation(c)
		rm.Cost = routeCost(req.Fleet[ti], rm.DistanceM, rm.Duration.D())
	}
	return rm, vs
}

// toLayout converts a plan's load plan to loadplan's form; sides it cannot
// read are reported and their placements dropped (so the check then reports
// the pallet as missing too).
func toLayout(lp *LoadPlan, path string) (*loadplan.Layout, constraints.Violations) {
	var vs constraints.Violations
	lay := &loadplan.Layout{}
	for _, z := range lp.Zones {
		lay.Zones = append(lay.Zones, loadplan.Zone{Temperature: z.Temperature, FirstRow: z.FirstRow, LastRow: z.LastRow, FromMM: z.FromMM, ToMM: z.ToMM})
	}
	for i, p := range lp.Placements {
		side, ok := loadplan.ParseSide(p.Side)
		if !ok {
			vs.Add(CodeInvalidValue, constraints.Index(path+".placements", i)+".side", "side %q is not LEFT, RIGHT or CENTER", p.Side)
			continue
		}
		lay.Placements = append(lay.Placements, loadplan.Placement{Pallet: p.Pallet, Row: p.Row, Side: side, Turned: p.Turned, Zone: p.Zone, XMM: p.XMM, Level: p.Level})
	}
	for _, a := range lp.Axles {
		lay.Axles = append(lay.Axles, loadplan.AxleLoad{AfterStop: a.AfterStop, KingpinKg: a.KingpinKg, AxleGroupKg: a.AxleGroupKg})
	}
	return lay, vs
}

func compareRouteMetrics(path string, got, want RouteMetrics) constraints.Violations {
	var vs constraints.Violations
	intEq := func(name string, g, w int) {
		if g != w {
			vs.Add(CodeMetric, path+"."+name, "reports %d, recomputed %d", g, w)
		}
	}
	durEq := func(name string, g, w constraints.Duration) {
		if g != w {
			vs.Add(CodeMetric, path+"."+name, "reports %v, recomputed %v", g, w)
		}
	}
	intEq("stops", got.Stops, want.Stops)
	intEq("pallets", got.Pallets, want.Pallets)
	intEq("positions", got.Positions, want.Positions)
	durEq("duration", got.Duration, want.Duration)
	durEq("driving", got.Driving, want.Driving)
	durEq("wait", got.Wait, want.Wait)
	for _, f := range []struct {
		name string
		g, w float64
	}{{"distanceM", got.DistanceM, want.DistanceM}, {"weightKg", got.WeightKg, want.WeightKg}, {"volumeM3", got.VolumeM3, want.VolumeM3},
		{"cost", got.Cost, want.Cost}, {"positionsUtilisation", got.PosUtil, want.PosUtil},
		{"weightUtilisation", got.WeightUtil, want.WeightUtil}, {"volumeUtilisation", got.VolumeUtil, want.VolumeUtil}} {
		if !approxEqual(f.g, f.w) {
			vs.Add(CodeMetric, path+"."+f.name, "reports %g, recomputed %g", f.g, f.w)
		}
	}
	return vs
}

func compareMetrics(path string, got, want Metrics) constraints.Violations {
	var vs constraints.Violations
	for _, f := range []struct {
		name string
		g, w int
	}{{"routes", got.Routes, want.Routes}, {"stops", got.Stops, want.Stops}, {"pallets", got.Pallets, want.Pallets}, {"unassigned", got.Unassigned, want.Unassigned}, {"trailersLowerBound", got.TrailersLowerBound, want.TrailersLowerBound}} {
		if f.g != f.w {
			vs.Add(CodeMetric, path+"."+f.name, "reports %d, recomputed %d", f.g, f.w)
		}
	}
	for _, f := range []struct {
		name string
		g, w constraints.Duration
	}{{"duration", got.Duration, want.Duration}, {"driving", got.Driving, want.Driving}, {"wait", got.Wait, want.Wait}} {
		if f.g != f.w {
			vs.Add(CodeMetric, path+"."+f.name, "reports %v, recomputed %v", f.g, f.w)
		}
	}
	for _, f := range []struct {
		name string
		g, w float64
	}{{"distanceM", got.DistanceM, want.DistanceM}, {"cost", got.Cost, want.Cost}, {"positionsUtilisation", got.PosUtil, want.PosUtil}} {
		if !approxEqual(f.g, f.w) {
			vs.Add(CodeMetric, path+"."+f.name, "reports %g, recomputed %g", f.g, f.w)
		}
	}
	return vs
}

// approxEqual compares reported and recomputed floating-point metrics: they are
// sums of the same numbers, perhaps in another order, and pass through
// JSON, so a relative tolerance of 1e-9 (and 1e-6 absolute) is plenty.
func approxEqual(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= 1e-6+1e-9*math.Max(math.Abs(a), math.Abs(b))
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }
