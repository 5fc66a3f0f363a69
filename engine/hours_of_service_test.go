package engine

// A shift's hours-of-service fields left out fall back to the request's
// hoursOfService field by field, and only then to the US defaults.

import (
	"errors"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// longTripRequest is one store 1.33° of latitude north of the DC (about
// 3 h 30 min each way with the default travel model, so the round trip
// drives just under 7 h), ten pallets, one dry van and one 14-hour shift
// with the given limits, and the request's limits hos.
func longTripRequest(limits *constraints.HoursOfService, hos constraints.HoursOfService) Request {
	req := packingRequest(1, 1, []TrailerType{catalogueTrailer("DRY53", 1, 0)})
	req.Stores[0].Location = geo.Point{Lat: req.DC.Location.Lat + 1.33, Lng: req.DC.Location.Lng}
	req.Shifts[0].End = req.Shifts[0].Start.Add(14 * time.Hour)
	req.Shifts[0].Limits = limits
	req.HoursOfService = hos
	req.Travel = geo.TravelModel{SpeedKmh: geo.DefaultSpeedKmh} // 1.33° of latitude: 3 h 30 min each way
	addPallets(&req, "S0", constraints.Ambient, 10)
	return req
}

// TestHoursOfServiceFallBackFieldByField: the request limits driving to
// 6 h. A shift whose limits set only maxDuty keeps the request's 6 h, not
// the US 11 h, so the 7-hour trip is not planned on it and a plan that
// drives it is rejected by Validate. A shift that sets maxDriving itself
// (8 h) drives it.
func TestHoursOfServiceFallBackFieldByField(t *testing.T) {
	six := constraints.HoursOfService{MaxDriving: 6 * time.Hour}
	onlyDuty := &constraints.HoursOfService{MaxDuty: 13 * time.Hour}

	// The trip, planned where the US 11 h apply: no request limits.
	usReq := longTripRequest(onlyDuty, constraints.HoursOfService{})
	drive := 2 * usReq.Travel.Duration(usReq.DC.Location, usReq.Stores[0].Location)
	if drive <= 6*time.Hour+55*time.Minute || drive > 7*time.Hour {
		t.Fatalf("setup: the round trip drives %v, want just under 7 h", drive)
	}
	usPlan := planOK(t, usReq)
	if usPlan.Metrics.Routes != 1 || usPlan.Metrics.Pallets != 10 || usPlan.Metrics.Driving != drive {
		t.Fatalf("under the US limits: %d routes, %d pallets, %v driving; want 1 route with all 10 driving %v",
			usPlan.Metrics.Routes, usPlan.Metrics.Pallets, usPlan.Metrics.Driving, drive)
	}

	for _, tc := range []struct {
		name    string
		limits  *constraints.HoursOfService
		planned bool
	}{
		{"no shift limits", nil, false},
		{"shift sets only maxDuty", onlyDuty, false},
		{"shift sets maxDriving 8h", &constraints.HoursOfService{MaxDriving: 8 * time.Hour}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := longTripRequest(tc.limits, six)
			plan := planOK(t, req)
			if tc.planned {
				if plan.Metrics.Routes != 1 || plan.Metrics.Pallets != 10 {
					t.Fatalf("%d routes, %d pallets delivered; want 1 route with all 10", plan.Metrics.Routes, plan.Metrics.Pallets)
				}
				if err := Validate(req, usPlan); err != nil {
					t.Fatalf("Validate rejects a %v drive under an 8 h limit: %v", drive, err)
				}
				return
			}
			if plan.Metrics.Routes != 0 || plan.Metrics.Pallets != 0 {
				t.Fatalf("%d routes, %d pallets delivered, driving %v; want none (the request's 6 h applies)",
					plan.Metrics.Routes, plan.Metrics.Pallets, plan.Metrics.Driving)
			}
			if r := unassignedReasons(plan); r[ReasonShiftLimit] != 10 {
				t.Fatalf("unassigned by reason %v; want 10 %s", r, ReasonShiftLimit)
			}
			// The US plan, judged under the request's 6 h: that one
			// violation and no other.
			err := Validate(req, usPlan)
			if vs := constraints.AsViolations(err); !errors.Is(err, constraints.ErrInvalid) || len(vs) != 1 || !vs.Has(constraints.CodeDrivingLimit) {
				t.Fatalf("Validate of a %v drive under the request's 6 h: want one %s, got %v", drive, constraints.CodeDrivingLimit, err)
			}
		})
	}
}
