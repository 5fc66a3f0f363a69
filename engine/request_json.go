package engine

import (
	"encoding/json"
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/internal/jsonwire"
)

// The request's JSON form, read by DecodeRequest: each object's members
// are listed once, with how each value is read, what it is called in
// messages and whether it is required (the types' doc comments in
// request.go say why, and what an absent optional member means). A test
// checks these lists against the struct tags, which json.Marshal follows
// when writing (durations through the MarshalJSON methods below).

type (
	member[T any] = jsonwire.Member[*jsonwire.Decoder, T]
	object[T any] = jsonwire.Object[*jsonwire.Decoder, T]
)

type dec = *jsonwire.Decoder

// How messages name the numbers of the request.
const (
	wantKg        = "a number of kilograms"
	wantM3        = "a number of cubic metres"
	wantMM        = "a whole number of millimetres"
	wantMMNumber  = "a number of millimetres"
	wantDegrees   = "a number of degrees"
	wantCount     = "a whole number"
	wantMoney     = "an amount of money"
	wantKmh       = "a speed in km/h"
	wantCircuity  = "a road circuity factor (a number, 1 or more)"
	wantFootprint = `STANDARD, HALF or {"lengthMM", "widthMM"}`
	wantLimits    = "hours-of-service limits (an object)"
)

// arrayOf reads an array of o's objects; null reads as no array, as
// json.Marshal writes a nil slice.
func arrayOf[T any](o *object[T], want string) func(d dec, dst *[]T) {
	return func(d dec, dst *[]T) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			*dst = nil
			return
		}
		jsonwire.ReadArray(d, d, dst, want, func(d dec, v *T) { o.Read(d, d, v) })
	}
}

// optional reads one of o's objects into a new value that dst points to;
// null reads as nil, as json.Marshal writes a nil pointer, and a value
// that does not read leaves dst as it was.
func optional[T any](o *object[T]) func(d dec, dst **T) {
	return func(d dec, dst **T) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			*dst = nil
			return
		}
		var v T
		if _, ok := o.Read(d, d, &v); ok {
			*dst = &v
		}
	}
}

func stringsArray(d dec, dst *[]string, want string) {
	if d.Peek() == jsonwire.KindNull {
		d.Null()
		*dst = nil
		return
	}
	jsonwire.ReadArray(d, d, dst, want, func(d dec, v *string) { d.ReadString(v) })
}

var requestObject = &object[Request]{What: "a planning request", Members: []member[Request]{
	{Name: "dc", Required: true, Read: func(d dec, r *Request) { dcObject.Read(d, d, &r.DC) }},
	{Name: "stores", Read: func(d dec, r *Request) { arrayOf(storeObject, "an array of stores")(d, &r.Stores) }},
	{Name: "pallets", Read: func(d dec, r *Request) { arrayOf(palletObject, "an array of pallets")(d, &r.Pallets) }},
	{Name: "fleet", Read: func(d dec, r *Request) { arrayOf(trailerObject, "an array of trailer types")(d, &r.Fleet) }},
	{Name: "shifts", Read: func(d dec, r *Request) { arrayOf(shiftObject, "an array of driver shifts")(d, &r.Shifts) }},
	{Name: "hoursOfService", Read: func(d dec, r *Request) { hoursOfServiceObject.Read(d, d, &r.HoursOfService) }},
	{Name: "travel", Read: func(d dec, r *Request) { requestTravelObject.Read(d, d, r) }},
	{Name: "previous", Read: func(d dec, r *Request) { optional(resultObject)(d, &r.Previous) }},
	{Name: "lock", Read: func(d dec, r *Request) { lockObject.Read(d, d, &r.Lock) }},
	{Name: "options", Read: func(d dec, r *Request) { optionsObject.Read(d, d, &r.Options) }},
}}

var lockObject = &object[Lock]{What: `a lock {"before", "routes", "stores"}`, Members: []member[Lock]{
	{Name: "before", Read: func(d dec, l *Lock) { d.ReadTime(&l.Before) }},
	{Name: "routes", Read: func(d dec, l *Lock) { stringsArray(d, &l.Routes, "an array of route ids") }},
	{Name: "stores", Read: func(d dec, l *Lock) { stringsArray(d, &l.Stores, "an array of store ids") }},
}}

var optionsObject = &object[Options]{What: "planning options", Members: []member[Options]{
	{Name: "timeLimit", Read: func(d dec, o *Options) { d.ReadDuration(&o.TimeLimit) }},
	{Name: "iterations", Read: func(d dec, o *Options) { d.ReadInt(&o.Iterations, "a whole number of iterations") }},
	{Name: "seed", Read: func(d dec, o *Options) { d.ReadInt64(&o.Seed, "a whole number") }},
	{Name: "streams", Read: func(d dec, o *Options) { d.ReadInt(&o.Streams, "a whole number of search streams") }},
	{Name: "objective", Read: func(d dec, o *Options) { jsonwire.ReadEnum(d, &o.Objective, objectiveNames) }},
	{Name: "wholeDeliveries", Read: func(d dec, o *Options) { d.ReadBool(&o.WholeDeliveries) }},
	{Name: "workers", Read: func(d dec, o *Options) { d.ReadInt(&o.Workers, "a whole number of goroutines") }},
	{Name: "stability", Read: func(d dec, o *Options) { d.ReadFloat(&o.Stability, "a number of kilometres") }},
	{Name: "toleranceMinutes", Read: func(d dec, o *Options) {
		var min float64
		d.ReadFloat(&min, "a number of minutes")
		if math.Abs(min) <= maxToleranceMinutes {
			o.ChangeTolerance = time.Duration(math.Round(min * float64(time.Minute)))
		} else {
			d.Reportf(jsonwire.BadValue, "must be a number of minutes of at most %d, not %v", maxToleranceMinutes, min)
		}
	}},
}}

// maxToleranceMinutes bounds "toleranceMinutes" as it is read, so that
// the minutes fit a time.Duration: a week.
const maxToleranceMinutes = 7 * 24 * 60

// MarshalJSON writes the options with the time limit as a duration
// string and the change tolerance as "toleranceMinutes", as they are read.
func (o Options) MarshalJSON() ([]byte, error) {
	type plain Options
	return json.Marshal(struct {
		plain
		TimeLimit        string  `json:"timeLimit,omitempty"`
		ToleranceMinutes float64 `json:"toleranceMinutes,omitempty"`
	}{plain: plain(o), TimeLimit: durationText(o.TimeLimit), ToleranceMinutes: o.ChangeTolerance.Minutes()})
}

var pointObject = &object[geo.Point]{What: `a location {"lat", "lng"}`, Members: []member[geo.Point]{
	{Name: "lat", Required: true, Read: func(d dec, p *geo.Point) { d.ReadFloat(&p.Lat, "a latitude in degrees") }},
	{Name: "lng", Required: true, Read: func(d dec, p *geo.Point) { d.ReadFloat(&p.Lng, "a longitude in degrees") }},
}}

var dcObject = &object[DC]{What: "a distribution centre", Members: []member[DC]{
	{Name: "id", Required: true, Read: func(d dec, c *DC) { d.ReadString(&c.ID) }},
	{Name: "name", Read: func(d dec, c *DC) { d.ReadString(&c.Name) }},
	{Name: "location", Required: true, Read: func(d dec, c *DC) { pointObject.Read(d, d, &c.Location) }},
	{Name: "timeZone", Read: func(d dec, c *DC) { d.ReadString(&c.TimeZone) }},
	{Name: "dockHours", Read: func(d dec, c *DC) { optional(weeklyHoursObject)(d, &c.DockHours) }},
	{Name: "loadingPerPallet", Required: true, Read: func(d dec, c *DC) { d.ReadDuration(&c.LoadingPerPallet) }},
	{Name: "loadingFixed", Read: func(d dec, c *DC) { d.ReadDuration(&c.LoadingFixed) }},
	{Name: "hookTime", Read: func(d dec, c *DC) { d.ReadDuration(&c.HookTime) }},
	{Name: "trailerTurnaround", Read: func(d dec, c *DC) { d.ReadDuration(&c.TrailerTurnaround) }},
	{Name: "dockDoors", Read: func(d dec, c *DC) { d.ReadInt(&c.DockDoors, "a whole number of dock doors") }},
	{Name: "maxStaging", Read: func(d dec, c *DC) { d.ReadDuration(&c.MaxStaging) }},
}}

var weeklyHoursObject = &object[constraints.WeeklyHours]{What: "weekly hours", Members: []member[constraints.WeeklyHours]{
	{Name: "timeZone", Read: func(d dec, h *constraints.WeeklyHours) { d.ReadString(&h.TimeZone) }},
	{Name: "days", Required: true, Read: func(d dec, h *constraints.WeeklyHours) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			h.Days = nil
			return
		}
		days := map[string][]constraints.Opening{}
		if d.ReadMap(`openings by day {"mon": [{"open", "close"}], ...}`, func(day string) {
			var os []constraints.Opening
			arrayOf(openingObject, `an array of openings {"open", "close"}`)(d, &os)
			days[day] = os
		}) {
			h.Days = days
		}
	}},
	{Name: "closedDates", Read: func(d dec, h *constraints.WeeklyHours) {
		stringsArray(d, &h.ClosedDates, `an array of dates such as "2026-11-26"`)
	}},
}}

var openingObject = &object[constraints.Opening]{What: `an opening {"open", "close"}`, Members: []member[constraints.Opening]{
	{Name: "open", Required: true, Read: func(d dec, o *constraints.Opening) { d.ReadString(&o.Open) }},
	{Name: "close", Required: true, Read: func(d dec, o *constraints.Opening) { d.ReadString(&o.Close) }},
}}

var storeObject = &object[Store]{What: "a store", Members: []member[Store]{
	{Name: "id", Required: true, Read: func(d dec, s *Store) { d.ReadString(&s.ID) }},
	{Name: "name", Read: func(d dec, s *Store) { d.ReadString(&s.Name) }},
	{Name: "location", Required: true, Read: func(d dec, s *Store) { pointObject.Read(d, d, &s.Location) }},
	{Name: "hours", Required: true, Read: func(d dec, s *Store) { weeklyHoursObject.Read(d, d, &s.Hours) }},
	{Name: "unloading", Required: true, Read: func(d dec, s *Store) { unloadingObject.Read(d, d, &s.Unloading) }},
	{Name: "maxTrailerLengthMM", Read: func(d dec, s *Store) { d.ReadInt(&s.MaxTrailerLengthMM, wantMM) }},
}}

var unloadingObject = &object[Unloading]{What: `unloading times {"fixed", "perPallet"}`, Members: []member[Unloading]{
	{Name: "fixed", Required: true, Read: func(d dec, u *Unloading) { d.ReadDuration(&u.Fixed) }},
	{Name: "perPallet", Required: true, Read: func(d dec, u *Unloading) { d.ReadDuration(&u.PerPallet) }},
}}

var palletObject = &object[Pallet]{What: "a pallet", Members: []member[Pallet]{
	{Name: "id", Required: true, Read: func(d dec, p *Pallet) { d.ReadString(&p.ID) }},
	{Name: "store", Required: true, Read: func(d dec, p *Pallet) { d.ReadString(&p.Store) }},
	{Name: "weightKg", Required: true, Read: func(d dec, p *Pallet) { d.ReadFloat(&p.WeightKg, wantKg) }},
	{Name: "volumeM3", Read: func(d dec, p *Pallet) { d.ReadFloat(&p.VolumeM3, wantM3) }},
	{Name: "footprint", Required: true, Read: func(d dec, p *Pallet) { readFootprint(d, &p.Footprint) }},
	{Name: "heightMM", Required: true, Read: func(d dec, p *Pallet) { d.ReadInt(&p.HeightMM, wantMM) }},
	{Name: "temperature", Required: true, Read: func(d dec, p *Pallet) { jsonwire.ReadEnum(d, &p.Temperature, temperatureNames) }},
	{Name: "mayBeStacked", Read: func(d dec, p *Pallet) { d.ReadBool(&p.MayBeStacked) }},
	{Name: "mayCarry", Read: func(d dec, p *Pallet) { d.ReadBool(&p.MayCarry) }},
}}

var temperatureNames = func() []string {
	ns := make([]string, len(constraints.Temperatures))
	for i, t := range constraints.Temperatures {
		ns[i] = t.String()
	}
	return ns
}()

var equipmentNames = []string{constraints.DryVan.String(), constraints.Reefer.String(), constraints.MultiTempReefer.String()}

var footprintObject = &object[Footprint]{What: wantFootprint, Members: []member[Footprint]{
	{Name: "lengthMM", Required: true, Read: func(d dec, f *Footprint) { d.ReadInt(&f.LengthMM, wantMM) }},
	{Name: "widthMM", Required: true, Read: func(d dec, f *Footprint) { d.ReadInt(&f.WidthMM, wantMM) }},
}}

// readFootprint reads a named footprint or an object of millimetres.
func readFootprint(d dec, f *Footprint) {
	if d.Peek() == jsonwire.KindObject {
		var v Footprint
		if _, ok := footprintObject.Read(d, d, &v); ok {
			*f = v
		}
		return
	}
	switch i, ok := d.Enum([]string{"STANDARD", "HALF"}); {
	case !ok:
	case i == 0:
		*f = StandardFootprint
	default:
		*f = HalfFootprint
	}
}

var trailerObject = &object[TrailerType]{What: "a trailer type", Members: []member[TrailerType]{
	{Name: "id", Required: true, Read: func(d dec, t *TrailerType) { d.ReadString(&t.ID) }},
	{Name: "name", Read: func(d dec, t *TrailerType) { d.ReadString(&t.Name) }},
	{Name: "count", Required: true, Read: func(d dec, t *TrailerType) { d.ReadInt(&t.Count, "a whole number of trailers") }},
	{Name: "lengthMM", Read: func(d dec, t *TrailerType) { d.ReadInt(&t.LengthMM, wantMM) }},
	{Name: "inside", Required: true, Read: func(d dec, t *TrailerType) { dimensionsObject.Read(d, d, &t.Inside) }},
	{Name: "palletPositions", Required: true, Read: func(d dec, t *TrailerType) {
		d.ReadInt(&t.PalletPositions, "a whole number of pallet positions")
	}},
	{Name: "payloadKg", Required: true, Read: func(d dec, t *TrailerType) { d.ReadFloat(&t.PayloadKg, wantKg) }},
	{Name: "volumeM3", Read: func(d dec, t *TrailerType) { d.ReadFloat(&t.VolumeM3, wantM3) }},
	{Name: "equipment", Required: true, Read: func(d dec, t *TrailerType) { equipmentObject.Read(d, d, &t.Equipment) }},
	{Name: "doors", Read: func(d dec, t *TrailerType) { arrayOf(doorObject, "an array of doors")(d, &t.Doors) }},
	{Name: "axles", Required: true, Read: func(d dec, t *TrailerType) { axlesObject.Read(d, d, &t.Axles) }},
	{Name: "costs", Required: true, Read: func(d dec, t *TrailerType) { costsObject.Read(d, d, &t.Costs) }},
	{Name: "maxStaging", Read: func(d dec, t *TrailerType) { d.ReadDuration(&t.MaxStaging) }},
}}

var dimensionsObject = &object[Dimensions]{What: `inside dimensions {"lengthMM", "widthMM", "heightMM"}`, Members: []member[Dimensions]{
	{Name: "lengthMM", Required: true, Read: func(d dec, v *Dimensions) { d.ReadInt(&v.LengthMM, wantMM) }},
	{Name: "widthMM", Required: true, Read: func(d dec, v *Dimensions) { d.ReadInt(&v.WidthMM, wantMM) }},
	{Name: "heightMM", Required: true, Read: func(d dec, v *Dimensions) { d.ReadInt(&v.HeightMM, wantMM) }},
}}

var equipmentObject = &object[constraints.Equipment]{What: `equipment {"kind", "maxZones"}`, Members: []member[constraints.Equipment]{
	{Name: "kind", Required: true, Read: func(d dec, e *constraints.Equipment) { jsonwire.ReadEnum(d, &e.Kind, equipmentNames) }},
	{Name: "maxZones", Read: func(d dec, e *constraints.Equipment) { d.ReadInt(&e.MaxZones, "a whole number of zones") }},
}}

var doorObject = &object[constraints.Door]{What: `a door {"side", "fromMM", "toMM"}`, Members: []member[constraints.Door]{
	{Name: "side", Required: true, Read: func(d dec, v *constraints.Door) {
		if i, ok := d.Enum(constraints.DoorSideNames()); ok {
			v.Side = constraints.DoorSide(i + 1) // the zero side is none
		}
	}},
	{Name: "fromMM", Read: func(d dec, v *constraints.Door) { d.ReadInt(&v.FromMM, wantMM) }},
	{Name: "toMM", Read: func(d dec, v *constraints.Door) { d.ReadInt(&v.ToMM, wantMM) }},
}}

var axlesObject = &object[constraints.AxleGeometry]{What: "an axle geometry", Members: []member[constraints.AxleGeometry]{
	{Name: "kingpinMM", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.KingpinMM, wantMMNumber) }},
	{Name: "axleGroupMM", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.AxleGroupMM, wantMMNumber) }},
	{Name: "tareKg", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.TareKg, wantKg) }},
	{Name: "tareCentreMM", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.TareCentreMM, wantMMNumber) }},
	{Name: "kingpinLimitKg", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.KingpinLimitKg, wantKg) }},
	{Name: "axleGroupLimitKg", Required: true, Read: func(d dec, g *constraints.AxleGeometry) { d.ReadFloat(&g.AxleGroupLimitKg, wantKg) }},
}}

var costsObject = &object[Costs]{What: `costs {"fixed", "perKm", "perHour"}`, Members: []member[Costs]{
	{Name: "fixed", Read: func(d dec, c *Costs) { d.ReadFloat(&c.Fixed, wantMoney) }},
	{Name: "perKm", Read: func(d dec, c *Costs) { d.ReadFloat(&c.PerKm, wantMoney+" per kilometre") }},
	{Name: "perHour", Read: func(d dec, c *Costs) { d.ReadFloat(&c.PerHour, wantMoney+" per hour") }},
}}

var shiftObject = &object[constraints.Shift]{What: "a driver shift", Members: []member[constraints.Shift]{
	{Name: "id", Required: true, Read: func(d dec, s *constraints.Shift) { d.ReadString(&s.ID) }},
	{Name: "start", Required: true, Read: func(d dec, s *constraints.Shift) { d.ReadTime(&s.Start) }},
	{Name: "end", Required: true, Read: func(d dec, s *constraints.Shift) { d.ReadTime(&s.End) }},
	{Name: "limits", Read: func(d dec, s *constraints.Shift) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			s.Limits = nil
			return
		}
		var h constraints.HoursOfService
		if _, ok := hoursOfServiceObject.Read(d, d, &h); ok {
			s.Limits = &h
		}
	}},
	{Name: "maxTrips", Read: func(d dec, s *constraints.Shift) { d.ReadInt(&s.MaxTrips, "a whole number of trips") }},
	{Name: "cost", Read: func(d dec, s *constraints.Shift) { d.ReadFloat(&s.Cost, wantMoney) }},
}}

var hoursOfServiceObject = &object[constraints.HoursOfService]{What: wantLimits, Members: []member[constraints.HoursOfService]{
	{Name: "maxDriving", Read: func(d dec, h *constraints.HoursOfService) { d.ReadDuration(&h.MaxDriving) }},
	{Name: "maxDuty", Read: func(d dec, h *constraints.HoursOfService) { d.ReadDuration(&h.MaxDuty) }},
	{Name: "breakAfterDriving", Read: func(d dec, h *constraints.HoursOfService) { d.ReadDuration(&h.BreakAfter) }},
	{Name: "breakDuration", Read: func(d dec, h *constraints.HoursOfService) { d.ReadDuration(&h.BreakDuration) }},
}}

var travelObject = &object[geo.TravelModel]{What: `a travel model {"bands", "speedKmh", "circuity"}`, Members: []member[geo.TravelModel]{
	{Name: "speedKmh", Read: func(d dec, m *geo.TravelModel) { d.ReadFloat(&m.SpeedKmh, wantKmh) }},
	{Name: "circuity", Read: func(d dec, m *geo.TravelModel) { d.ReadFloat(&m.Circuity, wantCircuity) }},
	{Name: "bands", Read: func(d dec, m *geo.TravelModel) { arrayOf(speedBandObject, "an array of speed bands")(d, &m.Bands) }},
}}

// rushPeriodObject is a period of the travel profile: clock times as
// "HH:MM" (geo.ParseClock), days as the keys of weekly hours.
var rushPeriodObject = &object[geo.RushPeriod]{What: `a rush period {"from", "to", "factor", "days"}`, Members: []member[geo.RushPeriod]{
	{Name: "from", Required: true, Read: func(d dec, p *geo.RushPeriod) { readClock(d, &p.From) }},
	{Name: "to", Required: true, Read: func(d dec, p *geo.RushPeriod) { readClock(d, &p.To) }},
	{Name: "factor", Required: true, Read: func(d dec, p *geo.RushPeriod) {
		d.ReadFloat(&p.Factor, "a share of free-flow speed (more than 0, at most 1)")
	}},
	{Name: "days", Read: func(d dec, p *geo.RushPeriod) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			p.Days = nil
			return
		}
		jsonwire.ReadArray(d, d, &p.Days, `an array of days such as ["mon", "tue"]`, func(d dec, v *time.Weekday) {
			if i, ok := d.Enum(weekdayNames[:]); ok {
				*v = time.Weekday(i)
			}
		})
	}},
}}

// weekdayNames are the days of the week as weekly hours name them, in
// time.Weekday's order.
var weekdayNames = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// readClock reads a clock time "HH:MM" from "00:00" to "24:00".
func readClock(d dec, dst *time.Duration) {
	const want = `a clock time "HH:MM" from "00:00" to "24:00"`
	s, ok := d.String(want)
	if !ok {
		return
	}
	c, err := geo.ParseClock(s)
	if err != nil {
		d.Reportf(jsonwire.BadValue, "must be %s, not %q", want, jsonwire.Short(s))
		return
	}
	*dst = c
}

var speedBandObject = &object[geo.SpeedBand]{What: `a speed band {"upToKm", "speedKmh", "circuity"}`, Members: []member[geo.SpeedBand]{
	{Name: "upToKm", Read: func(d dec, b *geo.SpeedBand) { d.ReadFloat(&b.UpToKm, "a great-circle distance in km") }},
	{Name: "speedKmh", Required: true, Read: func(d dec, b *geo.SpeedBand) { d.ReadFloat(&b.SpeedKmh, wantKmh) }},
	{Name: "circuity", Required: true, Read: func(d dec, b *geo.SpeedBand) { d.ReadFloat(&b.Circuity, wantCircuity) }},
}}

// The types that hold durations write them as Go duration strings; the
// other members follow the struct tags. (Durations come last in their
// object: the tag-named fields of the embedded copy come first.)

// MarshalJSON writes the DC with its durations as duration strings, those
// that may be left out left out when zero.
func (c DC) MarshalJSON() ([]byte, error) {
	type plain DC
	return json.Marshal(struct {
		plain
		LoadingPerPallet  string `json:"loadingPerPallet"`
		LoadingFixed      string `json:"loadingFixed,omitempty"`
		HookTime          string `json:"hookTime,omitempty"`
		TrailerTurnaround string `json:"trailerTurnaround,omitempty"`
		MaxStaging        string `json:"maxStaging,omitempty"`
	}{plain(c), c.LoadingPerPallet.String(), durationText(c.LoadingFixed), durationText(c.HookTime),
		durationText(c.TrailerTurnaround), durationText(c.MaxStaging)})
}

// MarshalJSON writes the trailer type with maxStaging as a duration
// string, left out when zero.
func (t TrailerType) MarshalJSON() ([]byte, error) {
	type plain TrailerType
	return json.Marshal(struct {
		plain
		MaxStaging string `json:"maxStaging,omitempty"`
	}{plain(t), durationText(t.MaxStaging)})
}

// MarshalJSON writes the unloading times as duration strings.
func (u Unloading) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Fixed     string `json:"fixed"`
		PerPallet string `json:"perPallet"`
	}{u.Fixed.String(), u.PerPallet.String()})
}

// durationText is d as a Go duration string, "" for zero (left out).
func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}
