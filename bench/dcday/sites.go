package dcday

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/haulplan/haulplan/geo"
)

// site is where a store stands and whether it is in a dense metro core.
type site struct {
	at    geo.Point
	urban bool
}

// metro are the centres of the Dallas–Fort Worth area a store in the metro
// part stands around, with their shares of those stores.
var metro = []struct {
	at    geo.Point
	share float64
}{
	{geo.Point{Lat: 32.7767, Lng: -96.7970}, 0.35}, // Dallas
	{geo.Point{Lat: 32.7555, Lng: -97.3308}, 0.25}, // Fort Worth
	{geo.Point{Lat: 33.0800, Lng: -96.7800}, 0.25}, // Plano, Frisco
	{geo.Point{Lat: 32.7357, Lng: -97.1081}, 0.15}, // Arlington
}

// metroShare of the stores stand in the metro area, the rest in towns.
const metroShare = 0.6

// storeSites places n stores within radius km of the DC: metroShare of
// them scattered around the metro centres (the core within 8 km of one is
// urban), the others in towns spread out to the radius, more of them near
// than far, a few stores to a town.
func storeSites(r *rand.Rand, n int, radius float64) []site {
	towns := make([]geo.Point, max(4, n/25))
	for i := range towns {
		d := 40 + (radius-45)*r.Float64()
		towns[i] = offset(dcLocation, d, 2*math.Pi*r.Float64())
	}
	sites := make([]site, n)
	for i := range sites {
		for {
			var s site
			if r.Float64() < metroShare {
				c := metro[pick(r)].at
				d := math.Abs(r.NormFloat64()) * 12
				s = site{at: offset(c, d, 2*math.Pi*r.Float64()), urban: d < 8}
			} else {
				c := towns[r.IntN(len(towns))]
				s = site{at: offset(c, math.Abs(r.NormFloat64())*3, 2*math.Pi*r.Float64())}
			}
			if geo.Distance(dcLocation, s.at) <= radius*1000 {
				sites[i] = s
				break
			}
		}
	}
	return sites
}

func pick(r *rand.Rand) int {
	u := r.Float64()
	for i, m := range metro {
		if u -= m.share; u < 0 {
			return i
		}
	}
	return len(metro) - 1
}

// offset moves p by d km in direction bearing (radians from north), on a
// local flat approximation that is close enough for a few hundred km.
func offset(p geo.Point, d, bearing float64) geo.Point {
	const kmPerDegree = 111.2
	return geo.Point{
		Lat: p.Lat + d*math.Cos(bearing)/kmPerDegree,
		Lng: p.Lng + d*math.Sin(bearing)/(kmPerDegree*math.Cos(p.Lat*math.Pi/180)),
	}
}

// shortYards marks round(ShortYardShare·n) stores as taking 48 ft trailers
// at most, urban ones first: a metro-core store is three times as likely
// to have a tight yard.
func shortYards(r *rand.Rand, sites []site) []bool {
	k := int(math.Round(ShortYardShare * float64(len(sites))))
	type key struct {
		i int
		v float64
	}
	keys := make([]key, len(sites))
	for i, s := range sites {
		v := r.Float64()
		if s.urban {
			v /= 3
		}
		keys[i] = key{i, v}
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Compare(a.v, b.v) })
	short := make([]bool, len(sites))
	for _, kk := range keys[:k] {
		short[kk.i] = true
	}
	return short
}
