// Package loadplan lays pallets out on trailer floors: which pallet stands
// in which row and on which side, which temperature zone each row belongs
// to, and the resulting axle loads at departure and after every stop.
//
// A trailer floor is a sequence of rows from the nose (row 0, by the
// refrigeration unit) to the door; a row holds two pallets side by side
// (LEFT and RIGHT) or one pallet too wide to pair (CENTER). Pallets for the
// last stop are loaded first, nearest the nose, so that at every stop the
// pallets to unload stand between the door and everything still on board.
// In a multi-temperature reefer the rows are split into zones by movable
// bulkheads, colder zones towards the nose, each reached by its own door;
// the unloading order then holds within each zone.
//
// Layout is the entry point for one trailer and a given stop sequence; it
// either returns a legal layout or a constraints.Violations that says
// exactly why none was found, so that a route planner can react. The
// sub-package binpack holds the bin-packing core (bounds and search) used to
// decide how many trailers a set of pallets needs.
package loadplan
