package geo

import (
	"context"
	"errors"
	"math"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// genPoint draws valid points, with extra weight on the poles, the
// antimeridian and the equator, where formulas tend to break.
func genPoint() *rapid.Generator[Point] {
	lat := rapid.OneOf(rapid.Float64Range(-90, 90), rapid.SampledFrom([]float64{-90, 0, 90, -89.999999, 89.999999}))
	lng := rapid.OneOf(rapid.Float64Range(-180, 180), rapid.SampledFrom([]float64{-180, 0, 180, 179.999999, -179.999999}))
	return rapid.Custom(func(t *rapid.T) Point {
		return Point{Lat: lat.Draw(t, "lat"), Lng: lng.Draw(t, "lng")}
	})
}

// antipode returns the point opposite p, to exercise the haversine near 1.
func antipode(p Point) Point {
	lng := p.Lng + 180
	if lng > 180 {
		lng -= 360
	}
	return Point{Lat: -p.Lat, Lng: lng}
}

func TestDistanceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a, b, c := genPoint().Draw(t, "a"), genPoint().Draw(t, "b"), genPoint().Draw(t, "c")
		if rapid.Bool().Draw(t, "antipodal") {
			b = antipode(a)
		}
		ab, ba := Distance(a, b), Distance(b, a)
		if ab != ba {
			t.Fatalf("Distance not symmetric: %v vs %v", ab, ba)
		}
		if d := Distance(a, a); d != 0 {
			t.Fatalf("Distance(a, a) = %v", d)
		}
		if !(ab >= 0 && ab <= math.Pi*EarthRadius) {
			t.Fatalf("Distance %v outside [0, πR]", ab)
		}
		// The haversine is ill-conditioned near antipodal points: 1-h is
		// then below 1e-15 and rounding costs up to 2R·sqrt(ε) ≈ 0.2 m.
		// Elsewhere it is accurate to well under a millimetre.
		const eps = 0.5
		if ac, bc := Distance(a, c), Distance(b, c); ab > ac+bc+eps {
			t.Fatalf("triangle inequality: d(a,b)=%v > d(a,c)+d(c,b)=%v", ab, ac+bc)
		}
		if b == antipode(a) && math.Abs(ab-math.Pi*EarthRadius) > eps {
			t.Fatalf("antipodal Distance %v, want πR", ab)
		}
		if br := Bearing(a, b); !(br >= 0 && br < 360) {
			t.Fatalf("Bearing %v outside [0, 360)", br)
		}
	})
}

func TestBearingSamePoint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPoint().Draw(t, "p")
		if b := Bearing(p, p); b != 0 {
			t.Fatalf("Bearing(p, p) = %v", b)
		}
	})
}

func TestDistanceKnown(t *testing.T) {
	// Published values use other radii; want is rescaled to EarthRadius
	// from the published figure and radius, so the test checks our
	// formula and not our choice of radius.
	landsEnd := Point{Lat: 50 + 3.0/60 + 59.0/3600, Lng: -(5 + 42.0/60 + 53.0/3600)}
	johnOGroats := Point{Lat: 58 + 38.0/60 + 38.0/3600, Lng: -(3 + 4.0/60 + 12.0/3600)}
	tests := []struct {
		name      string
		a, b      Point
		published float64 // metres
		radius    float64 // radius the published figure used, metres
		tol       float64 // metres, from the rounding of the published figure
	}{
		// Rosetta Code "Haversine formula": BNA to LAX, R = 6372.8 km.
		{"Nashville-LosAngeles", Point{36.12, -86.67}, Point{33.94, -118.40}, 2887259.9506071106, 6372800, 0.01},
		// Movable Type Scripts "Calculate distance, bearing": 968.9 km, R = 6371 km.
		{"LandsEnd-JohnOGroats", landsEnd, johnOGroats, 968900, 6371000, 50},
		// One degree of longitude on the WGS84 equator: 111,319.49 m.
		{"EquatorDegree", Point{0, 0}, Point{0, 1}, 111319.49, EarthRadius, 0.01},
		{"QuarterMeridian", Point{0, 0}, Point{90, 0}, math.Pi / 2 * EarthRadius, EarthRadius, 1e-6},
		{"HalfEquator", Point{0, 0}, Point{0, 180}, math.Pi * EarthRadius, EarthRadius, 1e-6},
		{"PoleToPole", Point{90, 0}, Point{-90, 0}, math.Pi * EarthRadius, EarthRadius, 1e-6},
		// orb yields NaN here (the haversine term rounds above 1).
		{"AntipodesRounding", Point{18.83885183633153, 158.58327169620446}, Point{-18.83885183633153, 158.58327169620446 - 180}, math.Pi * EarthRadius, EarthRadius, 1e-6},
		{"Antimeridian", Point{0, 179.5}, Point{0, -179.5}, 111319.49, EarthRadius, 0.01},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.published * EarthRadius / tc.radius
			tol := tc.tol * EarthRadius / tc.radius
			if got := Distance(tc.a, tc.b); math.Abs(got-want) > tol {
				t.Errorf("Distance = %.3f m, want %.3f ± %.3f", got, want, tol)
			}
		})
	}
}

func TestBearingKnown(t *testing.T) {
	landsEnd := Point{Lat: 50 + 3.0/60 + 59.0/3600, Lng: -(5 + 42.0/60 + 53.0/3600)}
	johnOGroats := Point{Lat: 58 + 38.0/60 + 38.0/3600, Lng: -(3 + 4.0/60 + 12.0/3600)}
	tests := []struct {
		name string
		a, b Point
		want float64
	}{
		{"north", Point{0, 0}, Point{1, 0}, 0},
		{"east", Point{0, 0}, Point{0, 1}, 90},
		{"south", Point{0, 0}, Point{-1, 0}, 180},
		{"west", Point{0, 0}, Point{0, -1}, 270},
		{"west across antimeridian", Point{0, -179.5}, Point{0, 179.5}, 270},
		// Movable Type Scripts: initial bearing 009° 07′ 11″.
		{"LandsEnd-JohnOGroats", landsEnd, johnOGroats, 9 + 7.0/60 + 11.0/3600},
	}
	for _, tc := range tests {
		if got := Bearing(tc.a, tc.b); math.Abs(got-tc.want) > 1.0/3600 {
			t.Errorf("%s: Bearing = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPointProblems(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		p      Point
		fields []string
	}{
		{Point{0, 0}, nil},
		{Point{90, 180}, nil},
		{Point{-90, -180}, nil},
		{Point{90.0000001, 0}, []string{"lat"}},
		{Point{0, -180.0000001}, []string{"lng"}},
		{Point{nan, 0}, []string{"lat"}},
		{Point{0, inf}, []string{"lng"}},
		{Point{-inf, nan}, []string{"lat", "lng"}},
		{Point{200, 400}, []string{"lat", "lng"}},
	}
	for _, tc := range tests {
		ps := tc.p.Problems()
		if len(ps) != len(tc.fields) {
			t.Errorf("%v: Problems = %v, want fields %v", tc.p, ps, tc.fields)
			continue
		}
		for i, f := range tc.fields {
			if ps[i].Field != f {
				t.Errorf("%v: problem %d field %q, want %q", tc.p, i, ps[i].Field, f)
			}
		}
		err := tc.p.Check()
		if (err == nil) != (len(tc.fields) == 0) {
			t.Errorf("%v: Check = %v", tc.p, err)
		}
		if err != nil {
			var ce *CoordinateError
			if !errors.As(err, &ce) || ce.Field != tc.fields[0] || !errors.Is(err, ErrInvalidCoordinate) {
				t.Errorf("%v: Check = %#v, want *CoordinateError on %s", tc.p, err, tc.fields[0])
			}
			if err.Error() == "" {
				t.Errorf("%v: empty message", tc.p)
			}
		}
	}
}

func TestTravelModelCheck(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		m      TravelModel
		fields []string
	}{
		{TravelModel{}, nil},
		{TravelModel{SpeedKmh: 80, Circuity: 1}, nil},
		{TravelModel{SpeedKmh: -1}, []string{"speedKmh"}},
		{TravelModel{SpeedKmh: nan}, []string{"speedKmh"}},
		{TravelModel{SpeedKmh: math.Inf(1)}, []string{"speedKmh"}},
		{TravelModel{Circuity: 0.99}, []string{"circuity"}},
		{TravelModel{Circuity: -2}, []string{"circuity"}},
		{TravelModel{SpeedKmh: nan, Circuity: nan}, []string{"speedKmh", "circuity"}},
	}
	for _, tc := range tests {
		ps := tc.m.Problems()
		if len(ps) != len(tc.fields) {
			t.Errorf("%+v: Problems = %v, want fields %v", tc.m, ps, tc.fields)
			continue
		}
		for i, f := range tc.fields {
			if ps[i].Field != f {
				t.Errorf("%+v: problem %d on %q, want %q", tc.m, i, ps[i].Field, f)
			}
		}
		err := tc.m.Check()
		if (err == nil) != (len(tc.fields) == 0) || (err != nil && !errors.Is(err, ErrInvalidTravelModel)) {
			t.Errorf("%+v: Check = %v", tc.m, err)
		}
	}
}

func TestTravelModelValues(t *testing.T) {
	a, b := Point{0, 0}, Point{0, 1}
	d := Distance(a, b) // 111319.49 m
	m := TravelModel{SpeedKmh: DefaultSpeedKmh}
	if got, want := m.RoadDistance(a, b), d*DefaultCircuity; got != want {
		t.Errorf("RoadDistance = %v, want %v", got, want)
	}
	// 111319.49 m × 1.3 = 144715.34 m at 55 km/h = 9472.24 s, rounded up.
	if got, want := m.Duration(a, b), 9473*time.Second; got != want {
		t.Errorf("Duration = %v, want %v", got, want)
	}
	m = TravelModel{SpeedKmh: 36, Circuity: 1} // 10 m/s
	if got, want := m.Duration(a, b), 11132*time.Second; got != want {
		t.Errorf("Duration at 10 m/s = %v, want %v", got, want)
	}
	if got := m.Duration(a, a); got != 0 {
		t.Errorf("Duration(a, a) = %v", got)
	}
	if got := (TravelModel{SpeedKmh: 1e-300}).Duration(a, b); got != time.Duration(maxSeconds)*time.Second {
		t.Errorf("Duration at a crawl = %v, want saturation", got)
	}
}

func TestMatrixProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pts := rapid.SliceOfN(genPoint(), 0, 150).Draw(t, "points")
		m := TravelModel{
			SpeedKmh: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(1, 130)).Draw(t, "speed"),
			Circuity: rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(1, 3)).Draw(t, "circuity"),
		}
		if rapid.Bool().Draw(t, "banded") {
			m = TravelModel{Bands: genBands().Draw(t, "bands")}
		}
		workers := rapid.IntRange(1, 8).Draw(t, "workers")
		got, err := m.matrix(context.Background(), pts, workers)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := m.matrix(context.Background(), pts, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != len(pts) {
			t.Fatalf("Len = %d, want %d", got.Len(), len(pts))
		}
		for i := range pts {
			for j := range pts {
				wantD := float64(float32(m.RoadDistance(pts[i], pts[j])))
				wantT := m.Duration(pts[i], pts[j])
				if d := got.Distance(i, j); d != wantD || d != ref.Distance(i, j) || d != got.Distance(j, i) {
					t.Fatalf("Distance(%d,%d) = %v, want %v (1 worker %v, transposed %v)", i, j, d, wantD, ref.Distance(i, j), got.Distance(j, i))
				}
				if d := got.Duration(i, j); d != wantT || d != ref.Duration(i, j) || d != got.Duration(j, i) {
					t.Fatalf("Duration(%d,%d) = %v, want %v", i, j, d, wantT)
				}
				if got.Seconds(i, j) != int64(wantT/time.Second) {
					t.Fatalf("Seconds(%d,%d) = %v, want %v", i, j, got.Seconds(i, j), wantT)
				}
				if i == j && (got.Distance(i, j) != 0 || got.Seconds(i, j) != 0) {
					t.Fatalf("diagonal (%d,%d) not zero", i, j)
				}
			}
		}
	})
}

func TestMatrixErrors(t *testing.T) {
	pts := []Point{{0, 0}, {1, 1}, {91, 0}, {0, 181}}
	_, err := TravelModel{}.Matrix(context.Background(), pts)
	var pe *PointError
	if !errors.As(err, &pe) || pe.Index != 2 || pe.Err.Field != "lat" || !errors.Is(err, ErrInvalidCoordinate) {
		t.Errorf("invalid point: err = %v, want *PointError at index 2", err)
	}
	_, err = TravelModel{Circuity: 0.5}.Matrix(context.Background(), pts[:2])
	if !errors.Is(err, ErrInvalidTravelModel) {
		t.Errorf("invalid model: err = %v", err)
	}
	_, err = TravelModel{SpeedKmh: 1e-6}.Matrix(context.Background(), pts[:2])
	if !errors.Is(err, ErrDurationOverflow) {
		t.Errorf("crawling model: err = %v, want ErrDurationOverflow", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := (TravelModel{}).Matrix(ctx, pts[:2]); !errors.Is(err, context.Canceled) || m != nil {
		t.Errorf("cancelled: %v, %v", m, err)
	}
	m, err := TravelModel{}.Matrix(context.Background(), nil)
	if err != nil || m.Len() != 0 {
		t.Errorf("empty: %v, %v", m, err)
	}
}

func TestMatrixCancelMidway(t *testing.T) {
	pts := make([]Point, 2000)
	for i := range pts {
		pts[i] = Point{Lat: float64(i%180) - 89.5, Lng: float64(i%360) - 179.5}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Millisecond, cancel)
	m, err := TravelModel{}.Matrix(ctx, pts)
	// The build may beat the timer on a fast machine; either outcome is
	// correct, but a cancelled build must not return a matrix.
	if err != nil && (m != nil || !errors.Is(err, context.Canceled)) {
		t.Errorf("cancelled midway: %v, %v", m != nil, err)
	}
}

func TestMatrixSet(t *testing.T) {
	m := NewMatrix(2)
	var _ MatrixSource = TravelModel{}
	m.Set(0, 1, 1234.5, 1500*time.Millisecond)
	m.Set(1, 0, 999, -time.Second)
	if m.Distance(0, 1) != 1234.5 || m.Seconds(0, 1) != 2 || m.Duration(0, 1) != 2*time.Second {
		t.Errorf("Set(0,1): %v m, %v", m.Distance(0, 1), m.Duration(0, 1))
	}
	if m.Distance(1, 0) != 999 || m.Seconds(1, 0) != 0 {
		t.Errorf("Set(1,0): %v m, %v s", m.Distance(1, 0), m.Seconds(1, 0))
	}
	m.Set(1, 1, 0, 100*365*24*time.Hour)
	if m.Seconds(1, 1) != math.MaxInt32-1 || !m.Routed(1, 1) {
		t.Errorf("Set saturation: %v s, routed %v", m.Seconds(1, 1), m.Routed(1, 1))
	}
	defer func() {
		if recover() == nil {
			t.Error("out-of-range index did not panic")
		}
	}()
	m.Distance(0, 2)
}

func BenchmarkMatrix(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			// Stores scattered over the continental United States.
			pts := make([]Point, n)
			r := newSplitMix(1)
			for i := range pts {
				pts[i] = Point{Lat: 25 + 24*r.float(), Lng: -124 + 57*r.float()}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := (TravelModel{}).Matrix(context.Background(), pts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*(n-1)/2), "ns/pair")
		})
	}
}

// splitMix is a tiny deterministic generator so the benchmark input does
// not depend on math/rand's seeding rules.
type splitMix struct{ s uint64 }

func newSplitMix(seed uint64) *splitMix { return &splitMix{seed} }

func (r *splitMix) float() float64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}
