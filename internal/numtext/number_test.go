package numtext

import (
	"math"
	"testing"
)

func TestFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {-3, "-3"}, {999, "999"}, {1000, "1,000"},
		{1e9, "1,000,000,000"}, {-1234567.25, "-1,234,567.25"}, {0.85, "0.85"}, {15422, "15,422"},
		{1e21, "1e+21"}, {math.NaN(), "NaN"}, {math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"},
	} {
		if got := Float(c.v); got != c.want {
			t.Errorf("Float(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestInt(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0"}, {-5, "-5"}, {100000, "100,000"}, {-1000, "-1,000"}, {math.MinInt64, "-9,223,372,036,854,775,808"}} {
		if got := Int(c.n); got != c.want {
			t.Errorf("Int(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestWhole(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{12345.6, "12,346"}, {-0.4, "0"}, {999.5, "1,000"}, {-2500.5, "-2,501"}, {80000, "80,000"}} {
		if got := Whole(c.v); got != c.want {
			t.Errorf("Whole(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
