package loadplan

import "github.com/haulplan/haulplan/constraints"

// Input limits. They are far beyond any real trailer or trip, and keep
// every sum of lengths and every table sized by the stop count within
// range.
const (
	// MaxDimensionMM bounds every length, width and height, of trailers
	// and pallets, and a trailer's Positions: 100 m.
	MaxDimensionMM = 100_000
	// MaxStops bounds the stops of one trip.
	MaxStops = 10_000
)

func dimension(mm int) bool { return mm > 0 && mm <= MaxDimensionMM }

// checkInputs rejects numbers that cannot describe a trailer or a pallet,
// so the geometry below never divides by zero or loops on garbage.
func checkInputs(tr Trailer, pallets []Pallet, stops int) constraints.Violations {
	vs := checkTrailer(tr, "trailer")
	if stops < 0 || stops > MaxStops {
		vs.Add(CodeInvalid, "stops", "must be in [0, %d], got %d", MaxStops, stops)
	}
	return append(vs, checkPallets(pallets, stops)...)
}

// checkTrailer rejects a trailer no layout can be computed for.
func checkTrailer(tr Trailer, path string) constraints.Violations {
	var vs constraints.Violations
	if !dimension(tr.LengthMM) || !dimension(tr.WidthMM) || !dimension(tr.HeightMM) {
		vs.Add(CodeInvalid, path, "inside dimensions must be in (0, %d] mm, got %d × %d × %d mm", MaxDimensionMM, tr.LengthMM, tr.WidthMM, tr.HeightMM)
	}
	if tr.Positions < 0 || tr.Positions > MaxDimensionMM {
		vs.Add(CodeInvalid, constraints.Field(path, "positions"), "must be in [0, %d], got %d", MaxDimensionMM, tr.Positions)
	}
	if !(tr.PayloadKg >= 0) || tr.PayloadKg > 1e12 {
		vs.Add(CodeInvalid, constraints.Field(path, "payloadKg"), "must be finite and not negative")
	}
	if !(tr.VolumeM3 >= 0) || tr.VolumeM3 > 1e12 {
		vs.Add(CodeInvalid, constraints.Field(path, "volumeM3"), "must be finite and not negative")
	}
	if !tr.Equipment.Kind.Valid() {
		vs.Add(CodeInvalid, constraints.Field(path, "equipment"), "unknown equipment kind")
	}
	switch z := tr.Equipment.MaxZones; {
	case tr.Equipment.Kind == constraints.MultiTempReefer && z != 0 && (z < 2 || z > 3):
		vs.Add(CodeInvalid, constraints.Field(path, "equipment.maxZones"), "a multi-temperature reefer has 2 or 3 zones (0: 3), got %d", z)
	case tr.Equipment.Kind != constraints.MultiTempReefer && z != 0 && z != 1:
		vs.Add(CodeInvalid, constraints.Field(path, "equipment.maxZones"), "only a multi-temperature reefer has several zones, got %d", z)
	}
	for _, v := range constraints.CheckDoors(constraints.Field(path, "doors"), tr.Doors, tr.LengthMM) {
		v.Code = CodeInvalid
		vs = append(vs, v)
	}
	return append(vs, tr.Axles.Check(constraints.Field(path, "axles"), float64(tr.LengthMM))...)
}

// checkPallets rejects pallets no layout can be computed for, and
// duplicate IDs.
func checkPallets(pallets []Pallet, stops int) constraints.Violations {
	var vs constraints.Violations
	seen := map[string]bool{}
	for i, p := range pallets {
		path := func() string { return constraints.Index("pallets", i) } // built only when needed
		if !dimension(p.LengthMM) || !dimension(p.WidthMM) || !dimension(p.HeightMM) || p.WidthMM > p.LengthMM {
			vs.Add(CodeInvalid, path(), "dimensions must be in (0, %d] mm with length >= width, got %d × %d × %d mm", MaxDimensionMM, p.LengthMM, p.WidthMM, p.HeightMM)
		}
		if !(p.WeightKg >= 0) || p.WeightKg > 1e9 || !(p.VolumeM3 >= 0) || p.VolumeM3 > 1e9 {
			vs.Add(CodeInvalid, path(), "weight and volume must be finite and not negative")
		}
		if p.Stop < 0 || p.Stop >= stops {
			vs.Add(CodeInvalid, constraints.Field(path(), "stop"), "stop %d outside [0, %d)", p.Stop, stops)
		}
		if !p.Temperature.Valid() {
			vs.Add(CodeInvalid, constraints.Field(path(), "temperature"), "unknown temperature class")
		}
		if seen[p.ID] {
			vs.Add(CodeDuplicate, constraints.Field(path(), "id"), "pallet %q listed twice", p.ID)
		}
		seen[p.ID] = true
	}
	return vs
}
