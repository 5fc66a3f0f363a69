package geo

import (
	"fmt"
	"math"
)

// SpeedBand is one stretch of a banded TravelModel. The bands cut a leg's
// great-circle distance at their limits: band i covers the part of it from
// the previous band's UpToKm (0 for the first band) to its own UpToKm, and
// the last band, whose UpToKm is 0, everything beyond. Each great-circle
// metre of a band's part stands for Circuity road metres, driven at
// SpeedKmh. A 12 km leg under the bands {5 km, 35 km/h, 1.4},
// {30 km, 60 km/h, 1.25}, {90 km/h, 1.12} drives 5 km × 1.4 = 7 km at
// 35 km/h and 7 km × 1.25 = 8.75 km at 60 km/h: 15.75 km in 20 min 45 s.
//
// A leg's overall circuity (its road distance over its great-circle
// distance) is thus the average of the band circuities it crosses, and its
// overall speed the mean of their speeds weighted by road distance: both
// move towards the last band's as legs grow. Check requires the speeds not
// to fall and the circuities not to rise from one band to the next, which
// makes road distance and duration concave in the great-circle distance
// (their slopes, Circuity and Circuity/SpeedKmh per great-circle metre,
// never rise), the property the engine's lower bounds need.
type SpeedBand struct {
	// UpToKm is the great-circle distance in km at which the band ends:
	// more than the previous band's; 0 (left out) for the last band,
	// which has no end.
	UpToKm float64 `json:"upToKm,omitempty"`
	// SpeedKmh is the average speed on the band's roads, in km/h: more
	// than 0 and at least the previous band's.
	SpeedKmh float64 `json:"speedKmh"`
	// Circuity is the band's road metres per great-circle metre: at least
	// 1 and at most the previous band's.
	Circuity float64 `json:"circuity"`
}

// MaxBands is the most bands a TravelModel may have.
const MaxBands = 16

// defaultBands are DefaultBands, in the order a truck leaving a DC meets
// them.
var defaultBands = [...]SpeedBand{
	{UpToKm: 5, SpeedKmh: 35, Circuity: 1.4},
	{UpToKm: 30, SpeedKmh: 60, Circuity: 1.25},
	{SpeedKmh: 90, Circuity: 1.12},
}

// DefaultBands returns a copy of the bands the zero TravelModel drives:
// the first 5 km of a leg (great-circle) at 35 km/h over a circuity of 1.4
// (town streets), the next 25 km at 60 km/h over 1.25 (arterials and
// metropolitan freeways), the rest at 90 km/h over 1.12 (highways).
//
// The highway band's 90 km/h is the average operating speed of trucks on
// US interstates that FHWA's Freight Performance Measurement program
// measures from truck positions: 53 to 59 mph (85 to 95 km/h) by
// corridor, 56.8 mph on I-35 (Freight Facts and Figures 2010, table 3-8),
// dropping below 55 mph near large cities. The arterial band's 60 km/h
// mixes metropolitan interstates, where the same program measured 43 to
// 58 mph in the 14 largest US metro areas (56 mph around Dallas; Freight
// Facts and Figures 2013, table 3-17), with signalled arterials. The
// town band's 35 km/h is an assumption for streets with signals, turns
// and yards, not a measured figure: it puts a 5 km leg at 12 minutes.
//
// Circuity falls with distance, as the studies of the detour index find,
// short trips being the most circuitous: Boscoe, Henry and Zdeb (2012,
// The Professional Geographer 64(2)) measured a mean ratio of driving to
// straight-line distance of about 1.4 from some 66,000 US locations to
// their community hospitals, mostly short trips; across 300 European cities the radial detour to the
// centre averages 1.34 (Environment and Planning B: Urban Analytics and
// City Science, 2023, doi:10.1177/23998083231168870); Newell (1980)
// puts urban networks at about 1.2; Ballou, Rahardja and Sakai (2002,
// "Selected country circuity factors for road and rail networks", Journal
// of Business Logistics) give national road factors, over intercity
// distances, of about 1.2 for the United States and higher ones for
// European countries. The bands' 1.4, 1.25 and 1.12 make a leg's overall
// circuity 1.4 up to 5 km, 1.33 at 10 km, 1.28 at 30 km, 1.17 at 100 km and
// 1.14 at 275 km (the sample's DC south of Dallas to Austin, which the
// bands put at 3 h 46 min).
func DefaultBands() []SpeedBand {
	return append([]SpeedBand(nil), defaultBands[:]...)
}

// bandedLeg returns the road distance in metres and the driving time in
// seconds (not rounded) of a leg of great-circle length g metres under
// bands. Each term is nondecreasing in g, and floating-point sums and
// products with positive constants keep that order, so the computed
// results are nondecreasing in g too.
func bandedLeg(bands []SpeedBand, g float64) (road, seconds float64) {
	from := 0.0
	for i, b := range bands {
		if !(g > from) {
			break
		}
		to := g
		if i < len(bands)-1 {
			to = min(g, b.UpToKm*1000)
		}
		r := (to - from) * b.Circuity
		road += r
		seconds += r * 3.6 / b.SpeedKmh
		from = to
	}
	if math.IsNaN(g) {
		return g, g
	}
	return road, seconds
}

// bandProblems lists every bad field of bands, with paths "bands[i].name".
func bandProblems(bands []SpeedBand) []ModelError {
	var out []ModelError
	if len(bands) > MaxBands {
		out = append(out, ModelError{Field: "bands", Value: float64(len(bands)),
			Reason: fmt.Sprintf("at most %d bands", MaxBands)})
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for i, b := range bands {
		at := func(name string) string { return fmt.Sprintf("bands[%d].%s", i, name) }
		last := i == len(bands)-1
		var prev SpeedBand
		if i > 0 {
			prev = bands[i-1]
		}
		switch {
		case last && b.UpToKm != 0:
			out = append(out, ModelError{Field: at("upToKm"), Value: b.UpToKm,
				Reason: "must be left out on the last band, which covers every longer distance"})
		case last:
		case !finite(b.UpToKm):
			out = append(out, ModelError{Field: at("upToKm"), Value: b.UpToKm, Reason: "must be a finite number"})
		case !(b.UpToKm > 0):
			out = append(out, ModelError{Field: at("upToKm"), Value: b.UpToKm,
				Reason: "must be more than 0 km: only the last band has no end"})
		case i > 0 && finite(prev.UpToKm) && prev.UpToKm > 0 && !(b.UpToKm > prev.UpToKm):
			out = append(out, ModelError{Field: at("upToKm"), Value: b.UpToKm,
				Reason: fmt.Sprintf("must be more than the previous band's %v km", prev.UpToKm)})
		}
		switch {
		case !finite(b.SpeedKmh):
			out = append(out, ModelError{Field: at("speedKmh"), Value: b.SpeedKmh, Reason: "must be a finite number"})
		case !(b.SpeedKmh > 0):
			out = append(out, ModelError{Field: at("speedKmh"), Value: b.SpeedKmh, Reason: "must be more than 0 km/h"})
		case i > 0 && finite(prev.SpeedKmh) && prev.SpeedKmh > 0 && b.SpeedKmh < prev.SpeedKmh:
			out = append(out, ModelError{Field: at("speedKmh"), Value: b.SpeedKmh,
				Reason: fmt.Sprintf("must be at least the previous band's %v km/h: speeds may not fall as legs grow", prev.SpeedKmh)})
		}
		switch {
		case !finite(b.Circuity):
			out = append(out, ModelError{Field: at("circuity"), Value: b.Circuity, Reason: "must be a finite number"})
		case !(b.Circuity >= 1):
			out = append(out, ModelError{Field: at("circuity"), Value: b.Circuity, Reason: "must be at least 1"})
		case i > 0 && finite(prev.Circuity) && prev.Circuity >= 1 && b.Circuity > prev.Circuity:
			out = append(out, ModelError{Field: at("circuity"), Value: b.Circuity,
				Reason: fmt.Sprintf("must be at most the previous band's %v: circuity may not rise as legs grow", prev.Circuity)})
		}
	}
	return out
}
