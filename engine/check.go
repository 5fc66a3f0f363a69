package engine

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/internal/numtext"
	"github.com/haulplan/haulplan/loadplan"
)

// Limits on one request, so that a planning call's memory and time stay
// bounded whatever arrives. They are generous for one DC's daily plan.
const (
	MaxStores       = 5000
	MaxPallets      = 100000
	MaxTrailerTypes = 100
	MaxShifts       = 5000
	MaxHorizon      = 31 * 24 * time.Hour // from the earliest shift start to the latest shift end
	maxStreams      = 256
	maxStabilityKm  = 1000000 // a change worth more than a million km is a lock
)

// Check reports every problem with the request, each with its JSON path, as
// a constraints.Violations; nil when the request can be planned. A value a
// plan's legality depends on is required: its zero value, which no real
// input has (a pallet of 0 kg, a footprint of 0 × 0 mm, a trailer without
// tare), is a REQUIRED violation at its path. Each message shows the
// offending value with its unit ("weightKg -3 kg: must be more than 0 and
// at most 1,000,000,000 kg"). A problem repeated over a list is one entry
// (see constraints.Grouper): "pallets[0..399].weightKg".
func (r Request) Check() error {
	var g constraints.Grouper
	r.check(func(v constraints.Violation) { g.Add(v) })
	return g.Violations().Err()
}

// check reports every problem of the request to report, one violation at
// a time, in the order of the request's members.
func (r Request) check(report func(constraints.Violation)) {
	c := checker{report}
	c.dc(r.DC)
	stores := map[string]int{} // the index of each store id
	limited := c.stores(r.Stores, stores)
	c.pallets(r.Pallets, stores)
	c.fleet(r, limited)
	c.shifts(r.Shifts, len(r.Pallets))
	c.all(r.HoursOfService.Check("hoursOfService"))
	c.travel(r.Travel)
	c.roadMatrix(r)
	c.rushHours(r)
	c.options(r.Options)
	c.previousPlan(r)
}

// dc checks the DC.
func (c checker) dc(dc DC) {
	c.id(dc.ID, "dc.id")
	c.point(dc.Location, "dc.location")
	c.nonNegDur(dc.LoadingPerPallet, "dc.loadingPerPallet")
	c.nonNegDur(dc.LoadingFixed, "dc.loadingFixed")
	c.defaultedDur(dc.HookTime, "dc.hookTime", DefaultHookTime)
	c.defaultedDur(dc.TrailerTurnaround, "dc.trailerTurnaround", DefaultTrailerTurnaround)
	c.nonNegDur(dc.MaxStaging, "dc.maxStaging")
	if dc.DockDoors < 0 {
		c.add(CodeInvalidValue, "dc.dockDoors", "dockDoors %s: must not be negative (0 means as many as there are trailers to load)", numtext.Int(dc.DockDoors))
	}
	if dc.DockHours != nil {
		c.hours(*dc.DockHours, "dc.dockHours")
	}
	if z := dc.TimeZone; z != "" {
		if _, err := time.LoadLocation(z); err != nil || z == "Local" {
			c.add(constraints.CodeInvalidTimeZone, "dc.timeZone", "timeZone %q: not an IANA time zone name such as \"America/Chicago\"", z)
		}
	}
}

// stores checks the stores and records the index of each store id in
// ids. It returns limited, the first store that limits the trailer length
// (-1 for none).
func (c checker) stores(ss []Store, ids map[string]int) (limited int) {
	if len(ss) > MaxStores {
		c.add(CodeInvalidValue, "stores", "%s stores: at most %s per request", numtext.Int(len(ss)), numtext.Int(MaxStores))
	}
	limited = -1
	for i, s := range ss {
		path := constraints.Index("stores", i)
		if c.id(s.ID, path+".id") {
			if j, dup := ids[s.ID]; dup {
				c.add(CodeDuplicateID, path+".id", "id %q: stores[%d] has it too", s.ID, j)
			} else {
				ids[s.ID] = i
			}
		}
		c.point(s.Location, path+".location")
		c.hours(s.Hours, path+".hours")
		c.nonNegDur(s.Unloading.Fixed, path+".unloading.fixed")
		c.nonNegDur(s.Unloading.PerPallet, path+".unloading.perPallet")
		switch {
		case s.MaxTrailerLengthMM < 0:
			c.add(CodeInvalidValue, path+".maxTrailerLengthMM", "maxTrailerLengthMM %s mm: must not be negative (0 means any length)", numtext.Int(s.MaxTrailerLengthMM))
		case s.MaxTrailerLengthMM > 0 && limited < 0:
			limited = i
		}
	}
	return limited
}

// pallets checks the pallets; stores are the index of each store id.
func (c checker) pallets(ps []Pallet, stores map[string]int) {
	if len(ps) > MaxPallets {
		c.add(CodeInvalidValue, "pallets", "%s pallets: at most %s per request", numtext.Int(len(ps)), numtext.Int(MaxPallets))
	}
	pallets := map[string]int{}
	for i, p := range ps {
		path := constraints.Index("pallets", i)
		if c.id(p.ID, path+".id") {
			if j, dup := pallets[p.ID]; dup {
				c.add(CodeDuplicateID, path+".id", "id %q: pallets[%d] has it too", p.ID, j)
			} else {
				pallets[p.ID] = i
			}
		}
		if p.Store == "" {
			c.add(CodeRequired, path+".store", "store: required, the id of the store the pallet goes to")
		} else if _, ok := stores[p.Store]; !ok {
			c.add(CodeUnknownRef, path+".store", "store %q: no store has this id", p.Store)
		}
		c.palletWeight(p.WeightKg, path+".weightKg")
		if c.finite(p.VolumeM3, path+".volumeM3", "volumeM3", "m³") && (p.VolumeM3 < 0 || p.VolumeM3 > maxPalletQuantity) {
			c.add(CodeInvalidValue, path+".volumeM3", "volumeM3 %s m³: must be between 0 and %s m³ (0 means footprint × height)",
				numtext.Float(p.VolumeM3), numtext.Float(maxPalletQuantity))
		}
		c.footprint(p.Footprint, path+".footprint")
		c.mm(p.HeightMM, path+".heightMM", "heightMM", "the pallet's height with its load")
		if !p.Temperature.Valid() {
			c.add(CodeInvalidValue, path+".temperature", "temperature %d: must be AMBIENT, CHILLED or FROZEN", int(p.Temperature))
		}
	}
}

// fleet checks r's trailer types; limited is the first store that limits
// the trailer length, -1 for none (see stores).
func (c checker) fleet(r Request, limited int) {
	if len(r.Fleet) > MaxTrailerTypes {
		c.add(CodeInvalidValue, "fleet", "%s trailer types: at most %s per request", numtext.Int(len(r.Fleet)), numtext.Int(MaxTrailerTypes))
	}
	if len(r.Fleet) == 0 && len(r.Pallets) > 0 {
		c.add(CodeRequired, "fleet", "fleet: required, at least one trailer type to carry the %s", palletsText(len(r.Pallets)))
	}
	trailers := map[string]int{}
	for i, t := range r.Fleet {
		path := constraints.Index("fleet", i)
		if c.id(t.ID, path+".id") {
			if j, dup := trailers[t.ID]; dup {
				c.add(CodeDuplicateID, path+".id", "id %q: fleet[%d] has it too", t.ID, j)
			} else {
				trailers[t.ID] = i
			}
		}
		c.trailer(t, path, r.Stores, limited)
	}
}

// trailer checks trailer type t at path, its ID aside; stores[limited],
// when limited is not -1, is the first store that limits the length.
func (c checker) trailer(t TrailerType, path string, stores []Store, limited int) {
	if t.Count < 0 {
		c.add(CodeInvalidValue, path+".count", "count %s: must not be negative", numtext.Int(t.Count))
	}
	switch {
	case t.LengthMM < 0:
		c.add(CodeInvalidValue, path+".lengthMM", "lengthMM %s mm: must not be negative", numtext.Int(t.LengthMM))
	case t.LengthMM == 0 && limited >= 0:
		s := stores[limited]
		c.add(CodeRequired, path+".lengthMM", "lengthMM: required, the trailer's outside length in millimetres, since store %q (stores[%d]) accepts at most %s mm",
			s.ID, limited, numtext.Int(s.MaxTrailerLengthMM))
	}
	c.mm(t.Inside.LengthMM, path+".inside.lengthMM", "lengthMM", "the inside length")
	c.mm(t.Inside.WidthMM, path+".inside.widthMM", "widthMM", "the inside width")
	c.mm(t.Inside.HeightMM, path+".inside.heightMM", "heightMM", "the inside height")
	switch n := t.PalletPositions; {
	case n == 0:
		c.add(CodeRequired, path+".palletPositions", "palletPositions 0: required, the number of pallets the floor holds")
	case n < 0 || n > loadplan.MaxDimensionMM:
		c.add(CodeInvalidValue, path+".palletPositions", "palletPositions %s: must be between 1 and %s", numtext.Int(n), numtext.Int(loadplan.MaxDimensionMM))
	}
	if c.finite(t.PayloadKg, path+".payloadKg", "payloadKg", "kg") {
		switch {
		case t.PayloadKg == 0:
			c.add(CodeRequired, path+".payloadKg", "payloadKg 0 kg: required, the most the trailer may carry, more than 0 kg")
		case t.PayloadKg < 0:
			c.add(CodeInvalidValue, path+".payloadKg", "payloadKg %s kg: must be more than 0 kg", numtext.Float(t.PayloadKg))
		}
	}
	if c.finite(t.VolumeM3, path+".volumeM3", "volumeM3", "m³") && t.VolumeM3 < 0 {
		c.add(CodeInvalidValue, path+".volumeM3", "volumeM3 %s m³: must not be negative (0 means inside length × width × height)", numtext.Float(t.VolumeM3))
	}
	switch e := t.Equipment; {
	case !e.Kind.Valid():
		c.add(CodeInvalidValue, path+".equipment.kind", "kind %d: must be DRY_VAN, REEFER or MULTI_TEMP_REEFER", int(e.Kind))
	case e.Kind == constraints.MultiTempReefer && e.MaxZones != 0 && (e.MaxZones < 2 || e.MaxZones > 3):
		c.add(CodeInvalidValue, path+".equipment.maxZones", "maxZones %d: a MULTI_TEMP_REEFER has 2 or 3 zones (0 means 3)", e.MaxZones)
	case e.Kind != constraints.MultiTempReefer && (e.MaxZones < 0 || e.MaxZones > 1):
		c.add(CodeInvalidValue, path+".equipment.maxZones", "maxZones %d: only a MULTI_TEMP_REEFER has several zones", e.MaxZones)
	}
	c.all(constraints.CheckDoors(path+".doors", t.Doors, t.Inside.LengthMM))
	c.all(t.Axles.Check(path+".axles", float64(t.Inside.LengthMM)))
	c.cost(t.Costs.Fixed, path+".costs.fixed", "fixed", "")
	c.cost(t.Costs.PerKm, path+".costs.perKm", "perKm", " per km")
	c.cost(t.Costs.PerHour, path+".costs.perHour", "perHour", " per hour")
	if t.MaxStaging < 0 {
		c.add(CodeInvalidValue, path+".maxStaging", "maxStaging %v: must not be negative (0 means the DC's)", t.MaxStaging)
	}
}

// shifts checks the driver shifts, which must be there for the pallets
// pallets when there are any, and the horizon they span.
func (c checker) shifts(ss []constraints.Shift, pallets int) {
	if len(ss) > MaxShifts {
		c.add(CodeInvalidValue, "shifts", "%s shifts: at most %s per request", numtext.Int(len(ss)), numtext.Int(MaxShifts))
	}
	if len(ss) == 0 && pallets > 0 {
		c.add(CodeRequired, "shifts", "shifts: required, at least one driver shift to deliver the %s", palletsText(pallets))
	}
	shifts := map[string]int{}
	var first, last time.Time
	for i, s := range ss {
		path := constraints.Index("shifts", i)
		if c.id(s.ID, path+".id") {
			if j, dup := shifts[s.ID]; dup {
				c.add(CodeDuplicateID, path+".id", "id %q: shifts[%d] has it too", s.ID, j)
			} else {
				shifts[s.ID] = i
			}
		}
		if s.Start.IsZero() {
			c.add(CodeRequired, path+".start", "start: required, the instant the driver may come on duty")
		}
		if s.End.IsZero() {
			c.add(CodeRequired, path+".end", "end: required, the instant the driver must be off duty")
		}
		if s.Limits != nil {
			c.all(s.Limits.Check(path + ".limits"))
		}
		if s.MaxTrips < 0 {
			c.add(CodeInvalidValue, path+".maxTrips", "maxTrips %s: must not be negative (0 means no limit)", numtext.Int(s.MaxTrips))
		}
		c.cost(s.Cost, path+".cost", "cost", " per shift")
		if s.Start.IsZero() || s.End.IsZero() {
			continue
		}
		if !s.End.After(s.Start) {
			end, start := instants(s.End, s.Start)
			if s.End.Equal(s.Start) {
				c.add(CodeInvalidValue, path+".end", "end %s is the start: a shift must end after it starts", end)
			} else {
				c.add(CodeInvalidValue, path+".end", "end %s is before start %s", end, start)
			}
		}
		if first.IsZero() || s.Start.Before(first) {
			first = s.Start
		}
		if last.IsZero() || s.End.After(last) {
			last = s.End
		}
	}
	if !first.IsZero() && last.Sub(first) > MaxHorizon {
		from, to := instants(first, last)
		c.add(CodeInvalidValue, "shifts", "shifts span %s, from %s to %s: at most %s per request", spanText(last.Sub(first)), from, to, spanText(MaxHorizon))
	}
}

// travel checks the travel model: a single-speed model's speedKmh and
// circuity, or the bands (geo.SpeedBand's rules), and that a model with
// bands leaves speedKmh and circuity out.
func (c checker) travel(t geo.TravelModel) {
	for _, p := range t.Problems() {
		path := "travel." + p.Field
		name := p.Field[strings.LastIndexByte(p.Field, '.')+1:]
		unit := map[string]string{"speedKmh": " km/h", "upToKm": " km"}[name]
		switch {
		case p.Field == "bands":
			c.add(CodeInvalidValue, path, "%s bands: %s", numtext.Float(p.Value), p.Reason)
		case math.IsNaN(p.Value) || math.IsInf(p.Value, 0):
			c.add(CodeInvalidValue, path, "%s %v: must be a finite number", name, p.Value)
		case len(t.Bands) > 0:
			c.add(CodeInvalidValue, path, "%s %s%s: %s", name, numtext.Float(p.Value), unit, p.Reason)
		case p.Field == "speedKmh":
			c.add(CodeInvalidValue, path, "speedKmh %s km/h: must be more than 0 km/h (0 means %s km/h with a circuity, the default speed bands without)",
				numtext.Float(p.Value), numtext.Float(geo.DefaultSpeedKmh))
		default:
			c.add(CodeInvalidValue, path, "%s %s: must be at least 1 (0 means %s with a speedKmh, the default speed bands without)",
				p.Field, numtext.Float(p.Value), numtext.Float(geo.DefaultCircuity))
		}
	}
}

// rushHours checks the travel profile (geo.RushHours' rules, clock times
// in whole minutes as its JSON form writes them) and that the DC's zone,
// in which its clock times are read, is given.
func (c checker) rushHours(r Request) {
	if len(r.RushHours) == 0 {
		return
	}
	for _, p := range r.RushHours.Problems() {
		name := p.Field[strings.LastIndexByte(p.Field, '.')+1:]
		switch {
		case strings.HasPrefix(name, "profile["):
			// A period that overlaps another, named by its path.
			name, p.Reason = "period", strings.ReplaceAll(p.Reason, "profile[", "travel.profile[")
		case strings.HasPrefix(name, "days["):
			name = "day"
		}
		c.add(CodeInvalidValue, "travel."+p.Field, "%s %s", name, p.Reason)
	}
	for i, p := range r.RushHours {
		for _, x := range []struct {
			name string
			d    time.Duration
		}{{"from", p.From}, {"to", p.To}} {
			if x.d%time.Minute != 0 && x.d%time.Second == 0 && x.d >= 0 && x.d <= 24*time.Hour {
				c.add(CodeInvalidValue, fmt.Sprintf("travel.profile[%d].%s", i, x.name), "%s %s: must be a whole minute (HH:MM)", x.name, geo.FormatClock(x.d))
			}
		}
	}
	if r.dcZone() == "" {
		c.add(CodeRequired, "dc.timeZone", `timeZone: required with a travel profile, the IANA zone of the DC's clock in which the profile's hours are read, such as "America/Chicago" (or dc.dockHours.timeZone)`)
	}
}

// options checks the planning options.
func (c checker) options(o Options) {
	if o.TimeLimit < 0 {
		c.add(CodeInvalidValue, "options.timeLimit", "timeLimit %v: must not be negative (0 means %v, %v for a re-plan)", o.TimeLimit, DefaultTimeLimit, DefaultReplanTimeLimit)
	}
	if o.Iterations < 0 {
		c.add(CodeInvalidValue, "options.iterations", "iterations %s: must not be negative (0 means no bound)", numtext.Int(o.Iterations))
	}
	if o.Workers < 0 {
		c.add(CodeInvalidValue, "options.workers", "workers %s: must not be negative (0 means one per core)", numtext.Int(o.Workers))
	}
	if !o.Objective.Valid() {
		c.add(CodeInvalidValue, "options.objective", "objective %d: must be %s, %s or %s", int(o.Objective), FewestTrailers, FewestDrivers, LowestCost)
	}
	if math.IsNaN(o.Stability) || math.IsInf(o.Stability, 0) || math.Abs(o.Stability) > maxStabilityKm {
		c.add(CodeInvalidValue, "options.stability", "stability %v km: must be a number of kilometres of at most %s (0 means %v km, a negative value no preference for the previous plan)", o.Stability, numtext.Int(maxStabilityKm), DefaultStability)
	}
	if o.ChangeTolerance < 0 {
		c.add(CodeInvalidValue, "options.toleranceMinutes", "toleranceMinutes %v: must not be negative (0 means %v)", o.ChangeTolerance.Minutes(), DefaultChangeTolerance)
	}
	if n := o.Streams; n < 0 || n > maxStreams {
		c.add(CodeInvalidValue, "options.streams", "streams %s: must be between 0 and %d (0 means %d)", numtext.Int(n), maxStreams, DefaultStreams)
	}
}

// checker writes the violations of Check.
type checker struct{ report func(constraints.Violation) }

func (c checker) add(code, path, format string, args ...any) {
	c.report(constraints.Violation{Code: code, Path: path, Message: fmt.Sprintf(format, args...)})
}

// all reports the violations of a check of constraints.
func (c checker) all(vs constraints.Violations) {
	for _, v := range vs {
		c.report(v)
	}
}

// maxIDBytes bounds an id.
const maxIDBytes = 200

func (c checker) id(id, path string) bool {
	if id == "" {
		c.add(CodeRequired, path, "id: required")
		return false
	}
	if len(id) > maxIDBytes {
		c.add(CodeInvalidValue, path, "id of %s bytes: at most %d bytes", numtext.Int(len(id)), maxIDBytes)
		return false
	}
	return true
}

func (c checker) point(p geo.Point, path string) {
	for _, e := range p.Problems() {
		limit := 90
		if e.Field == "lng" {
			limit = 180
		}
		if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
			c.add("INVALID_COORDINATE", path+"."+e.Field, "%s %v: must be a finite number of degrees", e.Field, e.Value)
			continue
		}
		c.add("INVALID_COORDINATE", path+"."+e.Field, "%s %s°: must be between -%d° and %d°", e.Field, numtext.Float(e.Value), limit, limit)
	}
}

// hours checks weekly hours; hours that state an opening or a closed
// date must name their zone, since read as UTC they would be hours off
// anywhere else.
func (c checker) hours(h constraints.WeeklyHours, path string) {
	c.all(h.Check(path))
	if h.TimeZone != "" {
		return
	}
	local := len(h.ClosedDates) > 0
	for _, os := range h.Days {
		local = local || len(os) > 0
	}
	if local {
		c.add(CodeRequired, path+".timeZone", `timeZone: required, the IANA zone the hours are local to, such as "America/Chicago" ("UTC" for UTC)`)
	}
}

// maxFinite bounds the numbers of a request that have no tighter bound.
const maxFinite = 1e12

// finite reports v unless it is a finite number no larger than maxFinite.
func (c checker) finite(v float64, path, name, unit string) bool {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.add(CodeInvalidValue, path, "%s %v: must be a finite number", name, v)
	case math.Abs(v) > maxFinite:
		c.add(CodeInvalidValue, path, "%s %s%s: must be between -%s and %s%s", name, numtext.Float(v), spaced(unit), numtext.Float(maxFinite), numtext.Float(maxFinite), spaced(unit))
	default:
		return true
	}
	return false
}

func spaced(unit string) string {
	if unit == "" {
		return ""
	}
	return " " + unit
}

// cost reports a cost that is negative or not a finite amount.
func (c checker) cost(v float64, path, name, per string) {
	if c.finite(v, path, name, "") && v < 0 {
		c.add(CodeInvalidValue, path, "%s %s%s: must not be negative", name, numtext.Float(v), per)
	}
}

// maxPalletQuantity bounds a pallet's weight (kg) and volume (m³), as
// loadplan does.
const maxPalletQuantity = 1e9

// palletWeight reports a weight that is not more than 0 and at most
// maxPalletQuantity: an empty pallet weighs some 20 kg, so 0 kg is a
// weight not given (in Go, the zero value).
func (c checker) palletWeight(v float64, path string) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		c.add(CodeInvalidValue, path, "weightKg %v: must be a finite number of kilograms", v)
	case v == 0:
		c.add(CodeRequired, path, "weightKg 0 kg: required, a pallet weighs more than 0 kg")
	case v < 0 || v > maxPalletQuantity:
		c.add(CodeInvalidValue, path, "weightKg %s kg: must be more than 0 and at most %s kg", numtext.Float(v), numtext.Float(maxPalletQuantity))
	}
}

// footprint reports a footprint not given (zero: no pallet stands on
// nothing) or with a side out of range.
func (c checker) footprint(f Footprint, path string) {
	switch {
	case f == (Footprint{}):
		c.add(CodeRequired, path, `footprint: required, STANDARD, HALF or {"lengthMM", "widthMM"}`)
	case !inMM(f.LengthMM) || !inMM(f.WidthMM):
		c.add(CodeInvalidValue, path, "footprint %s × %s mm: each side must be between 1 and %s mm",
			numtext.Int(f.LengthMM), numtext.Int(f.WidthMM), numtext.Int(loadplan.MaxDimensionMM))
	}
}

func inMM(v int) bool { return v > 0 && v <= loadplan.MaxDimensionMM }

// mm reports a length that is not in (0, loadplan.MaxDimensionMM]; zero is
// a length not given.
func (c checker) mm(v int, path, name, what string) {
	switch {
	case v == 0:
		c.add(CodeRequired, path, "%s 0 mm: required, %s in millimetres", name, what)
	case !inMM(v):
		c.add(CodeInvalidValue, path, "%s %s mm: must be between 1 and %s mm", name, numtext.Int(v), numtext.Int(loadplan.MaxDimensionMM))
	}
}

// nonNegDur reports a negative duration; the member's name is the last
// element of path.
func (c checker) nonNegDur(d time.Duration, path string) {
	if d < 0 {
		c.add(CodeInvalidValue, path, "%s %v: must not be negative", lastName(path), d)
	}
}

// defaultedDur reports a negative duration whose zero means def.
func (c checker) defaultedDur(d time.Duration, path string, def time.Duration) {
	if d < 0 {
		c.add(CodeInvalidValue, path, "%s %v: must not be negative (0 means %v)", lastName(path), d, def)
	}
}

// lastName is the member name a path ends with.
func lastName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '.' {
			return path[i+1:]
		}
	}
	return path
}

// instants writes a and b for a message, both in a's zone: their clock
// times when they fall on the same date, with the dates when not.
func instants(a, b time.Time) (string, string) {
	b = b.In(a.Location())
	layout := "15:04"
	if a.YearDay() != b.YearDay() || a.Year() != b.Year() {
		layout = "2006-01-02 15:04"
	}
	if a.Second() != 0 || b.Second() != 0 {
		layout += ":05"
	}
	return a.Format(layout), b.Format(layout)
}

// spanText writes a long duration in days, hours and minutes: "31 days",
// "33 days 8 h 5 min".
func spanText(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	s := fmt.Sprintf("%d days", days)
	if days == 1 {
		s = "1 day"
	}
	if hours > 0 {
		s += fmt.Sprintf(" %d h", hours)
	}
	if mins > 0 {
		s += fmt.Sprintf(" %d min", mins)
	}
	return s
}
