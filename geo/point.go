package geo

import (
	"errors"
	"fmt"
	"math"
)

// Point is a location in degrees: Lat in [-90, 90], Lng in [-180, 180].
type Point struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// ErrInvalidCoordinate is matched by every CoordinateError with errors.Is.
var ErrInvalidCoordinate = errors.New("geo: invalid coordinate")

// CoordinateError reports one bad coordinate of a Point: Field is the JSON
// member name, "lat" or "lng", and Value the offending number (NaN, ±Inf or
// out of range).
type CoordinateError struct {
	Field string
	Value float64
}

// Error formats the problem, for example "geo: lat 91 outside [-90, 90]".
func (e *CoordinateError) Error() string { return "geo: " + e.describe() }

// describe is the message without the package prefix, for wrapping errors.
func (e *CoordinateError) describe() string {
	lim := 90
	if e.Field == "lng" {
		lim = 180
	}
	if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
		return fmt.Sprintf("%s is %v, want a finite number", e.Field, e.Value)
	}
	return fmt.Sprintf("%s %v outside [-%d, %d]", e.Field, e.Value, lim, lim)
}

// Is makes errors.Is(err, ErrInvalidCoordinate) true.
func (e *CoordinateError) Is(target error) bool { return target == ErrInvalidCoordinate }

// Problems lists every bad field of p, latitude first; it is empty when p is
// a valid location. NaN and infinities fail the range tests too, since every
// comparison with NaN is false.
func (p Point) Problems() []CoordinateError {
	var out []CoordinateError
	if !(p.Lat >= -90 && p.Lat <= 90) {
		out = append(out, CoordinateError{Field: "lat", Value: p.Lat})
	}
	if !(p.Lng >= -180 && p.Lng <= 180) {
		out = append(out, CoordinateError{Field: "lng", Value: p.Lng})
	}
	return out
}

// Check returns nil for a valid point, or a *CoordinateError for its
// first bad field. Use Problems to get every bad field.
func (p Point) Check() error {
	if ps := p.Problems(); len(ps) > 0 {
		return &ps[0]
	}
	return nil
}

// String formats p as "(lat, lng)".
func (p Point) String() string {
	return fmt.Sprintf("(%g, %g)", p.Lat, p.Lng)
}
