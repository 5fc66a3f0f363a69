package engine_test

import (
	"encoding/json"
	"fmt"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// The multi-temperature preset has a curbside door for its nose
// compartment besides the rear door; a trailer type that lists no doors
// has the rear door alone. A door list that breaks the rules fails Check
// with every door's path.
func ExampleMultiTempReefer48() {
	mt := engine.MultiTempReefer48()
	doors, _ := json.Marshal(mt.Doors)
	fmt.Println(string(doors))

	mt.Doors = append(mt.Doors, constraints.Door{Side: constraints.CurbDoor, FromMM: 2000, ToMM: 15000})
	for _, v := range constraints.CheckDoors("fleet[0].doors", mt.Doors, mt.Inside.LengthMM) {
		fmt.Println(v)
	}
	// Output:
	// [{"side":"REAR"},{"side":"CURB","toMM":2500}]
	// fleet[0].doors[2].toMM: toMM 15,000 mm: beyond the end of the 14,350 mm inside length [INVALID_VALUE]
	// fleet[0].doors[2].fromMM: CURB door 2,000–15,000 mm overlaps fleet[0].doors[1] at 0–2,500 mm in the same wall [INVALID_VALUE]
}
