package loadplan

import "github.com/haulplan/haulplan/constraints"

// Pallet is one pallet to load. Its footprint is LengthMM × WidthMM with
// LengthMM the longer side (a 48×40 in pallet is 1219 × 1016 mm).
//
// The stacking flags are false by default, so a pallet that says nothing
// about stacking stands on the floor and carries nothing.
type Pallet struct {
	ID          string
	Stop        int // position of its store in the trip: 0 is unloaded first
	LengthMM    int
	WidthMM     int
	HeightMM    int
	WeightKg    float64
	VolumeM3    float64
	Temperature constraints.Temperature
	// MayBeStacked: the pallet may stand on top of another pallet.
	MayBeStacked bool
	// MayCarry: the pallet may carry one other pallet on top of it.
	MayCarry bool
	// Store names the pallet's store. PackFleet groups pallets into stops
	// by it; PlanTrailer and Validate ignore it and use Stop.
	Store string
}

// Trailer is the trailer to lay out.
type Trailer struct {
	ID        string
	LengthMM  int // inside length, nose to door
	WidthMM   int // inside width
	HeightMM  int // inside height
	Positions int // pallet floor positions the operator allows (0 = as many as fit)
	PayloadKg float64
	VolumeM3  float64 // 0 = inside length × width × height
	Equipment constraints.Equipment
	Axles     constraints.AxleGeometry
	// Doors are the doors pallets come off through (constraints.Door):
	// none listed means the rear door alone. A side door's stretch is
	// measured from the nose like XMM; the CURB wall is the RIGHT side of
	// the floor (seen from the rear door, looking towards the nose, as the
	// sides are named), the ROAD wall the LEFT.
	Doors []constraints.Door
}

// Volume returns the trailer's usable volume in m³.
func (t Trailer) Volume() float64 {
	if t.VolumeM3 > 0 {
		return t.VolumeM3
	}
	return float64(t.LengthMM) * float64(t.WidthMM) * float64(t.HeightMM) / 1e9
}

// Side says where in its row a pallet stands, seen from the door.
type Side int

// The sides. CENTER is a pallet that takes a whole row alone.
const (
	Left Side = iota
	Right
	Center
)

var sideNames = [...]string{"LEFT", "RIGHT", "CENTER"}

// String returns LEFT, RIGHT or CENTER.
func (s Side) String() string {
	if s >= 0 && int(s) < len(sideNames) {
		return sideNames[s]
	}
	return "Side(?)"
}

// ParseSide reads a side name.
func ParseSide(s string) (Side, bool) {
	for i, n := range sideNames {
		if n == s {
			return Side(i), true
		}
	}
	return 0, false
}

// Positions is how many floor positions a pallet on this side takes.
func (s Side) Positions() int {
	if s == Center {
		return 2
	}
	return 1
}

// Placement is where one pallet stands.
//
// Rows are counted per side: on the LEFT side (LEFT and CENTER pallets) and
// on the RIGHT side (RIGHT and CENTER pallets) a lower row never stands
// nearer the door. Side-by-side rows give both sides the same row numbers;
// a pinwheel gives the two pallets of a row different XMM.
type Placement struct {
	Pallet string
	Row    int  // 0 at the nose
	Side   Side // LEFT, RIGHT or CENTER
	Turned bool // true: the long side runs across the trailer
	Zone   int  // index into Layout.Zones
	XMM    int  // distance from the nose to the pallet's front edge
	// Level is 0 for a pallet on the floor and 1 for a pallet standing on
	// another one (same zone and side, inside the lower pallet's footprint).
	Level int
	// Slot is where across its floor position a pallet stands that shares
	// the position with others (halves and quarters, see the package
	// documentation): 0 against the wall of its side,
	// 1 beside that, one of its own widths towards the centre. A pallet
	// alone in its position, and every CENTER pallet, has slot 0.
	Slot int
}

// Zone is a run of rows held at one temperature. Bulkheads are straight
// across the trailer, so a zone is also a range of the floor's length.
type Zone struct {
	Temperature       constraints.Temperature
	FirstRow, LastRow int // inclusive
	// FromMM and ToMM bound the zone along the floor, from the nose. Both
	// zero means "not stated": Validate then takes the range its pallets span.
	FromMM, ToMM int
}

// AxleLoad is the weight on the kingpin and on the trailer's axle group
// with the pallets still on board. AfterStop is -1 at departure from the
// DC, i after the pallets of stop i came off.
type AxleLoad struct {
	AfterStop   int
	KingpinKg   float64
	AxleGroupKg float64
}

// Layout is one trailer's load plan.
type Layout struct {
	Zones      []Zone
	Placements []Placement
	Axles      []AxleLoad
	Rows       int
	LengthMM   int // from the nose to the door-side end of the last row
	Load       constraints.Load
	// Utilisation of the trailer's positions, payload and volume, 0..1.
	PositionsUsed, WeightUsed, VolumeUsed float64
}
