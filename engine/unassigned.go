package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/internal/numtext"
)

// The messages of unassigned pallets say what stands in the way in a
// planner's terms: which store, which hours, which limit, which trailers,
// with the figures, so that the planner knows what to change.
//
// Doors. Every order is loadable alone (makeOrders lays it out), so a
// trip's doors fail an order only beside other stops: on a
// multi-temperature reefer, an early stop's pallets in a nose zone that no
// side door reaches, behind later stops' pallets of a warmer zone. The
// order sent back for it (the stuck one, or one in its way) is routed
// again, and may then be left out for the fleet, the dock, the hours, the
// end of planning (the time limit, the context) or the end of the routing
// rounds (routingRounds a phase: an order a layout sent back in the last
// one says so, an iteration budget or a longer limit giving no more).
// Its reason is then decided by the trailer types it may ride on
// (unassignOrder, fleet_state.go): when the doors of every one of them
// failed it on a trip routing gave it, it is LOAD_LAYOUT, and the
// message names the types, and for the last such trip its stores by stop,
// the order's stop, and loadplan's zone and stuck stop; when some type
// whose doors never failed it could carry it, it keeps the reason it was
// left out for there, and the message adds what the doors did.

// explainPallet says why no trailer type of the fleet can carry pallet p to
// store s at all, with the reason code that fits: NO_COMPATIBLE_TRAILER for
// temperature and length, CAPACITY for size and weight.
func (m *model) explainPallet(p Pallet, s int) (reason, msg string) {
	req := m.req
	store := req.Stores[s]
	var carriers, reach []TrailerType
	for _, t := range req.Fleet {
		if t.Count > 0 && t.Equipment.Carries(p.Temperature) && routingCapacity(t).Positions > 0 {
			carriers = append(carriers, t)
			if store.MaxTrailerLengthMM == 0 || t.nominalLength() <= store.MaxTrailerLengthMM {
				reach = append(reach, t)
			}
		}
	}
	if len(carriers) == 0 {
		if p.Temperature == constraints.Ambient {
			return ReasonNoCompatibleTrailer, "no trailer in the fleet"
		}
		return ReasonNoCompatibleTrailer, fmt.Sprintf("needs %s: no reefer in the fleet", p.Temperature)
	}
	if len(reach) == 0 {
		shortest := carriers[0].nominalLength()
		for _, t := range carriers {
			shortest = min(shortest, t.nominalLength())
		}
		return ReasonNoCompatibleTrailer, fmt.Sprintf("store %s takes trailers up to %s mm long; every trailer that carries %s is longer (shortest %s mm)",
			store.ID, numtext.Whole(float64(store.MaxTrailerLengthMM)), p.Temperature, numtext.Whole(float64(shortest)))
	}
	var payload float64
	var height, width int
	volume := 0.0
	for _, t := range reach {
		payload = max(payload, t.PayloadKg)
		height = max(height, t.Inside.HeightMM)
		width = max(width, t.Inside.WidthMM)
		volume = max(volume, t.capacity().VolumeM3)
	}
	_, w := p.Footprint.Dims()
	there := ""
	if len(reach) < len(carriers) {
		there = fmt.Sprintf(" that can go to store %s", store.ID)
	}
	switch {
	case p.WeightKg > payload:
		return ReasonCapacity, fmt.Sprintf("%s kg exceeds every trailer's payload%s (largest %s kg)", numtext.Whole(p.WeightKg), there, numtext.Whole(payload))
	case p.HeightMM > height:
		return ReasonCapacity, fmt.Sprintf("%s mm tall; the tallest trailer%s is %s mm inside", numtext.Whole(float64(p.HeightMM)), there, numtext.Whole(float64(height)))
	case w > width:
		return ReasonCapacity, fmt.Sprintf("%s mm wide; the widest trailer%s is %s mm inside", numtext.Whole(float64(w)), there, numtext.Whole(float64(width)))
	case p.volume() > volume:
		return ReasonCapacity, fmt.Sprintf("%.1f m³ exceeds every trailer's volume%s (largest %.1f m³)", p.volume(), there, volume)
	}
	return ReasonCapacity, fmt.Sprintf("no trailer%s takes this pallet", there)
}

// explainOrder says why routing left order o out, for its reason, given
// the shifts and trailers left in fleet.
func (m *model) explainOrder(o *order, fleet *fleetState) string {
	req := m.req
	store := req.Stores[o.store]
	n := len(o.pallets)
	switch o.reason {
	case ReasonTimeWindow:
		ws := m.storeWin[o.store]
		if len(ws) == 0 {
			return fmt.Sprintf("store %s does not receive between the first shift's start and the last shift's end", store.ID)
		}
		last := ws[len(ws)-1].End
		msg := fmt.Sprintf("store %s receives %s; no shift can reach it before %s and return by its end", store.ID, m.windowsText(o.store, ws), m.clock(o.store, last, last))
		late, early := m.timeWindowMisses(o, fleet.groups)
		var why []string
		if !late.IsZero() {
			why = append(why, fmt.Sprintf("the earliest arrival with %s is %s", palletsText(n), m.clock(o.store, late, last)))
		}
		if !early.IsZero() {
			why = append(why, fmt.Sprintf("the shifts that could arrive in time end by %s", m.clock(o.store, early, last)))
		}
		if len(why) > 0 {
			msg += " (" + strings.Join(why, "; ") + ")"
		}
		return msg
	case ReasonShiftLimit:
		loading := m.loading(n)
		_, travel := m.travel(0, 1+o.store)
		_, back := m.travel(1+o.store, 0)
		unload := m.service(o.store, n)
		var duty, driving time.Duration
		for _, g := range fleet.groups {
			duty = max(duty, min(g.limits.MaxDuty, g.end.Sub(g.start)))
			driving = max(driving, g.limits.MaxDriving)
		}
		return fmt.Sprintf("store %s: a trip there and back with %s takes at least %s on duty (%s loading, %s driving, %s unloading); no shift allows it within its hours, hours of service and the store's receiving hours (the most any shift allows: %s on duty, %s driving)",
			store.ID, palletsText(n), hm(loading+travel+unload+back), hm(loading), hm(travel+back), hm(unload), hm(duty), hm(driving))
	case ReasonFleetExhausted:
		var types []string
		for ti, t := range req.Fleet {
			if o.trailers[ti] {
				types = append(types, fmt.Sprintf("%s ×%d", t.ID, t.Count))
			}
		}
		if fleet.freeShifts() == 0 {
			return fmt.Sprintf("store %s: all %d driver shifts drive other routes", store.ID, len(req.Shifts))
		}
		return fmt.Sprintf("store %s: the trailer units that can carry these %s pallets there (%s), which turn through the day, and the driver shifts still free (%d) cannot take them besides the other routes at the times the store receives",
			store.ID, o.class, strings.Join(types, ", "), fleet.freeShifts())
	case ReasonDockCapacity:
		return fmt.Sprintf("store %s: no dock door is free to load these %s pallets (%s of loading) at any time a trip could still take them there: %s",
			store.ID, o.class, hm(m.loading(n)), doorsBusyText(req.DC.DockDoors))
	case ReasonCapacity:
		return fmt.Sprintf("store %s: %s %s (%d positions, %s kg) exceed every trailer that can go there", store.ID, palletsText(n), o.class, o.load.Positions, numtext.Whole(o.load.WeightKg))
	case ReasonNoCompatibleTrailer:
		if len(req.Shifts) == 0 {
			return "the request has no driver shifts"
		}
		return fmt.Sprintf("store %s: no trailer in the fleet can carry these %s pallets there", store.ID, o.class)
	case ReasonLoadLayout:
		return fmt.Sprintf("store %s: no legal floor layout: %s", store.ID, o.message)
	}
	return fmt.Sprintf("store %s: the search ended before these pallets were placed", store.ID)
}

// timeWindowMisses tells why shifts cannot serve order o inside its
// store's receiving hours: late is the earliest arrival among the shifts
// that arrive after the last window closed, early the latest end among
// the shifts that arrive in time but cannot unload and return before they
// end. Either is zero when no shift misses that way.
func (m *model) timeWindowMisses(o *order, groups []shiftGroup) (late, early time.Time) {
	ws := m.storeWin[o.store]
	_, there := m.travel(0, 1+o.store)
	_, back := m.travel(1+o.store, 0)
	for _, g := range groups {
		start := g.start
		if !m.alwaysDock {
			s, ok := constraints.EarliestIn(m.dockWin, start)
			if !ok {
				continue
			}
			start = s
		}
		arrive := start.Add(m.loading(len(o.pallets)) + there)
		unload, ok := constraints.EarliestIn(ws, arrive)
		switch {
		case !ok:
			if late.IsZero() || arrive.Before(late) {
				late = arrive
			}
		case unload.Add(m.service(o.store, len(o.pallets)) + back).After(g.end):
			if g.end.After(early) {
				early = g.end
			}
		}
	}
	return late, early
}

// location is store s's time zone, UTC when it has none.
func (m *model) location(s int) *time.Location {
	if tz := m.req.Stores[s].Hours.TimeZone; tz != "" {
		if l, err := time.LoadLocation(tz); err == nil {
			return l
		}
	}
	return time.UTC
}

// clock formats t in store s's time zone: the time of day, with the weekday
// when other differs from it in day.
func (m *model) clock(s int, t, other time.Time) string {
	loc := m.location(s)
	t, other = t.In(loc), other.In(loc)
	if t.YearDay() != other.YearDay() || t.Year() != other.Year() {
		return t.Format("Mon 15:04")
	}
	return t.Format("15:04")
}

// windowsText lists a store's receiving windows in its time zone: the
// times of day when every day has the same ones, else each with its day.
func (m *model) windowsText(s int, ws []constraints.Window) string {
	loc := m.location(s)
	seen := map[string]bool{}
	var daily, dated []string
	for _, w := range ws {
		a, b := w.Start.In(loc), w.End.In(loc)
		d := a.Format("15:04") + "–" + b.Format("15:04")
		if !seen[d] {
			seen[d] = true
			daily = append(daily, d)
		}
		dated = append(dated, a.Format("Mon 15:04")+"–"+b.Format("15:04"))
	}
	if len(daily) <= 2 {
		return strings.Join(daily, " and ")
	}
	if len(dated) > 4 {
		dated = append(dated[:4], "…")
	}
	return strings.Join(dated, ", ")
}

// palletsText is "1 pallet" or "n pallets".
func palletsText(n int) string {
	if n == 1 {
		return "1 pallet"
	}
	return fmt.Sprintf("%d pallets", n)
}

// hm formats a duration as hours and minutes: 14h00m.
func hm(d time.Duration) string {
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
