package constraints

import (
	"math"
	"slices"
	"testing"
)

// TestAxleGeometryCheck: every figure but the kingpin's position is
// required (a zero misstates the axle loads), and a bad one is reported
// with its value and unit.
func TestAxleGeometryCheck(t *testing.T) {
	good := AxleGeometry{KingpinMM: 914, AxleGroupMM: 12480, TareKg: 6350, TareCentreMM: 8430, KingpinLimitKg: 11300, AxleGroupLimitKg: 15422}
	cases := []struct {
		name   string
		change func(g *AxleGeometry)
		length float64
		want   []string
	}{
		{"good", func(*AxleGeometry) {}, 16002, nil},
		{"all absent", func(g *AxleGeometry) { *g = AxleGeometry{} }, 16002, []string{
			"REQUIRED a.axleGroupMM: axleGroupMM: required, the distance from the nose to the centre of the axle group in millimetres",
			"REQUIRED a.tareKg: tareKg: required, the empty trailer's weight in kilograms",
			"REQUIRED a.tareCentreMM: tareCentreMM: required, the distance from the nose to the empty trailer's centre of gravity in millimetres",
			"REQUIRED a.kingpinLimitKg: kingpinLimitKg: required, the most the kingpin may carry in kilograms",
			"REQUIRED a.axleGroupLimitKg: axleGroupLimitKg: required, the most the axle group may carry in kilograms",
		}},
		{"negative, huge and not finite", func(g *AxleGeometry) { g.TareKg, g.KingpinMM, g.AxleGroupLimitKg = -3, 2e12, math.NaN() }, 16002, []string{
			"INVALID_VALUE a.kingpinMM: kingpinMM 2,000,000,000,000 mm: must be at most 1,000,000,000,000 mm",
			"INVALID_VALUE a.tareKg: tareKg -3 kg: must be more than 0 kg",
			"INVALID_VALUE a.axleGroupLimitKg: axleGroupLimitKg NaN: must be a finite number of kilograms",
		}},
		{"kingpin at the front wall", func(g *AxleGeometry) { g.KingpinMM = 0 }, 16002, nil},
		{"kingpin ahead of the front wall", func(g *AxleGeometry) { g.KingpinMM = -10 }, 16002, []string{
			"INVALID_VALUE a.kingpinMM: kingpinMM -10 mm: must not be negative",
		}},
		{"axle group ahead of the kingpin", func(g *AxleGeometry) { g.AxleGroupMM = 800 }, 16002, []string{
			"INVALID_VALUE a.axleGroupMM: axleGroupMM 800 mm: the axle group must lie behind the kingpin, at 914 mm",
		}},
		{"axle group beyond the trailer", func(g *AxleGeometry) { g.AxleGroupMM = 17000 }, 16002, []string{
			"INVALID_VALUE a.axleGroupMM: axleGroupMM 17,000 mm: the axle group must lie within the trailer's 16,002 mm",
		}},
	}
	for _, c := range cases {
		g := good
		c.change(&g)
		var got []string
		for _, v := range g.Check("a", c.length) {
			got = append(got, v.Code+" "+v.Path+": "+v.Message)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
}
