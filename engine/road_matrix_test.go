package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// roadMatrixOf is a road matrix of the request's DC and stores, with the
// ids in the order given (every DC and store id, and others if wanted),
// each leg the travel model's figure for its two points.
func roadMatrixOf(req Request, ids []string) *geo.RoadMatrix {
	where := map[string]geo.Point{req.DC.ID: req.DC.Location}
	for _, s := range req.Stores {
		where[s.ID] = s.Location
	}
	m := geo.NewRoadMatrix(ids)
	for i, a := range ids {
		for j, b := range ids {
			pa, pb := where[a], where[b]
			m.Set(i, j, req.Travel.RoadDistance(pa, pb), req.Travel.Duration(pa, pb))
		}
	}
	return m
}

// setLeg sets the leg from id a to id b of m; a negative d means no route.
func setLeg(m *geo.RoadMatrix, a, b string, metres float64, d time.Duration) {
	i, j := slices.Index(m.IDs, a), slices.Index(m.IDs, b)
	if d < 0 {
		m.SetNoRoute(i, j)
		return
	}
	m.Set(i, j, metres, d)
}

func TestPlanUsesTheMatrixDirectionGiven(t *testing.T) {
	req := packingRequest(1, 1, []TrailerType{dryVan(1, 26)})
	addPallets(&req, "S0", constraints.Ambient, 4)
	// Ids in another order than the request's, with one place more: the
	// engine finds its rows by id.
	req.RoadMatrix = roadMatrixOf(req, []string{"Elsewhere", "S0", "DC"})
	setLeg(req.RoadMatrix, "DC", "S0", 30_000, 25*time.Minute)
	setLeg(req.RoadMatrix, "S0", "DC", 45_000, 70*time.Minute)
	plan := planOK(t, req)
	if len(plan.Routes) != 1 || len(plan.Routes[0].Stops) != 1 {
		t.Fatalf("routes: %+v", plan.Routes)
	}
	r := plan.Routes[0]
	if got := r.Stops[0].Arrival.Sub(r.Depart); got != 25*time.Minute {
		t.Errorf("DC → S0 takes %v, want the matrix's 25m0s", got)
	}
	if got := r.Return.Sub(r.Stops[0].Departure); got != 70*time.Minute {
		t.Errorf("S0 → DC takes %v, want the matrix's 1h10m0s", got)
	}
	if r.Metrics.DistanceM != 75_000 {
		t.Errorf("route distance %v m, want 75,000", r.Metrics.DistanceM)
	}
	// Validate reads the direction too: the way back timed with the way
	// out's duration is a travel time error.
	broken := clonePlan(t, plan)
	broken.Routes[0].Return = broken.Routes[0].Stops[0].Departure.Add(25 * time.Minute)
	if !hasCode(Validate(req, broken), CodeTravelTime) {
		t.Errorf("Validate accepts the way back at the way out's duration: %v", Validate(req, broken))
	}
}

func TestNoRoadStores(t *testing.T) {
	req := packingRequest(3, 2, []TrailerType{dryVan(2, 26)})
	for _, s := range []string{"S0", "S1", "S2"} {
		addPallets(&req, s, constraints.Ambient, 2)
	}
	req.RoadMatrix = roadMatrixOf(req, []string{"DC", "S0", "S1", "S2"})
	setLeg(req.RoadMatrix, "DC", "S1", 0, -1)
	setLeg(req.RoadMatrix, "S2", "DC", 0, -1)
	plan := planOK(t, req)
	why := map[string]string{}
	for _, u := range plan.Unassigned {
		if u.Reason != ReasonNoRoad {
			t.Errorf("pallet %s of %s: %s (%s)", u.Pallet, u.Store, u.Reason, u.Message)
		}
		why[u.Store] = u.Message
	}
	if !strings.Contains(why["S1"], `no route from the DC to store "S1"`) || !strings.Contains(why["S2"], `no route from store "S2" back to the DC`) || len(why) != 2 {
		t.Errorf("unassigned: %v", why)
	}
	if plan.Metrics.Pallets != 2 {
		t.Errorf("%d pallets delivered, want S0's 2", plan.Metrics.Pallets)
	}
}

func TestStoreLegWithoutRoute(t *testing.T) {
	// Two stores one trailer could serve in one trip; with no road
	// between them, in either direction, no trip drives from one to the
	// other, and Validate rejects a plan that does.
	req := packingRequest(2, 2, []TrailerType{dryVan(2, 26)})
	addPallets(&req, "S0", constraints.Ambient, 3)
	addPallets(&req, "S1", constraints.Ambient, 3)
	req.RoadMatrix = roadMatrixOf(req, []string{"DC", "S0", "S1"})
	together := planOK(t, req)
	if len(together.Routes) != 1 {
		t.Fatalf("with the road, %d routes", len(together.Routes))
	}
	setLeg(req.RoadMatrix, "S0", "S1", 0, -1)
	setLeg(req.RoadMatrix, "S1", "S0", 0, -1)
	apart := planOK(t, req)
	for _, r := range apart.Routes {
		for k := 1; k < len(r.Stops); k++ {
			if r.Stops[k-1].Store != r.Stops[k].Store {
				t.Errorf("route %s drives %s → %s", r.ID, r.Stops[k-1].Store, r.Stops[k].Store)
			}
		}
	}
	if apart.Metrics.Pallets != 6 {
		t.Errorf("%d pallets delivered", apart.Metrics.Pallets)
	}
	if err := Validate(req, together); !hasCode(err, CodeNoRoute) {
		t.Errorf("Validate accepts a leg without a route: %v", err)
	}
}

func hasCode(err error, code string) bool {
	for _, v := range constraints.AsViolations(err) {
		if v.Code == code {
			return true
		}
	}
	return false
}
