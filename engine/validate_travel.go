package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// legTravel gives Validate the distance and driving time of the legs the
// routes drive, between places numbered 0 for the DC and 1+i for store i.
// Validate needs only those legs, so it never builds the matrix of every
// store to every store: with Request.Travel each leg is computed from its
// two points (geo.TravelModel's RoadDistance and Duration, the figures its
// Matrix holds); Options.Matrix is asked only for the DC and the stores
// the plan visits; and the rows of a road matrix (Request.RoadMatrix) are
// found by id, and its legs read as given.
type legTravel struct {
	req *Request
	mx  *geo.Matrix
	row map[int]int // place → row of mx
}

func newLegTravel(ctx context.Context, req *Request, visited []int) (*legTravel, error) {
	t := &legTravel{req: req}
	if (req.Options.Matrix == nil && req.RoadMatrix == nil) || len(visited) == 0 {
		return t, nil
	}
	t.row = make(map[int]int, 1+len(visited))
	t.row[0] = 0
	if rm := req.RoadMatrix; rm != nil {
		byID := rm.Index()
		rows := []int{byID[req.DC.ID]}
		for _, s := range visited {
			t.row[1+s] = len(rows)
			rows = append(rows, byID[req.Stores[s].ID])
		}
		t.mx = rm.Matrix(rows)
		return t, nil
	}
	points := make([]geo.Point, 0, 1+len(visited))
	points = append(points, req.DC.Location)
	for _, s := range visited {
		t.row[1+s] = len(points)
		points = append(points, req.Stores[s].Location)
	}
	mx, err := req.Options.Matrix.Matrix(ctx, points)
	if err != nil {
		return nil, err
	}
	if mx == nil || mx.Len() != len(points) {
		return nil, constraints.Violations{{Code: CodeInvalidValue, Path: "options.matrix",
			Message: "the matrix source returned a matrix of the wrong size"}}
	}
	t.mx = mx
	return t, nil
}

// point is the location of place p.
func (t *legTravel) point(p int) geo.Point {
	if p == 0 {
		return t.req.DC.Location
	}
	return t.req.Stores[p-1].Location
}

// placeName names place p for a message.
func (t *legTravel) placeName(p int) string {
	if p == 0 {
		return "the DC " + strconv.Quote(t.req.DC.ID)
	}
	return "store " + strconv.Quote(t.req.Stores[p-1].ID)
}

// leg returns the road distance in metres and the driving time from place
// a to place b, and routed false for a leg the road matrix has no route
// for.
func (t *legTravel) leg(a, b int) (float64, time.Duration, bool) {
	if t.mx != nil {
		i, j := t.row[a], t.row[b]
		if !t.mx.Routed(i, j) {
			return 0, 0, false
		}
		return t.mx.Distance(i, j), t.mx.Duration(i, j), true
	}
	pa, pb := t.point(a), t.point(b)
	return t.req.Travel.RoadDistance(pa, pb), t.req.Travel.Duration(pa, pb), true
}
