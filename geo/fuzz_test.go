package geo

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
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

// FuzzRushHours decodes outside JSON into a rush-hour profile, its clock
// times read by ParseClock as the engine's decoder reads them (or given
// in seconds, to reach what a Go caller can set), and checks that Check
// and Problems agree, that a profile Check rejects is reported with paths,
// and that a valid one resolves, in one of several zones, to sorted and
// disjoint intervals through which both forms of Arrive agree, never beat
// free flow and keep FIFO.
func FuzzRushHours(f *testing.F) {
	f.Add([]byte(`{"zone":1,"profile":[{"from":"06:30","to":"09:00","factor":0.6,"days":[1,2,3,4,5]},{"from":"16:00","to":"19:00","factor":0.7}]}`))
	f.Add([]byte(`{"zone":2,"profile":[{"from":"22:00","to":"24:00","factor":0.9},{"from":"00:00","to":"05:00","factor":0.9}]}`))
	f.Add([]byte(`{"zone":1,"profile":[{"from":"01:30","to":"03:30","factor":0.1,"days":[0]}]}`))
	f.Add([]byte(`{"profile":[{"from":"09:00","to":"06:30","factor":1.5,"days":[7,7]},{"from":"6:30","to":"24:01","factor":-1}]}`))
	f.Add([]byte(`{"profile":[{"fromS":-1,"toS":90000,"factor":0.5},{"fromS":3600.5,"toS":7200,"factor":0.5},{"from":"01:00","to":"03:00","factor":0.5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in struct {
			Zone    int
			Profile []struct {
				From, To   string
				FromS, ToS *float64
				Factor     float64
				Days       []int
			}
		}
		if json.Unmarshal(data, &in) != nil || len(in.Profile) > 2*MaxRushPeriods {
			return
		}
		var h RushHours
		for _, p := range in.Profile {
			from, errFrom := ParseClock(p.From)
			to, errTo := ParseClock(p.To)
			if p.FromS != nil {
				from, errFrom = time.Duration(*p.FromS*float64(time.Second)), nil
			}
			if p.ToS != nil {
				to, errTo = time.Duration(*p.ToS*float64(time.Second)), nil
			}
			if errFrom != nil || errTo != nil {
				return
			}
			var days []time.Weekday
			for _, d := range p.Days {
				days = append(days, time.Weekday(d))
			}
			h = append(h, RushPeriod{From: from, To: to, Factor: p.Factor, Days: days})
		}
		ps := h.Problems()
		if (h.Check() == nil) != (len(ps) == 0) {
			t.Fatalf("Check %v, Problems %v", h.Check(), ps)
		}
		for _, p := range ps {
			if !strings.HasPrefix(p.Field, "profile") || p.Reason == "" {
				t.Fatalf("problem %+v", p)
			}
		}
		if len(ps) > 0 {
			return
		}
		zones := []string{"UTC", "America/Chicago", "Europe/Berlin", "Australia/Lord_Howe"}
		loc, err := time.LoadLocation(zones[uint(in.Zone)%uint(len(zones))])
		if err != nil {
			t.Fatal(err)
		}
		from := time.Date(2026, time.March, 5, 0, 0, 0, 0, time.UTC) // over the US spring change
		to := from.Add(7 * 24 * time.Hour)
		ivs := h.Intervals(loc, from, to)
		for i, iv := range ivs {
			if !iv.End.After(iv.Start) || iv.Start.Before(from) || iv.End.After(to) || (i > 0 && iv.Start.Before(ivs[i-1].End)) ||
				!(iv.Factor >= MinRushFactor && iv.Factor < 1) {
				t.Fatalf("interval %d: %+v", i, iv)
			}
		}
		tl := ivs.Timeline(from)
		prev := math.Inf(-1)
		for k := range int64(60) {
			depart := k * 3 * 3600 // every 3 h of the week
			free := int64(37*60) * (1 + k%5)
			a := ivs.Arrive(from.Add(time.Duration(depart)*time.Second), time.Duration(free)*time.Second)
			fl := tl.Arrive(float64(depart), float64(free))
			if got := a.Sub(from).Seconds(); got != fl || got < float64(depart+free) || got > float64(depart)+float64(free)/MinRushFactor+1 {
				t.Fatalf("leg of %d s at +%d s: %v and %v", free, depart, got, fl)
			}
			if back := tl.Depart(fl, float64(free)); back < float64(depart) || tl.Arrive(back, float64(free)) > fl {
				t.Fatalf("leg of %d s arriving at %v: Depart gives %v, not at least the +%d s it left", free, fl, back, depart)
			}
			if same := tl.Arrive(float64(depart), 37*60); same < prev {
				t.Fatalf("leg at +%d s arrives at %v, before the one before", depart, same)
			} else {
				prev = same
			}
		}
	})
}

// FuzzParseClock holds ParseClock to time.Parse's reading of "15:04" on
// five-character input, and to FormatClock's writing of what it reads.
func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"06:30", "24:00", "23:59", "24:01", "6:30", "06:3x", "00:00", "99:99", "+1:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseClock(s)
		ref, refErr := time.Parse("15:04", s)
		wantOK := s == "24:00" || (len(s) == 5 && refErr == nil)
		if (err == nil) != wantOK {
			t.Fatalf("ParseClock(%q) = %v, %v; time.Parse: %v", s, d, err, refErr)
		}
		if err != nil {
			return
		}
		if s != "24:00" && d != time.Duration(ref.Hour())*time.Hour+time.Duration(ref.Minute())*time.Minute {
			t.Fatalf("ParseClock(%q) = %v, time.Parse reads %v", s, d, ref)
		}
		if back := FormatClock(d); back != s {
			t.Fatalf("FormatClock(ParseClock(%q)) = %q", s, back)
		}
	})
}
