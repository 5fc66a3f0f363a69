package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// Schedule writes an SVG Gantt chart of the plan's routes on a time axis in
// the request's zone: one row per route under its driver's shift window,
// labelled with the route's driver shift, trailer and time on duty, with
// loading at the DC, driving, waiting for a store to open, unloading, and
// the hours-of-service breaks the plan states (Stop.Break) as labelled
// blocks. Under each stop stands its store's id, so that the picture reads
// without hover text, in print and as an image.
func Schedule(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	_, err := w.Write(d.schedule().bytes())
	return err
}

// Kinds of activity on the schedule.
const (
	actLoading   = "loading"
	actDriving   = "driving"
	actWait      = "wait"
	actUnloading = "unloading"
	actBreak     = "break"
)

var activityColour = map[string]string{
	actLoading:   "#7f8c9a",
	actDriving:   "#4f7fc0",
	actWait:      "#f0a030",
	actUnloading: "#5aa55a",
	actBreak:     "#c0392b",
}

// activity is one stretch of a route's duty.
type activity struct {
	kind       string
	start, end time.Time
	stop       int // the stop's index for wait, unloading and break; -1 otherwise
}

// activities lists a route's duty in order: loading, then per stop the
// drive there and the time on site, then the drive back. The time on site
// is the wait and the unloading (to the departure), or, at a stop where the
// plan states a break, the break: the whole time on site, which the break
// rule counts as one.
func (d *day) activities(r *engine.Route) []activity {
	acts := []activity{{actLoading, r.Start, r.Depart, -1}}
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
// top of the first row, and a row: its bar, and two lines of store labels
// under it.
const (
	schedLabel    = 230.0
	schedAxis     = 960.0
	schedTop      = 92.0
	schedRow      = 48.0
	schedBarTop   = 6.0
	schedBarH     = 16.0
	schedLabelY   = 32.0 // baseline of the first line of store labels
	schedLabelGap = 10.0 // to the second
	schedLabelPx  = 9.0  // their font size
)

func (d *day) schedule() *svgDoc {
	routes := make([]int, len(d.plan.Routes))
	for i := range routes {
		routes[i] = i
	}
	sort.SliceStable(routes, func(a, b int) bool {
		return d.plan.Routes[routes[a]].Start.Before(d.plan.Routes[routes[b]].Start)
	})
	from, to := d.scheduleSpan()
	span := to.Sub(from)
	x := func(t time.Time) float64 { return schedLabel + schedAxis*float64(t.Sub(from))/float64(span) }

	height := schedTop + schedRow*float64(len(routes)) + 50
	s := newSVG(schedLabel+schedAxis+30, height, "Schedule of "+d.title())
	s.text(12, 26, "Schedule · "+d.title(), attrs{"font-size", "18", "font-weight", "bold"})
	s.text(12, 46, "times in "+d.loc.String()+"; grey band: the driver's shift; duty: hours:minutes on duty, loading start to return; under each stop, its store",
		attrs{"fill", "#555555", "font-size", "11"})
	bottom := schedTop + schedRow*float64(len(routes))
	d.scheduleAxis(s, from, to, x, bottom)
	for row, i := range routes {
		d.scheduleRow(s, row, i, x)
	}
	scheduleLegend(s, bottom+30)
	return s
}

// scheduleSpan returns the schedule's time axis: whole hours from the
// first shift or loading to the last return or shift end of the routes
// drawn, the plan's day when there is no route, and at least an hour.
func (d *day) scheduleSpan() (from, to time.Time) {
	widen := func(t time.Time) {
		if from.IsZero() || t.Before(from) {
			from = t
		}
		if to.IsZero() || t.After(to) {
			to = t
		}
	}
	for _, r := range d.plan.Routes {
		widen(r.Start)
		widen(r.Return)
		if sh, ok := d.shift[r.Shift]; ok {
			widen(sh.Start)
			widen(sh.End)
		}
	}
	if from.IsZero() {
		from = d.from
		to = d.to
	}
	from = from.In(d.loc).Truncate(time.Hour)
	if to.After(to.Truncate(time.Hour)) {
		to = to.Truncate(time.Hour).Add(time.Hour)
	}
	if !to.After(from) {
		to = from.Add(time.Hour)
	}
	return from, to
}

// scheduleAxis draws the hour ticks from from to to down to bottom,
// labelled every hour or every few when the day is long, with the date at
// the first and at midnight.
func (d *day) scheduleAxis(s *svgDoc, from, to time.Time, x func(time.Time) float64, bottom float64) {
	every := max(1, int(to.Sub(from).Hours()/16+0.999))
	s.group(attrs{"id", "axis", "font-size", "10", "fill", "#444444"})
	for t, h := from, 0; !t.After(to); t, h = t.Add(time.Hour), h+1 {
		xx := x(t)
		s.line(xx, schedTop-4, xx, bottom, attrs{"stroke", "#e3e3e3"})
		if h%every == 0 {
			label := t.In(d.loc).Format("15:04")
			if h == 0 || t.In(d.loc).Hour() == 0 {
				s.text(xx, schedTop-20, t.In(d.loc).Format("Mon 2 Jan"), attrs{"text-anchor", "middle", "font-weight", "bold"})
			}
			s.text(xx, schedTop-8, label, attrs{"text-anchor", "middle"})
		}
	}
	s.end()
}

// scheduleRow draws route i in the given row: its label, its driver's
// shift as a band, its activities as blocks with their hover text, and
// its stops' labels.
func (d *day) scheduleRow(s *svgDoc, row, i int, x func(time.Time) float64) {
	r := &d.plan.Routes[i]
	y := schedTop + schedRow*float64(row)
	if row%2 == 1 {
		s.rect(0, y, schedLabel+schedAxis+30, schedRow, attrs{"fill", "#fafafa"})
	}
	mid := y + schedBarTop + schedBarH/2
	s.rect(8, mid-5, 10, 10, attrs{"fill", routeColour(i)})
	s.text(24, mid+4, r.ID, attrs{"font-weight", "bold"})
	s.text(62, mid+4, fmt.Sprintf("%s · %s · duty %s", r.Shift, r.Trailer, hhmm(r.Return.Sub(r.Start))),
		attrs{"class", "route-label", "font-size", "11", "fill", "#444444"})
	if sh, ok := d.shift[r.Shift]; ok {
		h := d.limits(r.Shift)
		s.rectTip(x(sh.Start), y+schedBarTop-3, x(sh.End)-x(sh.Start), schedBarH+6, attrs{"class", "shift", "fill", "#e9e9e9", "stroke", "#cfcfcf"},
			fmt.Sprintf("shift %s: %s – %s; at most %s driving and %s on duty, a break of %s after %s of driving",
				sh.ID, d.clock(sh.Start), d.clock(sh.End), hhmm(h.MaxDriving), hhmm(h.MaxDuty), hhmm(h.BreakDuration), hhmm(h.BreakAfter)))
	}
	s.group(attrs{"class", "route-row", "data-route", r.ID})
	for _, a := range d.activities(r) {
		tip := fmt.Sprintf("%s %s: %s – %s (%s)", r.ID, a.kind, d.hm(a.start), d.hm(a.end), hhmm(a.end.Sub(a.start)))
		if a.stop >= 0 {
			st := r.Stops[a.stop]
			tip += fmt.Sprintf(" · stop %d %s %s", a.stop+1, st.Store, d.storeName(st.Store))
			if b := st.Break; a.kind == actBreak && b != nil {
				tip += fmt.Sprintf(" · hours-of-service break: waiting %s, unloading %s, rest %s", hhmm(b.Wait), hhmm(b.Unloading), hhmm(b.Rest))
			}
		}
		s.rectTip(x(a.start), y+schedBarTop, x(a.end)-x(a.start), schedBarH, attrs{"class", "act " + a.kind, "fill", activityColour[a.kind], "stroke", "#ffffff", "stroke-width", "0.5"}, tip)
	}
	d.stopLabels(s, r, x, y)
	s.end()
}

// scheduleLegend draws the colour of each kind of activity on the line at
// ly.
func scheduleLegend(s *svgDoc, ly float64) {
	lx := schedLabel
	for _, k := range []string{actLoading, actDriving, actWait, actUnloading, actBreak} {
		s.rect(lx, ly-10, 16, 12, attrs{"fill", activityColour[k]})
		label := k
		if k == actBreak {
			label = "hours-of-service break: the whole stop, waiting and unloading included, with its length"
		}
		s.text(lx+22, ly, label, attrs{"font-size", "11"})
		lx += 22 + textWidth(label, 11) + 22
	}
}

// stopLabels writes each stop's store id under its time on site, centred
// on it, with the break's length where the plan states one: on the first
// line under the bar where it clears the label before it, else on the
// second.
func (d *day) stopLabels(s *svgDoc, r *engine.Route, x func(time.Time) float64, y float64) {
	ends := [2]float64{math.Inf(-1), math.Inf(-1)} // where the last label on each line ends
	for k, st := range r.Stops {
		text, colour := st.Store, "#333333"
		if b := st.Break; b != nil {
			text, colour = fmt.Sprintf("%s · break %s", st.Store, hhmm(b.Duration)), activityColour[actBreak]
		}
		w := textWidth(text, schedLabelPx)
		left := (x(st.Arrival)+x(st.Departure))/2 - w/2
		line := 0
		if left < ends[0]+3 {
			line = 1
			if left < ends[1]+3 && ends[1] > ends[0] {
				line = 0 // both taken: the line that frees first
			}
		}
		ends[line] = left + w
		a := attrs{"class", "stop-label", "data-store", st.Store, "data-stop", fmt.Sprint(k + 1), "data-width", num(w),
			"font-size", num(schedLabelPx), "fill", colour}
		if st.Break != nil {
			a = append(a, "font-weight", "bold")
		}
		s.text(left, y+schedLabelY+schedLabelGap*float64(line), text, a)
	}
}
