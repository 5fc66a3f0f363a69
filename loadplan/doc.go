// Package loadplan lays pallets out on trailer floors: which pallet stands
// where on which side, which temperature zone it belongs to, which pallets
// stand on others, and the resulting axle loads at departure and after every
// stop.
//
// A trailer floor has two sides, LEFT and RIGHT, seen from the door; each
// pallet has a position along the floor (XMM, from the nose to its
// nose-side edge) and a row counted per side from the nose (row 0). Rows
// usually hold two pallets side by side in one orientation, or one pallet
// too wide to pair (CENTER, standing on both sides). Where two pallets
// turned do not fit the width but one turned beside one straight does (a
// 48×40 in pallet on a floor 2,235–2,437 mm wide), two rows become a
// pinwheel block: the sides alternate orientation, so their rows no longer
// share boundaries, and four pallets take 1,219 + 1,016 mm of length instead
// of 2 × 1,219 mm. A pallet allowed to be stacked may stand on one allowed
// to carry (Placement.Level 1); stacked pallets take no floor position.
// The top may be for an earlier stop than its bottom: it comes off first,
// and the bottom stays for its own stop (never the other way round).
//
// A floor position (one row on one side) is the place of one 48×40 in
// pallet. Half pallets (48×20 in, at most 1,220 × 508 mm) and quarter
// pallets (24×20 in, at most 610 × 508 mm) share positions: two halves,
// four quarters, or one half and two quarters make one position, which
// counts once. Placement.Slot says where across the position a pallet
// stands: slot 0 against the wall of its side, slot 1 one of its own
// widths further in. Standing straight, two halves stand side by side in
// slots 0 and 1 and quarters two by two; turned (long side across), two
// halves stand one behind the other, both in slot 0, and quarters take
// slots 0 and 1 in each of two rows of the position. PlanTrailer pairs the
// halves and quarters of one stop first, and puts the one left over beside
// those of the next stop, the later stop's at the nose-most corner; each
// pallet weighs on the axles at its own centre.
//
// Pallets come off through the trailer's doors (Trailer.Doors): the rear
// door, and side doors in the curbside wall (the RIGHT side, seen from the
// rear door, as the sides are named: in the US the curb is on the right of
// the direction of travel) or the roadside wall (LEFT), each over a stretch
// of the floor measured from the nose like XMM. A trailer that lists no
// doors has the rear door alone. At every stop each of its pallets must
// come off through some door once the pallets of earlier stops are off:
// through the rear door when nothing still on board starts nearer the door
// than it does, through a side door when its stretch along the floor lies
// within the opening and nothing on board stands between it and that wall
// over its stretch; a stacked pallet before the one under it. Bulkheads
// open, so the rear door reaches every zone past the pallets behind it.
//
// Pallets for the last stop are loaded first, nearest the nose, so that at
// every stop the pallets to unload stand nearest the door: within a zone,
// but for the pallets a side door takes, a pallet for a later stop never
// starts nearer the door than one for an earlier stop. In a multi-temperature reefer the floor is split into zones
// by movable bulkheads straight across the trailer, colder zones towards
// the nose, so a nose zone's pallets for early stops stand behind the
// warmer zones' pallets for later stops: they come off through a side
// door. PlanTrailer then puts the earliest stops of such a zone in the rows
// under a side door's opening, the curbside pallet of each row for the
// earlier stop: at the zone's nose end, or, for an opening further along
// (a three-zone reefer's middle compartment has a door of its own), behind
// the zone's latest stops, with floor left empty before them where the
// rows would not otherwise fit under an opening the zone reaches. A trip
// no door arrangement unloads in order gets an UNLOADING_ORDER violation
// naming the zone and the stop.
//
// PlanTrailer lays out one trailer for a given stop sequence; it either
// returns a legal layout or a constraints.Violations that says exactly why
// none was found, so that a route planner can react. Validate is the
// independent oracle for any layout. PackFleet puts the pallets of several
// stores into as few trailers of a fleet as it can, each laid out by
// PlanTrailer, with a proven lower bound on the number of trailers. The
// sub-package binpack holds the bin-packing core (bounds and search).
package loadplan
