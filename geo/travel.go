package geo

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults of a zero TravelModel.
const (
	// DefaultSpeedKmh is the average road speed of a loaded truck over a
	// mixed urban and highway route, in km/h.
	DefaultSpeedKmh = 55.0
	// DefaultCircuity is the ratio of road distance to great-circle
	// distance; 1.3 is a common figure for road networks in North America
	// and Europe.
	DefaultCircuity = 1.3
)

// ErrInvalidTravelModel is matched by every ModelError with errors.Is.
var ErrInvalidTravelModel = errors.New("geo: invalid travel model")

// TravelModel estimates road travel from great-circle distance: road
// distance is Distance(a, b)·Circuity metres and the duration is that
// distance at SpeedKmh, rounded up to whole seconds. Zero fields mean
// DefaultSpeedKmh and DefaultCircuity, so the zero TravelModel is ready to
// use. TravelModel is a MatrixSource.
type TravelModel struct {
	SpeedKmh float64 `json:"speedKmh,omitempty"`
	Circuity float64 `json:"circuity,omitempty"`
}

// ModelError reports one bad field of a TravelModel: Field is the JSON
// member name ("speedKmh" or "circuity"), Value the number given and Reason
// what is wrong with it.
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

// speed and circuity return the effective values after defaults.
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

// Problems lists every bad field of m: after defaults, SpeedKmh must be
// finite and positive and Circuity finite and at least 1.
func (m TravelModel) Problems() []ModelError {
	var out []ModelError
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
// Distance(a, b) times the circuity.
func (m TravelModel) RoadDistance(a, b Point) float64 {
	return Distance(a, b) * m.circuity()
}

// maxSeconds is the largest whole number of seconds a time.Duration holds.
const maxSeconds = math.MaxInt64 / int64(time.Second)

// seconds is the travel time in whole seconds, rounded up so that a plan
// never assumes a truck faster than the model. It saturates at maxSeconds
// and gives 0 for NaN (invalid points), so it never panics or wraps.
func (m TravelModel) seconds(a, b Point) int64 {
	return m.secondsFor(m.RoadDistance(a, b))
}

// secondsFor converts a road distance to whole seconds. metres / (km/h /
// 3.6) = metres·3.6 / (km/h): one formula, kept in one place, so that
// planners and validators agree to the second.
func (m TravelModel) secondsFor(road float64) int64 {
	s := math.Ceil(road * 3.6 / m.speed())
	switch {
	case !(s >= 0):
		return 0
	case s >= float64(maxSeconds):
		return maxSeconds
	}
	return int64(s)
}

// Duration returns the estimated driving time from a to b: the road
// distance at the model's speed, rounded up to whole seconds. Results are
// meaningful only for a model that passes Check and valid points.
func (m TravelModel) Duration(a, b Point) time.Duration {
	return time.Duration(m.seconds(a, b)) * time.Second
}
