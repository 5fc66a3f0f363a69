package geo

import (
	"math"
	"reflect"
	"testing"
	"time"
)

func TestRoadMatrixLegs(t *testing.T) {
	r := NewRoadMatrix([]string{"DC", "A", "B"})
	r.Set(0, 1, 1500.5, 90*time.Second+time.Millisecond)
	r.Set(1, 0, 2100, 200*time.Second)
	r.SetNoRoute(1, 2)
	if m, d, ok := r.Leg(0, 1); !ok || m != 1500.5 || d != 91*time.Second {
		t.Errorf("DC→A: %v m, %v, %v", m, d, ok)
	}
	if m, d, ok := r.Leg(1, 0); !ok || m != 2100 || d != 200*time.Second {
		t.Errorf("A→DC (asymmetric): %v m, %v, %v", m, d, ok)
	}
	if _, _, ok := r.Leg(1, 2); ok {
		t.Error("A→B has a route")
	}
	if _, _, ok := r.Leg(2, 1); !ok {
		t.Error("B→A has none")
	}
	r.Set(2, 2, 0, 100*365*24*time.Hour)
	if _, _, ok := r.Leg(2, 2); !ok {
		t.Error("a century of driving reads as no route")
	}
	if ps := r.Problems(); len(ps) != 0 {
		t.Errorf("problems: %+v", ps)
	}
}

func TestRoadMatrixToMatrix(t *testing.T) {
	r := NewRoadMatrix([]string{"DC", "A", "B"})
	for i := range 3 {
		for j := range 3 {
			r.Set(i, j, float64(10*i+j), time.Duration(100*i+j)*time.Second)
		}
	}
	r.SetNoRoute(2, 0)
	// The same places in the same order: the slices themselves.
	m := r.Matrix([]int{0, 1, 2})
	if &r.Seconds[0] != &m.seconds[0] || &r.Metres[0] != &m.metres[0] {
		t.Error("Matrix copied a road matrix it could share")
	}
	if m.Routed(2, 0) || !m.Routed(0, 2) || m.Seconds(1, 2) != 102 || m.Distance(2, 1) != 21 {
		t.Errorf("shared matrix: %v %v %v %v", m.Routed(2, 0), m.Routed(0, 2), m.Seconds(1, 2), m.Distance(2, 1))
	}
	// Another order: a copy of those legs.
	sub := r.Matrix([]int{2, 0})
	if sub.Len() != 2 || sub.Routed(0, 1) || sub.Seconds(1, 0) != 2 || sub.Distance(1, 0) != 2 {
		t.Errorf("sub-matrix: %v %v %v", sub.Routed(0, 1), sub.Seconds(1, 0), sub.Distance(1, 0))
	}
}

func TestRoadMatrixProblems(t *testing.T) {
	r := NewRoadMatrix([]string{"DC", "", "DC"})
	r.Metres[1] = -5
	r.Metres[2] = float32(math.Inf(1))
	r.Seconds[3] = -1
	r.Metres[5] = float32(math.NaN())
	r.Seconds[5] = NoRoute // no route: its metres are not read
	got := r.Problems()
	want := []RoadMatrixProblem{
		{Field: "ids", Row: 1, Col: -1, Reason: "is empty"},
		{Field: "ids", Row: 2, Col: -1, Reason: `"DC" is ids[0] too`},
		{Field: "seconds", Row: 1, Col: 0, Value: -1, Reason: "must not be negative"},
		{Field: "metres", Row: 0, Col: 1, Value: -5, Reason: "must not be negative"},
		{Field: "metres", Row: 0, Col: 2, Value: math.Inf(1), Reason: "must be a finite number"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	short := &RoadMatrix{IDs: []string{"A", "B"}, Metres: make([]float32, 3), Seconds: make([]int32, 4)}
	if ps := short.Problems(); len(ps) != 1 || ps[0].Field != "metres" || ps[0].Row != -1 {
		t.Errorf("short: %+v", ps)
	}
	// Many bad entries: the first ones and a count of the rest.
	big := NewRoadMatrix(make([]string, 10))
	for i := range big.IDs {
		big.IDs[i] = string(rune('a' + i))
	}
	for c := range big.Seconds {
		big.Seconds[c] = -1
	}
	ps := big.Problems()
	if len(ps) != maxEntryProblems+1 || ps[maxEntryProblems].Value != 100-maxEntryProblems {
		t.Errorf("%d problems, last %+v", len(ps), ps[len(ps)-1])
	}
}
