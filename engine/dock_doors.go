package engine

import (
	"fmt"
	"slices"
	"time"
)

// assignDockDoors puts each route's loading on a dock door. It schedules
// backward, the trips that start latest first, each loading as late as its
// door allows: on the door whose next loading leaves the latest start,
// ending by the trip's start and no earlier than its staging limit before
// it, and starting inside the dock hours; among equal starts the lowest
// door, so that the doors used are the most loadings at once when nothing
// has to move. Loading earlier, inside the staging limit, is how a DC
// loads more trailers than it has doors through the night. A door is
// taken from a loading's start to its end (one that takes no time takes
// none). A loading starts no earlier than notBefore[k] for routes[k],
// when its trailer unit is back from its trip before. With the DC's dock
// doors set, a route whose loading fits no door is dropped, its pallets
// unassigned as DOCK_CAPACITY. It returns the routes kept, in their
// order, and the unassigned pallets.
func assignDockDoors(m *model, routes []Route, unassigned []Unassigned, notBefore []time.Time) ([]Route, []Unassigned) {
	limit := m.req.DC.DockDoors
	order := make([]int, len(routes))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return routes[b].Start.Compare(routes[a].Start) })
	var busyFrom []time.Time // by door − 1: the start of its earliest loading so far
	dropped := make([]bool, len(routes))
	for _, k := range order {
		r := &routes[k]
		loading := r.LoadingEnd.Sub(r.LoadingStart)
		if loading <= 0 {
			r.DockDoor = 1 // a loading that takes no time holds no door
			continue
		}
		earliest := r.Start.Add(-m.req.StagingLimit(m.req.Fleet[m.trailer[r.Trailer]]) - loading)
		if earliest.Before(notBefore[k]) {
			earliest = notBefore[k]
		}
		door, at := 0, time.Time{}
		for d := 0; d <= len(busyFrom); d++ {
			end := r.Start
			if d < len(busyFrom) && busyFrom[d].Before(end) {
				end = busyFrom[d]
			} else if d == len(busyFrom) && limit > 0 && d >= limit {
				break // no door left to open
			}
			if ls, ok := m.latestLoadingStart(earliest, end.Add(-loading)); ok && (door == 0 || ls.After(at)) {
				door, at = d+1, ls
			}
		}
		if door == 0 {
			msg := fmt.Sprintf("no dock door free to load its trip, starting in the dock hours between %s and %s: %s",
				earliest.In(m.req.TimeZone()).Format(time.RFC3339), r.Start.Add(-loading).In(m.req.TimeZone()).Format(time.RFC3339), doorsBusyText(limit))
			unassigned = append(unassigned, unassignTrip(m, r, ReasonDockCapacity, msg)...)
			dropped[k] = true
			continue
		}
		if door > len(busyFrom) {
			busyFrom = append(busyFrom, at)
		}
		busyFrom[door-1] = at
		r.LoadingStart, r.LoadingEnd, r.DockDoor = at, at.Add(loading), door
	}
	kept := routes[:0]
	for k, r := range routes {
		if !dropped[k] {
			kept = append(kept, r)
		}
	}
	return kept, unassigned
}

// latestLoadingStart is the latest instant in [lo, hi] at which a loading
// may start: in the dock hours, any time when the dock is always open.
func (m *model) latestLoadingStart(lo, hi time.Time) (time.Time, bool) {
	if hi.Before(lo) {
		return time.Time{}, false
	}
	if m.alwaysDock {
		return hi, true
	}
	return latestDockStart(m.dockWin, lo, hi)
}

// doorsBusyText says that the DC's n dock doors are all loading.
func doorsBusyText(n int) string {
	if n == 1 {
		return "the DC's one dock door is loading another trailer"
	}
	return fmt.Sprintf("the DC's %d dock doors are all loading other trailers", n)
}
