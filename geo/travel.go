package geo

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults of the single-speed TravelModel, the one a model with SpeedKmh
// or Circuity set (and no Bands) uses.
const (
	// DefaultSpeedKmh is the single-speed model's speed when only Circuity
	// is given, in km/h: an average of a loaded truck over a mixed urban
	// and highway route.
	DefaultSpeedKmh = 55.0
	// DefaultCircuity is the single-speed model's ratio of road distance to
	// great-circle distance when only SpeedKmh is given.
	DefaultCircuity = 1.3
)

// ErrInvalidTravelModel is matched by every ModelError with errors.Is.
var ErrInvalidTravelModel = errors.New("geo: invalid travel model")

// TravelModel estimates road travel from great-circle distance, in one of
// two forms:
//
//   - speed bands (Bands; the zero TravelModel uses DefaultBands): a leg's
//     great-circle distance is cut at the bands' limits, and each part is
//     driven at its band's speed over its band's circuity (see SpeedBand),
//     so that town driving opens every leg and long legs are mostly
//     highway;
//   - a single speed (SpeedKmh or Circuity set): road distance is
//     Distance(a, b)·Circuity metres and the duration is that distance at
//     SpeedKmh; a zero field of the two means DefaultSpeedKmh or
//     DefaultCircuity.
//
// Bands and the single-speed fields are exclusive: Check reports a model
// that sets both. Durations are rounded up to whole seconds. TravelModel is
// a MatrixSource.
//
// In both forms road distance and duration are functions of the
// great-circle distance alone that are 0 at 0, nondecreasing and concave
// (Check holds band speeds from falling and band circuities from rising as
// legs grow), hence subadditive: a way through intermediate points never
// takes less than the direct leg, up to the rounding to whole seconds.
// Lower bounds in the engine rest on that.
type TravelModel struct {
	SpeedKmh float64     `json:"speedKmh,omitempty"`
	Circuity float64     `json:"circuity,omitempty"`
	Bands    []SpeedBand `json:"bands,omitempty"`
}

// ModelError reports one bad field of a TravelModel: Field is the JSON
// path of the member within the model ("speedKmh", "circuity", "bands" or
// "bands[1].upToKm"), Value the number given (the band count for "bands")
// and Reason what is wrong with it.
type ModelError struct {
	Field  string
	Value  float64
	Reason string
}

// Error formats the problem, for example "geo: circuity 0.5: must be at least 1".
func (e *ModelError) Error() string {
	return fmt.Sprintf("geo: %s %v: %s", e.Field, e.Value, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidTravelModel) true.
func (e *ModelError) Is(target error) bool { return target == ErrInvalidTravelModel }

// singleSpeed reports whether m is the single-speed model: SpeedKmh or
// Circuity set and no Bands.
func (m TravelModel) singleSpeed() bool {
	return len(m.Bands) == 0 && (m.SpeedKmh != 0 || m.Circuity != 0)
}

// speed and circuity return the single-speed model's values after defaults.
func (m TravelModel) speed() float64 {
	if m.SpeedKmh == 0 {
		return DefaultSpeedKmh
	}
	return m.SpeedKmh
}

func (m TravelModel) circuity() float64 {
	if m.Circuity == 0 {
		return DefaultCircuity
	}
	return m.Circuity
}

// bands returns the bands m drives: its own, or the defaults.
func (m TravelModel) bands() []SpeedBand {
	if len(m.Bands) > 0 {
		return m.Bands
	}
	return defaultBands[:]
}

// Problems lists every bad field of m: a single-speed model needs, after
// defaults, a finite positive SpeedKmh and a finite Circuity of at least 1;
// a banded one leaves both unset and its bands follow SpeedBand's rules.
func (m TravelModel) Problems() []ModelError {
	var out []ModelError
	if len(m.Bands) > 0 {
		if m.SpeedKmh != 0 {
			out = append(out, ModelError{Field: "speedKmh", Value: m.SpeedKmh, Reason: "must be left out with bands, which give each band's speed"})
		}
		if m.Circuity != 0 {
			out = append(out, ModelError{Field: "circuity", Value: m.Circuity, Reason: "must be left out with bands, which give each band's circuity"})
		}
		return append(out, bandProblems(m.Bands)...)
	}
	switch s := m.speed(); {
	case math.IsNaN(s) || math.IsInf(s, 0):
		out = append(out, ModelError{Field: "speedKmh", Value: s, Reason: "must be a finite number"})
	case s < 0:
		out = append(out, ModelError{Field: "speedKmh", Value: s, Reason: "must be positive (0 means the default)"})
	}
	switch c := m.circuity(); {
	case math.IsNaN(c) || math.IsInf(c, 0):
		out = append(out, ModelError{Field: "circuity", Value: c, Reason: "must be a finite number"})
	case c < 1:
		out = append(out, ModelError{Field: "circuity", Value: c, Reason: "must be at least 1 (0 means the default)"})
	}
	return out
}

// Check returns nil when m is usable, or a *ModelError for its first bad
// field. Use Problems to get every bad field.
func (m TravelModel) Check() error {
	if ps := m.Problems(); len(ps) > 0 {
		return &ps[0]
	}
	return nil
}

// RoadDistance returns the estimated road distance in metres from a to b:
// Distance(a, b) times the circuity, band by band in a banded model.
func (m TravelModel) RoadDistance(a, b Point) float64 {
	road, _ := m.leg(Distance(a, b))
	return road
}

// Duration returns the estimated driving time from a to b, rounded up to
// whole seconds. Results are meaningful only for a model that passes Check
// and valid points.
func (m TravelModel) Duration(a, b Point) time.Duration {
	_, s := m.leg(Distance(a, b))
	return time.Duration(s) * time.Second
}

// leg returns the road distance in metres and the driving time in whole
// seconds of a leg whose great-circle distance is g metres: the one formula
// behind RoadDistance, Duration and Matrix, so that planners and
// validators agree to the second.
func (m TravelModel) leg(g float64) (road float64, seconds int64) {
	if m.singleSpeed() {
		road = g * m.circuity()
		return road, m.secondsFor(road)
	}
	road, s := bandedLeg(m.bands(), g)
	return road, wholeSeconds(s)
}

// maxSeconds is the largest whole number of seconds a time.Duration holds.
const maxSeconds = math.MaxInt64 / int64(time.Second)

// secondsFor converts a road distance to whole seconds at the single
// speed: metres / (km/h / 3.6) = metres·3.6 / (km/h).
func (m TravelModel) secondsFor(road float64) int64 {
	return wholeSeconds(road * 3.6 / m.speed())
}

// wholeSeconds rounds s up, so that a plan never assumes a truck faster
// than the model. It saturates at maxSeconds and gives 0 for NaN (invalid
// points), so it never panics or wraps.
func wholeSeconds(s float64) int64 {
	s = math.Ceil(s)
	switch {
	case !(s >= 0):
		return 0
	case s >= float64(maxSeconds):
		return maxSeconds
	}
	return int64(s)
}
