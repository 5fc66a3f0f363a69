package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// TestUnassignedSaysWhy: every unassigned pallet names its store, the true
// reason code, and a message with the figures a planner acts on.
func TestUnassignedSaysWhy(t *testing.T) {
	pallet := func(id, store string, kg float64, temp constraints.Temperature) Pallet {
		return Pallet{ID: id, Store: store, WeightKg: kg, Footprint: StandardFootprint, HeightMM: 1200, Temperature: temp}
	}
	daily := func(open, close string) constraints.WeeklyHours {
		h := constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{}}
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			h.Days[d] = []constraints.Opening{{Open: open, Close: close}}
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		setup  func(req *Request)
		pallet string // "" means any pallet of the store
		store  string
		reason string
		says   []string
		// delivered, when set, is how many pallets the plan must deliver.
		delivered int
	}{{
		name: "receiving hours out of reach",
		setup: func(req *Request) {
			// One store 15 km out that receives 23:00–23:20 only; the day
			// shift would wait past its end, the late one starts 23:10.
			req.Stores[0].ID = "S007"
			req.Stores[0].Location = geo.Point{Lat: 32.59 + 0.135, Lng: -96.75}
			req.Stores[0].Hours = daily("23:00", "23:20")
			req.Pallets = []Pallet{pallet("P1", "S007", 500, constraints.Ambient)}
			day := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
			req.Shifts = []constraints.Shift{
				{ID: "DAY", Start: day.Add(4 * time.Hour), End: day.Add(16 * time.Hour)},
				{ID: "LATE", Start: day.Add(23*time.Hour + 10*time.Minute), End: day.Add(34 * time.Hour)},
			}
		},
		pallet: "P1", store: "S007", reason: ReasonTimeWindow,
		says: []string{"store S007 receives 23:00–23:20; no shift can reach it before 23:20 and return by its end (the earliest arrival with 1 pallet is 23:3",
			"the shifts that could arrive in time end by 16:00"},
	}, {
		name: "heavier than every payload",
		setup: func(req *Request) {
			req.Pallets = []Pallet{pallet("HEAVY", "S0", 30000, constraints.Ambient), pallet("OK", "S0", 500, constraints.Ambient)}
		},
		pallet: "HEAVY", store: "S0", reason: ReasonCapacity,
		says: []string{"30,000 kg exceeds every trailer's payload (largest 20,900 kg)"},
	}, {
		name: "frozen with no reefer",
		setup: func(req *Request) {
			req.Pallets = []Pallet{pallet("ICE", "S0", 500, constraints.Frozen)}
		},
		pallet: "ICE", store: "S0", reason: ReasonNoCompatibleTrailer,
		says: []string{"needs FROZEN: no reefer in the fleet"},
	}, {
		name: "store takes shorter trailers",
		setup: func(req *Request) {
			req.Stores[0].MaxTrailerLengthMM = 14630
			req.Pallets = []Pallet{pallet("P1", "S0", 500, constraints.Ambient)}
		},
		pallet: "P1", store: "S0", reason: ReasonNoCompatibleTrailer,
		says: []string{"store S0 takes trailers up to 14,630 mm long; every trailer that carries AMBIENT is longer (shortest 16,154 mm)"},
	}, {
		name: "every trailer unit on other trips",
		setup: func(req *Request) {
			req.Fleet[0].Count = 1
			req.Pallets = nil
			for i := range 20 {
				req.Pallets = append(req.Pallets, pallet(fmt.Sprint("A", i), "S0", 500, constraints.Ambient))
			}
			for i := range 12 {
				req.Pallets = append(req.Pallets, pallet(fmt.Sprint("B", i), "S1", 500, constraints.Ambient))
			}
			for i := range req.Stores {
				req.Stores[i].Hours = constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{"tue": {{Open: "04:00", Close: "05:30"}}}}
			}
		},
		pallet: "", store: "S1", reason: ReasonFleetExhausted,
		says: []string{"store S1: the trailer units that can carry these AMBIENT pallets there (DRY53 ×1), which turn through the day, and the driver shifts still free (1) cannot take them besides the other routes at the times the store receives"},
		// The one trailer's 30 positions take S0's 20 pallets and 10 of
		// S1's 12, and it is back too late for a second trip: the
		// stores receive until 05:30. A short fleet delivers the most it
		// can.
		delivered: 30,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			req := packingRequest(2, 2, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 3)})
			req.Fleet[0].LengthMM = 16154
			req.Fleet[0].PayloadKg = 20900
			tc.setup(&req)
			plan := planOK(t, req)
			if tc.delivered > 0 && plan.Metrics.Pallets != tc.delivered {
				t.Fatalf("%d pallets delivered, want %d", plan.Metrics.Pallets, tc.delivered)
			}
			for _, u := range plan.Unassigned {
				if u.Pallet != tc.pallet && (tc.pallet != "" || u.Store != tc.store) {
					continue
				}
				if u.Store != tc.store || u.Reason != tc.reason {
					t.Fatalf("pallet %s: store %q reason %s; want store %q reason %s (%s)", u.Pallet, u.Store, u.Reason, tc.store, tc.reason, u.Message)
				}
				for _, s := range tc.says {
					if !strings.Contains(u.Message, s) {
						t.Fatalf("message %q does not say %q", u.Message, s)
					}
				}
				return
			}
			t.Fatalf("pallet %s is not unassigned: %d routes, unassigned %+v", tc.pallet, len(plan.Routes), plan.Unassigned)
		})
	}
}

// TestValidateChecksTheUnassignedStore: an unassigned pallet listed under
// another store than its own is a wrong plan.
func TestValidateChecksTheUnassignedStore(t *testing.T) {
	req := packingRequest(1, 1, []TrailerType{packingTrailer("DRY53", constraints.DryVan, 1)})
	req.Pallets = []Pallet{{ID: "ICE", Store: "S0", WeightKg: 500, Footprint: StandardFootprint, HeightMM: 1200, Temperature: constraints.Frozen}}
	plan := planOK(t, req)
	if len(plan.Unassigned) != 1 || plan.Unassigned[0].Store != "S0" {
		t.Fatalf("unassigned %+v; want ICE of store S0", plan.Unassigned)
	}
	plan.Unassigned[0].Store = "S9"
	err := Validate(req, plan)
	if err == nil || !strings.Contains(err.Error(), "unassigned[0].store") || !strings.Contains(err.Error(), CodeWrongStore) {
		t.Fatalf("Validate says %v; want %s at unassigned[0].store", err, CodeWrongStore)
	}
}
