package engine

import (
	"sort"

	"github.com/haulplan/haulplan/constraints"
)

// The trailer presets, by name for TrailerPreset, and as functions
// (DryVan53, DryVan48, Reefer53, MultiTempReefer48): the common North
// American semi-trailers with their
// inside dimensions, pallet positions, payload and axle geometry, so that a
// caller sets only what is its own (how many, what they cost, perhaps the
// ID) and copies or changes the rest:
//
//	vans := engine.DryVan53()
//	vans.Count = 12
//	vans.Costs = engine.Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}
//
// The figures are typical values of current equipment, rounded, not those
// of one model; a fleet's own spec plates and scale tickets are better. They
// come from:
//
//   - Lengths and widths: 53 ft (16,154 mm) and 48 ft (14,630 mm) outside,
//     102 in (2,591 mm) wide, the US federal limits (23 CFR 658.13); inside
//     length and width from manufacturers' specification sheets for plate
//     (composite) dry vans (about 52 ft 6 in and 100 in inside for 53 ft)
//     and for reefers, whose insulation takes about 4 in at the front wall,
//     3 in at the doors and 2 in in each side wall (Utility 3000R: inside
//     about 98 in wide), and whose duct floor and roof leave about 102 in of
//     height.
//   - Pallet positions: 48×40 in pallets turned, two abreast (2 × 48 in =
//     2,438 mm fits every width here), one row per 40 in (1,016 mm) of
//     floor: 15 rows (30 positions) in 53 ft, 14 rows (28) in 48 ft.
//   - Weights: 80,000 lb gross and 34,000 lb on a tandem (23 CFR 658.17).
//     Payload = 80,000 lb − the trailer's tare − 21,000 lb for a
//     tandem-axle tractor with driver and fuel and a margin. Reefer tare:
//     Utility 3000R about 12,455 lb plus about 2,000 lb for the
//     refrigeration unit, plus fuel; multi-temperature units with remote
//     evaporators and movable bulkheads add about 1,000 lb more.
//   - Kingpin 36 in (914 mm) behind the front wall, the usual setting.
//     Trailer tandem with its rear axle 40 ft (12,192 mm) behind the kingpin,
//     the California kingpin-to-rear-axle limit (Vehicle Code § 35401) that
//     carriers build to for a nationwide fleet, and a 49 in spread, so the
//     tandem centre is 12,192 − 622 mm behind the kingpin: 12,480 mm from
//     the nose.
//   - Kingpin limit: the tractor's drive tandem may carry 34,000 lb; about
//     9,000 lb of it is the tractor's own weight, leaving 25,000 lb
//     (11,300 kg) for the kingpin.
//   - Tare centre (the empty trailer's centre of gravity): estimated so that
//     an empty dry van rests about 35 % on the kingpin and 65 % on its
//     tandem; the refrigeration unit on the front wall moves a reefer's
//     forward. These are estimates from the parts' weights and positions,
//     not measurements.
//
// As on the road, the axle limits bind before the payload when the floor
// is full: 30 pallets of 680 kg standing from the nose put about 500 kg
// more than 34,000 lb on the trailer tandem, and PlanTrailer reports
// AXLE_GROUP. Each call returns a new value: changing it changes no other.
//
// The JSON form of a request has no member that names a preset yet; a
// program that reads its fleet from its own configuration can map names
// with TrailerPreset.
const (
	PresetDryVan53          = "DRY_VAN_53"
	PresetDryVan48          = "DRY_VAN_48"
	PresetReefer53          = "REEFER_53"
	PresetMultiTempReefer48 = "MULTI_TEMP_REEFER_48"
)

// Axle figures shared by the presets (see the comment above).
const (
	presetKingpinMM        = 914   // 36 in
	presetAxleGroupMM      = 12480 // tandem centre: 914 + 12,192 − 622
	presetKingpinLimitKg   = 11300 // 25,000 lb
	presetAxleGroupLimitKg = 15422 // 34,000 lb
	lengthFt53             = 16154 // 53 ft
	lengthFt48             = 14630 // 48 ft
	insideWidthReeferMM    = 2489  // 98 in
	insideHeightReeferMM   = 2591  // 102 in
	insideWidthVanMM       = 2540  // 100 in
	insideHeightVanMM      = 2794  // 110 in
	presetNoseDoorMM       = 2500  // a multi-temperature reefer's curbside door opens the first 2,500 mm
)

// DryVan53 returns a 53 ft plate dry van: inside 16,002 × 2,540 ×
// 2,794 mm (52 ft 6 in × 100 in × 110 in), 30 pallet positions, tare
// 14,000 lb (6,350 kg), payload 45,000 lb (20,400 kg). ID "DRY53"; Count
// and Costs are zero for the caller to set.
func DryVan53() TrailerType {
	return TrailerType{
		ID: "DRY53", Name: "53 ft dry van", LengthMM: lengthFt53,
		Inside:          Dimensions{LengthMM: 16002, WidthMM: insideWidthVanMM, HeightMM: insideHeightVanMM},
		PalletPositions: 30, PayloadKg: 20400,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		// 35 % of the tare on the kingpin: centre 914 + 0.65 × 11,566 mm.
		Axles: presetAxles(6350, 8430),
	}
}

// DryVan48 returns a 48 ft plate dry van: inside 14,478 × 2,540 ×
// 2,794 mm (47 ft 6 in × 100 in × 110 in), 28 pallet positions, tare
// 13,000 lb (5,900 kg), payload 46,000 lb (20,850 kg). ID "DRY48"; Count
// and Costs are zero for the caller to set.
func DryVan48() TrailerType {
	return TrailerType{
		ID: "DRY48", Name: "48 ft dry van", LengthMM: lengthFt48,
		Inside:          Dimensions{LengthMM: 14478, WidthMM: insideWidthVanMM, HeightMM: insideHeightVanMM},
		PalletPositions: 28, PayloadKg: 20850,
		Equipment: constraints.Equipment{Kind: constraints.DryVan},
		Axles:     presetAxles(5900, 8430),
	}
}

// Reefer53 returns a 53 ft single-temperature reefer: inside 15,850 ×
// 2,489 × 2,591 mm (52 ft × 98 in × 102 in), 30 pallet positions, tare
// 15,000 lb (6,800 kg) with its refrigeration unit and fuel, payload
// 44,000 lb (19,950 kg). ID "REEF53"; Count and Costs are zero for the
// caller to set.
func Reefer53() TrailerType {
	return TrailerType{
		ID: "REEF53", Name: "53 ft reefer", LengthMM: lengthFt53,
		Inside:          Dimensions{LengthMM: 15850, WidthMM: insideWidthReeferMM, HeightMM: insideHeightReeferMM},
		PalletPositions: 30, PayloadKg: 19950,
		Equipment: constraints.Equipment{Kind: constraints.Reefer},
		// A 12,455 lb body centred like the dry van's (8,430 mm), a
		// 2,000 lb unit centred 300 mm ahead of the front wall and 545 lb
		// of fuel 3,000 mm behind it: centre 7,070 mm.
		Axles: presetAxles(6800, 7070),
	}
}

// MultiTempReefer48 returns a 48 ft multi-temperature reefer with up to
// three zones: inside 14,350 × 2,489 × 2,591 mm (47 ft 1 in × 98 in ×
// 102 in), 28 pallet positions, tare 16,000 lb (7,250 kg) with its unit,
// remote evaporators, two movable bulkheads and fuel, payload 43,000 lb
// (19,500 kg). Besides the rear door it has a curbside door for its nose
// compartment, opening the first 2,500 mm of the floor (two rows of
// pallets), through which the frozen pallets at the nose come off at the
// early stops of a trip. ID "MT48"; Count and Costs are zero for the
// caller to set.
func MultiTempReefer48() TrailerType {
	return TrailerType{
		ID: "MT48", Name: "48 ft multi-temperature reefer", LengthMM: lengthFt48,
		Inside:          Dimensions{LengthMM: 14350, WidthMM: insideWidthReeferMM, HeightMM: insideHeightReeferMM},
		PalletPositions: 28, PayloadKg: 19500,
		Equipment: constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 3},
		Doors:     []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 0, ToMM: presetNoseDoorMM}},
		// An 11,700 lb body at 8,430 mm, a 2,400 lb unit 300 mm ahead of
		// the front wall, 600 lb of remote evaporators near 6,000 mm,
		// 500 lb of bulkheads near 7,000 mm and 550 lb of fuel at 3,000
		// mm: centre about 6,800 mm.
		Axles: presetAxles(7250, 6800),
	}
}

// presetAxles is the shared axle geometry with a preset's tare.
func presetAxles(tareKg, tareCentreMM float64) constraints.AxleGeometry {
	return constraints.AxleGeometry{
		KingpinMM: presetKingpinMM, AxleGroupMM: presetAxleGroupMM,
		TareKg: tareKg, TareCentreMM: tareCentreMM,
		KingpinLimitKg: presetKingpinLimitKg, AxleGroupLimitKg: presetAxleGroupLimitKg,
	}
}

var presets = map[string]func() TrailerType{
	PresetDryVan53:          DryVan53,
	PresetDryVan48:          DryVan48,
	PresetReefer53:          Reefer53,
	PresetMultiTempReefer48: MultiTempReefer48,
}

// TrailerPreset returns the preset of the given name (PresetDryVan53,
// "DRY_VAN_53", and so on), with Count and Costs zero, and whether the name
// is known. It lets a program that reads its fleet from its own
// configuration name the presets.
func TrailerPreset(name string) (TrailerType, bool) {
	f, ok := presets[name]
	if !ok {
		return TrailerType{}, false
	}
	return f(), true
}

// TrailerPresets returns the names TrailerPreset knows, sorted.
func TrailerPresets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
