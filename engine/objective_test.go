package engine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/constraints"
)

// objectiveRequest is two stores of 10 pallets each with two kinds of
// trailer: small vans of 10 positions that cost nothing but their
// kilometres, and one 30-position trailer whose fixed cost is far above
// any route's kilometres. The cheapest plan sends a van to each store;
// the plan with the fewest trailers sends the big one to both.
func objectiveRequest(o Objective) Request {
	van := packingTrailer("VAN10", constraints.DryVan, 2)
	van.PalletPositions = 10
	van.Costs = Costs{PerKm: 1}
	big := packingTrailer("DRY53", constraints.DryVan, 1)
	big.Costs = Costs{Fixed: 5000, PerKm: 1}
	req := packingRequest(2, 2, []TrailerType{van, big})
	for s := range 2 {
		for i := range 10 {
			req.Pallets = append(req.Pallets, Pallet{ID: "P" + string(rune('A'+s)) + string(rune('0'+i)), Store: req.Stores[s].ID,
				WeightKg: 400, Footprint: StandardFootprint, HeightMM: 1500, Temperature: constraints.Ambient})
		}
	}
	req.Options.Objective = o
	return req
}

// TestObjectiveTrailersBeforeCost: under FewestTrailers (the default) one
// route carries both stores on the big trailer, and so under FewestDrivers,
// where one driver could also drive two van trips but the fewer routes come
// next; under LowestCost the two free vans go, one to each store, for far
// less money, both driven by one driver (a shift costs nothing here).
func TestObjectiveTrailersBeforeCost(t *testing.T) {
	for _, c := range []struct {
		o       Objective
		routes  int
		trailer string
	}{{FewestTrailers, 1, "DRY53"}, {FewestDrivers, 1, "DRY53"}, {LowestCost, 2, "VAN10"}} {
		plan := planOK(t, objectiveRequest(c.o))
		if plan.Metrics.Routes != c.routes || plan.Metrics.ShiftsUsed != 1 || len(plan.Unassigned) != 0 {
			t.Fatalf("%v: %d routes on %d shifts, %d pallets unassigned; want %d routes on one shift delivering everything",
				c.o, plan.Metrics.Routes, plan.Metrics.ShiftsUsed, len(plan.Unassigned), c.routes)
		}
		for _, r := range plan.Routes {
			if r.Trailer != c.trailer {
				t.Errorf("%v: route %s pulls %s; want %s", c.o, r.ID, r.Trailer, c.trailer)
			}
		}
	}
}

// TestObjectiveJSON: the objective reads and writes by name, and the
// default is left out of the written form.
func TestObjectiveJSON(t *testing.T) {
	for _, c := range []struct {
		o    Objective
		json string
	}{{LowestCost, `"objective": "cost"`}, {FewestDrivers, `"objective": "drivers"`}, {FewestTrailers, ""}} {
		req := objectiveRequest(c.o)
		b, err := MarshalIndent(req)
		if err != nil {
			t.Fatal(err)
		}
		if c.json != "" && !bytes.Contains(b, []byte(c.json)) || c.json == "" && bytes.Contains(b, []byte(`"objective"`)) {
			t.Errorf("%v: written options %s", c.o, b[bytes.Index(b, []byte(`"options"`)):])
		}
		back, err := DecodeRequest(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if back.Options.Objective != c.o {
			t.Errorf("read back %v, wrote %v", back.Options.Objective, c.o)
		}
	}
	if _, err := DecodeRequest(strings.NewReader(`{"options": {"objective": "trailers"}}`)); err != nil {
		for _, v := range constraints.AsViolations(err) {
			if strings.HasPrefix(v.Path, "options") {
				t.Errorf("\"trailers\" rejected: %v", v)
			}
		}
	}
	if _, err := Objective(9).MarshalJSON(); err == nil {
		t.Error("an undefined objective marshalled")
	}
}
