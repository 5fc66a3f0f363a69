package geo

import (
	"fmt"
	"math"
	"time"
)

// NoRoute is the Seconds entry of a RoadMatrix leg that has no route (a
// null in OSRM's and Valhalla's tables): the largest int32, 68 years,
// which no shift holds, so that code reading it as a duration never takes
// the leg. The leg's Metres entry is not read.
const NoRoute = math.MaxInt32

// RoadMatrix is travel between named places as a road network computed
// it, for example a table from OSRM or Valhalla: IDs names the rows and
// columns, and Metres and Seconds hold the legs row-major, the leg from
// IDs[i] to IDs[j] at index i·n+j (n = len(IDs)), one allocation each.
//
// Distances are metres as float32 (within 1 m up to 16,000 km) and
// durations whole seconds as int32, the layout of Matrix, so that a Matrix
// of the same places in the same order shares the two slices instead of
// copying them: 5,001 places take 200 MB once. A leg whose Seconds entry is
// NoRoute has no route. Legs are used as given: the matrix need not be
// symmetric (one-way streets) nor obey the triangle inequality; the
// diagonal is read like any other leg.
type RoadMatrix struct {
	IDs     []string
	Metres  []float32
	Seconds []int32
}

// NewRoadMatrix returns a matrix of ids whose legs are all 0 m and 0 s.
func NewRoadMatrix(ids []string) *RoadMatrix {
	n := len(ids)
	return &RoadMatrix{IDs: ids, Metres: make([]float32, n*n), Seconds: make([]int32, n*n)}
}

// Len returns the number of places n.
func (r *RoadMatrix) Len() int { return len(r.IDs) }

// Set stores the leg from place i to place j: metres as float32 and d
// rounded up to whole seconds, as Matrix.Set does (a duration of NoRoute
// seconds or more is stored one second short of it). It panics like a
// slice index on an i or j out of range.
func (r *RoadMatrix) Set(i, j int, metres float64, d time.Duration) {
	c := r.cell(i, j)
	r.Metres[c] = float32(metres)
	r.Seconds[c] = min(clampSeconds(ceilSeconds(d)), NoRoute-1)
}

// SetNoRoute marks the leg from place i to place j as having no route.
func (r *RoadMatrix) SetNoRoute(i, j int) {
	c := r.cell(i, j)
	r.Metres[c], r.Seconds[c] = 0, NoRoute
}

// Leg returns the leg from place i to place j: its metres and duration,
// and ok false when it has no route.
func (r *RoadMatrix) Leg(i, j int) (metres float64, d time.Duration, ok bool) {
	c := r.cell(i, j)
	if r.Seconds[c] == NoRoute {
		return 0, 0, false
	}
	return float64(r.Metres[c]), time.Duration(r.Seconds[c]) * time.Second, true
}

func (r *RoadMatrix) cell(i, j int) int {
	n := len(r.IDs)
	if uint(i) >= uint(n) || uint(j) >= uint(n) {
		panic(fmt.Sprintf("geo: RoadMatrix index (%d, %d) out of range for %d places", i, j, n))
	}
	return i*n + j
}

// RoadMatrixProblem is one thing wrong with a RoadMatrix. Field is "ids",
// "metres" or "seconds"; Row and Col locate an entry (Row alone an id, or
// the size of a slice when both are -1); Reason says what is wrong.
type RoadMatrixProblem struct {
	Field    string
	Row, Col int
	Value    float64
	Reason   string
}

// maxEntryProblems bounds the bad entries Problems lists per slice; one
// more problem (Row and Col -1) counts the rest, so that a matrix of 25
// million bad entries does not give 25 million problems.
const maxEntryProblems = 20

// Problems lists what is wrong with r: an empty id, an id given twice,
// a slice that does not hold n×n entries, and entries that are negative,
// NaN or infinite (at most maxEntryProblems of them per slice, then one
// problem that counts the others). A NoRoute entry is not a problem.
func (r *RoadMatrix) Problems() []RoadMatrixProblem {
	var out []RoadMatrixProblem
	first := make(map[string]int, len(r.IDs))
	for i, id := range r.IDs {
		if id == "" {
			out = append(out, RoadMatrixProblem{Field: "ids", Row: i, Col: -1, Reason: "is empty"})
			continue
		}
		if k, dup := first[id]; dup {
			out = append(out, RoadMatrixProblem{Field: "ids", Row: i, Col: -1, Reason: fmt.Sprintf("%q is ids[%d] too", id, k)})
			continue
		}
		first[id] = i
	}
	n := len(r.IDs)
	sized := true
	if len(r.Metres) != n*n {
		out = append(out, RoadMatrixProblem{Field: "metres", Row: -1, Col: -1, Value: float64(len(r.Metres)),
			Reason: fmt.Sprintf("has %d entries, want %d×%d = %d", len(r.Metres), n, n, n*n)})
		sized = false
	}
	if len(r.Seconds) != n*n {
		out = append(out, RoadMatrixProblem{Field: "seconds", Row: -1, Col: -1, Value: float64(len(r.Seconds)),
			Reason: fmt.Sprintf("has %d entries, want %d×%d = %d", len(r.Seconds), n, n, n*n)})
		sized = false
	}
	if !sized {
		return out
	}
	bad := func(field string, count int) {
		if count > maxEntryProblems {
			out = append(out, RoadMatrixProblem{Field: field, Row: -1, Col: -1, Value: float64(count - maxEntryProblems),
				Reason: fmt.Sprintf("%d more entries are negative or not finite", count-maxEntryProblems)})
		}
	}
	count := 0
	for c, v := range r.Seconds {
		if v < 0 {
			if count < maxEntryProblems {
				out = append(out, RoadMatrixProblem{Field: "seconds", Row: c / n, Col: c % n, Value: float64(v), Reason: "must not be negative"})
			}
			count++
		}
	}
	bad("seconds", count)
	count = 0
	for c, v := range r.Metres {
		if v >= 0 && v <= math.MaxFloat32 || r.Seconds[c] == NoRoute {
			continue
		}
		if count < maxEntryProblems {
			reason := "must not be negative"
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				reason = "must be a finite number"
			}
			out = append(out, RoadMatrixProblem{Field: "metres", Row: c / n, Col: c % n, Value: float64(v), Reason: reason})
		}
		count++
	}
	bad("metres", count)
	return out
}

// Index returns the row of every id (the last one of an id given twice).
func (r *RoadMatrix) Index() map[string]int {
	idx := make(map[string]int, len(r.IDs))
	for i, id := range r.IDs {
		idx[id] = i
	}
	return idx
}

// Matrix returns the Matrix of the places rows (rows of r, in the order
// wanted): r's own slices, not a copy, when rows are 0, 1, …, n-1, and
// otherwise a new Matrix of just those legs. A NoRoute leg stays NoRoute
// seconds in the Matrix (see Matrix.Routed). It panics on a row out of
// range; r must have n×n entries (Problems reports when it has not).
func (r *RoadMatrix) Matrix(rows []int) *Matrix {
	n := len(r.IDs)
	same := len(rows) == n
	for k, i := range rows {
		if uint(i) >= uint(n) {
			panic(fmt.Sprintf("geo: RoadMatrix row %d out of range for %d places", i, n))
		}
		same = same && i == k
	}
	if same {
		return &Matrix{n: n, metres: r.Metres[: n*n : n*n], seconds: r.Seconds[: n*n : n*n]}
	}
	m := NewMatrix(len(rows))
	for a, i := range rows {
		for b, j := range rows {
			m.metres[a*m.n+b] = r.Metres[i*n+j]
			m.seconds[a*m.n+b] = r.Seconds[i*n+j]
		}
	}
	return m
}
