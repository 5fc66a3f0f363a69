package constraints

import (
	"math"

	"github.com/haulplan/haulplan/internal/numtext"
)

// AxleGeometry describes how a semi-trailer carries its weight: it rests on
// the tractor at the kingpin and on its own axle group, with positions
// measured in millimetres from the nose (the inside front wall). Loads are
// shared between the two supports by the lever rule.
type AxleGeometry struct {
	KingpinMM        float64 `json:"kingpinMM"`        // nose to kingpin
	AxleGroupMM      float64 `json:"axleGroupMM"`      // nose to the centre of the trailer axle group
	TareKg           float64 `json:"tareKg"`           // empty trailer weight
	TareCentreMM     float64 `json:"tareCentreMM"`     // nose to the empty trailer's centre of gravity
	KingpinLimitKg   float64 `json:"kingpinLimitKg"`   // most the kingpin (tractor drive axles) may carry
	AxleGroupLimitKg float64 `json:"axleGroupLimitKg"` // most the trailer axle group may carry (34,000 lb = 15,422 kg for a US tandem)
}

// PointLoad is a weight standing at a position along the trailer (mm from
// the nose; for a pallet, the centre of its footprint).
type PointLoad struct {
	XMM float64
	Kg  float64
}

// Loads returns the weight on the kingpin and on the axle group for the
// tare plus the given loads, by moments about the kingpin:
// axle = Σ w·(x − kingpin) / (axleGroup − kingpin), kingpin = Σ w − axle.
// A load behind the axle group lifts the kingpin, so the kingpin share can
// fall below zero; a legal load keeps it at or above zero.
func (g AxleGeometry) Loads(loads []PointLoad) (kingpinKg, axleKg float64) {
	span := g.AxleGroupMM - g.KingpinMM
	total := g.TareKg
	moment := g.TareKg * (g.TareCentreMM - g.KingpinMM)
	for _, l := range loads {
		total += l.Kg
		moment += l.Kg * (l.XMM - g.KingpinMM)
	}
	axleKg = moment / span
	return total - axleKg, axleKg
}

// maxAxleFigure bounds every figure of a geometry, in mm or kg: far
// beyond any trailer, and small enough that sums of moments stay exact.
const maxAxleFigure = 1e12

// Check reports geometry that cannot describe a trailer, each figure with
// its value and unit. A zero figure but KingpinMM is absent (REQUIRED): no
// trailer has its axles or its centre of gravity at the front wall, weighs
// nothing empty, or may carry nothing on its supports, and a zero would
// misstate the axle loads. The kingpin may stand at the front wall (0).
// lengthMM, when positive, is the trailer's inside length, which the axle
// group must not lie beyond.
func (g AxleGeometry) Check(path string, lengthMM float64) Violations {
	var vs Violations
	figures := []struct {
		name, unit, what string
		v                float64
		zero             bool // a zero is a value, not a figure left out
	}{
		{"kingpinMM", "mm", "the kingpin's distance from the nose", g.KingpinMM, true},
		{"axleGroupMM", "mm", "the distance from the nose to the centre of the axle group", g.AxleGroupMM, false},
		{"tareKg", "kg", "the empty trailer's weight", g.TareKg, false},
		{"tareCentreMM", "mm", "the distance from the nose to the empty trailer's centre of gravity", g.TareCentreMM, false},
		{"kingpinLimitKg", "kg", "the most the kingpin may carry", g.KingpinLimitKg, false},
		{"axleGroupLimitKg", "kg", "the most the axle group may carry", g.AxleGroupLimitKg, false},
	}
	ok := true
	for _, f := range figures {
		p := Field(path, f.name)
		switch {
		case math.IsNaN(f.v) || math.IsInf(f.v, 0):
			vs.Add(CodeInvalidValue, p, "%s %v: must be a finite number of %s", f.name, f.v, unitName(f.unit))
		case f.v == 0 && !f.zero:
			vs.Add(CodeRequired, p, "%s: required, %s in %s", f.name, f.what, unitName(f.unit))
		case f.v < 0 && f.zero:
			vs.Add(CodeInvalidValue, p, "%s %s %s: must not be negative", f.name, numtext.Float(f.v), f.unit)
		case f.v < 0:
			vs.Add(CodeInvalidValue, p, "%s %s %s: must be more than 0 %s", f.name, numtext.Float(f.v), f.unit, f.unit)
		case f.v > maxAxleFigure:
			vs.Add(CodeInvalidValue, p, "%s %s %s: must be at most %s %s", f.name, numtext.Float(f.v), f.unit, numtext.Float(maxAxleFigure), f.unit)
		default:
			continue
		}
		ok = false
	}
	if !ok {
		return vs
	}
	if g.AxleGroupMM <= g.KingpinMM {
		vs.Add(CodeInvalidValue, Field(path, "axleGroupMM"), "axleGroupMM %s mm: the axle group must lie behind the kingpin, at %s mm", numtext.Float(g.AxleGroupMM), numtext.Float(g.KingpinMM))
	}
	if lengthMM > 0 && g.AxleGroupMM > lengthMM {
		vs.Add(CodeInvalidValue, Field(path, "axleGroupMM"), "axleGroupMM %s mm: the axle group must lie within the trailer's %s mm", numtext.Float(g.AxleGroupMM), numtext.Float(lengthMM))
	}
	return vs
}

// unitName spells a unit out for a message.
func unitName(unit string) string {
	switch unit {
	case "mm":
		return "millimetres"
	case "kg":
		return "kilograms"
	}
	return unit
}
