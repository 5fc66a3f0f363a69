package loadplan

// Codes of the violations that PlanTrailer and Validate report. They are
// stable: callers (the route planner, the engine) switch on them.
const (
	CodeTemperature    = "TEMPERATURE"      // a pallet's class cannot ride on this equipment or in its zone
	CodeTooManyZones   = "TOO_MANY_ZONES"   // more classes than the equipment has zones
	CodeTooTall        = "PALLET_TOO_TALL"  // taller than the inside height
	CodeTooWide        = "PALLET_TOO_WIDE"  // fits the floor's width in no orientation
	CodePositions      = "POSITIONS"        // more floor positions than the trailer allows
	CodePayload        = "PAYLOAD"          // heavier than the payload
	CodeVolume         = "VOLUME"           // more volume than the trailer holds
	CodeFloorLength    = "FLOOR_LENGTH"     // rows longer than the floor
	CodeKingpin        = "AXLE_KINGPIN"     // kingpin load above its limit or below zero
	CodeAxleGroup      = "AXLE_GROUP"       // trailer axle group load above its limit
	CodeUnloadingOrder = "UNLOADING_ORDER"  // a pallet for a later stop blocks one to unload earlier
	CodeOverlap        = "OVERLAP"          // two pallets occupy the same floor
	CodeOutsideFloor   = "OUTSIDE_FLOOR"    // a pallet stands partly outside the floor
	CodeRowOrder       = "ROW_ORDER"        // rows do not follow each other from the nose
	CodeZone           = "ZONE"             // zones out of order, overlapping, or a row outside its zone
	CodeMissing        = "PALLET_MISSING"   // a pallet to load has no placement
	CodeDuplicate      = "PALLET_TWICE"     // a pallet is placed more than once
	CodeUnknown        = "PALLET_UNKNOWN"   // a placement names a pallet not on this trailer
	CodeAxleReport     = "AXLE_REPORT"      // reported axle loads differ from the recomputed ones
	CodeInvalid        = "INVALID_VALUE"    // a number that cannot describe a pallet or trailer
	CodeStacking       = "STACKING"         // a pallet stands on another one against the stacking rules
	CodeSharing        = "POSITION_SHARING" // pallets share a floor position against the sharing rules
	CodeNoTrailer      = "NO_TRAILER"       // PackFleet: no trailer left in the fleet can take the pallet
	CodeCancelled      = "CANCELLED"        // PackFleet: the context ended before the pallet was packed
)
