package geo

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Places of the targets the default bands are held to.
var (
	lancasterDC = Point{Lat: 32.5921, Lng: -96.7561} // the quickstart sample's DC, south of Dallas
	austin      = Point{Lat: 30.2672, Lng: -97.7431}
	downtown    = Point{Lat: 32.7767, Lng: -96.7970} // Dallas
)

// north returns the point km kilometres (great-circle) due north of p.
func north(p Point, km float64) Point {
	return Point{Lat: p.Lat + km*1000/EarthRadius*180/math.Pi, Lng: p.Lng}
}

func TestDefaultBandsTargets(t *testing.T) {
	var m TravelModel
	if d := m.Duration(lancasterDC, austin); d < 3*time.Hour || d > 4*time.Hour {
		t.Errorf("DC south of Dallas to Austin (%.1f km great-circle): %v, want between 3 h and 4 h",
			Distance(lancasterDC, austin)/1000, d)
	}
	five := north(downtown, 5)
	if g := Distance(downtown, five); math.Abs(g-5000) > 1 {
		t.Fatalf("north(5 km) is %v m away", g)
	}
	if d := m.Duration(downtown, five); d < 8*time.Minute || d > 15*time.Minute {
		t.Errorf("5 km urban leg: %v, want between 8 and 15 minutes", d)
	}
	if road := m.RoadDistance(downtown, five); road < 5000*1.2 || road > 5000*1.6 {
		t.Errorf("5 km urban leg: %v m of road, want a town circuity", road)
	}
	if got := (TravelModel{Bands: DefaultBands()}); got.Duration(lancasterDC, austin) != m.Duration(lancasterDC, austin) {
		t.Error("the zero model and one with DefaultBands differ")
	}
	if len(TravelModel{}.Problems()) != 0 || len(bandProblems(DefaultBands())) != 0 {
		t.Errorf("default bands fail their own rules: %v", bandProblems(DefaultBands()))
	}
}

// TestSingleSpeedIsTheOldFormula: a model that sets speedKmh or circuity
// gets, to the second and the metre, one speed over circuity × the
// great-circle distance, with 55 km/h and 1.3 for the one not given.
func TestSingleSpeedIsTheOldFormula(t *testing.T) {
	a, b := Point{0, 0}, Point{0, 1}
	// 111319.49 m × 1.3 = 144715.34 m at 55 km/h = 9472.24 s, rounded up.
	if got, want := (TravelModel{SpeedKmh: 55}).Duration(a, b), 9473*time.Second; got != want {
		t.Errorf("Duration at 55 km/h = %v, want %v", got, want)
	}
	if got, want := (TravelModel{Circuity: 1.3}).Duration(a, b), 9473*time.Second; got != want {
		t.Errorf("Duration over 1.3 = %v, want %v", got, want)
	}
	rapid.Check(t, func(t *rapid.T) {
		p, q := genPoint().Draw(t, "p"), genPoint().Draw(t, "q")
		m := TravelModel{
			SpeedKmh: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(1, 130)).Draw(t, "speed"),
			Circuity: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(1, 3)).Draw(t, "circuity"),
		}
		if m.SpeedKmh == 0 && m.Circuity == 0 {
			m.SpeedKmh = 55
		}
		speed, circuity := cmpOr(m.SpeedKmh, 55), cmpOr(m.Circuity, 1.3)
		road := Distance(p, q) * circuity
		want := time.Duration(math.Ceil(road*3.6/speed)) * time.Second
		if got := m.RoadDistance(p, q); got != road {
			t.Fatalf("RoadDistance = %v, want %v", got, road)
		}
		if got := m.Duration(p, q); got != want {
			t.Fatalf("Duration = %v, want %v", got, want)
		}
	})
}

func cmpOr(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// genBands draws bands that pass Check: limits rising, speeds not falling,
// circuities not rising.
func genBands() *rapid.Generator[[]SpeedBand] {
	return rapid.Custom(func(t *rapid.T) []SpeedBand {
		n := rapid.IntRange(1, 5).Draw(t, "bands")
		out := make([]SpeedBand, n)
		upTo, speed, circuity := 0.0, rapid.Float64Range(5, 60).Draw(t, "speed0"), rapid.Float64Range(1, 2).Draw(t, "circuity0")
		for i := range out {
			if i < n-1 {
				upTo += rapid.Float64Range(0.001, 200).Draw(t, "width")
				out[i].UpToKm = upTo
			}
			out[i].SpeedKmh, out[i].Circuity = speed, circuity
			speed += rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0, 40)).Draw(t, "faster")
			circuity = max(1, circuity-rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0, 0.5)).Draw(t, "straighter"))
		}
		return out
	})
}

// distances are great-circle distances in metres to try a model on: a
// range from 0 to 1,000 km, and every band limit with its floating-point
// neighbours.
func distances(bands []SpeedBand) []float64 {
	var gs []float64
	for g := 0.0; g <= 1e6; g += 250 {
		gs = append(gs, g)
	}
	for _, b := range bands {
		at := b.UpToKm * 1000
		gs = append(gs, math.Nextafter(at, 0), at, math.Nextafter(at, math.Inf(1)), at-0.5, at+0.5)
	}
	slices.Sort(gs)
	return gs
}

// TestTravelNeverShrinksWithDistance: over a range of distances and at
// every band limit, a longer leg never has less road or a shorter time.
func TestTravelNeverShrinksWithDistance(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, m TravelModel) {
		var road float64
		var secs int64
		for i, g := range distances(m.bands()) {
			r, s := m.leg(g)
			if i > 0 && (r < road || s < secs) {
				t.Fatalf("%v: at %v m: %v m, %v s, after %v m, %v s", m.bands(), g, r, s, road, secs)
			}
			road, secs = r, s
		}
	}
	check(t, TravelModel{})
	check(t, TravelModel{SpeedKmh: 55})
	rapid.Check(t, func(t *rapid.T) { check(t, TravelModel{Bands: genBands().Draw(t, "bands")}) })

	// Along a meridian, through the points themselves.
	var m TravelModel
	var last time.Duration
	for km := 0.0; km <= 400; km += 0.5 {
		d := m.Duration(downtown, north(downtown, km))
		if d < last {
			t.Fatalf("%v km north: %v, after %v", km, d, last)
		}
		last = d
	}
}

// TestBandsAreConcave: road distance and unrounded time are concave and 0
// at 0, hence subadditive, for every model Check accepts; and through
// points, no way via a third point is shorter than the direct leg less a
// second, which the engine's lower bounds rely on.
func TestBandsAreConcave(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bands := genBands().Draw(t, "bands")
		if ps := bandProblems(bands); len(ps) > 0 {
			t.Fatalf("generated bands fail Check: %v", ps)
		}
		a := rapid.Float64Range(0, 5e5).Draw(t, "a")
		b := rapid.Float64Range(0, 5e5).Draw(t, "b")
		ra, sa := bandedLeg(bands, a)
		rb, sb := bandedLeg(bands, b)
		rab, sab := bandedLeg(bands, a+b)
		rmid, smid := bandedLeg(bands, (a+b)/2)
		const tol = 1e-9
		if rab > (ra+rb)*(1+tol) || sab > (sa+sb)*(1+tol) {
			t.Fatalf("not subadditive: f(%v+%v) = %v m, %v s > %v m, %v s", a, b, rab, sab, ra+rb, sa+sb)
		}
		if rmid < (ra+rb)/2*(1-tol) || smid < (sa+sb)/2*(1-tol) {
			t.Fatalf("not concave between %v and %v: midpoint %v m, %v s", a, b, rmid, smid)
		}
		if r0, s0 := bandedLeg(bands, 0); r0 != 0 || s0 != 0 {
			t.Fatalf("f(0) = %v m, %v s", r0, s0)
		}

		m := TravelModel{Bands: bands}
		p, q, via := genPoint().Draw(t, "p"), genPoint().Draw(t, "q"), genPoint().Draw(t, "via")
		if m.Duration(p, via)+m.Duration(via, q) < m.Duration(p, q)-time.Second {
			t.Fatalf("via %v: %v + %v < %v − 1 s", via, m.Duration(p, via), m.Duration(via, q), m.Duration(p, q))
		}
	})
}

func TestBandProblems(t *testing.T) {
	nan := math.NaN()
	town, arterial, highway := SpeedBand{UpToKm: 5, SpeedKmh: 35, Circuity: 1.4}, SpeedBand{UpToKm: 30, SpeedKmh: 60, Circuity: 1.25}, SpeedBand{SpeedKmh: 90, Circuity: 1.12}
	tests := []struct {
		name   string
		m      TravelModel
		fields []string
	}{
		{"defaults", TravelModel{Bands: []SpeedBand{town, arterial, highway}}, nil},
		{"one band", TravelModel{Bands: []SpeedBand{{SpeedKmh: 70, Circuity: 1.2}}}, nil},
		{"equal neighbours", TravelModel{Bands: []SpeedBand{{UpToKm: 5, SpeedKmh: 50, Circuity: 1.2}, {SpeedKmh: 50, Circuity: 1.2}}}, nil},
		{"with speedKmh and circuity", TravelModel{SpeedKmh: 60, Circuity: 1.2, Bands: []SpeedBand{highway}}, []string{"speedKmh", "circuity"}},
		{"limits not rising", TravelModel{Bands: []SpeedBand{arterial, town, highway}},
			[]string{"bands[1].upToKm", "bands[1].speedKmh", "bands[1].circuity"}},
		{"last band with an end", TravelModel{Bands: []SpeedBand{town, arterial}}, []string{"bands[1].upToKm"}},
		{"middle band without an end", TravelModel{Bands: []SpeedBand{town, {SpeedKmh: 60, Circuity: 1.25}, highway}}, []string{"bands[1].upToKm"}},
		{"bad numbers", TravelModel{Bands: []SpeedBand{{UpToKm: nan, SpeedKmh: -3, Circuity: 0.9}, {UpToKm: math.Inf(1), SpeedKmh: nan, Circuity: math.Inf(1)}, {SpeedKmh: 0, Circuity: 0}}},
			[]string{"bands[0].upToKm", "bands[0].speedKmh", "bands[0].circuity", "bands[1].upToKm", "bands[1].speedKmh", "bands[1].circuity",
				"bands[2].speedKmh", "bands[2].circuity"}},
		{"slower and more circuitous", TravelModel{Bands: []SpeedBand{{UpToKm: 10, SpeedKmh: 80, Circuity: 1.1}, {SpeedKmh: 40, Circuity: 1.5}}},
			[]string{"bands[1].speedKmh", "bands[1].circuity"}},
		{"too many", TravelModel{Bands: func() []SpeedBand {
			out := make([]SpeedBand, MaxBands+1)
			for i := range out {
				out[i] = SpeedBand{UpToKm: float64(i + 1), SpeedKmh: 50, Circuity: 1.2}
			}
			out[MaxBands].UpToKm = 0
			return out
		}()}, []string{"bands"}},
	}
	for _, tc := range tests {
		ps := tc.m.Problems()
		var got []string
		for _, p := range ps {
			got = append(got, p.Field)
			if p.Reason == "" {
				t.Errorf("%s: %s without a reason", tc.name, p.Field)
			}
		}
		if !slices.Equal(got, tc.fields) {
			t.Errorf("%s: problems on %v, want %v (%v)", tc.name, got, tc.fields, ps)
		}
		if err := tc.m.Check(); (err == nil) != (len(tc.fields) == 0) || (err != nil && !errors.Is(err, ErrInvalidTravelModel)) {
			t.Errorf("%s: Check = %v", tc.name, err)
		}
	}
}

func TestDefaultBandsIsACopy(t *testing.T) {
	b := DefaultBands()
	b[0].SpeedKmh = 1
	if DefaultBands()[0].SpeedKmh == 1 {
		t.Fatal("DefaultBands shares its array with the default model")
	}
}
