package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/haulplan/haulplan/routeplan"
)

// The dock doors are a resource of routing (a Timed routeplan resource
// held over each trip's loading, see addFleetResources): routing keeps no
// more loadings at one instant than the DC has doors, holding a trip back
// at the DC until a door is free, so every trip it keeps can be loaded.
// Its loading is where placeLoading puts it: the latest start in the dock
// hours that leaves the loading done by the hook-up, the DC's loading
// time long, as routing times it (routeplan's tripHolds) to the second
// when the loading times are whole seconds, inside routing's interval
// otherwise (routing rounds them up). A routing round's Busy intervals
// are the loadings of the routes planned before it, and every change to a
// planned route after routing (a layout's, route elimination's, the spare
// room's) checks the doors again (doorsFit).

// assignDockDoors numbers the dock doors of the routes' loadings, as
// placeLoadings left them: in order of loading start, each loading on the
// lowest door free by then (a door is taken from a loading's start to its
// end; one that takes no time takes none, on door 1). Intervals coloured
// in order of their starts take no more doors than the most that overlap,
// and routing keeps that within the DC's doors, so with dc.dockDoors set
// no loading finds every door busy unless a loading runs longer than
// routing timed it; should one, its route is dropped, its pallets
// unassigned as DOCK_CAPACITY, rather than loaded on a busy door. It
// returns the routes kept, in their order, and the unassigned pallets.
func assignDockDoors(m *model, routes []Route, unassigned []Unassigned) ([]Route, []Unassigned) {
	limit := m.req.DC.DockDoors
	var freeAt []time.Time // by door − 1: the end of its last loading
	// The locked routes of a re-plan keep their doors (lockedOn).
	lockedOn := map[int][]hold{}
	for _, r := range m.fixed {
		if r.LoadingEnd.After(r.LoadingStart) {
			lockedOn[r.DockDoor] = append(lockedOn[r.DockDoor], hold{r.LoadingStart, r.LoadingEnd})
		}
	}
	lockedAt := func(door int, r Route) bool {
		for _, h := range lockedOn[door] {
			if h.from.Before(r.LoadingEnd) && r.LoadingStart.Before(h.til) {
				return true
			}
		}
		return false
	}
	kept := routes[:0]
	for _, r := range routes {
		if !r.LoadingEnd.After(r.LoadingStart) {
			r.DockDoor = 1 // a loading that takes no time holds no door
			kept = append(kept, r)
			continue
		}
		door := 0
		for d, at := range freeAt {
			if !at.After(r.LoadingStart) && !lockedAt(d+1, r) {
				door = d + 1
				break
			}
		}
		for door == 0 && (limit == 0 || len(freeAt) < limit) {
			freeAt = append(freeAt, time.Time{})
			if !lockedAt(len(freeAt), r) {
				door = len(freeAt)
			}
		}
		if door == 0 {
			msg := fmt.Sprintf("no dock door free to load its trip from %s: %s",
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

// loadingHold is the interval [from, til) over which route r, as the plan
// will have it, takes a dock door: its loading, in the dock hours
// (placeLoading).
func (m *model) loadingHold(r Route) (from, til time.Time) {
	m.placeLoading(&r)
	return r.LoadingStart, r.LoadingEnd
}

// doorsFit reports whether trips can join the plan's routes but those in
// skip (indices into fleet.routes): with the DC's dock doors set, at no
// instant at which one of them loads do more trailers load than there are
// doors.
func (fleet *fleetState) doorsFit(m *model, trips []*Route, skip []int) bool {
	if m.req.DC.DockDoors == 0 {
		return true
	}
	var mine, others []hold
	for _, r := range trips {
		from, til := m.loadingHold(*r)
		mine = append(mine, hold{from, til})
	}
	for ri, r := range fleet.routes {
		if slices.Contains(skip, ri) {
			continue
		}
		// A loading that meets none of mine counts at none of their
		// instants: left out, the sort is of a few holds, not the day's.
		if from, til := m.loadingHold(r); meetsAny(mine, from, til) {
			others = append(others, hold{from, til})
		}
	}
	for _, r := range m.fixed {
		others = append(others, hold{r.LoadingStart, r.LoadingEnd})
	}
	return holdsWithin(mine, others, m.req.DC.DockDoors)
}

// meetsAny reports whether [from, til) shares an instant with one of hs.
func meetsAny(hs []hold, from, til time.Time) bool {
	for _, h := range hs {
		if from.Before(h.til) && h.from.Before(til) {
			return true
		}
	}
	return false
}

// busyDoors are the loadings (loadingHold) of the plan's routes, in
// routing's seconds, widened to whole seconds: what a routing round's
// trips share the dock doors with.
func (fleet *fleetState) busyDoors(m *model) []routeplan.Window {
	var out []routeplan.Window
	for _, r := range fleet.routes {
		if from, til := m.loadingHold(r); til.After(from) {
			out = append(out, routeplan.Window{Start: m.seconds(from), End: m.secondsUp(til)})
		}
	}
	for _, r := range m.fixed {
		if r.LoadingEnd.After(r.LoadingStart) {
			out = append(out, routeplan.Window{Start: m.seconds(r.LoadingStart), End: m.secondsUp(r.LoadingEnd)})
		}
	}
	return out
}

// doorsBusyText says that the DC's n dock doors are all loading.
func doorsBusyText(n int) string {
	if n == 1 {
		return "the DC's one dock door is loading another trailer"
	}
	return fmt.Sprintf("the DC's %d dock doors are all loading other trailers", n)
}
