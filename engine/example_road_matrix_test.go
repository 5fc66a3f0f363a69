package engine_test

import (
	"fmt"
	"strings"

	"github.com/haulplan/haulplan/engine"
)

// A road matrix as a routing engine's table gives it (OSRM's durations
// and distances, say), read on its own: one way takes longer than the
// other, and null is a leg without a route. Set it as
// Request.RoadMatrix, or send it as "travel": {"matrix": ...}.
func ExampleDecodeRoadMatrix() {
	m, err := engine.DecodeRoadMatrix(strings.NewReader(`{
	  "ids": ["DC", "S1", "S2"],
	  "distancesM": [[0, 12400.5, 30100], [13900, 0, null], [29800, 21000, 0]],
	  "durationsS": [[0, 840.2, 1800], [960, 0, null], [1790, 1260, 0]]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, leg := range [][2]int{{0, 1}, {1, 0}, {1, 2}} {
		metres, d, ok := m.Leg(leg[0], leg[1])
		if !ok {
			fmt.Printf("%s → %s: no route\n", m.IDs[leg[0]], m.IDs[leg[1]])
			continue
		}
		fmt.Printf("%s → %s: %.1f km, %v\n", m.IDs[leg[0]], m.IDs[leg[1]], metres/1000, d)
	}
	_, err = engine.DecodeRoadMatrix(strings.NewReader(`{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1]], "durationsS": [[0, -5], [1, 0]]}`))
	fmt.Println(err)
	// Output:
	// DC → S1: 12.4 km, 14m1s
	// S1 → DC: 13.9 km, 16m0s
	// S1 → S2: no route
	// 2 violations:
	//   distancesM[1]: has 1 leg; ids lists 2: one leg per id [INVALID_VALUE]
	//   durationsS[0][1]: leg "DC" → "S1" of -5 s: must not be negative [INVALID_VALUE]
}
