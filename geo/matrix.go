package geo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Matrix holds travel between n points: distances in metres as float32 and
// durations in whole seconds as int32, each in a row-major n×n array, so a
// cell costs 8 bytes (n = 5,000 takes 200 MB). float32 keeps distances to
// within 1 m up to 16,000 km; int32 seconds reach 68 years.
//
// A Matrix from TravelModel is symmetric with a zero diagonal; one filled
// with Set need not be (one-way streets), nor need one from a RoadMatrix,
// whose legs without a route hold NoRoute seconds (see Routed). The zero
// Matrix has Len 0.
type Matrix struct {
	n       int
	metres  []float32
	seconds []int32
}

// NewMatrix returns an n×n matrix of zeros. It panics if n is negative.
func NewMatrix(n int) *Matrix {
	if n < 0 {
		panic(fmt.Sprintf("geo: NewMatrix(%d): negative size", n))
	}
	return &Matrix{n: n, metres: make([]float32, n*n), seconds: make([]int32, n*n)}
}

// Len returns the number of points n.
func (m *Matrix) Len() int { return m.n }

// cell returns the index of (i, j), panicking like a slice index would on
// an out-of-range i or j (a programmer error, not input).
func (m *Matrix) cell(i, j int) int {
	if uint(i) >= uint(m.n) || uint(j) >= uint(m.n) {
		panic(fmt.Sprintf("geo: Matrix index (%d, %d) out of range for %d points", i, j, m.n))
	}
	return i*m.n + j
}

// Distance returns the distance in metres from point i to point j, as
// stored (float32 precision).
func (m *Matrix) Distance(i, j int) float64 { return float64(m.metres[m.cell(i, j)]) }

// Seconds returns the duration from point i to point j in whole seconds.
func (m *Matrix) Seconds(i, j int) int64 { return int64(m.seconds[m.cell(i, j)]) }

// Duration returns the duration from point i to point j.
func (m *Matrix) Duration(i, j int) time.Duration {
	return time.Duration(m.seconds[m.cell(i, j)]) * time.Second
}

// Routed reports whether the leg from point i to point j has a route: a
// leg of a RoadMatrix that had none holds NoRoute seconds, 68 years, which
// no schedule takes, and a distance that means nothing.
func (m *Matrix) Routed(i, j int) bool { return m.seconds[m.cell(i, j)] != NoRoute }

// Set stores the travel from point i to point j: metres as float32, and d
// rounded up to whole seconds (so no travel time is ever underestimated),
// saturating one second short of NoRoute; a negative d is stored as 0.
func (m *Matrix) Set(i, j int, metres float64, d time.Duration) {
	c := m.cell(i, j)
	m.metres[c] = float32(metres)
	m.seconds[c] = min(clampSeconds(ceilSeconds(d)), NoRoute-1)
}

func ceilSeconds(d time.Duration) int64 {
	s := int64(d / time.Second)
	if d%time.Second > 0 {
		s++
	}
	return s
}

func clampSeconds(s int64) int32 {
	switch {
	case s < 0:
		return 0
	case s > math.MaxInt32:
		return math.MaxInt32
	}
	return int32(s)
}

// MatrixSource builds the travel matrix between points, in their order. A
// road-network client implements it to replace the TravelModel estimate.
type MatrixSource interface {
	Matrix(ctx context.Context, points []Point) (*Matrix, error)
}

// PointError reports an invalid point given to TravelModel.Matrix: its
// index in the slice and its first bad coordinate.
type PointError struct {
	Index int
	Err   *CoordinateError
}

// Error formats the problem, for example "geo: point 3: lat 91 outside [-90, 90]".
func (e *PointError) Error() string {
	return fmt.Sprintf("geo: point %d: %s", e.Index, e.Err.describe())
}

// Unwrap returns the coordinate error, so errors.Is(err, ErrInvalidCoordinate) holds.
func (e *PointError) Unwrap() error { return e.Err }

// ErrDurationOverflow is returned by TravelModel.Matrix when a travel time
// does not fit the int32 seconds of a Matrix, which takes a speed far below
// any vehicle's.
var ErrDurationOverflow = errors.New("geo: travel time exceeds the int32 seconds of a Matrix")

// Matrix builds the n×n matrix of RoadDistance and Duration between points,
// implementing MatrixSource. It validates the model and every point first
// (returning a *ModelError or a *PointError for the first invalid point),
// then fills the cells with runtime.GOMAXPROCS workers; every worker has
// ended when it returns. Each cell is computed on its own and the lower
// triangle mirrors the upper, so the result is symmetric and the same
// whatever the number of workers. On cancellation it returns ctx.Err().
func (m TravelModel) Matrix(ctx context.Context, points []Point) (*Matrix, error) {
	return m.matrix(ctx, points, runtime.GOMAXPROCS(0))
}

// tile is the side of the square blocks the upper triangle is cut into: a
// 64×64 block of both arrays (32 KiB) stays in cache while it is written
// transposed into the lower triangle.
const tile = 64

func (m TravelModel) matrix(ctx context.Context, points []Point, workers int) (*Matrix, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	for i, p := range points {
		if ps := p.Problems(); len(ps) > 0 {
			return nil, &PointError{Index: i, Err: &ps[0]}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := len(points)
	out := NewMatrix(n)
	bands := (n + tile - 1) / tile
	if workers > bands {
		workers = bands
	}
	if workers < 1 {
		workers = 1
	}

	// Work is handed out one band of rows at a time, the longest (top)
	// band first, so that the triangle's uneven rows balance out.
	var next atomic.Int64
	var overflow atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b := int(next.Add(1) - 1)
				if b >= bands || ctx.Err() != nil || overflow.Load() {
					return
				}
				if !m.fillBand(ctx, out, points, b) {
					overflow.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if overflow.Load() {
		return nil, ErrDurationOverflow
	}
	return out, nil
}

// fillBand computes rows [b·tile, (b+1)·tile) right of the diagonal and
// mirrors them below it. Only this call writes those cells, so workers never
// touch the same memory. It reports false if a duration overflowed int32.
// It stops early, leaving cells unset, when ctx is cancelled.
func (m TravelModel) fillBand(ctx context.Context, out *Matrix, points []Point, b int) bool {
	n := out.n
	lo, hi := b*tile, min((b+1)*tile, n)
	ok := true
	for jlo := lo; jlo < n; jlo += tile {
		if ctx.Err() != nil {
			// The caller sees the cancellation and discards the matrix.
			return ok
		}
		jhi := min(jlo+tile, n)
		for i := lo; i < hi; i++ {
			for j := max(jlo, i+1); j < jhi; j++ {
				road, s := m.leg(Distance(points[i], points[j]))
				metres := float32(road)
				if s >= NoRoute {
					ok = false
					s = NoRoute - 1
				}
				out.metres[i*n+j], out.metres[j*n+i] = metres, metres
				out.seconds[i*n+j], out.seconds[j*n+i] = int32(s), int32(s)
			}
		}
	}
	return ok
}
