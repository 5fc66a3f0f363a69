package geo

import (
	"math"

	"github.com/paulmach/orb"
	orbgeo "github.com/paulmach/orb/geo"
)

// EarthRadius is the sphere radius in metres behind Distance. It equals
// orb.EarthRadius, the WGS84 equatorial radius, so distances come out about
// 0.1% longer than with the mean radius of 6371.0088 km.
const EarthRadius = 6378137.0

// compile-time guard: Distance relies on orb using the same radius.
var _ = [1]struct{}{}[int(EarthRadius-orb.EarthRadius)]

// toOrb converts to orb's [lon, lat] order.
func toOrb(p Point) orb.Point { return orb.Point{p.Lng, p.Lat} }

// Distance returns the great-circle (haversine) distance in metres between
// two valid points, in [0, π·EarthRadius]. It is symmetric and
// Distance(p, p) is 0. For invalid points (see Point.Check) the result is
// meaningless, possibly NaN.
func Distance(a, b Point) float64 {
	d := orbgeo.DistanceHaversine(toOrb(a), toOrb(b))
	if math.IsNaN(d) && validLatLng(a) && validLatLng(b) {
		// orb does not clamp the haversine term to 1, so rounding on nearly
		// antipodal points makes it take sqrt of a tiny negative number. The
		// true distance there is half the circumference to within rounding.
		return math.Pi * EarthRadius
	}
	return d
}

// Bearing returns the initial great-circle bearing from a to b in degrees,
// clockwise from north, in [0, 360). Bearing(a, a) is 0. At the poles, where
// north is undefined, it follows orb's formula and is still within range.
func Bearing(a, b Point) float64 {
	if a == b {
		return 0
	}
	deg := orbgeo.Bearing(toOrb(a), toOrb(b))
	if deg < 0 {
		deg += 360
	}
	if deg >= 360 {
		// -1e-15 + 360 rounds to 360.
		deg = 0
	}
	return deg
}

func validLatLng(p Point) bool {
	return p.Lat >= -90 && p.Lat <= 90 && p.Lng >= -180 && p.Lng <= 180
}
