package geo

import (
	"context"
	"encoding/json"
	"math"
	"testing"
)

// FuzzPointsAndModel decodes outside JSON into points and a travel model
// (one speed or speed bands), as a request would, and checks that
// validation and the computations agree: no panic, valid input gives
// finite in-range numbers whose legs obey the triangle inequality, and
// invalid input is reported rather than computed.
func FuzzPointsAndModel(f *testing.F) {
	f.Add([]byte(`{"points":[{"lat":41.88,"lng":-87.63},{"lat":43.04,"lng":-87.91}],"model":{"speedKmh":60}}`))
	f.Add([]byte(`{"points":[{"lat":90,"lng":180},{"lat":-90,"lng":-180},{"lat":0,"lng":0}],"model":{"circuity":1}}`))
	f.Add([]byte(`{"points":[{"lat":91,"lng":0},{"lat":1e308,"lng":-1e308}],"model":{"speedKmh":-5,"circuity":0.5}}`))
	f.Add([]byte(`{"points":[{"lat":18.83885183633153,"lng":158.58327169620446},{"lat":-18.83885183633153,"lng":-21.41672830379554}]}`))
	f.Add([]byte(`{"points":[{},{}],"model":{"speedKmh":1e-300}}`))
	f.Add([]byte(`{"points":[{"lat":32.59,"lng":-96.75},{"lat":30.26,"lng":-97.74},{"lat":32.64,"lng":-96.75}],"model":{"bands":[{"upToKm":5,"speedKmh":35,"circuity":1.4},{"upToKm":30,"speedKmh":60,"circuity":1.25},{"speedKmh":90,"circuity":1.12}]}}`))
	f.Add([]byte(`{"points":[{"lat":1,"lng":1},{"lat":1.01,"lng":1}],"model":{"speedKmh":60,"bands":[{"upToKm":0.001,"speedKmh":1e-9,"circuity":1e9},{"upToKm":-1,"speedKmh":20,"circuity":0.5},{"upToKm":3,"speedKmh":1e308,"circuity":1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Points []Point     `json:"points"`
			Model  TravelModel `json:"model"`
		}
		if json.Unmarshal(data, &in) != nil || len(in.Points) > 64 {
			return
		}
		valid := in.Model.Check() == nil
		for i, p := range in.Points {
			if (p.Check() == nil) != (len(p.Problems()) == 0) {
				t.Fatalf("point %d: Check and Problems disagree", i)
			}
			valid = valid && p.Check() == nil
			for _, q := range in.Points {
				if p.Check() != nil || q.Check() != nil {
					continue
				}
				if d := Distance(p, q); !(d >= 0 && d <= math.Pi*EarthRadius) {
					t.Fatalf("Distance(%v, %v) = %v", p, q, d)
				}
				if b := Bearing(p, q); !(b >= 0 && b < 360) {
					t.Fatalf("Bearing(%v, %v) = %v", p, q, b)
				}
			}
		}
		m, err := in.Model.Matrix(context.Background(), in.Points)
		if !valid {
			if err == nil {
				t.Fatal("invalid input built a matrix")
			}
			return
		}
		if err == ErrDurationOverflow {
			return
		}
		if err != nil || m.Len() != len(in.Points) {
			t.Fatalf("valid input: %v", err)
		}
		// A valid model's legs obey the triangle inequality up to the
		// rounding to whole seconds, which the engine's lower bounds need,
		// and up to the haversine's own rounding near antipodal points
		// (0.5 m in 20,000 km: see TestDistanceProperties).
		for i := range in.Points {
			for j := range in.Points {
				for k := range in.Points {
					slack := 1 + m.Seconds(i, j)/10_000_000
					if m.Seconds(i, k)+m.Seconds(k, j) < m.Seconds(i, j)-slack {
						t.Fatalf("%d→%d→%d: %d + %d s < %d s − 1", i, k, j, m.Seconds(i, k), m.Seconds(k, j), m.Seconds(i, j))
					}
				}
			}
		}
	})
}
