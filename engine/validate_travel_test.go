package engine

import (
	"math"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// TestValidateDrivesTheBands: with no travel in the request, the plan's
// legs are the default speed bands' times, worked out here from the
// bands' figures, for stores in each band; Validate recomputes them, so it
// accepts the plan under the same bands and rejects it under the single
// speed.
func TestValidateDrivesTheBands(t *testing.T) {
	req := packingRequest(3, 3, []TrailerType{dryVan(3, 26)})
	for i, km := range []float64{3, 20, 120} { // town, arterial and highway bands
		req.Stores[i].Location = geo.Point{Lat: req.DC.Location.Lat + km*1000/geo.EarthRadius*180/math.Pi, Lng: req.DC.Location.Lng}
		addPallets(&req, req.Stores[i].ID, constraints.Ambient, 20)
	}
	// banded is the default bands' time for a great-circle distance:
	// 35 km/h over 1.4 to 5 km, 60 km/h over 1.25 to 30 km, 90 km/h over
	// 1.12 beyond, rounded up to whole seconds.
	banded := func(m float64) time.Duration {
		km := m / 1000
		h := min(km, 5)*1.4/35 + max(0, min(km, 30)-5)*1.25/60 + max(0, km-30)*1.12/90
		return time.Duration(math.Ceil(h*3600)) * time.Second
	}
	plan := planOK(t, req)
	if plan.Metrics.Routes != 3 {
		t.Fatalf("%d routes, want one a store", plan.Metrics.Routes)
	}
	for _, r := range plan.Routes {
		s := r.Stops[0]
		g := geo.Distance(req.DC.Location, req.Stores[storeIndex(req, s.Store)].Location)
		if got, want := s.Arrival.Sub(r.Depart), banded(g); got != want {
			t.Errorf("%s: %.1f km out in %v, want %v", s.Store, g/1000, got, want)
		}
	}
	if err := Validate(req, plan); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	bands := req
	bands.Travel = geo.TravelModel{Bands: geo.DefaultBands()}
	if err := Validate(bands, plan); err != nil {
		t.Errorf("Validate with the default bands given: %v", err)
	}
	single := req
	single.Travel = geo.TravelModel{SpeedKmh: geo.DefaultSpeedKmh}
	if err := Validate(single, plan); err == nil {
		t.Error("Validate accepts the bands' times under a single speed")
	}
}

func storeIndex(req Request, id string) int {
	for i, s := range req.Stores {
		if s.ID == id {
			return i
		}
	}
	return -1
}
