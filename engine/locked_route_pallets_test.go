package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// lockGainDay is a day of six stores of three pallets each, on two vans
// with floors to spare, and its plan.
func lockGainDay(t *testing.T) (Request, Result) {
	t.Helper()
	req := packingRequest(6, 2, []TrailerType{packingTrailer("VAN", constraints.DryVan, 2)})
	for _, s := range req.Stores {
		for k := range 3 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-%d", s.ID, k), Store: s.ID, WeightKg: 400,
				Footprint: StandardFootprint, HeightMM: 1400})
		}
	}
	return req, planOK(t, req)
}

// withLate is req re-planning prev under lock, with n late pallets for
// store: copies of its first pallet.
func withLate(req Request, prev Result, lock Lock, store string, n int) Request {
	again := req
	again.Previous, again.Lock = &prev, lock
	again.Pallets = slices.Clone(req.Pallets)
	i := slices.IndexFunc(req.Pallets, func(p Pallet) bool { return p.Store == store })
	for k := range n {
		p := req.Pallets[i]
		p.ID = fmt.Sprintf("late-%s-%d", store, k)
		again.Pallets = append(again.Pallets, p)
	}
	return again
}

// routeAs is the index in plan of the route of r's trailer unit, shift and
// trip, -1 for none.
func routeAs(plan Result, r Route) int {
	return slices.IndexFunc(plan.Routes, func(n Route) bool {
		return n.TrailerUnit == r.TrailerUnit && n.Shift == r.Shift && n.Trip == r.Trip
	})
}

// TestReplanLatePalletsRideTheLockedRoute: a route locked by its loading,
// not yet departed, takes two late pallets of its first stop's store into
// its free floor at the door end, every pallet it carried standing where it stood, its
// loading and stops later by the loading and unloading they add; and the
// store is not moved. Once the route has departed, the late pallets ride
// elsewhere and the route stays as it was.
func TestReplanLatePalletsRideTheLockedRoute(t *testing.T) {
	req, prev := lockGainDay(t)
	r0 := prev.Routes[0]
	if r0.Metrics.Positions+2 > 30 {
		t.Fatalf("the first route takes %d positions: no room to test with", r0.Metrics.Positions)
	}
	// The first stop's store: its pallets stand at the door end, where
	// the free floor is.
	first := r0.Stops[0].Store
	again := withLate(req, prev, Lock{Before: r0.LoadingStart}, first, 2)
	plan := planOK(t, again)
	ri := routeAs(plan, r0)
	if ri < 0 || !plan.Routes[ri].Locked {
		t.Fatalf("the locked route is not in the re-plan, locked")
	}
	got := plan.Routes[ri]
	wantPallets := append(slices.Clone(r0.Stops[0].Pallets), "late-"+first+"-0", "late-"+first+"-1")
	if !slices.Equal(got.Stops[0].Pallets, wantPallets) {
		t.Fatalf("the first stop delivers %v, want %v", got.Stops[0].Pallets, wantPallets)
	}
	if !slices.Equal(got.Load.Placements[:len(r0.Load.Placements)], r0.Load.Placements) || len(got.Load.Placements) != len(r0.Load.Placements)+2 {
		t.Fatalf("placements %v, want %v and two more", got.Load.Placements, r0.Load.Placements)
	}
	loading := 2 * req.DC.LoadingPerPallet
	if !got.LoadingStart.Equal(r0.LoadingStart) || !got.LoadingEnd.Equal(r0.LoadingEnd.Add(loading)) {
		t.Errorf("loading %v–%v, want %v–%v", got.LoadingStart, got.LoadingEnd, r0.LoadingStart, r0.LoadingEnd.Add(loading))
	}
	d := max(0, r0.LoadingEnd.Add(loading).Sub(r0.Start))
	unloading := 2 * req.Stores[0].Unloading.PerPallet
	if !got.Depart.Equal(r0.Depart.Add(d)) || !got.Stops[0].Arrival.Equal(r0.Stops[0].Arrival.Add(d)) ||
		!got.Stops[0].Departure.Equal(r0.Stops[0].Departure.Add(d+unloading)) || !got.Return.Equal(r0.Return.Add(d+unloading)) {
		t.Errorf("times depart %v, first stop %v–%v, return %v; want each later by %v, the stop's departure and the return by %v more",
			got.Depart, got.Stops[0].Arrival, got.Stops[0].Departure, got.Return, d, unloading)
	}
	for _, c := range plan.Changes.Stores {
		if c.Store == first && (c.Has(Moved) || c.Has(Retimed)) {
			t.Errorf("store %s: %v, want its late pallets on its route, within the tolerance", first, c.Kinds)
		}
	}

	// Departed by the lock's time: the route stays as it was.
	gone := withLate(req, prev, Lock{Before: r0.Depart}, first, 2)
	plan = planOK(t, gone)
	ri = routeAs(plan, r0)
	if ri < 0 || len((&planCheck{req: &gone}).lockedRouteDiff(&r0, &plan.Routes[ri], false)) > 0 {
		t.Fatalf("the departed route changed: %+v", plan.Routes[ri])
	}
	if slices.ContainsFunc(plan.Unassigned, func(u Unassigned) bool { return strings.HasPrefix(u.Pallet, "late-") }) {
		t.Errorf("late pallets left unassigned with a van to spare: %v", plan.Unassigned)
	}
}

// TestValidateAllowsOnlyLatePalletsInFreeSpace: a re-plan in which a
// locked route took late pallets passes Validate, and breaking it in
// each of these ways gives LOCK_BROKEN on that route: a placed pallet
// moved, a new stop, the times left as they were, more pallets than the
// tolerance allows, and the route departed by the lock's time.
func TestValidateAllowsOnlyLatePalletsInFreeSpace(t *testing.T) {
	req, prev := lockGainDay(t)
	r0 := prev.Routes[0]
	first := r0.Stops[0].Store
	again := withLate(req, prev, Lock{Before: r0.LoadingStart}, first, 2)
	plan := planOK(t, again)
	ri := routeAs(plan, r0)
	if len(plan.Routes[ri].Stops[0].Pallets) != len(r0.Stops[0].Pallets)+2 {
		t.Fatalf("the locked route took no late pallet: %v", plan.Routes[ri].Stops[0].Pallets)
	}
	path := fmt.Sprintf("routes[%d]", ri)
	broken := func(change func(r *Route, req *Request)) (Request, Result) {
		p := plan
		p.Routes = slices.Clone(plan.Routes)
		r := cloneRoute(plan.Routes[ri])
		q := again
		change(&r, &q)
		p.Routes[ri] = r
		return q, p
	}
	cases := map[string]func(r *Route, req *Request){
		"placed pallet moved": func(r *Route, _ *Request) { r.Load.Placements[0].XMM += 10 },
		"new stop": func(r *Route, _ *Request) {
			st := r.Stops[0]
			st.Store = plan.Routes[(ri+1)%len(plan.Routes)].Stops[0].Store
			r.Stops = append(r.Stops, st)
		},
		"times as they were": func(r *Route, _ *Request) {
			for k := range r.Stops {
				r.Stops[k].Arrival, r.Stops[k].Start, r.Stops[k].Departure = r0.Stops[k].Arrival, r0.Stops[k].Start, r0.Stops[k].Departure
			}
			r.Return = r0.Return
		},
		"over the tolerance": func(_ *Route, q *Request) { q.Options.ChangeTolerance = time.Second },
		"departed":           func(_ *Route, q *Request) { q.Lock.Before = r0.Depart },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			q, p := broken(change)
			found := false
			for _, v := range constraints.AsViolations(Validate(q, p)) {
				found = found || (v.Code == CodeLockBroken && strings.HasPrefix(v.Path, path))
			}
			if !found {
				t.Errorf("no %s on %s: %v", CodeLockBroken, path, Validate(q, p))
			}
		})
	}
}
