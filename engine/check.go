package engine

import (
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
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
)

// Check reports every problem with the request, each with its JSON path, as
// a constraints.Violations; nil when the request can be planned.
func (r Request) Check() error {
	var vs constraints.Violations
	c := checker{vs: &vs}

	c.id(r.DC.ID, "dc.id")
	c.point(r.DC.Location, "dc.location")
	c.nonNegDur(r.DC.LoadingPerPallet, "dc.loadingPerPallet")
	if r.DC.DockHours != nil {
		vs = append(vs, r.DC.DockHours.Check("dc.dockHours")...)
	}

	if len(r.Stores) > MaxStores {
		vs.Add(CodeInvalidValue, "stores", "%d stores, at most %d per request", len(r.Stores), MaxStores)
	}
	stores := map[string]bool{}
	for i, s := range r.Stores {
		path := constraints.Index("stores", i)
		if c.id(s.ID, path+".id") {
			if stores[s.ID] {
				vs.Add(CodeDuplicateID, path+".id", "store id %q is used twice", s.ID)
			}
			stores[s.ID] = true
		}
		c.point(s.Location, path+".location")
		vs = append(vs, s.Hours.Check(path+".hours")...)
		c.nonNegDur(s.Unloading.Fixed, path+".unloading.fixed")
		c.nonNegDur(s.Unloading.PerPallet, path+".unloading.perPallet")
		if s.MaxTrailerLengthMM < 0 {
			vs.Add(CodeInvalidValue, path+".maxTrailerLengthMM", "must not be negative")
		}
	}

	if len(r.Pallets) > MaxPallets {
		vs.Add(CodeInvalidValue, "pallets", "%d pallets, at most %d per request", len(r.Pallets), MaxPallets)
	}
	pallets := map[string]bool{}
	for i, p := range r.Pallets {
		path := constraints.Index("pallets", i)
		if c.id(p.ID, path+".id") {
			if pallets[p.ID] {
				vs.Add(CodeDuplicateID, path+".id", "pallet id %q is used twice", p.ID)
			}
			pallets[p.ID] = true
		}
		if p.Store == "" {
			vs.Add(CodeRequired, path+".store", "required")
		} else if !stores[p.Store] {
			vs.Add(CodeUnknownRef, path+".store", "no store with id %q", p.Store)
		}
		c.upTo(p.WeightKg, maxPalletQuantity, path+".weightKg")
		c.upTo(p.VolumeM3, maxPalletQuantity, path+".volumeM3")
		c.mm(p.HeightMM, path+".heightMM")
		if p.Footprint != (Footprint{}) && (!inMM(p.Footprint.LengthMM) || !inMM(p.Footprint.WidthMM)) {
			vs.Add(CodeInvalidValue, path+".footprint", "length and width must be in (0, %d] mm, got %d × %d mm", loadplan.MaxDimensionMM, p.Footprint.LengthMM, p.Footprint.WidthMM)
		}
		if !p.Temperature.Valid() {
			vs.Add(CodeInvalidValue, path+".temperature", "unknown temperature class %d", int(p.Temperature))
		}
	}

	if len(r.Fleet) > MaxTrailerTypes {
		vs.Add(CodeInvalidValue, "fleet", "%d trailer types, at most %d per request", len(r.Fleet), MaxTrailerTypes)
	}
	if len(r.Fleet) == 0 && len(r.Pallets) > 0 {
		vs.Add(CodeRequired, "fleet", "at least one trailer type is needed to deliver pallets")
	}
	trailers := map[string]bool{}
	for i, t := range r.Fleet {
		path := constraints.Index("fleet", i)
		if c.id(t.ID, path+".id") {
			if trailers[t.ID] {
				vs.Add(CodeDuplicateID, path+".id", "trailer type id %q is used twice", t.ID)
			}
			trailers[t.ID] = true
		}
		if t.Count < 0 {
			vs.Add(CodeInvalidValue, path+".count", "must not be negative")
		}
		if t.LengthMM < 0 {
			vs.Add(CodeInvalidValue, path+".lengthMM", "must not be negative")
		}
		for _, d := range []struct {
			name string
			v    int
		}{{"lengthMM", t.Inside.LengthMM}, {"widthMM", t.Inside.WidthMM}, {"heightMM", t.Inside.HeightMM}} {
			c.mm(d.v, path+".inside."+d.name)
		}
		if t.PalletPositions <= 0 || t.PalletPositions > loadplan.MaxDimensionMM {
			vs.Add(CodeInvalidValue, path+".palletPositions", "must be in [1, %d]", loadplan.MaxDimensionMM)
		}
		if c.finite(t.PayloadKg, path+".payloadKg") && t.PayloadKg <= 0 {
			vs.Add(CodeInvalidValue, path+".payloadKg", "must be positive")
		}
		c.nonNeg(t.VolumeM3, path+".volumeM3")
		switch {
		case !t.Equipment.Kind.Valid():
			vs.Add(CodeInvalidValue, path+".equipment.kind", "unknown equipment kind")
		case t.Equipment.Kind == constraints.MultiTempReefer && t.Equipment.MaxZones != 0 && (t.Equipment.MaxZones < 2 || t.Equipment.MaxZones > 3):
			vs.Add(CodeInvalidValue, path+".equipment.maxZones", "a multi-temperature reefer has 2 or 3 zones, got %d", t.Equipment.MaxZones)
		case t.Equipment.Kind != constraints.MultiTempReefer && (t.Equipment.MaxZones < 0 || t.Equipment.MaxZones > 1):
			vs.Add(CodeInvalidValue, path+".equipment.maxZones", "only a MULTI_TEMP_REEFER has several zones")
		}
		vs = append(vs, t.Axles.Check(path+".axles", float64(t.Inside.LengthMM))...)
		c.nonNeg(t.Costs.Fixed, path+".costs.fixed")
		c.nonNeg(t.Costs.PerKm, path+".costs.perKm")
		c.nonNeg(t.Costs.PerHour, path+".costs.perHour")
	}

	if len(r.Shifts) > MaxShifts {
		vs.Add(CodeInvalidValue, "shifts", "%d shifts, at most %d per request", len(r.Shifts), MaxShifts)
	}
	if len(r.Shifts) == 0 && len(r.Pallets) > 0 {
		vs.Add(CodeRequired, "shifts", "at least one driver shift is needed to deliver pallets")
	}
	shifts := map[string]bool{}
	var first, last time.Time
	for i, s := range r.Shifts {
		path := constraints.Index("shifts", i)
		if c.id(s.ID, path+".id") {
			if shifts[s.ID] {
				vs.Add(CodeDuplicateID, path+".id", "shift id %q is used twice", s.ID)
			}
			shifts[s.ID] = true
		}
		if s.Start.IsZero() {
			vs.Add(CodeRequired, path+".start", "required")
		}
		if s.End.IsZero() {
			vs.Add(CodeRequired, path+".end", "required")
		}
		if !s.End.After(s.Start) {
			vs.Add(CodeInvalidValue, path+".end", "must be after the start")
		}
		if s.Limits != nil {
			vs = append(vs, s.Limits.Check(path+".limits")...)
		}
		if first.IsZero() || s.Start.Before(first) {
			first = s.Start
		}
		if last.IsZero() || s.End.After(last) {
			last = s.End
		}
	}
	if len(r.Shifts) > 0 && last.Sub(first) > MaxHorizon {
		vs.Add(CodeInvalidValue, "shifts", "shifts span %v, at most %v per request", last.Sub(first), MaxHorizon)
	}
	vs = append(vs, r.HoursOfService.Check("hoursOfService")...)
	for _, p := range r.Travel.Problems() {
		vs.Add(CodeInvalidValue, "travel."+p.Field, "%s", p.Error())
	}
	if r.Options.TimeLimit < 0 {
		vs.Add(CodeInvalidValue, "options.timeLimit", "must not be negative")
	}
	if r.Options.Iterations < 0 {
		vs.Add(CodeInvalidValue, "options.iterations", "must not be negative")
	}
	if r.Options.Workers < 0 {
		vs.Add(CodeInvalidValue, "options.workers", "must not be negative")
	}
	if !r.Options.Objective.Valid() {
		vs.Add(CodeInvalidValue, "options.objective", "must be %q or %q, got %v", FewestTrailers, LowestCost, r.Options.Objective)
	}
	if r.Options.Streams < 0 || r.Options.Streams > maxStreams {
		vs.Add(CodeInvalidValue, "options.streams", "must be between 0 and %d, got %d", maxStreams, r.Options.Streams)
	}
	return vs.Err()
}

type checker struct{ vs *constraints.Violations }

func (c checker) id(id, path string) bool {
	if id == "" {
		c.vs.Add(CodeRequired, path, "required")
		return false
	}
	if len(id) > 200 {
		c.vs.Add(CodeInvalidValue, path, "longer than 200 bytes")
		return false
	}
	return true
}

func (c checker) point(p geo.Point, path string) {
	for _, e := range p.Problems() {
		c.vs.Add("INVALID_COORDINATE", path+"."+e.Field, "%s", e.Error())
	}
}

func (c checker) finite(v float64, path string) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 {
		c.vs.Add(CodeInvalidValue, path, "must be a finite number")
		return false
	}
	return true
}

func (c checker) nonNeg(v float64, path string) {
	if c.finite(v, path) && v < 0 {
		c.vs.Add(CodeInvalidValue, path, "must not be negative")
	}
}

// maxPalletQuantity bounds a pallet's weight (kg) and volume (m³), as
// loadplan does.
const maxPalletQuantity = 1e9

// upTo reports v unless it is a number in [0, limit].
func (c checker) upTo(v, limit float64, path string) {
	if c.finite(v, path) && (v < 0 || v > limit) {
		c.vs.Add(CodeInvalidValue, path, "must be in [0, %g]", limit)
	}
}

func inMM(v int) bool { return v > 0 && v <= loadplan.MaxDimensionMM }

// mm reports a length that is not in (0, loadplan.MaxDimensionMM].
func (c checker) mm(v int, path string) {
	if !inMM(v) {
		c.vs.Add(CodeInvalidValue, path, "must be in (0, %d] mm, got %d", loadplan.MaxDimensionMM, v)
	}
}

func (c checker) nonNegDur(d time.Duration, path string) {
	if d < 0 {
		c.vs.Add(CodeInvalidValue, path, "must not be negative")
	}
}
