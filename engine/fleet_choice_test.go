package engine

// Which trailer type each driver shift drives, and what each
// single-temperature reefer is set to, are routing's choice: shifts and
// trailer types are shared resources. These cases were found where a choice
// made before routing (which units get the shifts, what the reefers are set
// to) left pallets behind that a compatible trailer could have carried.

import (
	"fmt"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// catalogueTrailer returns one of the bundled sample's trailer types with
// the given count: DRY53 and REEF53 (53 ft, lengthMM 16154), DRY48 and
// MT48 (48 ft, lengthMM 14630; MT48 a multi-temperature reefer of maxZones
// zones, 0 meaning 3).
func catalogueTrailer(id string, count, maxZones int) TrailerType {
	axles := func(axleGroupMM, tareKg, tareCentreMM float64) constraints.AxleGeometry {
		return constraints.AxleGeometry{KingpinMM: 914, AxleGroupMM: axleGroupMM, TareKg: tareKg, TareCentreMM: tareCentreMM,
			KingpinLimitKg: 11300, AxleGroupLimitKg: 15422}
	}
	switch id {
	case "DRY53":
		return TrailerType{ID: id, Count: count, LengthMM: 16154, Inside: Dimensions{16002, 2540, 2794}, PalletPositions: 30, PayloadKg: 20400,
			Equipment: constraints.Equipment{Kind: constraints.DryVan}, Axles: axles(12500, 6350, 8500), Costs: Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}}
	case "DRY48":
		return TrailerType{ID: id, Count: count, LengthMM: 14630, Inside: Dimensions{14478, 2540, 2794}, PalletPositions: 28, PayloadKg: 20900,
			Equipment: constraints.Equipment{Kind: constraints.DryVan}, Axles: axles(11300, 5900, 7700), Costs: Costs{Fixed: 140, PerKm: 1.15, PerHour: 38}}
	case "REEF53":
		return TrailerType{ID: id, Count: count, LengthMM: 16154, Inside: Dimensions{15850, 2464, 2629}, PalletPositions: 30, PayloadKg: 19500,
			Equipment: constraints.Equipment{Kind: constraints.Reefer}, Axles: axles(12500, 7250, 7400), Costs: Costs{Fixed: 220, PerKm: 1.45, PerHour: 38}}
	case "MT48":
		return TrailerType{ID: id, Count: count, LengthMM: 14630, Inside: Dimensions{14350, 2464, 2629}, PalletPositions: 28, PayloadKg: 18600,
			Equipment: constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: maxZones}, Axles: axles(11300, 7600, 6900),
			Doors: noseCurbDoor, Costs: Costs{Fixed: 240, PerKm: 1.5, PerHour: 38}}
	}
	panic("catalogueTrailer: unknown trailer type " + id)
}

// noseCurbDoor is a multi-temperature reefer's doors: the rear door and a
// curbside door over the first 2,500 mm of the floor, as the preset has.
var noseCurbDoor = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: 2500}}

// addPallets appends n pallets of one store and class: 400 kg, 1.2 m tall,
// standard footprint, not stackable.
func addPallets(req *Request, store string, class constraints.Temperature, n int) {
	for range n {
		req.Pallets = append(req.Pallets, Pallet{ID: fmt.Sprintf("P%03d", len(req.Pallets)), Store: store, WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1200, Temperature: class})
	}
}

// stopTrailers maps each store to the trailer types of the routes that visit it.
func stopTrailers(plan Result) map[string][]string {
	out := map[string][]string{}
	for _, r := range plan.Routes {
		for _, st := range r.Stops {
			out[st.Store] = append(out[st.Store], r.Trailer)
		}
	}
	return out
}

func unassignedReasons(plan Result) map[string]int {
	out := map[string]int{}
	for _, u := range plan.Unassigned {
		out[u.Reason]++
	}
	return out
}

// TestFleetChoiceServesA48FootStore: five stores, 32 ambient pallets, S0
// takes trailers of at most 48 ft and two drivers. 32 pallets need two
// trailers (a DRY53 holds 30), and S0's six must ride a DRY48. Pairing the
// two shifts with units before routing gave both to DRY53s when twelve of
// them stood beside three DRY48s, and S0's six pallets were left as
// NO_COMPATIBLE_TRAILER.
func TestFleetChoiceServesA48FootStore(t *testing.T) {
	for _, tc := range []struct {
		name       string
		dry53, d48 int
	}{{"DRY53x12+DRY48x3", 12, 3}, {"DRY53x1+DRY48x1", 1, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			req := packingRequest(5, 2, []TrailerType{catalogueTrailer("DRY53", tc.dry53, 0), catalogueTrailer("DRY48", tc.d48, 0)})
			req.Stores[0].MaxTrailerLengthMM = 14630
			for i, n := range []int{6, 7, 7, 6, 6} {
				addPallets(&req, fmt.Sprint("S", i), constraints.Ambient, n)
			}
			plan := planOK(t, req)
			if plan.Metrics.Pallets != 32 || len(plan.Unassigned) != 0 {
				t.Fatalf("%d of 32 pallets delivered, unassigned by reason %v; want all 32", plan.Metrics.Pallets, unassignedReasons(plan))
			}
			if plan.Metrics.Routes != 2 {
				t.Fatalf("%d routes; want 2 (two shifts, 32 pallets > 30 positions)", plan.Metrics.Routes)
			}
			for _, tr := range stopTrailers(plan)["S0"] {
				if tr != "DRY48" {
					t.Fatalf("S0 (at most 14630 mm) is served by a %s", tr)
				}
			}
		})
	}
}

// TestFleetChoiceTwoZoneReefers: six drivers, three two-zone
// multi-temperature reefers and three dry vans, four stores with pallets of
// all three classes (11 ambient, 9 chilled, 9 frozen). A two-zone reefer
// carries chilled and frozen together, or either with ambient, so every
// pallet has a compatible type and every pallet must be delivered: none
// may be reported NO_COMPATIBLE_TRAILER.
func TestFleetChoiceTwoZoneReefers(t *testing.T) {
	req := packingRequest(4, 6, []TrailerType{catalogueTrailer("MT48", 3, 2), catalogueTrailer("DRY53", 3, 0)})
	for i, n := range [][3]int{{3, 2, 2}, {3, 2, 2}, {2, 3, 2}, {3, 2, 3}} {
		for c, k := range n {
			addPallets(&req, fmt.Sprint("S", i), constraints.Temperature(c), k)
		}
	}
	if len(req.Pallets) != 29 {
		t.Fatalf("setup: %d pallets", len(req.Pallets))
	}
	plan := planOK(t, req)
	if r := unassignedReasons(plan); r[ReasonNoCompatibleTrailer] != 0 {
		t.Fatalf("%d pallets reported %s though MT48 carries every class; unassigned by reason %v", r[ReasonNoCompatibleTrailer], ReasonNoCompatibleTrailer, r)
	}
	if plan.Metrics.Pallets != 29 || len(plan.Unassigned) != 0 {
		t.Fatalf("%d of 29 pallets delivered, unassigned by reason %v; want all 29", plan.Metrics.Pallets, unassignedReasons(plan))
	}
	for _, r := range plan.Routes {
		if len(r.Load.Zones) > 2 {
			t.Fatalf("route %s has %d zones on a trailer of at most 2", r.ID, len(r.Load.Zones))
		}
	}
}

// TestFleetChoiceReeferSetToAmbient: a fleet of single-temperature reefers
// only, two drivers, 20 ambient and 8 chilled pallets over four stores.
// One reefer must be set to AMBIENT and the other to CHILLED: two routes,
// all 28 delivered, each route of one class.
func TestFleetChoiceReeferSetToAmbient(t *testing.T) {
	req := packingRequest(4, 2, []TrailerType{catalogueTrailer("REEF53", 3, 0)})
	for i := range 4 {
		addPallets(&req, fmt.Sprint("S", i), constraints.Ambient, 5)
		addPallets(&req, fmt.Sprint("S", i), constraints.Chilled, 2)
	}
	plan := planOK(t, req)
	if plan.Metrics.Pallets != 28 || len(plan.Unassigned) != 0 {
		t.Fatalf("%d of 28 pallets delivered, unassigned by reason %v; want all 28", plan.Metrics.Pallets, unassignedReasons(plan))
	}
	if plan.Metrics.Routes != 2 {
		t.Fatalf("%d routes; want 2", plan.Metrics.Routes)
	}
	var set []constraints.Temperature
	for _, r := range plan.Routes {
		if len(r.Load.Zones) != 1 {
			t.Fatalf("route %s on a single-temperature reefer has %d zones", r.ID, len(r.Load.Zones))
		}
		set = append(set, r.Load.Zones[0].Temperature)
	}
	if !(set[0] == constraints.Ambient && set[1] == constraints.Chilled || set[0] == constraints.Chilled && set[1] == constraints.Ambient) {
		t.Fatalf("reefers set to %v; want one AMBIENT and one CHILLED", set)
	}
}

// TestFleetChoiceReeferChangesSetPointBetweenTrips: one driver, two
// single-temperature reefer units, and two stores' loads of 20 frozen and
// 20 chilled pallets, which no one trailer takes together. The driver
// drives both on two trips, the reefer set to FROZEN for one and to
// CHILLED for the other.
func TestFleetChoiceReeferChangesSetPointBetweenTrips(t *testing.T) {
	req := packingRequest(2, 1, []TrailerType{catalogueTrailer("REEF53", 2, 0)})
	addPallets(&req, "S0", constraints.Frozen, 20)
	addPallets(&req, "S1", constraints.Chilled, 20)
	req.Options.Objective = FewestDrivers
	plan := planOK(t, req)
	if plan.Metrics.Pallets != 40 || plan.Metrics.ShiftsUsed != 1 || plan.Metrics.Routes != 2 {
		t.Fatalf("%d of 40 pallets on %d trips of %d shifts, unassigned by reason %v; want all on two trips of one shift",
			plan.Metrics.Pallets, plan.Metrics.Routes, plan.Metrics.ShiftsUsed, unassignedReasons(plan))
	}
	set := map[constraints.Temperature]bool{}
	for _, r := range plan.Routes {
		if len(r.Load.Zones) != 1 {
			t.Fatalf("trip %s on a single-temperature reefer has %d zones", r.ID, len(r.Load.Zones))
		}
		set[r.Load.Zones[0].Temperature] = true
	}
	if !set[constraints.Frozen] || !set[constraints.Chilled] {
		t.Fatalf("trips set to %v; want one FROZEN and one CHILLED", set)
	}
}
