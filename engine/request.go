package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// Request is everything a planning call needs. Its JSON form uses the
// member names in the struct tags; durations are Go duration strings
// ("90s", "1h30m"), instants RFC 3339 ("2026-11-23T04:00:00-06:00").
//
// Every value a plan's legality depends on is required: absent from the
// JSON form, or in Go a zero that no real input has (a pallet of 0 kg),
// it is a REQUIRED violation at its path. What else may be left out has a
// default, said on its field: none of a list, the US hours of service,
// geo's travel model, the search's defaults. Where Go's zero value is a
// real value (0 s of loading, AMBIENT, DRY_VAN, a cost of 0), Check cannot
// tell it from a value not set, so the JSON form requires the member and
// a Go caller sets it knowingly. Per type, the doc comments below say
// which members are required.
//
// DC is required; Stores and Pallets may be empty (a day with nothing to
// deliver); Fleet and Shifts are required as soon as there is a pallet.
type Request struct {
	DC      DC                  `json:"dc"`
	Stores  []Store             `json:"stores"`
	Pallets []Pallet            `json:"pallets"`
	Fleet   []TrailerType       `json:"fleet"`
	Shifts  []constraints.Shift `json:"shifts"`
	// HoursOfService holds the limits of every shift, field by field where
	// the shift's own limits leave a field zero; fields zero in both mean
	// the US defaults (11 h driving, 14 h on duty, 30 min break after 8 h
	// of driving).
	HoursOfService constraints.HoursOfService `json:"hoursOfService,omitzero"`
	// Travel turns great-circle distances into road distances and
	// durations: the zero value drives geo.DefaultBands; Bands overrides
	// them, and SpeedKmh or Circuity (not with Bands) selects one speed
	// over one circuity instead (geo.TravelModel). RoadMatrix or
	// Options.Matrix, when set, replaces it.
	Travel geo.TravelModel `json:"travel,omitzero"`
	// RoadMatrix, when set, holds the distance and duration of every leg
	// as a road network routed them; in JSON it is the member "matrix" of
	// "travel" (see MarshalJSON). Its IDs must hold the DC's id and every
	// store's id, in any order; other ids are allowed and not read. Legs
	// are used as given, asymmetric or not. A store without a route from
	// the DC or back to it (geo.NoRoute) is left unassigned with
	// NO_ROAD; a leg between two stores without a route is never driven.
	// Setting Options.Matrix as well is a Check error.
	RoadMatrix *geo.RoadMatrix `json:"-"`
	// RushHours, when set, slows travel in the periods it gives, read on
	// the DC's clock (DC.TimeZone, else its dock hours' zone: Check
	// requires one): a leg takes what driving through the periods at
	// their factors of free-flow speed takes, from the instant it starts
	// (geo.RushHours), and the slowed time counts as driving. Free flow is
	// what Travel, RoadMatrix or Options.Matrix gives: the profile applies
	// over any of them. In JSON it is the member "profile" of "travel":
	// [{"from": "06:30", "to": "09:00", "factor": 0.6, "days": ["mon",
	// "tue", "wed", "thu", "fri"]}], clock times in whole minutes, days
	// as in weekly hours (none: every day). Legs are exact over the
	// shifts and a day either side; Validate times every leg with it.
	RushHours geo.RushHours `json:"-"`
	// Previous, when set, is the plan this request changes, as Plan
	// returned it for an earlier request of the same day. Plan keeps what
	// Lock fixes exactly (a lock the request now breaks is an error at
	// the lock's path, never undone), and keeps every other route of it,
	// shift by shift, that the request still allows: without the pallets
	// and stores the request dropped, timed again and laid out again,
	// on the same trailer unit, with the late pallets of its stores where
	// the trailer has room and the change is worth it under
	// Options.Stability. Only what it could not keep, and what is new, is
	// routed afresh, with the shifts, trailer units and dock doors left;
	// routes are then not taken off to save a trailer (FewestTrailers'
	// elimination would scatter the stores kept). The result's Changes
	// say, store by store, what differs from Previous.
	Previous *Result `json:"previous,omitempty"`
	// Lock says what of Previous stays as it is; it needs Previous.
	Lock    Lock    `json:"lock,omitzero"`
	Options Options `json:"options,omitzero"`
}

// Options tune a planning call. The zero value means the defaults, and
// every member may be left out: none changes what a legal plan is, only
// how the search looks for one.
type Options struct {
	// TimeLimit bounds the whole call, counted from it; 0 means
	// DefaultTimeLimit, or DefaultReplanTimeLimit when the request
	// carries a previous plan. Plan returns the best plan found when it runs out
	// or the context ends. Every phase stops at it, the first routing
	// construction included: the pallets the search had not reached are
	// NOT_PLANNED (all of them when the limit ends before routing begins),
	// and search streams not begun by then never begin, however many
	// Streams asks for. Past the limit Plan does only this: it finishes
	// the step under way, which is milliseconds except for two steps that
	// cannot be split (building the travel matrix, about 1.5 s of CPU at
	// MaxStores spread over the cores, and checking a routing round's
	// problem, about 0.5 s). The steps after the last phase, assembling
	// the plan and checking it with Validate (about 30 µs of CPU a
	// pallet), run whole too, inside the limit: the phases stop 50 µs a
	// pallet before it (3 s at 60,000 pallets; at most a tenth of the
	// limit). On a core shared with other work these take longer in
	// proportion. Orders that a routing round's search had not come to
	// when its time ended, or that a trip's floor sent back with no round
	// left the time to route them again, are routed in a round of their
	// own, in one search stream of a few iterations, before the routes
	// are taken off (FewestTrailers, FewestDrivers); what is still
	// unrouted when the limit ends gets that round past it (not past the
	// context's end), once routing has begun: about 1 s for 300 orders
	// of a 5,000-store day, its search within a twentieth of the limit,
	// then the layouts of the routes it made.
	// A re-plan (Request.Previous) goes on past the limit for every order
	// it left unrouted, so that every late pallet rides where the fleet
	// has room: that round, and the room left on the routes (about 0.3 s
	// when the limit ends before routing a 1,000-store night's 700 late
	// orders; never longer than the limit again).
	TimeLimit time.Duration `json:"timeLimit,omitempty"`
	// Iterations, when positive, bounds each search stream by a number of
	// iterations as well. A plan whose search ends on its iteration budget
	// within the time limit is reproducible: the same request, seed and
	// streams give the same plan on any machine, whatever Workers and the
	// number of cores. One that meets the time limit first depends on the
	// machine's speed and load.
	Iterations int `json:"iterations,omitempty"`
	// Seed selects the random choices of the search.
	Seed int64 `json:"seed,omitempty"`
	// Streams is the number of independent search streams; the best one
	// gives the plan. 0 means DefaultStreams. It is part of what the plan
	// depends on, like Seed.
	Streams int `json:"streams,omitempty"`
	// Objective is what the search minimises: FewestTrailers (the zero
	// value, "trailers" in JSON), FewestDrivers ("drivers") or LowestCost
	// ("cost").
	Objective Objective `json:"objective,omitempty"`
	// WholeDeliveries keeps each store's pallets of one temperature class
	// on one trailer ("wholeDeliveries" in JSON): FewestTrailers' route
	// elimination then moves whole orders only, where by default it may
	// split an order over the routes passing nearest to save a trailer
	// (two trucks at a store's door for one class), and when the fleet is
	// short the part of an order the routes' room left takes rides on one
	// route, not several. Pallets of a store and class that one trailer
	// cannot carry come on several either way.
	WholeDeliveries bool `json:"wholeDeliveries,omitempty"`
	// Workers is the number of goroutines that run the streams; 0 means
	// GOMAXPROCS (at most Streams). It changes how fast the search runs,
	// never which plan an iteration budget gives. A server that plans
	// several requests at once bounds each one's share of the cores here.
	Workers int `json:"workers,omitempty"`
	// Matrix, when set, supplies distances and durations (for example from
	// a road network) instead of Request.Travel. It is not part of the JSON
	// form; Validate uses it too, so pass the same request to both. A
	// request that carries a RoadMatrix as well fails Check
	// (travel.matrix): set one.
	Matrix geo.MatrixSource `json:"-"`
	// Progress, when set, receives reports while Plan runs: at each phase
	// and when the search finds a better plan: in each routing round the
	// first one at once, then at most one every quarter of a second (the
	// round's layouts report where it ended). Calls never overlap and
	// come from Plan's goroutines, so the callee must return quickly (hand
	// the report to another goroutine for slow work). It is not part of
	// the JSON form. Unset, it costs nothing.
	Progress func(Progress) `json:"-"`
	// Stability is what a changed store costs when the request carries a
	// previous plan, in kilometres of driving: a store moved to another
	// route (trailer unit, shift and trip), or whose arrival moves by more
	// than ChangeTolerance, is worth that many kilometres to avoid. Plan
	// weighs it where it chooses between changes: a store's late pallets
	// join its kept route when the stores that route then retimes, at
	// this weight each, plus any extra distance, cost less than a second
	// route to the store (a moved store, at this weight, plus the drive
	// there and back). 0 means DefaultStability; a negative value makes a
	// change cost nothing: only what Lock fixes is kept, and the rest is
	// planned afresh.
	Stability float64 `json:"stability,omitempty"`
	// ChangeTolerance is how far a store's arrival may move without the
	// store counting as changed ("toleranceMinutes" in JSON, a number of
	// minutes); 0 means DefaultChangeTolerance. It is also the result's
	// Changes.Tolerance.
	ChangeTolerance time.Duration `json:"toleranceMinutes,omitempty"`
}

// DefaultStability is Options.Stability when it is zero: 30 km, about
// half an hour of a driver and a tractor, which is what re-issuing a
// store's paperwork and warning its receiving crew is worth to a night
// dispatcher; a change that saves less driving than that is not made.
const DefaultStability = 30.0

// DefaultTimeLimit is the search time when Options.TimeLimit is zero.
const DefaultTimeLimit = 10 * time.Second

// DefaultReplanTimeLimit is the search time when Options.TimeLimit is
// zero and the request carries a previous plan: a re-plan keeps most of
// that plan and routes only what it cannot keep, which a second and a half of search
// does about as well as ten, and a dispatcher re-planning in the night
// waits for the answer (with the layouts and Validate after it, about
// 2 s at 1,000 stores on two cores).
const DefaultReplanTimeLimit = 1500 * time.Millisecond

// DefaultStreams is the number of search streams when Options.Streams is
// zero: fixed, not the number of cores, so that the plan does not depend on
// the machine.
const DefaultStreams = 4

// DC is the distribution centre every route starts from and returns to.
// ID, Location (lat and lng) and LoadingPerPallet are required in JSON.
type DC struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Location is where routes start and end. Go's zero Point is 0° N 0° E,
	// a real place, so Check cannot tell it from one not set; JSON requires
	// both lat and lng.
	Location geo.Point `json:"location"`
	// TimeZone is the IANA name of the DC's time zone ("America/Chicago"),
	// in which the travel profile's clock times are read
	// (Request.RushHours) and the plan's instants are shown. "" means the
	// dock hours' zone; a request with a travel profile must give one of
	// the two.
	TimeZone string `json:"timeZone,omitempty"`
	// DockHours are the hours in which loading may start; nil means
	// always. Hours with an opening name their time zone.
	DockHours *constraints.WeeklyHours `json:"dockHours,omitempty"`
	// LoadingPerPallet is the time to load one pallet onto a trailer. In
	// Go, 0 means none (trailers loaded beforehand); the JSON form
	// requires the member, "0s" included, so that a time forgotten is not
	// read as none.
	LoadingPerPallet time.Duration `json:"loadingPerPallet"`
	// LoadingFixed is the time loading a trailer takes once, whatever its
	// pallets (opening the door, the paperwork), before LoadingPerPallet
	// for each pallet; 0 (the default) means none. Loading is the DC
	// staff's work: it does not count on the driver's duty.
	LoadingFixed time.Duration `json:"loadingFixed,omitempty"`
	// HookTime is how long the driver takes to hook a loaded trailer and
	// leave: a trip's duty starts at Route.Start, at least HookTime before
	// it departs. 0 means DefaultHookTime (15 min); negative is invalid.
	HookTime time.Duration `json:"hookTime,omitempty"`
	// TrailerTurnaround is how long a trailer unit back from a trip takes
	// before it can be loaded again (unloading the empties, washing a
	// reefer). 0 means DefaultTrailerTurnaround (30 min); negative is
	// invalid.
	TrailerTurnaround time.Duration `json:"trailerTurnaround,omitempty"`
	// DockDoors is how many trailers can be loaded at once, one per door;
	// 0 (the default) means as many as there are.
	DockDoors int `json:"dockDoors,omitempty"`
	// MaxStaging is the longest a loaded trailer may wait in the yard
	// between the end of its loading and the driver's hook-up (Route.Start),
	// for trailer types that set no MaxStaging of their own. 0 (the
	// default) means no wait: loading ends as the driver comes on duty.
	MaxStaging time.Duration `json:"maxStaging,omitempty"`
}

// DefaultHookTime is DC.HookTime when it is zero.
const DefaultHookTime = 15 * time.Minute

// DefaultTrailerTurnaround is DC.TrailerTurnaround when it is zero.
const DefaultTrailerTurnaround = 30 * time.Minute

// Store is a delivery point. ID, Location (lat and lng, as for the DC),
// Hours (with days) and Unloading (fixed and perPallet) are required in
// JSON.
type Store struct {
	ID       string    `json:"id"`
	Name     string    `json:"name,omitempty"`
	Location geo.Point `json:"location"`
	// Hours are the receiving hours: unloading must start inside them. A
	// day without openings is closed (in Go, nil Days: closed all week);
	// hours with an opening name their time zone ("UTC" for UTC).
	Hours     constraints.WeeklyHours `json:"hours"`
	Unloading Unloading               `json:"unloading"`
	// MaxTrailerLengthMM is the longest trailer (TrailerType.LengthMM) the
	// store's yard accepts; 0 means any.
	MaxTrailerLengthMM int `json:"maxTrailerLengthMM,omitempty"`
}

// Unloading is the time a stop takes: Fixed once per visit (docking,
// paperwork) plus PerPallet for each pallet unloaded. Both are required
// in JSON ("0s" if so); in Go a zero is taken as no time.
type Unloading struct {
	Fixed     time.Duration `json:"fixed"`
	PerPallet time.Duration `json:"perPallet"`
}

// Pallet is one pallet to deliver to one store. ID, Store, WeightKg,
// Footprint, HeightMM and Temperature are required: in JSON the member,
// and in Go a weight, footprint and height other than zero (no pallet
// weighs 0 kg or stands on nothing), so that axle loads, payload and floor
// are never understated. Temperature's zero value in Go is AMBIENT.
type Pallet struct {
	ID          string                  `json:"id"`
	Store       string                  `json:"store"`
	WeightKg    float64                 `json:"weightKg"`           // load included, more than 0
	VolumeM3    float64                 `json:"volumeM3,omitempty"` // 0 = footprint × height
	Footprint   Footprint               `json:"footprint"`
	HeightMM    int                     `json:"heightMM"` // load included
	Temperature constraints.Temperature `json:"temperature"`
	// MayBeStacked lets the pallet stand on another pallet; MayCarry lets
	// it carry one. Pallets are stacked only when the floor runs out.
	MayBeStacked bool `json:"mayBeStacked,omitempty"`
	MayCarry     bool `json:"mayCarry,omitempty"`
}

// Footprint is a pallet's floor size. Its JSON form is "STANDARD" (48×40 in,
// 1219 × 1016 mm), "HALF" (48×20 in, 1219 × 508 mm), or an object
// {"lengthMM": 1200, "widthMM": 800} for any other size. The zero value
// is no size: Check reports it REQUIRED.
type Footprint struct {
	LengthMM int `json:"lengthMM"`
	WidthMM  int `json:"widthMM"`
}

// The named footprints.
var (
	StandardFootprint = Footprint{1219, 1016}
	HalfFootprint     = Footprint{1219, 508}
)

// Dims returns the footprint with the longer side first. (The zero value,
// which Check rejects, reads as STANDARD, so that code run on a request
// not checked still has a floor size.)
func (f Footprint) Dims() (length, width int) {
	if f == (Footprint{}) {
		f = StandardFootprint
	}
	if f.WidthMM > f.LengthMM {
		return f.WidthMM, f.LengthMM
	}
	return f.LengthMM, f.WidthMM
}

// MarshalJSON writes STANDARD or HALF for the named sizes, and an object
// for the others, the zero value included (it reads back as the zero
// value, which Check reports).
func (f Footprint) MarshalJSON() ([]byte, error) {
	switch f {
	case StandardFootprint:
		return []byte(`"STANDARD"`), nil
	case HalfFootprint:
		return []byte(`"HALF"`), nil
	}
	type plain Footprint
	return json.Marshal(plain(f))
}

// UnmarshalJSON reads a named size or an object.
func (f *Footprint) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		switch s {
		case "STANDARD":
			*f = StandardFootprint
		case "HALF":
			*f = HalfFootprint
		default:
			return fmt.Errorf("unknown footprint %q (want STANDARD, HALF or {\"lengthMM\":…,\"widthMM\":…})", s)
		}
		return nil
	}
	type plain Footprint
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("footprint must be STANDARD, HALF or {\"lengthMM\":…,\"widthMM\":…}: %v", err)
	}
	*f = Footprint(p)
	return nil
}

// TrailerType is one kind of trailer in the fleet. ID, Count, Inside,
// PalletPositions, PayloadKg, Equipment (its kind), Axles (all six
// figures) and Costs are required in JSON; in Go, Inside, PalletPositions,
// PayloadKg and every axle figure but the kingpin's position must be more
// than zero (a trailer without tare or axle limits would misstate its
// axle loads), Count 0 means none of the type today, and Equipment's zero
// value is a DRY_VAN.
type TrailerType struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Count int    `json:"count"`
	// LengthMM is the trailer's nominal (outside) length, compared with
	// stores' MaxTrailerLengthMM. It is required when a store limits the
	// length: the inside length, all a trailer type otherwise gives, is
	// shorter than the outside and would let a trailer into a yard too
	// short for it.
	LengthMM        int                   `json:"lengthMM,omitempty"`
	Inside          Dimensions            `json:"inside"`
	PalletPositions int                   `json:"palletPositions"`
	PayloadKg       float64               `json:"payloadKg"`
	VolumeM3        float64               `json:"volumeM3,omitempty"` // 0 = inside length × width × height
	Equipment       constraints.Equipment `json:"equipment"`
	// Doors are the doors pallets come off through: the REAR door, and
	// side doors in the CURB wall (the truck's right, the RIGHT side of a
	// placement seen from the rear door) or the ROAD wall (its left), each
	// opening fromMM–toMM of the inside length measured from the nose. An
	// empty list is the rear door alone (constraints.Door and CheckDoors
	// give the rules). Every plan unloads in stop order through them: at
	// each stop its pallets come off through some door once the earlier
	// stops' pallets are off.
	Doors []constraints.Door       `json:"doors,omitempty"`
	Axles constraints.AxleGeometry `json:"axles"`
	Costs Costs                    `json:"costs"`
	// MaxStaging is the longest a loaded trailer of this type may wait in
	// the yard before the driver hooks it; 0 (the default) means the DC's
	// MaxStaging. A reefer's unit keeps its load cold while it waits, so
	// only a type that says so is held to a shorter (or longer) wait.
	MaxStaging time.Duration `json:"maxStaging,omitempty"`
}

// Dimensions are inside measurements in millimetres, each required and
// more than 0.
type Dimensions struct {
	LengthMM int `json:"lengthMM"`
	WidthMM  int `json:"widthMM"`
	HeightMM int `json:"heightMM"`
}

// Costs price a route: Fixed once per route used, plus PerKm of distance
// and PerHour of the driver's duty for the trip, from Route.Start (the
// hook-up) to the return. A trailer type's costs are
// required in JSON (a trailer is never free, and the cost objective ranks
// plans by them); within them a member left out is 0.
type Costs struct {
	Fixed   float64 `json:"fixed"`
	PerKm   float64 `json:"perKm"`
	PerHour float64 `json:"perHour"`
}

// nominalLength is the length compared with stores' limits.
func (t TrailerType) nominalLength() int {
	if t.LengthMM > 0 {
		return t.LengthMM
	}
	return t.Inside.LengthMM
}

// capacity is the trailer's capacity vector.
func (t TrailerType) capacity() constraints.Load {
	v := t.VolumeM3
	if v == 0 {
		v = float64(t.Inside.LengthMM) * float64(t.Inside.WidthMM) * float64(t.Inside.HeightMM) / 1e9
	}
	return constraints.Load{Positions: t.PalletPositions, WeightKg: t.PayloadKg, VolumeM3: v}
}

// volume is the pallet's volume, from its footprint and height when unset.
func (p Pallet) volume() float64 {
	if p.VolumeM3 > 0 {
		return p.VolumeM3
	}
	l, w := p.Footprint.Dims()
	return float64(l) * float64(w) * float64(p.HeightMM) / 1e9
}

// TimeZone is the request's time zone, in which Validate's messages and
// the reports show instants: the DC's, else its dock hours', else the
// first store's, else UTC (also when the name does not load; Check
// reports that).
func (r *Request) TimeZone() *time.Location {
	name := r.DC.TimeZone
	if name == "" && r.DC.DockHours != nil {
		name = r.DC.DockHours.TimeZone
	}
	if name == "" && len(r.Stores) > 0 {
		name = r.Stores[0].Hours.TimeZone
	}
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// dcZone is the name of the DC's time zone, in which the travel profile's
// clock times are read: DC.TimeZone, else the dock hours' zone; "" when
// the request gives neither.
func (r *Request) dcZone() string {
	if r.DC.TimeZone != "" {
		return r.DC.TimeZone
	}
	if r.DC.DockHours != nil {
		return r.DC.DockHours.TimeZone
	}
	return ""
}
