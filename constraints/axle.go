package constraints

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

// Check reports geometry that cannot describe a trailer.
func (g AxleGeometry) Check(path string, lengthMM float64) Violations {
	var vs Violations
	finite := func(name string, v float64) bool {
		if v != v || v > 1e12 || v < -1e12 {
			vs.Add("INVALID_VALUE", Field(path, name), "must be a finite number")
			return false
		}
		return true
	}
	ok := finite("kingpinMM", g.KingpinMM)
	ok = finite("axleGroupMM", g.AxleGroupMM) && ok
	ok = finite("tareKg", g.TareKg) && ok
	ok = finite("tareCentreMM", g.TareCentreMM) && ok
	ok = finite("kingpinLimitKg", g.KingpinLimitKg) && ok
	ok = finite("axleGroupLimitKg", g.AxleGroupLimitKg) && ok
	if !ok {
		return vs
	}
	if g.KingpinMM < 0 {
		vs.Add("INVALID_VALUE", Field(path, "kingpinMM"), "must not be negative")
	}
	if g.AxleGroupMM <= g.KingpinMM {
		vs.Add("INVALID_VALUE", Field(path, "axleGroupMM"), "axle group (%g mm) must lie behind the kingpin (%g mm)", g.AxleGroupMM, g.KingpinMM)
	}
	if lengthMM > 0 && g.AxleGroupMM > lengthMM {
		vs.Add("INVALID_VALUE", Field(path, "axleGroupMM"), "axle group (%g mm) lies beyond the trailer's length (%g mm)", g.AxleGroupMM, lengthMM)
	}
	if g.TareKg < 0 {
		vs.Add("INVALID_VALUE", Field(path, "tareKg"), "must not be negative")
	}
	if g.KingpinLimitKg <= 0 {
		vs.Add("INVALID_VALUE", Field(path, "kingpinLimitKg"), "must be positive")
	}
	if g.AxleGroupLimitKg <= 0 {
		vs.Add("INVALID_VALUE", Field(path, "axleGroupLimitKg"), "must be positive")
	}
	return vs
}
