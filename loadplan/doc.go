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
// Pallets for the last stop are loaded first, nearest the nose, so that at
// every stop the pallets to unload stand nearest the door: within a zone a
// pallet for a later stop never starts nearer the door than one for an
// earlier stop. In a multi-temperature reefer the floor is split into zones
// by movable bulkheads straight across the trailer, colder zones towards
// the nose, each reached by its own door; the unloading order holds within
// each zone.
//
// PlanTrailer lays out one trailer for a given stop sequence; it either
// returns a legal layout or a constraints.Violations that says exactly why
// none was found, so that a route planner can react. Validate is the
// independent oracle for any layout. PackFleet puts the pallets of several
// stores into as few trailers of a fleet as it can, each laid out by
// PlanTrailer, with a proven lower bound on the number of trailers. The
// sub-package binpack holds the bin-packing core (bounds and search).
package loadplan
