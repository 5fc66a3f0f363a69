package engine

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/haulplan/haulplan/geo"
	"pgregory.net/rapid"
)

// drawTravel draws a request's travel model: skewedTravel's single speed,
// geo's default bands, or two to four bands of its own (speeds that never
// fall, circuities that never rise, as Check asks), cut within the tens of
// kilometres the drawn days span, so that legs between stores cross them.
func drawTravel(t *rapid.T) geo.TravelModel {
	if rapid.IntRange(0, 2).Draw(t, "travel") == 0 {
		return skewedTravel
	}
	return drawBands(t)
}

// drawBands draws geo's default bands or bands of its own.
func drawBands(t *rapid.T) geo.TravelModel {
	if rapid.Bool().Draw(t, "defaultBands") {
		return geo.TravelModel{}
	}
	n := rapid.IntRange(2, 4).Draw(t, "bands")
	bands := make([]geo.SpeedBand, n)
	upTo, speed, circuity := 0.0, rapid.Float64Range(10, 40).Draw(t, "speed"), rapid.Float64Range(1, 2).Draw(t, "circuity")
	for i := range bands {
		if i < n-1 {
			upTo += rapid.Float64Range(0.5, 10).Draw(t, "upToKm")
			bands[i].UpToKm = upTo
		}
		bands[i].SpeedKmh, bands[i].Circuity = speed, circuity
		speed += rapid.Float64Range(0, 40).Draw(t, "faster")
		circuity = rapid.Float64Range(1, circuity).Draw(t, "straighter")
	}
	return geo.TravelModel{Bands: bands}
}

// tripDriving is the driving of a route: each leg from the previous
// departure (the DC's Depart) to the arrival, and the leg back.
func tripDriving(r Route) time.Duration {
	at, sum := r.Depart, time.Duration(0)
	for _, st := range r.Stops {
		sum += st.Arrival.Sub(at)
		at = st.Departure
	}
	return sum + r.Return.Sub(at)
}

// TestBandedDrivingByHand: the default bands (35 km/h over 1.4 to 5 km,
// 60 km/h over 1.25 to 30 km, 90 km/h over 1.12 beyond: m = 0.0448 s a
// metre, h(x) = 0.0992·x to 5 km, 496 + 0.0302·(x − 5,000) to 30 km,
// H = 1,251 s beyond), the DC at 0°, 0° and stores A and B on the
// equator at 1° and 1.01° east, 111,319.5 m and 112,432.7 m out and
// 1,113.2 m apart, four pallets each on boundsDay's van of 8 positions:
// one trip, the best DC → A → B → DC, driving 6,239 + 161 + 6,288 =
// 12,688 s (each leg rounded up). The radial bound counts B's round trip,
// 2 × (6,288 − 1) = 12,574 s. The banded one counts 2m·112,432.7 =
// 10,074.0 s, h'(A) + h'(B) = 2 × 110.4 s, A's first leg less h'(A),
// 1,140.6 s, and B's leg back, 1,251 s: 12,686.4 s, shrunk by 1e-9 and a
// second, 12,685 s.
func TestBandedDrivingByHand(t *testing.T) {
	req := boundsDay(12 * time.Hour)
	req.Travel = geo.TravelModel{}
	a := req.Stores[0]
	a.Location = geo.Point{Lng: 1}
	b := a
	b.ID, b.Location = "B", geo.Point{Lng: 1.01}
	req.Stores = []Store{a, b}
	req.Pallets = req.Pallets[:8]
	for i := range 4 {
		req.Pallets[i].Store = "B"
	}
	if err := req.Check(); err != nil {
		t.Fatal(err)
	}
	idx, _ := allPalletsAndMatrix(t, &req)
	d := newDayDemand(&req, idx, nil, nil)
	if got := sumDurations(d.tripRadials(1)); got != 12574*time.Second {
		t.Errorf("radial bound %v; want 12,574 s", got)
	}
	if got := d.bandedDrivingBound(1); got != 12685*time.Second {
		t.Errorf("banded bound %v; want 12,685 s", got)
	}
	if got := d.drivingBound(1); got != 12685*time.Second {
		t.Errorf("driving bound %v; want the banded 12,685 s", got)
	}
	leg := req.Travel.Duration
	dc := req.DC.Location
	if best := leg(dc, a.Location) + leg(a.Location, b.Location) + leg(b.Location, dc); best != 12688*time.Second {
		t.Errorf("the best trip drives %v; want 12,688 s", best)
	}
	// On one speed there is nothing between the stores to count.
	req.Travel = geo.TravelModel{SpeedKmh: 60}
	if newDayDemand(&req, idx, nil, nil).banded != nil {
		t.Error("a single speed has a banded bound")
	}
}

// TestNearestNeighbours: the scan by latitude finds what comparing every
// pair finds, within the caps.
func TestNearestNeighbours(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := drawPoints(t, 0.3)
		n := len(at)
		limit := rapid.Float64Range(0, 50000).Draw(t, "cap")
		near, want := make([]float64, n), make([]float64, n)
		for i := range near {
			near[i], want[i] = limit, limit
			for j := range at {
				if j != i {
					want[i] = min(want[i], geo.Distance(at[i], at[j]))
				}
			}
		}
		lower := slices.Clone(near)
		nearestNeighbours(at, near, n)
		for i := range near {
			if near[i] != want[i] {
				t.Fatalf("point %d: nearest at %v m; every pair says %v", i, near[i], want[i])
			}
		}
		// With a budget of fewer points than there are, a lower bound.
		budget := rapid.IntRange(0, 3).Draw(t, "budget")
		nearestNeighbours(at, lower, budget)
		for i := range lower {
			if lower[i] > want[i] || lower[i] < 0 {
				t.Fatalf("point %d: nearest at least %v m on a budget of %d; every pair says %v", i, lower[i], budget, want[i])
			}
		}
	})
}

// TestDrivingBoundHoldsOnTightDays: the trips of a tight day, each
// visiting drawn stores in a drawn order on drawn speed bands, drive
// together at least drivingBound.
func TestDrivingBoundHoldsOnTightDays(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req, plan := genTightDay(t)
		d, trips := tightDemand(t, &req)
		var driving time.Duration
		for _, r := range plan.Routes {
			driving += tripDriving(r)
		}
		if bound := d.drivingBound(trips); driving < bound {
			t.Fatalf("the day's %d trips drive %v; the bound says at least %v (banded %v)", len(plan.Routes), driving, bound, d.bandedDrivingBound(trips))
		}
	})
}

// TestPlansDriveAtLeastTheBound: every plan Plan returns, on geo's
// default bands or drawn ones, with the stores sometimes drawn close
// together, drives at least drivingBound of the pallets it delivers.
func TestPlansDriveAtLeastTheBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := genRequest(t)
		req.Travel = drawBands(t)
		if rapid.Bool().Draw(t, "townStores") {
			// Within a few kilometres of the first store: legs between
			// stores in the slow bands.
			for i := range req.Stores[1:] {
				p := &req.Stores[1+i].Location
				*p = geo.Point{Lat: req.Stores[0].Location.Lat + (p.Lat-req.DC.Location.Lat)/20,
					Lng: req.Stores[0].Location.Lng + (p.Lng-req.DC.Location.Lng)/20}
			}
		}
		plan := planOK(t, req)
		var driving time.Duration
		for _, r := range plan.Routes {
			driving += tripDriving(r)
		}
		d, idx := deliveredDemand(t, &req, &plan)
		if bound := d.drivingBound(trailersLowerBound(&req, idx)); driving < bound {
			t.Fatalf("the plan's %d routes drive %v; the bound says at least %v", len(plan.Routes), driving, bound)
		}
	})
}

// TestBandedHIsFLessTheLastSlope: h is the model's time less the last
// band's slope, to floating point, on drawn bands and distances.
func TestBandedHIsFLessTheLastSlope(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := Request{Travel: drawBands(t), Stores: []Store{{}}}
		b := newBandedDriving(&req, []storeDemand{{}})
		x := rapid.Float64Range(0, 100000).Draw(t, "x")
		road := geo.Point{Lng: x / geo.EarthRadius * 180 / math.Pi}
		g := geo.Distance(geo.Point{}, road)
		f := req.Travel.Duration(geo.Point{}, road).Seconds()
		if h := b.h(g); h < 0 || math.Abs(f-b.slope*g-h) > 1+1e-9*f {
			t.Fatalf("h(%v m) = %v; f − m·x = %v − %v", g, h, f, b.slope*g)
		}
	})
}

// TestSpanningTreeIsMinimal: Kruskal over the pairs within reach, joined
// by edges of weight w(reach), weighs what Prim's algorithm over every
// pair weighs, on the default bands' h; on a budget of pairs too small
// for reach, it weighs no more than that (g capped lower), and no less
// than Prim's under g capped at reach/64.
func TestSpanningTreeIsMinimal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		at := drawPoints(t, 0.5)
		n := len(at)
		req := Request{Stores: []Store{{}}}
		b := newBandedDriving(&req, []storeDemand{{}})
		reach := rapid.SampledFrom([]float64{5000, 30000}).Draw(t, "reach")
		budget := rapid.SampledFrom([]int{treePairs, 0, 5, 40}).Draw(t, "budget")
		tree := spanningTree(at, reach, func(g float64) float64 { return b.h(min(g, reach)) }, budget)
		if tree == nil {
			if budget >= n*n {
				t.Fatalf("no tree of %d points on a budget of %d pairs", n, budget)
			}
			return
		}
		if len(tree) != n-1 {
			t.Fatalf("%d edges for %d points", len(tree), n)
		}
		var got float64
		for i, e := range tree {
			got += e
			if i > 0 && e > tree[i-1] {
				t.Fatalf("edges not heaviest first: %v", tree)
			}
		}
		full, least := primWeight(at, b.h, reach), primWeight(at, b.h, reach/64)
		if budget >= n*n && math.Abs(got-full) > 1e-6 {
			t.Fatalf("spanning tree weighs %v; Prim's %v", got, full)
		}
		if got > full+1e-6 || got < least-1e-6 {
			t.Fatalf("spanning tree on a budget of %d weighs %v; Prim's %v, capped at reach/64 %v", budget, got, full, least)
		}
	})
}

// primWeight is the weight of a minimum spanning tree of the points under
// h(min(g, limit)), by Prim's algorithm over every pair.
func primWeight(at []geo.Point, h func(float64) float64, limit float64) float64 {
	n := len(at)
	in, dist := make([]bool, n), make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[0] = 0
	var sum float64
	for range n {
		u := -1
		for v := range n {
			if !in[v] && (u < 0 || dist[v] < dist[u]) {
				u = v
			}
		}
		in[u], sum = true, sum+dist[u]
		for v := range n {
			if !in[v] {
				dist[v] = min(dist[v], h(min(geo.Distance(at[u], at[v]), limit)))
			}
		}
	}
	return sum
}

// drawPoints draws 1 to 30 points within spread degrees of (0, 0) in
// latitude and longitude.
func drawPoints(t *rapid.T, spread float64) []geo.Point {
	at := make([]geo.Point, rapid.IntRange(1, 30).Draw(t, "n"))
	for i := range at {
		at[i] = geo.Point{Lat: rapid.Float64Range(-spread, spread).Draw(t, "lat"), Lng: rapid.Float64Range(-spread, spread).Draw(t, "lng")}
	}
	return at
}
