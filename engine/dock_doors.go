package engine

import (
	"fmt"
	"time"
)

// assignDockDoors gives each route, in order of loading start, the lowest
// dock door free when its loading starts: a door is taken from a loading's
// start to its end (one that takes no time takes none), so that the doors
// used are the most loadings at once. With the DC's dock doors set, a
// route that finds them all taken is dropped, its pallets unassigned as
// DOCK_CAPACITY. It returns the routes kept and the unassigned pallets.
func assignDockDoors(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	limit := m.req.DC.DockDoors
	var freeAt []time.Time // by door − 1: when its loading ends
	kept := routes[:0]
	for _, r := range routes {
		if !r.LoadingEnd.After(r.LoadingStart) {
			r.DockDoor = 1 // a loading that takes no time holds no door
			kept = append(kept, r)
			continue
		}
		door := 0
		for d, t := range freeAt {
			if !t.After(r.LoadingStart) {
				door = d + 1
				break
			}
		}
		if door == 0 && (limit == 0 || len(freeAt) < limit) {
			freeAt = append(freeAt, time.Time{})
			door = len(freeAt)
		}
		if door == 0 {
			msg := fmt.Sprintf("no dock door free to load its trip at %s: %s",
				r.LoadingStart.In(m.req.TimeZone()).Format(time.RFC3339), doorsBusyText(limit))
			unassigned = append(unassigned, unassignTrip(m, &r, ReasonDockCapacity, msg)...)
			continue
		}
		freeAt[door-1] = r.LoadingEnd
		r.DockDoor = door
		kept = append(kept, r)
	}
	return kept, unassigned
}

// doorsBusyText says that the DC's n dock doors are all loading.
func doorsBusyText(n int) string {
	if n == 1 {
		return "the DC's one dock door is loading another trailer"
	}
	return fmt.Sprintf("the DC's %d dock doors are all loading other trailers", n)
}
