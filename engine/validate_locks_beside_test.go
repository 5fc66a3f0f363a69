package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestBesideFixedAgreesWithValidateRoutes: the check a re-plan runs on
// the routes it keeps beside the locked ones, made once for many calls
// (besideFixed), finds what validateRoutes finds on the locked routes
// followed by those routes, violation for violation at the same paths:
// on the previous plan's unlocked routes as they were, 12 hours late (past
// their shifts), on the trailer unit and dock door of the locked route at
// its time, on its shift at its time, with their stops reversed, and with
// a store no previous route visits.
func TestBesideFixedAgreesWithValidateRoutes(t *testing.T) {
	req := packingRequest(12, 4, []TrailerType{dryVan(4, 10)})
	req.DC.DockDoors = 2
	for _, s := range req.Stores {
		for k := range 3 {
			req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("%s-%d", s.ID, k), Store: s.ID, WeightKg: 400,
				Footprint: StandardFootprint, HeightMM: 1400})
		}
	}
	prev := planOK(t, req)
	if len(prev.Routes) < 3 {
		t.Fatalf("the first plan has %d routes; want 3 or more", len(prev.Routes))
	}
	again := req
	again.Previous = &prev
	again.Lock = Lock{Routes: []string{prev.Routes[0].ID}}
	if err := again.Check(); err != nil {
		t.Fatal(err)
	}
	m, err := prepare(context.Background(), &again)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.fixRoutes(); err != nil || len(m.fixed) == 0 {
		t.Fatalf("fixRoutes: %v, %d routes fixed; want the locked route", err, len(m.fixed))
	}
	var unlocked []Route
	for _, r := range prev.Routes {
		if !slices.ContainsFunc(m.fixed, func(f Route) bool { return f.ID == r.ID }) {
			r = cloneRoute(r)
			r.Locked = false
			unlocked = append(unlocked, r)
		}
	}
	edit := func(f func(r *Route)) []Route {
		out := make([]Route, len(unlocked))
		for k, r := range unlocked {
			out[k] = cloneRoute(r)
			f(&out[k])
		}
		return out
	}
	fixed := m.fixed[0]
	late := func(r *Route) {
		for _, p := range []*time.Time{&r.LoadingStart, &r.LoadingEnd, &r.Start, &r.Depart, &r.Return} {
			*p = p.Add(12 * time.Hour)
		}
		for k := range r.Stops {
			r.Stops[k].Arrival = r.Stops[k].Arrival.Add(12 * time.Hour)
			r.Stops[k].Start = r.Stops[k].Start.Add(12 * time.Hour)
			r.Stops[k].Departure = r.Stops[k].Departure.Add(12 * time.Hour)
		}
	}
	atFixed := func(r *Route) {
		d := fixed.Start.Sub(r.Start)
		for _, p := range []*time.Time{&r.LoadingStart, &r.LoadingEnd, &r.Start, &r.Depart, &r.Return} {
			*p = p.Add(d)
		}
		for k := range r.Stops {
			r.Stops[k].Arrival = r.Stops[k].Arrival.Add(d)
			r.Stops[k].Start = r.Stops[k].Start.Add(d)
			r.Stops[k].Departure = r.Stops[k].Departure.Add(d)
		}
	}
	cases := map[string][]Route{
		"as they were":  unlocked,
		"12 hours late": edit(late),
		"on the locked route's unit and door at its time": edit(func(r *Route) {
			atFixed(r)
			r.TrailerUnit, r.DockDoor = fixed.TrailerUnit, fixed.DockDoor
		}),
		"stops reversed": edit(func(r *Route) { slices.Reverse(r.Stops) }),
		"on the locked route's shift at its time": edit(func(r *Route) {
			atFixed(r)
			r.Shift = fixed.Shift
		}),
		"a store no route visits": edit(func(r *Route) {
			r.Stops[0].Store = "S-none"
		}),
		"none": nil,
	}
	for name, routes := range cases {
		want, err := validateRoutes(&again, slices.Concat(m.fixed, routes))
		if err != nil {
			t.Fatalf("%s: validateRoutes: %v", name, err)
		}
		got, err := m.validateBesideFixed(routes)
		if err != nil {
			t.Fatalf("%s: validateBesideFixed: %v", name, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: besideFixed finds\n%v\nvalidateRoutes\n%v", name, constraints.Violations(got), constraints.Violations(want))
		}
		if name != "as they were" && name != "none" && len(want) == 0 {
			t.Errorf("%s: no violation; the case checks nothing", name)
		}
	}
}
