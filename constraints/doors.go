package constraints

import (
	"encoding/json"
	"fmt"

	"github.com/haulplan/haulplan/internal/numtext"
)

// DoorSide is the wall of a trailer a door is in.
//
// Sides are named as a driver in the US names them: the curb side is the
// trailer's right side in the direction of travel, the road (street) side
// its left. Seen from the rear door looking in towards the nose, which is
// how loadplan names the sides of a floor, the curb side is on the RIGHT
// and the road side on the LEFT.
type DoorSide int

// The door sides. The zero value is no side: a door must say its side.
const (
	// RearDoor is the door across the back of the trailer: it opens the
	// whole width at the end of the floor farthest from the nose.
	RearDoor DoorSide = iota + 1
	// CurbDoor is a door in the curbside wall (the right, seen from the
	// rear door), over a stretch of the floor's length.
	CurbDoor
	// RoadDoor is a door in the roadside (street-side) wall (the left,
	// seen from the rear door), over a stretch of the floor's length.
	RoadDoor
)

var doorSideNames = [...]string{"REAR", "CURB", "ROAD"}

// DoorSideNames lists the JSON names of the door sides, in order: name
// i is DoorSide(i + 1).
func DoorSideNames() []string { return doorSideNames[:] }

// String returns the side's JSON name, REAR, CURB or ROAD.
func (s DoorSide) String() string {
	if s.Valid() {
		return doorSideNames[s-1]
	}
	return fmt.Sprintf("DoorSide(%d)", int(s))
}

// Valid reports whether s is one of the defined sides.
func (s DoorSide) Valid() bool { return s >= RearDoor && s <= RoadDoor }

// MarshalJSON writes the side's name.
func (s DoorSide) MarshalJSON() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("constraints: cannot marshal %v", s)
	}
	return json.Marshal(s.String())
}

// UnmarshalJSON reads a side's name.
func (s *DoorSide) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return fmt.Errorf("door side must be a string: %s", b)
	}
	for i, n := range doorSideNames {
		if n == name {
			*s = DoorSide(i + 1)
			return nil
		}
	}
	return fmt.Errorf("unknown door side %q (want REAR, CURB or ROAD)", name)
}

// Door is one door of a trailer through which pallets are unloaded.
//
// A side door (CURB or ROAD) opens the stretch of the floor from FromMM to
// ToMM, measured along the inside length from the nose (the front wall):
// a pallet comes out of it sideways, straight through the opening, so its
// own stretch along the floor must lie within the door's. The rear door
// opens the whole width at the back and has no stretch (both zero).
type Door struct {
	Side   DoorSide `json:"side"`
	FromMM int      `json:"fromMM,omitempty"`
	ToMM   int      `json:"toMM,omitempty"`
}

// MaxDoors is the most doors a trailer type may list.
const MaxDoors = 8

// RearOnly is the door list of a trailer that states none: the rear door.
var RearOnly = []Door{{Side: RearDoor}}

// DoorsOrRear returns doors, or the rear door alone when doors is empty:
// a trailer that states no doors has its rear door only.
func DoorsOrRear(doors []Door) []Door {
	if len(doors) == 0 {
		return RearOnly
	}
	return doors
}

// CheckDoors checks a trailer's door list at path (for example
// "fleet[2].doors") against its inside length lengthMM (not compared when
// 0 or less, which the caller reports): at most MaxDoors doors, the rear
// door listed once and without a stretch, each side door of a known side
// with 0 ≤ fromMM < toMM ≤ lengthMM, and no two doors in one wall sharing
// floor. An empty list is the rear door alone.
func CheckDoors(path string, doors []Door, lengthMM int) Violations {
	var vs Violations
	if len(doors) == 0 {
		return nil
	}
	if len(doors) > MaxDoors {
		vs.Add(CodeInvalidValue, path, "%d doors: a trailer lists at most %d", len(doors), MaxDoors)
	}
	rear := -1
	for i, d := range doors {
		p := Index(path, i)
		switch {
		case d.Side == 0:
			vs.Add(CodeRequired, Field(p, "side"), "side: required, REAR, CURB or ROAD")
			continue
		case !d.Side.Valid():
			vs.Add(CodeInvalidValue, Field(p, "side"), "side %d: must be REAR, CURB or ROAD", int(d.Side))
			continue
		case d.Side == RearDoor:
			if rear >= 0 {
				vs.Add(CodeInvalidValue, Field(p, "side"), "a second REAR door: %s[%d] is the rear door already", path, rear)
			} else {
				rear = i
			}
			if d.FromMM != 0 {
				vs.Add(CodeInvalidValue, Field(p, "fromMM"), "fromMM %s mm: the rear door opens the whole back of the trailer and has no stretch along it (leave fromMM and toMM out)", numtext.Int(d.FromMM))
			}
			if d.ToMM != 0 {
				vs.Add(CodeInvalidValue, Field(p, "toMM"), "toMM %s mm: the rear door opens the whole back of the trailer and has no stretch along it (leave fromMM and toMM out)", numtext.Int(d.ToMM))
			}
			continue
		}
		if d.FromMM < 0 {
			vs.Add(CodeInvalidValue, Field(p, "fromMM"), "fromMM %s mm: a %s door's opening starts 0 mm or more from the nose", numtext.Int(d.FromMM), d.Side)
		}
		switch {
		case d.ToMM == 0:
			vs.Add(CodeRequired, Field(p, "toMM"), "toMM: required, where the %s door's opening ends, in millimetres from the nose", d.Side)
		case d.ToMM <= d.FromMM:
			vs.Add(CodeInvalidValue, Field(p, "toMM"), "toMM %s mm: the opening must end after it starts at fromMM %s mm", numtext.Int(d.ToMM), numtext.Int(d.FromMM))
		case lengthMM > 0 && d.ToMM > lengthMM:
			vs.Add(CodeInvalidValue, Field(p, "toMM"), "toMM %s mm: beyond the end of the %s mm inside length", numtext.Int(d.ToMM), numtext.Int(lengthMM))
		}
		for j := range i {
			e := doors[j]
			if e.Side == d.Side && d.FromMM < e.ToMM && e.FromMM < d.ToMM && d.FromMM < d.ToMM && e.FromMM < e.ToMM {
				vs.Add(CodeInvalidValue, Field(p, "fromMM"), "%s door %s–%s mm overlaps %s[%d] at %s–%s mm in the same wall",
					d.Side, numtext.Int(d.FromMM), numtext.Int(d.ToMM), path, j, numtext.Int(e.FromMM), numtext.Int(e.ToMM))
			}
		}
	}
	if rear < 0 {
		vs.Add(CodeRequired, path, "the rear door: a trailer that lists its doors lists its REAR door too")
	}
	return vs
}
