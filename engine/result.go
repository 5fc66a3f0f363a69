package engine

import (
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// Result is the plan that answers a Request: routes with their trailer load plans,
// the pallets left unassigned with a reason, and metrics.
type Result struct {
	Routes     []Route      `json:"routes"`
	Unassigned []Unassigned `json:"unassigned"`
	Metrics    Metrics      `json:"metrics"`
	// Changes, set when the request carried a previous plan, says store by
	// store what differs from it (see Changes).
	Changes *PlanChanges `json:"changes,omitempty"`
}

// Route is one trip of a trailer unit: its loading at a dock door, the
// stops in order, and the return to the DC, driven by one shift. A shift
// may drive several routes, one after another (its trips).
//
// Its times, in order: LoadingStart ≤ LoadingEnd ≤ Start ≤ Depart < the
// stops < Return. Loading is the DC's work, not the driver's; between
// LoadingEnd and Start the loaded trailer waits in the yard (staging, at
// most the trailer type's staging limit); from Start the driver is on duty
// and hooks the trailer up, at least the DC's hook time before Depart.
type Route struct {
	ID      string `json:"id"`
	Trailer string `json:"trailer"` // TrailerType.ID
	Shift   string `json:"shift"`   // Shift.ID
	// Trip numbers the shift's routes 1, 2, … in time order: trip k+1
	// starts no earlier than trip k returns.
	Trip int `json:"trip"`
	// TrailerUnit names the physical trailer of type Trailer that runs the
	// trip, "<Trailer>-NN" (TrailerType.UnitID), NN from 1 to the type's
	// Count. A unit is busy from a trip's LoadingStart until the DC's
	// trailer turnaround after its Return.
	TrailerUnit string `json:"trailerUnit"`
	// DockDoor is the door (1…) the trailer is loaded at, from LoadingStart
	// to LoadingEnd; no two loadings share a door at once, and with the
	// DC's DockDoors set the door is at most that.
	DockDoor     int       `json:"dockDoor"`
	LoadingStart time.Time `json:"loadingStart"` // inside the dock hours
	LoadingEnd   time.Time `json:"loadingEnd"`
	// Start is when the driver comes on duty for this trip and hook-up
	// begins; Depart when the trailer leaves the DC; Return when it is
	// back.
	Start   time.Time    `json:"start"`
	Depart  time.Time    `json:"depart"`
	Return  time.Time    `json:"return"`
	Stops   []Stop       `json:"stops"`
	Load    LoadPlan     `json:"load"`
	Metrics RouteMetrics `json:"metrics"`
	// Locked says that the route is the previous plan's route of the same
	// trailer unit, shift and trip, kept as it was because the request's
	// Lock fixes it.
	Locked bool `json:"locked,omitempty"`
}

// Stop is one visit to a store.
type Stop struct {
	Store     string        `json:"store"`
	Arrival   time.Time     `json:"arrival"`
	Start     time.Time     `json:"start"` // unloading starts
	Departure time.Time     `json:"departure"`
	Wait      time.Duration `json:"wait"` // Start − Arrival
	Pallets   []string      `json:"pallets"`
	// Break, when set, says that the driver takes the hours-of-service
	// break at this stop. Plan states every break the break rule needs,
	// each at the last stop that can serve as it; Validate checks each
	// stated break and that none the rule needs is missing.
	Break *Break `json:"break,omitempty"`
}

// Break is an hours-of-service break taken at a stop. The break rule
// (constraints.HoursOfService) counts a stop's whole time on site, from
// arrival to departure, as one non-driving period, so the break is that
// period: it starts at the arrival and lasts until the departure, at least
// the shift's BreakDuration. Its parts say what the driver does meanwhile;
// Wait + Unloading + Rest = Duration.
type Break struct {
	Start    time.Time     `json:"start"`    // the stop's arrival
	Duration time.Duration `json:"duration"` // to the stop's departure
	// Wait is the part spent waiting for the store's receiving window (the
	// stop's Wait), Unloading the store's unloading time for the stop's
	// pallets, and Rest the remainder: on site after unloading, held there
	// so that the break lasts long enough.
	Wait      time.Duration `json:"wait"`
	Unloading time.Duration `json:"unloading"`
	Rest      time.Duration `json:"rest"`
}

// End is when the break ends: the stop's departure.
func (b Break) End() time.Time { return b.Start.Add(b.Duration) }

// LoadPlan is where each pallet stands on the route's trailer.
//
// Rows, zones, levels and stops are counted from 0 here and in the JSON
// form (row 0 at the nose, Zones[0], level 0 on the floor, afterStop 0 the
// route's first stop), as indices into the plan's lists. What people read
// (the reports of package engine/report, the quickstart's printout)
// numbers rows, zones and stops from 1.
type LoadPlan struct {
	Zones      []Zone      `json:"zones"`
	Placements []Placement `json:"placements"`
	// Axles holds the axle loads at departure (afterStop −1) and after
	// each stop's pallets came off (afterStop i).
	Axles []AxleLoad `json:"axles"`
}

// Zone is a stretch of floor at one temperature, between bulkheads: rows
// FirstRow to LastRow (counted from the nose on each side), FromMM to ToMM
// from the nose.
type Zone struct {
	Temperature constraints.Temperature `json:"temperature"`
	FirstRow    int                     `json:"firstRow"`
	LastRow     int                     `json:"lastRow"`
	FromMM      int                     `json:"fromMM"`
	ToMM        int                     `json:"toMM"`
}

// Placement is where one pallet stands.
type Placement struct {
	Pallet string `json:"pallet"`
	Row    int    `json:"row"`
	Side   string `json:"side"`   // LEFT, RIGHT or CENTER, seen from the door
	Turned bool   `json:"turned"` // long side across the trailer
	Zone   int    `json:"zone"`   // index into Zones
	XMM    int    `json:"xMM"`    // from the nose to the pallet's front edge
	Level  int    `json:"level"`  // 0 on the floor, 1 stacked on the floor pallet below
	// Slot is where across its floor position a half or quarter pallet
	// stands that shares the position: 0 against the wall of its side, 1
	// one of its own widths in from there. A position (one row, one side)
	// holds one pallet, or two halves, four quarters, or a half and two
	// quarters. Two halves standing straight take slots 0 and 1 side by
	// side; turned (long side across) they stand one behind the other in
	// slot 0. A stacked pallet has its bottom's slot. In JSON "slot" may be
	// left out for 0.
	Slot int `json:"slot,omitempty"`
}

// AxleLoad is the weight on the kingpin and the trailer axle group.
type AxleLoad struct {
	AfterStop   int     `json:"afterStop"`
	KingpinKg   float64 `json:"kingpinKg"`
	AxleGroupKg float64 `json:"axleGroupKg"`
}

// Unassigned is a pallet the plan does not deliver, and why: Reason is a
// code, Message says what stands in the way in the planner's terms (the
// store's receiving hours, the largest payload, the trailers that could
// have carried it), so that a planner can act on it.
type Unassigned struct {
	Pallet  string `json:"pallet"`
	Store   string `json:"store"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
}

// Reasons a pallet is left unassigned.
const (
	ReasonNoCompatibleTrailer = "NO_COMPATIBLE_TRAILER" // no trailer in the fleet carries its temperature class to its store (equipment, length limit)
	ReasonTimeWindow          = "TIME_WINDOW"           // the store cannot be reached while open within any shift
	ReasonCapacity            = "CAPACITY"              // too big, tall or heavy for every trailer that may go to its store
	ReasonShiftLimit          = "SHIFT_LIMIT"           // the trip breaks a shift or hours-of-service limit
	ReasonFleetExhausted      = "FLEET_EXHAUSTED"       // no trailer or driver left
	ReasonLoadLayout          = "LOAD_LAYOUT"           // no legal floor layout (zones, axle loads), or the doors of every trailer type that carries it could not unload its trip
	ReasonNotPlanned          = "NOT_PLANNED"           // the search ended before placing it
	ReasonDockCapacity        = "DOCK_CAPACITY"         // every dock door was loading another trailer when its trip needed one
	ReasonDockHours           = "DOCK_HOURS"            // its trip's loading cannot start in the dock hours before the hook-up
	ReasonNoRoad              = "NO_ROAD"               // the request's road matrix has no route from the DC to its store, or none back
)

var reasons = map[string]bool{
	ReasonNoCompatibleTrailer: true, ReasonTimeWindow: true, ReasonCapacity: true, ReasonShiftLimit: true,
	ReasonFleetExhausted: true, ReasonLoadLayout: true, ReasonNotPlanned: true,
	ReasonDockCapacity: true, ReasonDockHours: true, ReasonNoRoad: true,
}

// RouteMetrics summarise one route.
type RouteMetrics struct {
	Stops      int           `json:"stops"`
	Pallets    int           `json:"pallets"`
	DistanceM  float64       `json:"distanceM"`
	Duration   time.Duration `json:"duration"` // Start (the driver on duty) to Return
	Driving    time.Duration `json:"driving"`
	Wait       time.Duration `json:"wait"`
	WeightKg   float64       `json:"weightKg"`
	VolumeM3   float64       `json:"volumeM3"`
	Positions  int           `json:"positions"`
	Cost       float64       `json:"cost"`
	PosUtil    float64       `json:"positionsUtilisation"` // 0..1
	WeightUtil float64       `json:"weightUtilisation"`
	VolumeUtil float64       `json:"volumeUtilisation"`
}

// Metrics summarise the whole plan.
type Metrics struct {
	Routes     int           `json:"routes"`
	Stops      int           `json:"stops"`
	Pallets    int           `json:"pallets"` // delivered
	Unassigned int           `json:"unassigned"`
	DistanceM  float64       `json:"distanceM"`
	Duration   time.Duration `json:"duration"`
	Driving    time.Duration `json:"driving"`
	Wait       time.Duration `json:"wait"`
	// Cost is the routes' costs plus the Cost of every shift that drives.
	Cost float64 `json:"cost"`
	// ShiftsUsed counts the shifts that drive at least one trip.
	ShiftsUsed int `json:"shiftsUsed"`
	// TrailerUnitsUsed counts the trailer units that run at least one trip.
	TrailerUnitsUsed int `json:"trailerUnitsUsed"`
	// PeakDockDoors is the most trailers loading at one instant, each from
	// its LoadingStart to its LoadingEnd (a loading that takes no time
	// holds no door).
	PeakDockDoors int `json:"peakDockDoors"`
	// PosUtil is the mean of the routes' position utilisation.
	PosUtil float64 `json:"positionsUtilisation"`
	// TrailersLowerBound is a proven lower bound on the routes any plan
	// needs to deliver the pallets this plan delivers: each route takes one
	// trailer, and loadplan.FleetLowerBound bounds the trailers by floor,
	// positions, weight and volume, over all pallets and per temperature
	// class. Routes equal to it means no plan does with fewer.
	TrailersLowerBound int `json:"trailersLowerBound"`
	// ShiftsLowerBound is a proven lower bound on the driver shifts any
	// plan needs to deliver the pallets this plan delivers: from the duty
	// and driving the day needs against the longest shifts, the trips
	// against MaxTrips, and the trips that must be out at one instant
	// (engine/fleet_bounds.go gives the proofs).
	ShiftsLowerBound int `json:"shiftsLowerBound"`
	// TrailerUnitsLowerBound is a proven lower bound on the trailer units,
	// all types together, any plan needs to deliver the pallets this plan
	// delivers: from the time the trips hold their units against the
	// day's horizon, and the trips that must be out at one instant, by the
	// stores' receiving and the DC's dock hours.
	TrailerUnitsLowerBound int `json:"trailerUnitsLowerBound"`
}
