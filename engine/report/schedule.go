package report

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// Schedule writes an SVG Gantt chart of the plan's driver shifts on a time
// axis in the request's zone: one lane per shift that drives, under the
// shift's hours, with its trips in order. Each trip is labelled with its
// route, trip number and trailer unit and drawn as the driver spends it:
// hooking the loaded trailer up, driving, waiting for a store to open,
// unloading, the hours-of-service breaks the plan states (Stop.Break), and
// the drive back; between two trips the driver is at the DC, on duty.
// Under each stop stands its store's id, so that the picture reads without
// hover text, in print and as an image. A locked route (kept from the
// previous plan as it was, engine.Route.Locked) is hatched over its whole
// trip and has a padlock before its label; the legend then says so.
// Loading is the DC's work, not the
// driver's, and is drawn on the dock picture (DockSchedule).
func Schedule(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	_, err := w.Write(d.schedule().bytes())
	return err
}

// Kinds of activity on the schedule.
const (
	actHookUp    = "hook-up"
	actDriving   = "driving"
	actWait      = "wait"
	actUnloading = "unloading"
	actBreak     = "break"
	actAtDC      = "at-dc" // between two trips of a shift
)

var activityColour = map[string]string{
	actHookUp:    "#6f5a8e",
	actDriving:   "#4f7fc0",
	actWait:      "#f0a030",
	actUnloading: "#5aa55a",
	actBreak:     "#c0392b",
	actAtDC:      "#d9d2e6",
}

// activity is one stretch of a trip's duty.
type activity struct {
	kind       string
	start, end time.Time
	stop       int // the stop's index for wait, unloading and break; -1 otherwise
}

// activities lists a trip's duty in order: the hook-up, then per stop the
// drive there and the time on site, then the drive back. The time on site
// is the wait and the unloading (to the departure), or, at a stop where the
// plan states a break, the break: the whole time on site, which the break
// rule counts as one.
func (d *day) activities(r *engine.Route) []activity {
	acts := []activity{{actHookUp, r.Start, r.Depart, -1}}
	leave := r.Depart
	for k, s := range r.Stops {
		acts = append(acts, activity{actDriving, leave, s.Arrival, -1})
		switch {
		case s.Break != nil:
			acts = append(acts, activity{actBreak, s.Arrival, s.Departure, k})
		default:
			if s.Start.After(s.Arrival) {
				acts = append(acts, activity{actWait, s.Arrival, s.Start, k})
			}
			acts = append(acts, activity{actUnloading, s.Start, s.Departure, k})
		}
		leave = s.Departure
	}
	if len(r.Stops) > 0 {
		acts = append(acts, activity{actDriving, leave, r.Return, -1})
	}
	return acts
}

// limits are the hours-of-service limits of a shift (Request.ShiftLimits);
// a shift the request does not name has the request's own.
func (d *day) limits(shift string) constraints.HoursOfService {
	for i := range d.req.Shifts {
		if d.req.Shifts[i].ID == shift {
			return d.req.ShiftLimits(i)
		}
	}
	return d.req.HoursOfService.WithDefaults()
}

// The schedule's layout, in pixels: the label column, the time axis, the
// top of the first lane, and a lane: a line of trip labels, the bar, and
// two lines of store labels under it.
const (
	schedLabel      = 230.0
	schedAxis       = 960.0
	schedTop        = 104.0
	schedLane       = 64.0
	schedTripY      = 14.0 // baseline of the trip labels
	schedBarTop     = 19.0
	schedBarH       = 16.0
	schedLabelY     = 45.0 // baseline of the first line of store labels
	schedLabelGap   = 10.0 // to the second
	schedLabelPx    = 9.0  // their font size
	schedTripPx     = 10.0 // the trip labels' font size
	schedChip       = 8.0  // the route's colour before a trip label
	schedShiftBand  = 3.0  // how far the shift's band reaches past the bar
	schedLock       = 10.0 // the padlock's height before a locked trip's label
	schedLegendLine = 20.0
)

// schedLockedHatch is the id of the hatch over locked trips.
const schedLockedHatch = "schedule-locked"

func (d *day) schedule() *svgDoc {
	days := d.driverDays()
	var instants []time.Time
	for _, dd := range days {
		instants = append(instants, d.dutyStart(dd), d.dutyEnd(dd))
		if sh, ok := d.shift[dd.shift]; ok {
			instants = append(instants, sh.Start, sh.End)
		}
	}
	ax := d.newTimeAxis(schedLabel, schedAxis, instants)
	bottom := schedTop + schedLane*float64(len(days))
	locked := d.lockedRoutes() > 0
	height := bottom + 50
	if locked {
		height += schedLegendLine
	}
	s := newSVG(schedLabel+schedAxis+30, height, "Schedule of "+d.title())
	if locked {
		s.hatch(schedLockedHatch)
	}
	s.text(12, 26, "Schedule · "+d.title(), attrs{"font-size", "18", "font-weight", "bold"})
	s.text(12, 46, "times in "+d.loc.String()+"; one lane per driver shift, grey band: its hours; duty: on duty from the first hook-up to the last return; over each trip: route · trip · trailer unit; under each stop: its store",
		attrs{"fill", "#555555", "font-size", "11"})
	s.text(12, 60, "loading at the dock doors is the DC's work, not the driver's: see the dock schedule", attrs{"fill", "#555555", "font-size", "11"})
	ax.draw(s, d.loc, schedTop, bottom)
	for lane, dd := range days {
		d.scheduleLane(s, lane, dd, ax)
	}
	scheduleLegend(s, bottom+30)
	if locked {
		lockedLegend(s, schedLockedHatch, schedLabel, bottom+30+schedLegendLine, activityColour[actDriving],
			"locked: the trip is kept from the previous plan as it was (trailer, loading, stops and times)")
	}
	return s
}

// scheduleLane draws one driver shift: its label, its hours as a band,
// each trip with its label, and the time at the DC between trips.
func (d *day) scheduleLane(s *svgDoc, lane int, dd driverDay, ax timeAxis) {
	y := schedTop + schedLane*float64(lane)
	if lane%2 == 1 {
		s.rect(0, y, schedLabel+schedAxis+30, schedLane, attrs{"fill", "#fafafa"})
	}
	tot := d.driverTotals(dd)
	s.text(12, y+schedBarTop+5, dd.shift, attrs{"font-weight", "bold"})
	s.text(12+textWidth(dd.shift, 12)+10, y+schedBarTop+5, plural(len(dd.trips), "trip"), attrs{"font-size", "11", "fill", "#444444"})
	s.text(12, y+schedBarTop+19, fmt.Sprintf("duty %s · driving %s", hhmm(d.duty(dd)), hhmm(tot.driving)),
		attrs{"class", "shift-label", "font-size", "11", "fill", "#444444"})
	if sh, ok := d.shift[dd.shift]; ok {
		h := d.limits(dd.shift)
		s.rectTip(ax.x(sh.Start), y+schedBarTop-schedShiftBand, ax.x(sh.End)-ax.x(sh.Start), schedBarH+2*schedShiftBand,
			attrs{"class", "shift", "fill", "#e9e9e9", "stroke", "#cfcfcf"},
			fmt.Sprintf("shift %s: %s – %s; at most %s driving and %s on duty, a break of %s after %s of driving",
				sh.ID, d.clock(sh.Start), d.clock(sh.End), hhmm(h.MaxDriving), hhmm(h.MaxDuty), hhmm(h.BreakDuration), hhmm(h.BreakAfter)))
	}
	s.group(attrs{"class", "shift-lane", "data-shift", dd.shift, "data-trips", fmt.Sprint(len(dd.trips))})
	labels := [2]float64{math.Inf(-1), math.Inf(-1)} // where the last store label on each line ends
	for k, i := range dd.trips {
		r := &d.plan.Routes[i]
		if k > 0 {
			d.atDC(s, &d.plan.Routes[dd.trips[k-1]], r, ax, y)
		}
		next := ax.right()
		if k+1 < len(dd.trips) {
			next = ax.x(d.plan.Routes[dd.trips[k+1]].Start)
		}
		d.scheduleTrip(s, i, ax, y, next)
		d.stopLabels(s, r, ax, y, &labels)
	}
	s.end()
}

// scheduleTrip draws route i as one trip of its lane: its label over it,
// in the longest form that ends before the next trip starts (at next),
// and its activities as blocks with their hover text.
func (d *day) scheduleTrip(s *svgDoc, i int, ax timeAxis, y, next float64) {
	r := &d.plan.Routes[i]
	a := attrs{"class", "trip", "data-route", r.ID, "data-trip", fmt.Sprint(r.Trip), "data-unit", r.TrailerUnit}
	if r.Locked {
		a = append(a, "data-locked", "true")
	}
	s.group(a)
	x0 := ax.x(r.Start)
	lx := x0 + schedChip + 3 // where the label starts
	if r.Locked {
		lx += padlockWidth(schedLock) + 3
	}
	label := tripLabel(r)
	for _, l := range []string{label, fmt.Sprintf("%s · %d · %s", r.ID, r.Trip, r.TrailerUnit), fmt.Sprintf("%s · %d", r.ID, r.Trip)} {
		label = l
		if lx+textWidth(l, schedTripPx) <= next-4 {
			break
		}
	}
	s.rect(x0, y+schedTripY-schedChip, schedChip, schedChip, attrs{"fill", routeColour(i)})
	if r.Locked {
		s.padlock(x0+schedChip+3, y+schedTripY-schedLock+1, schedLock)
	}
	s.text(lx, y+schedTripY, label, attrs{"class", "trip-label", "font-size", num(schedTripPx), "fill", "#333333"})
	for _, a := range d.activities(r) {
		tip := fmt.Sprintf("%s trip %d (%s) %s: %s – %s (%s)", r.ID, r.Trip, r.TrailerUnit, a.kind, d.hm(a.start), d.hm(a.end), hhmm(a.end.Sub(a.start)))
		if a.stop >= 0 {
			st := r.Stops[a.stop]
			tip += fmt.Sprintf(" · stop %d %s %s", a.stop+1, st.Store, d.storeName(st.Store))
			if b := st.Break; a.kind == actBreak && b != nil {
				tip += fmt.Sprintf(" · hours-of-service break: waiting %s, unloading %s, rest %s", hhmm(b.Wait), hhmm(b.Unloading), hhmm(b.Rest))
			}
		}
		s.rectTip(ax.x(a.start), y+schedBarTop, ax.x(a.end)-ax.x(a.start), schedBarH,
			attrs{"class", "act " + a.kind, "fill", activityColour[a.kind], "stroke", "#ffffff", "stroke-width", "0.5"}, tip)
	}
	if r.Locked {
		s.rectTip(x0, y+schedBarTop, ax.x(r.Return)-x0, schedBarH,
			attrs{"class", "locked", "fill", "url(#" + schedLockedHatch + ")", "stroke", "#222222", "stroke-width", "1"},
			fmt.Sprintf("%s trip %d (%s) is locked: kept from the previous plan as it was, %s – %s", r.ID, r.Trip, r.TrailerUnit, d.hm(r.Start), d.hm(r.Return)))
	}
	s.end()
}

// lockedLegend explains the mark of what is locked, the hatch of the id
// given over a swatch of colour, with text, on the line at ly from lx.
func lockedLegend(s *svgDoc, hatch string, lx, ly float64, colour, text string) {
	s.rect(lx, ly-10, 16, 12, attrs{"fill", colour})
	s.rect(lx, ly-10, 16, 12, attrs{"fill", "url(#" + hatch + ")", "stroke", "#222222", "stroke-width", "1"})
	s.padlock(lx+22, ly-10, 11)
	s.text(lx+22+padlockWidth(11)+5, ly, text, attrs{"class", "locked-legend", "font-size", "11"})
}

// atDC draws the driver's time at the DC between trip prev's return and
// trip r's hook-up, with its length inside when it fits.
func (d *day) atDC(s *svgDoc, prev, r *engine.Route, ax timeAxis, y float64) {
	x0, x1 := ax.x(prev.Return), ax.x(r.Start)
	span := r.Start.Sub(prev.Return)
	s.rectTip(x0, y+schedBarTop, x1-x0, schedBarH, attrs{"class", "act " + actAtDC, "fill", activityColour[actAtDC], "stroke", "#ffffff", "stroke-width", "0.5"},
		fmt.Sprintf("at the DC between trips %d and %d: %s – %s (%s), on duty", prev.Trip, r.Trip, d.hm(prev.Return), d.hm(r.Start), hhmm(span)))
	if text := hhmm(span); textWidth(text, schedLabelPx)+4 <= x1-x0 {
		s.text((x0+x1)/2, y+schedBarTop+schedBarH/2+3, text, attrs{"class", "at-dc-label", "text-anchor", "middle", "font-size", num(schedLabelPx), "fill", "#333333"})
	}
}

// scheduleLegend draws the colour of each kind of activity on the line at
// ly.
func scheduleLegend(s *svgDoc, ly float64) {
	lx := schedLabel
	for _, k := range []string{actHookUp, actDriving, actWait, actUnloading, actBreak, actAtDC} {
		s.rect(lx, ly-10, 16, 12, attrs{"fill", activityColour[k]})
		label := k
		switch k {
		case actBreak:
			label = "hours-of-service break: the whole stop, with its length"
		case actAtDC:
			label = "at the DC between trips"
		}
		s.text(lx+22, ly, label, attrs{"font-size", "11"})
		lx += 22 + textWidth(label, 11) + 22
	}
}

// stopLabels writes each stop's store id under its time on site, centred
// on it, with the break's length where the plan states one: on the first
// line under the bar where it clears the label before it, else on the
// second. ends holds where the last label on each line of the lane ends.
func (d *day) stopLabels(s *svgDoc, r *engine.Route, ax timeAxis, y float64, ends *[2]float64) {
	for k, st := range r.Stops {
		text, colour := st.Store, "#333333"
		if b := st.Break; b != nil {
			text, colour = fmt.Sprintf("%s · break %s", st.Store, hhmm(b.Duration)), activityColour[actBreak]
		}
		w := textWidth(text, schedLabelPx)
		left := (ax.x(st.Arrival)+ax.x(st.Departure))/2 - w/2
		line := 0
		if left < ends[0]+3 {
			line = 1
			if left < ends[1]+3 && ends[1] > ends[0] {
				line = 0 // both taken: the line that frees first
			}
		}
		ends[line] = left + w
		a := attrs{"class", "stop-label", "data-route", r.ID, "data-store", st.Store, "data-stop", fmt.Sprint(k + 1), "data-width", num(w),
			"font-size", num(schedLabelPx), "fill", colour}
		if st.Break != nil {
			a = append(a, "font-weight", "bold")
		}
		s.text(left, y+schedLabelY+schedLabelGap*float64(line), text, a)
	}
}
