package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/loadplan"
	"github.com/haulplan/haulplan/routeplan"
)

// What the planner does when a trip's floor does not unload through the
// trailer's doors: on a multi-temperature reefer, an early stop's pallets
// in a zone towards the nose that no side door reaches, behind a warmer
// zone's pallets for later stops. loadplan names the first such pallet
// (an UNLOADING_ORDER violation at "pallets[i]", i in the order buildRoute
// lists the trip's pallets). Moving that stop to the end of its trip puts
// its pallets nearest the door of every zone; when the new order misses a
// window or a limit, an order of a warmer class at a later stop goes back
// to routing (the pallets in the way: on a dry van they trouble no
// door), or when there is none the order of the pallet that is stuck,
// rather than the trip's last stop. The order sent back keeps a note of
// the trailer type and the trip (noteDoorTrouble), from which
// unassignOrder (fleet_state.go) gives its reason if it stays out.

// stuckPallet returns the index of the pallet a layout error says cannot
// come off through the trailer's doors, and the violation's message (which
// names the zone and the stop), or false when the error is of another
// kind.
func stuckPallet(err error) (int, string, bool) {
	var vs constraints.Violations
	if !errors.As(err, &vs) {
		return 0, "", false
	}
	for _, v := range vs {
		if v.Code != loadplan.CodeUnloadingOrder || !strings.HasPrefix(v.Path, "pallets[") || !strings.HasSuffix(v.Path, "]") {
			continue
		}
		if i, err := strconv.Atoi(v.Path[len("pallets[") : len(v.Path)-1]); err == nil {
			return i, v.Message, true
		}
	}
	return 0, "", false
}

// visitOfPallet is the index in trip.Visits of the visit whose order holds
// the trip's pallet i (buildRoute lists them visit by visit), the last
// visit when there is no pallet i.
func visitOfPallet(trip routeplan.Route, pool []*order, i int) int {
	for vi, v := range trip.Visits {
		n := len(pool[v.Site].pallets)
		if i < n {
			return vi
		}
		i -= n
	}
	return len(trip.Visits) - 1
}

// stopLast is rr, timed again, with the stop of visit vi of its trip bad
// (vi and the visits of the same store next to it, which buildRoute makes
// one stop) moved to the end of that trip. It fails when the stop is the
// trip's last already, was moved before (moved, by its first site, which
// it updates), or the new order misses a window or a limit.
func (r *routing) stopLast(typ int, rr routeplan.Route, bad, vi int, pool []*order, moved map[int]bool) (routeplan.Route, bool) {
	trips := splitTrips(rr)
	trip := trips[bad]
	store := pool[trip.Visits[vi].Site].store
	from, to := vi, vi+1
	for from > 0 && pool[trip.Visits[from-1].Site].store == store {
		from--
	}
	for to < len(trip.Visits) && pool[trip.Visits[to].Site].store == store {
		to++
	}
	if to == len(trip.Visits) || moved[trip.Visits[from].Site] {
		return routeplan.Route{}, false
	}
	moved[trip.Visits[from].Site] = true
	offset := bad // the reload sites before the trip
	for _, t := range trips[:bad] {
		offset += len(t.Visits)
	}
	sites := routeSites(rr)
	block := slices.Clone(sites[offset+from : offset+to])
	end := offset + len(trip.Visits)
	sites = slices.Concat(sites[:offset+from], sites[offset+to:end], block, sites[end:])
	return r.timeRoute(typ, sites)
}

// doorBlocker is the visit to send back when the pallet of visit vi of
// trip cannot come off through the doors: the last visit of a later stop
// whose order is of a warmer class (standing in a zone nearer the door),
// or vi itself when there is none.
func doorBlocker(trip routeplan.Route, pool []*order, vi int) int {
	stuck := pool[trip.Visits[vi].Site]
	for k := len(trip.Visits) - 1; k > vi; k-- {
		if o := pool[trip.Visits[k].Site]; o.store != stuck.store && o.class < stuck.class {
			return k
		}
	}
	return vi
}

// noteDoorTrouble records on the order of visit back of trip, sent back
// because the doors of trailer type ti could not unload the trip (why is
// loadplan's UNLOADING_ORDER message, naming the zone and the stop), that
// type ti's doors failed it, and where: the trip's stores with the stop
// numbers loadplan's message counts by (buildRoute's stops, from 0), and
// the order's own stop, which is the stuck one or a later one in its way.
// It keeps the order off type ti from then on when it has another type to
// ride on (offSideDoorTrouble).
func (m *model) noteDoorTrouble(trip routeplan.Route, pool []*order, ti, back int, why string) {
	o := pool[trip.Visits[back].Site]
	var stops []string
	at := 0
	for k, v := range trip.Visits {
		s := pool[v.Site].store
		if k == 0 || pool[trip.Visits[k-1].Site].store != s {
			stops = append(stops, fmt.Sprintf("%s (stop %d)", m.req.Stores[s].ID, len(stops)))
		}
		if k == back {
			at = len(stops) - 1
		}
	}
	// A new list, never a change to the old one: a progress snapshot
	// (progress.go) may be reading the order's copy of it.
	trouble := make([]bool, len(m.req.Fleet))
	copy(trouble, o.doorTrouble)
	trouble[ti] = true
	o.doorTrouble = trouble
	o.doorMessage = fmt.Sprintf("on a trip of %s to %s, these pallets were for stop %d, and %s",
		m.req.Fleet[ti].ID, strings.Join(stops, ", "), at, why)
	offSideDoorTrouble(o, ti)
}

// offSideDoorTrouble keeps order o, sent back because the doors of
// trailer type ti could not unload it, off that type from then on when it
// has another type to ride on: a reefer of one temperature unloads any
// stop through its rear door, where a multi-temperature reefer's nose
// zone needs a side door for the early stops. o gets a new list: the
// orders makeOrders cut from one store's pallets of a class share theirs,
// and a progress snapshot (progress.go) may be reading its copy of o.
func offSideDoorTrouble(o *order, ti int) {
	if ti < 0 || ti >= len(o.trailers) || !o.trailers[ti] {
		return
	}
	for tj, ok := range o.trailers {
		if ok && tj != ti {
			o.trailers = slices.Clone(o.trailers)
			o.trailers[ti] = false
			return
		}
	}
}

// doorsOnly reports whether the doors of every trailer type order o may
// ride on could not unload a trip routing gave it (noteDoorTrouble): then
// its doors, not the fleet, the dock or the hours, are what keeps it off
// the plan, and it is unassigned as LOAD_LAYOUT with doorMessage.
func doorsOnly(o *order) bool {
	if o.doorMessage == "" {
		return false
	}
	for ti, ok := range o.trailers {
		if ok && !o.doorTrouble[ti] {
			return false
		}
	}
	return true
}

// doorTypes names the trailer types whose doors could not unload order o
// (noteDoorTrouble), in fleet order, and counts them.
func (m *model) doorTypes(o *order) (string, int) {
	var ids []string
	for ti, bad := range o.doorTrouble {
		if bad {
			ids = append(ids, m.req.Fleet[ti].ID)
		}
	}
	return strings.Join(ids, " and "), len(ids)
}
