package routeplan

import (
	"math"

	"github.com/haulplan/haulplan/constraints"
)

// Violation codes reported by Check.
const (
	CodeNotFinite     = "NOT_FINITE"     // NaN or infinite number
	CodeNegative      = "NEGATIVE"       // a quantity that must be >= 0 is not
	CodeOutOfRange    = "OUT_OF_RANGE"   // an index outside its list or matrix
	CodeSizeMismatch  = "SIZE_MISMATCH"  // a slice of the wrong length
	CodeWindowOrder   = "WINDOW_ORDER"   // window ends before it starts, or windows overlap or are unsorted
	CodeUnknown       = "UNKNOWN_VALUE"  // an enumeration value Solve does not know
	CodeDuplicate     = "DUPLICATE"      // an index listed twice where each may appear once
	CodeTripsMismatch = "TRIPS_MISMATCH" // a type of several trips that cannot reload at its start
	CodeRush          = "BAD_RUSH"       // a slow interval of Rush that is not finite, sorted and disjoint, or slows outside [geo.MinRushFactor, 1]
)

// maxLocations keeps N*N far from integer overflow; a dense matrix that big
// would not fit in memory anyway.
const maxLocations = 1 << 20

// Check checks p and returns a constraints.Violations error (matching
// constraints.ErrInvalid) that lists every problem with its field path, or
// nil when p can be solved.
func Check(p *Problem) error {
	var vs constraints.Violations
	if p == nil {
		vs.Add(CodeUnknown, "", "problem is nil")
		return vs.Err()
	}
	checkLocations(&vs, p)
	if p.Objective != Cost && p.Objective != Hierarchical && p.Objective != FewestTrips {
		vs.Add(CodeUnknown, "objective", "unknown objective %d", int(p.Objective))
	}
	for r, res := range p.Resources {
		path := constraints.Index("resources", r)
		if res.Count < 0 {
			vs.Add(CodeNegative, constraints.Field(path, "count"), "count %d is negative", res.Count)
		}
		checkTimedResource(&vs, path, &res)
	}
	dims := -1 // the capacity dimensions of the first vehicle type
	for t := range p.VehicleTypes {
		if dims < 0 {
			dims = len(p.VehicleTypes[t].Capacity)
		}
		checkVehicleType(&vs, p, t, dims)
	}
	for i := range p.Sites {
		checkSite(&vs, p, i, dims)
	}
	for _, msg := range p.Rush.Problems() {
		vs.Add(CodeRush, "rush", "%s", msg)
	}
	return vs.Err()
}

// checkLocations checks the number of locations and the travel between
// them: the matrices, or the Legs that replace them.
func checkLocations(vs *constraints.Violations, p *Problem) {
	if p.N < 0 || p.N > maxLocations {
		vs.Add(CodeOutOfRange, "n", "number of locations %d is outside [0, %d]", p.N, maxLocations)
	}
	nn := 0
	if p.N > 0 && p.N <= maxLocations {
		nn = p.N * p.N
	}
	if p.Legs == nil {
		checkMatrix(vs, "distance", p.Distance, nn)
		checkMatrix(vs, "duration", p.Duration, nn)
		return
	}
	if len(p.Distance) > 0 || len(p.Duration) > 0 {
		vs.Add(CodeSizeMismatch, "legs", "Legs replaces Distance and Duration, which must be empty (they hold %d and %d entries)", len(p.Distance), len(p.Duration))
	}
	checkLegs(vs, "legs.distance", p.Legs.LegDistance, p.N)
	checkLegs(vs, "legs.duration", p.Legs.LegDuration, p.N)
}

// checkVehicleType checks vehicle type t of p, whose capacity must have
// dims dimensions.
func checkVehicleType(vs *constraints.Violations, p *Problem, t, dims int) {
	vt := &p.VehicleTypes[t]
	path := constraints.Index("vehicleTypes", t)
	if vt.Count < 0 {
		vs.Add(CodeNegative, constraints.Field(path, "count"), "count %d is negative", vt.Count)
	}
	if len(vt.Capacity) != dims {
		vs.Add(CodeSizeMismatch, constraints.Field(path, "capacity"), "has %d dimensions, vehicleTypes[0] has %d", len(vt.Capacity), dims)
	}
	for k, c := range vt.Capacity {
		nonNegative(vs, constraints.Index(constraints.Field(path, "capacity"), k), c)
	}
	checkLocation(vs, constraints.Field(path, "startLocation"), vt.StartLocation, p.N)
	checkLocation(vs, constraints.Field(path, "endLocation"), vt.EndLocation, p.N)
	finite(vs, constraints.Field(path, "shiftStart"), vt.ShiftStart)
	if finite(vs, constraints.Field(path, "shiftEnd"), vt.ShiftEnd) && vt.ShiftEnd < vt.ShiftStart {
		vs.Add(CodeWindowOrder, constraints.Field(path, "shiftEnd"), "shift ends (%g) before it starts (%g)", vt.ShiftEnd, vt.ShiftStart)
	}
	nonNegative(vs, constraints.Field(path, "maxDuty"), vt.MaxDuty)
	nonNegative(vs, constraints.Field(path, "maxDriving"), vt.MaxDriving)
	nonNegative(vs, constraints.Field(path, "breakAfter"), vt.BreakAfter)
	nonNegative(vs, constraints.Field(path, "breakDuration"), vt.BreakDuration)
	nonNegative(vs, constraints.Field(path, "fixedCost"), vt.FixedCost)
	nonNegative(vs, constraints.Field(path, "tripCost"), vt.TripCost)
	nonNegative(vs, constraints.Field(path, "distanceCost"), vt.DistanceCost)
	nonNegative(vs, constraints.Field(path, "timeCost"), vt.TimeCost)
	nonNegative(vs, constraints.Field(path, "startService"), vt.StartService)
	if n := len(vt.StartServicePerUnit); n > 0 && n != len(vt.Capacity) {
		vs.Add(CodeSizeMismatch, constraints.Field(path, "startServicePerUnit"), "has %d dimensions, capacity has %d", n, len(vt.Capacity))
	}
	for k, u := range vt.StartServicePerUnit {
		nonNegative(vs, constraints.Index(constraints.Field(path, "startServicePerUnit"), k), u)
	}
	checkWindows(vs, constraints.Field(path, "startWindows"), vt.StartWindows)
	if tl := vt.Loading; tl != nil {
		lp := constraints.Field(path, "loading")
		nonNegative(vs, constraints.Field(lp, "fixed"), tl.Fixed)
		nonNegative(vs, constraints.Field(lp, "staging"), tl.Staging)
		if n := len(tl.PerUnit); n > 0 && n != len(vt.Capacity) {
			vs.Add(CodeSizeMismatch, constraints.Field(lp, "perUnit"), "has %d dimensions, capacity has %d", n, len(vt.Capacity))
		}
		for k, u := range tl.PerUnit {
			nonNegative(vs, constraints.Index(constraints.Field(lp, "perUnit"), k), u)
		}
	}
	for k, r := range vt.Resources {
		rp := constraints.Index(constraints.Field(path, "resources"), k)
		if r < 0 || r >= len(p.Resources) {
			vs.Add(CodeOutOfRange, rp, "unknown resource %d (have %d)", r, len(p.Resources))
		}
		for _, q := range vt.Resources[:k] {
			if q == r {
				vs.Add(CodeDuplicate, rp, "resource %d is listed twice", r)
				break
			}
		}
	}
	if vt.MaxGroups < 0 {
		vs.Add(CodeNegative, constraints.Field(path, "maxGroups"), "maxGroups %d is negative", vt.MaxGroups)
	}
	checkTrips(vs, vt, path)
}

// checkTrips checks what a type of several trips needs: its reloads are at
// its start location, so its routes end there, and each takes the same
// start service, so the service has no part per unit of load.
func checkTrips(vs *constraints.Violations, vt *VehicleType, path string) {
	if vt.MaxTrips < 0 {
		vs.Add(CodeNegative, constraints.Field(path, "maxTrips"), "maxTrips %d is negative", vt.MaxTrips)
	}
	if vt.MaxTrips <= 1 {
		return
	}
	if vt.EndLocation != vt.StartLocation {
		vs.Add(CodeTripsMismatch, constraints.Field(path, "endLocation"), "a type of %d trips reloads at its start location %d, so it must end there, not at %d", vt.MaxTrips, vt.StartLocation, vt.EndLocation)
	}
	for k, u := range vt.StartServicePerUnit {
		if u != 0 {
			vs.Add(CodeTripsMismatch, constraints.Index(constraints.Field(path, "startServicePerUnit"), k), "a type of %d trips takes the same start service at every reload, so it has none per unit (%g)", vt.MaxTrips, u)
		}
	}
}

// checkSite checks site i of p, whose demand must have dims dimensions
// (any number when dims is negative: p has no vehicle type).
func checkSite(vs *constraints.Violations, p *Problem, i, dims int) {
	s := &p.Sites[i]
	path := constraints.Index("sites", i)
	checkLocation(vs, constraints.Field(path, "location"), s.Location, p.N)
	checkWindows(vs, constraints.Field(path, "windows"), s.Windows)
	nonNegative(vs, constraints.Field(path, "service"), s.Service)
	nonNegative(vs, constraints.Field(path, "stopService"), s.StopService)
	if n := len(s.ServicePerUnit); n > 0 && dims >= 0 && n != dims {
		vs.Add(CodeSizeMismatch, constraints.Field(path, "servicePerUnit"), "has %d dimensions, vehicle capacities have %d", n, dims)
	}
	for k, u := range s.ServicePerUnit {
		nonNegative(vs, constraints.Index(constraints.Field(path, "servicePerUnit"), k), u)
	}
	if dims >= 0 && len(s.Demand) != dims {
		vs.Add(CodeSizeMismatch, constraints.Field(path, "demand"), "has %d dimensions, vehicle capacities have %d", len(s.Demand), dims)
	}
	for k, d := range s.Demand {
		nonNegative(vs, constraints.Index(constraints.Field(path, "demand"), k), d)
	}
	nonNegative(vs, constraints.Field(path, "value"), s.Value)
	for k, t := range s.VehicleTypes {
		if t < 0 || t >= len(p.VehicleTypes) {
			vs.Add(CodeOutOfRange, constraints.Index(constraints.Field(path, "vehicleTypes"), k), "unknown vehicle type %d (have %d)", t, len(p.VehicleTypes))
		}
	}
}

// checkWindows checks that ws are finite, each ends no earlier than it
// starts, and they are sorted and disjoint.
func checkWindows(vs *constraints.Violations, path string, ws []Window) {
	for w, win := range ws {
		wp := constraints.Index(path, w)
		okS := finite(vs, constraints.Field(wp, "start"), win.Start)
		okE := finite(vs, constraints.Field(wp, "end"), win.End)
		if !okS || !okE {
			continue
		}
		if win.End < win.Start {
			vs.Add(CodeWindowOrder, wp, "window ends (%g) before it starts (%g)", win.End, win.Start)
		}
		if w > 0 {
			prev := ws[w-1]
			if win.Start < prev.End || win.Start < prev.Start {
				vs.Add(CodeWindowOrder, wp, "window starts (%g) before the previous one ends (%g): windows must be sorted and disjoint", win.Start, prev.End)
			}
		}
	}
}

// checkLegs is checkMatrix for a matrix read through Legs; the path of an
// entry is its row-major index, as in Distance and Duration.
func checkLegs(vs *constraints.Violations, path string, leg func(from, to int) float64, n int) {
	if n > maxLocations {
		return // reported with n
	}
	bad := 0
	for i := range n {
		for j := range n {
			if v := leg(i, j); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				if bad < 10 {
					nonNegative(vs, constraints.Index(path, i*n+j), v)
				}
				bad++
			}
		}
	}
	if bad > 10 {
		vs.Add(CodeNotFinite, path, "%d more entries are NaN, infinite or negative", bad-10)
	}
}

func checkMatrix(vs *constraints.Violations, path string, m []float64, nn int) {
	if len(m) != nn {
		vs.Add(CodeSizeMismatch, path, "has %d entries, want N*N = %d", len(m), nn)
		return
	}
	bad := 0
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			// One violation per bad entry could flood the report on a broken
			// matrix; the first few locate the problem.
			if bad < 10 {
				nonNegative(vs, constraints.Index(path, k), v)
			}
			bad++
		}
	}
	if bad > 10 {
		vs.Add(CodeNotFinite, path, "%d more entries are NaN, infinite or negative", bad-10)
	}
}

func checkLocation(vs *constraints.Violations, path string, loc, n int) {
	if loc < 0 || loc >= n {
		vs.Add(CodeOutOfRange, path, "location %d is outside [0, %d)", loc, n)
	}
}

func finite(vs *constraints.Violations, path string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		vs.Add(CodeNotFinite, path, "%g is not a finite number", v)
		return false
	}
	return true
}

func nonNegative(vs *constraints.Violations, path string, v float64) {
	if !finite(vs, path, v) {
		return
	}
	if v < 0 {
		vs.Add(CodeNegative, path, "%g is negative", v)
	}
}
