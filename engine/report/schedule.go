package report

import (
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// Schedule writes an SVG Gantt chart of the plan's routes on a time axis in
// the request's zone: one row per route under its driver's shift window,
// with loading at the DC, driving, waiting for a store to open, unloading,
// and the breaks the hours-of-service rule needs marked on the stops or
// waits that serve as them.
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
	actBreak:     "#d9534f",
}

// activity is one stretch of a route's duty.
type activity struct {
	kind       string
	start, end time.Time
	stop       int // the stop's index for wait, unloading and break; -1 otherwise
}

// activities lists a route's duty in order: loading, then per stop the
// drive there, the wait and the unloading (to its departure), then the
// drive back. Breaks are listed after, as stretches that overlap the stops
// and waits they are taken in.
func (d *day) activities(r *engine.Route) []activity {
	acts := []activity{{actLoading, r.Start, r.Depart, -1}}
	leave := r.Depart
	var legs []constraints.Leg
	for k, s := range r.Stops {
		acts = append(acts, activity{actDriving, leave, s.Arrival, -1})
		legs = append(legs, constraints.Leg{Depart: leave, Arrive: s.Arrival})
		if s.Start.After(s.Arrival) {
			acts = append(acts, activity{actWait, s.Arrival, s.Start, k})
		}
		acts = append(acts, activity{actUnloading, s.Start, s.Departure, k})
		leave = s.Departure
	}
	if len(r.Stops) > 0 {
		acts = append(acts, activity{actDriving, leave, r.Return, -1})
		legs = append(legs, constraints.Leg{Depart: leave, Arrive: r.Return})
	}
	for _, i := range neededBreaks(legs, d.limits(r.Shift)) {
		acts = append(acts, activity{actBreak, legs[i].Arrive, legs[i+1].Depart, i})
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

// neededBreaks returns the gaps (gap i lies between leg i and leg i+1)
// taken as the breaks the rule needs, each as late as it can be: a gap
// long enough to count as a break is taken when driving on to the next
// such gap (or the end) would pass BreakAfter since the last break taken.
// Driving only resets at a break taken, so a long stop early in the day
// that the rule does not need stays a stop.
func neededBreaks(legs []constraints.Leg, h constraints.HoursOfService) []int {
	counts := func(i int) bool { return legs[i+1].Depart.Sub(legs[i].Arrive) >= h.BreakDuration }
	var out []int
	var since time.Duration
	for i := range legs {
		since += legs[i].Arrive.Sub(legs[i].Depart)
		if i+1 >= len(legs) || !counts(i) {
			continue
		}
		ahead := time.Duration(0) // driving from here to the next gap that counts, or the end
		for j := i + 1; j < len(legs); j++ {
			ahead += legs[j].Arrive.Sub(legs[j].Depart)
			if j+1 < len(legs) && counts(j) {
				break
			}
		}
		if since+ahead > h.BreakAfter {
			out = append(out, i)
			since = 0
		}
	}
	return out
}

// The schedule's layout, in pixels.
const (
	schedLabel = 190.0
	schedAxis  = 820.0
	schedTop   = 92.0
	schedRow   = 30.0
)

func (d *day) schedule() *svgDoc {
	routes := make([]int, len(d.plan.Routes))
	for i := range routes {
		routes[i] = i
	}
	sort.SliceStable(routes, func(a, b int) bool {
		return d.plan.Routes[routes[a]].Start.Before(d.plan.Routes[routes[b]].Start)
	})
	// The axis runs over whole hours from the first shift or loading to
	// the last return or shift end of the routes drawn.
	var from, to time.Time
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
	span := to.Sub(from)
	x := func(t time.Time) float64 { return schedLabel + schedAxis*float64(t.Sub(from))/float64(span) }

	height := schedTop + schedRow*float64(len(routes)) + 50
	s := newSVG(schedLabel+schedAxis+30, height, "Schedule of "+d.title())
	s.text(12, 26, "Schedule · "+d.title(), attrs{"font-size", "18", "font-weight", "bold"})
	s.text(12, 46, "times in "+d.loc.String()+"; grey band: the driver's shift", attrs{"fill", "#555555", "font-size", "11"})

	// Hour ticks, labelled every hour or every few when the day is long.
	every := max(1, int(span.Hours()/16+0.999))
	bottom := schedTop + schedRow*float64(len(routes))
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

	for row, i := range routes {
		r := &d.plan.Routes[i]
		y := schedTop + schedRow*float64(row)
		if row%2 == 1 {
			s.rect(0, y, schedLabel+schedAxis+30, schedRow, attrs{"fill", "#fafafa"})
		}
		s.rect(8, y+9, 10, 10, attrs{"fill", routeColour(i)})
		s.text(24, y+18, r.ID, attrs{"font-weight", "bold"})
		s.text(62, y+18, fmt.Sprintf("%s · %s · %s", r.Shift, r.Trailer, hhmm(r.Return.Sub(r.Start))), attrs{"font-size", "11", "fill", "#444444"})
		if sh, ok := d.shift[r.Shift]; ok {
			s.rectTip(x(sh.Start), y+5, x(sh.End)-x(sh.Start), schedRow-10, attrs{"class", "shift", "fill", "#e9e9e9", "stroke", "#cfcfcf"},
				fmt.Sprintf("shift %s: %s – %s", sh.ID, d.clock(sh.Start), d.clock(sh.End)))
		}
		s.group(attrs{"class", "route-row", "data-route", r.ID})
		for _, a := range d.activities(r) {
			tip := fmt.Sprintf("%s %s: %s – %s (%s)", r.ID, a.kind, d.hm(a.start), d.hm(a.end), hhmm(a.end.Sub(a.start)))
			if a.stop >= 0 {
				st := r.Stops[a.stop]
				tip += fmt.Sprintf(" · stop %d %s %s", a.stop+1, st.Store, d.storeName(st.Store))
			}
			top, h := y+8, schedRow-16
			fill := attrs{"fill", activityColour[a.kind]}
			if a.kind == actBreak {
				top, h = y+3, 4 // a band over the stop or wait it is taken in
			}
			s.rectTip(x(a.start), top, x(a.end)-x(a.start), h, append(attrs{"class", "act " + a.kind, "stroke", "#ffffff", "stroke-width", "0.5"}, fill...), tip)
		}
		s.end()
	}
	// Legend.
	ly := bottom + 30
	lx := schedLabel
	for _, k := range []string{actLoading, actDriving, actWait, actUnloading, actBreak} {
		s.rect(lx, ly-10, 16, 12, attrs{"fill", activityColour[k]})
		label := k
		if k == actBreak {
			label = "break (a stop or wait that serves as the hours-of-service break)"
		}
		s.text(lx+22, ly, label, attrs{"font-size", "11"})
		lx += 22 + textWidth(label, 11) + 22
	}
	return s
}
