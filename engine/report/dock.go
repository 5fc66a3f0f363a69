package report

import (
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// DockSchedule writes an SVG of the DC's dock doors on a time axis in the
// request's zone: one lane per door (every door the DC has, or every door
// the plan uses when the DC sets no number), each loading a bar in its
// route's colour (the route map's) from its start to its end, labelled
// with the route, trip number and trailer unit; under it, the loaded
// trailer staged in the yard until the driver comes on duty to hook it up.
// The dock hours, in which loading may start, are shaded when the request
// has them. A locked loading (its route kept from the previous plan,
// engine.Route.Locked) is hatched and has a padlock before its label.
func DockSchedule(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	_, err := w.Write(d.dockSchedule().bytes())
	return err
}

// The dock picture's layout, in pixels: the label column, the time axis,
// the top of the first lane, and a lane: lines of loading labels, the
// bar, and tracks of staging under it.
const (
	dockLabel   = 170.0
	dockAxis    = 960.0
	dockTop     = 104.0
	dockPad     = 6.0
	dockLine    = 11.0 // a line of loading labels
	dockLabelPx = 9.0  // their font size
	dockBarH    = 16.0
	dockTrack   = 7.0 // a track of staging
	dockStagedH = 4.0 // the staging bar's height
	dockLock    = 9.0 // the padlock's height before a locked loading's label
)

// dockLockedHatch is the id of the hatch over locked loadings.
const dockLockedHatch = "dock-locked"

// dockLabelWidth is the width of a loading's label, with its padlock.
func dockLabelWidth(r *engine.Route) float64 {
	w := textWidth(tripLabel(r), dockLabelPx)
	if r.Locked {
		w += padlockWidth(dockLock) + 3
	}
	return w
}

// dockLane is one door's loadings (indices into the plan's routes, by
// loading start) and how its lane is laid out: the line of each loading's
// label and the track of each staging.
type dockLane struct {
	door                int
	loads               []int
	labelLine, track    []int
	lines, tracks       int
	top, barTop, height float64
}

// dockDoors is the number of doors drawn: the DC's, or as many as the
// plan uses when the DC sets none (or fewer than the plan names).
func (d *day) dockDoors() int {
	n := d.req.DC.DockDoors
	for _, r := range d.plan.Routes {
		n = max(n, r.DockDoor)
	}
	return n
}

func (d *day) dockSchedule() *svgDoc {
	var instants []time.Time
	for _, r := range d.plan.Routes {
		instants = append(instants, r.LoadingStart, r.Start)
	}
	ax := d.newTimeAxis(dockLabel, dockAxis, instants)
	lanes := d.dockLanes(ax)
	bottom := dockTop
	if len(lanes) > 0 {
		last := lanes[len(lanes)-1]
		bottom = last.top + last.height
	}
	locked := d.lockedRoutes() > 0
	height := bottom + 50
	if locked {
		height += schedLegendLine
	}
	s := newSVG(dockLabel+dockAxis+30, height, "Dock doors of "+d.title())
	if locked {
		s.hatch(dockLockedHatch)
	}
	s.text(12, 26, "Dock doors · "+d.title(), attrs{"font-size", "18", "font-weight", "bold"})
	s.text(12, 46, "times in "+d.loc.String()+"; "+d.doorsNote()+"; each bar: a trailer loading at the door, labelled route · trip · trailer unit",
		attrs{"fill", "#555555", "font-size", "11"})
	s.text(12, 60, "under it: the loaded trailer staged in the yard until the driver comes on duty to hook it up (tick); "+d.dockHoursNote(),
		attrs{"fill", "#555555", "font-size", "11"})
	d.dockHoursShade(s, ax, dockTop, bottom)
	ax.draw(s, d.loc, dockTop, bottom)
	for _, l := range lanes {
		d.dockLane(s, l, ax)
	}
	dockLegend(s, bottom+30, d.req.DC.DockHours != nil)
	if locked {
		lockedLegend(s, dockLockedHatch, dockLabel, bottom+30+schedLegendLine, routeColour(0), "locked: the loading is kept from the previous plan as it was (door, times, floor layout)")
	}
	return s
}

// doorsNote says how many doors the DC has and how many load at once at
// most.
func (d *day) doorsNote() string {
	peak := fmt.Sprintf("at most %d loading at once", d.plan.Metrics.PeakDockDoors)
	if d.req.DC.DockDoors == 0 {
		return "doors not limited, " + plural(d.dockDoors(), "door") + " used, " + peak
	}
	return plural(d.req.DC.DockDoors, "door") + ", " + peak
}

func (d *day) dockHoursNote() string {
	if d.req.DC.DockHours == nil {
		return "the dock is open around the clock"
	}
	return "green: the dock hours, in which loading may start"
}

// dockLanes groups the loadings by door and lays each lane out: every
// label on a line where it clears the one before, every staging on a
// track where it does.
func (d *day) dockLanes(ax timeAxis) []dockLane {
	lanes := make([]dockLane, d.dockDoors())
	for i := range lanes {
		lanes[i].door = i + 1
	}
	for i, r := range d.plan.Routes {
		if r.DockDoor >= 1 {
			lanes[r.DockDoor-1].loads = append(lanes[r.DockDoor-1].loads, i)
		}
	}
	top := dockTop
	for i := range lanes {
		l := &lanes[i]
		routes := d.plan.Routes
		sort.SliceStable(l.loads, func(a, b int) bool { return routes[l.loads[a]].LoadingStart.Before(routes[l.loads[b]].LoadingStart) })
		var labels, staged [][2]float64
		var stagedAt []int // the loads' indices in l.loads that are staged at all
		for j, k := range l.loads {
			r := &routes[k]
			x0 := ax.x(r.LoadingStart)
			labels = append(labels, [2]float64{x0, x0 + dockLabelWidth(r)})
			if r.Start.After(r.LoadingEnd) {
				staged = append(staged, [2]float64{ax.x(r.LoadingEnd), ax.x(r.Start)})
				stagedAt = append(stagedAt, j)
			}
		}
		l.labelLine, l.lines = labelLines(labels, 4)
		tracks, n := labelLines(staged, 3)
		l.track, l.tracks = make([]int, len(l.loads)), n
		for m, j := range stagedAt {
			l.track[j] = tracks[m]
		}
		l.top = top
		l.barTop = top + dockPad + dockLine*float64(max(l.lines, 1)) + 2
		l.height = l.barTop - top + dockBarH + 3 + dockTrack*float64(l.tracks) + dockPad
		top += l.height
	}
	return lanes
}

// dockHoursShade shades the dock hours between top and bottom.
func (d *day) dockHoursShade(s *svgDoc, ax timeAxis, top, bottom float64) {
	if d.req.DC.DockHours == nil {
		return
	}
	ws, err := d.req.DC.DockHours.Resolve(ax.from, ax.to)
	if err != nil {
		return // a request that passed Check resolves; a picture is no place to report it
	}
	s.group(attrs{"class", "dock-hours"})
	for _, w := range ws {
		from, to := maxTime(w.Start, ax.from), minTime(w.End, ax.to)
		if !to.After(from) {
			continue
		}
		s.rectTip(ax.x(from), top-4, ax.x(to)-ax.x(from), bottom-top+4,
			attrs{"class", "dock-open", "data-start", from.Format(time.RFC3339), "data-end", to.Format(time.RFC3339), "fill", "#e6f2e6"},
			fmt.Sprintf("dock hours: loading may start %s – %s", d.clock(w.Start), d.clock(w.End)))
	}
	s.end()
}

// dockLane draws one door: its label, and per loading its bar, its label
// and its staging.
func (d *day) dockLane(s *svgDoc, l dockLane, ax timeAxis) {
	if l.door%2 == 0 {
		s.rect(0, l.top, dockLabel-4, l.height, attrs{"fill", "#fafafa"})
	}
	s.line(0, l.top+l.height, dockLabel+dockAxis+30, l.top+l.height, attrs{"stroke", "#e3e3e3"})
	s.text(12, l.barTop+6, fmt.Sprintf("Door %d", l.door), attrs{"font-weight", "bold"})
	var busy time.Duration
	for _, k := range l.loads {
		busy += d.plan.Routes[k].LoadingEnd.Sub(d.plan.Routes[k].LoadingStart)
	}
	note := "no loading"
	if len(l.loads) > 0 {
		note = fmt.Sprintf("%s · %s", plural(len(l.loads), "loading"), hhmm(busy))
	}
	s.text(12, l.barTop+19, note, attrs{"class", "door-label", "font-size", "11", "fill", "#444444"})
	s.group(attrs{"class", "door-lane", "data-door", fmt.Sprint(l.door), "data-loadings", fmt.Sprint(len(l.loads))})
	for j, k := range l.loads {
		d.dockLoading(s, k, ax, l.barTop, l.barTop-2-dockLine*float64(l.labelLine[j])-2,
			l.barTop+dockBarH+3+dockTrack*float64(l.track[j]))
	}
	s.end()
}

// dockLoading draws route i's loading as a bar at barTop, its label on
// the baseline labelY, and its staging on the track at trackTop.
func (d *day) dockLoading(s *svgDoc, i int, ax timeAxis, barTop, labelY, trackTop float64) {
	r := &d.plan.Routes[i]
	colour := routeColour(i)
	x0, x1 := ax.x(r.LoadingStart), ax.x(r.LoadingEnd)
	staged := r.Start.Sub(r.LoadingEnd)
	a := attrs{"class", "loading-trip", "data-route", r.ID}
	if r.Locked {
		a = append(a, "data-locked", "true")
	}
	s.group(a)
	s.rectTip(x0, barTop, x1-x0, dockBarH, attrs{"class", "loading", "data-route", r.ID, "fill", colour, "stroke", "#ffffff", "stroke-width", "0.5"},
		fmt.Sprintf("%s trip %d of shift %s, %s (%s): loading at door %d %s – %s (%s), %s; driver on duty %s, departs %s",
			r.ID, r.Trip, r.Shift, r.TrailerUnit, d.trailerName(r.Trailer), r.DockDoor, d.hm(r.LoadingStart), d.hm(r.LoadingEnd),
			hhmm(r.LoadingEnd.Sub(r.LoadingStart)), plural(r.Metrics.Pallets, "pallet"), d.hm(r.Start), d.hm(r.Depart)))
	lx := x0
	if r.Locked {
		s.rectTip(x0, barTop, x1-x0, dockBarH, attrs{"class", "locked", "fill", "url(#" + dockLockedHatch + ")", "stroke", "#222222", "stroke-width", "1"},
			fmt.Sprintf("%s is locked: kept from the previous plan as it was, loading at door %d %s – %s", r.ID, r.DockDoor, d.hm(r.LoadingStart), d.hm(r.LoadingEnd)))
		s.padlock(x0, labelY-dockLock+1, dockLock)
		lx += padlockWidth(dockLock) + 3
	}
	s.text(lx, labelY, tripLabel(r), attrs{"class", "loading-label", "font-size", num(dockLabelPx), "fill", "#333333"})
	if staged > 0 {
		xs := ax.x(r.Start)
		s.rectTip(x1, trackTop, xs-x1, dockStagedH, attrs{"class", "staging", "data-route", r.ID, "fill", colour, "fill-opacity", "0.45"},
			fmt.Sprintf("%s (%s) staged in the yard %s – %s (%s) until %s hooks it up", r.ID, r.TrailerUnit, d.hm(r.LoadingEnd), d.hm(r.Start), hhmm(staged), r.Shift))
		s.line(xs, trackTop-2, xs, trackTop+dockStagedH+2, attrs{"stroke", "#333333", "stroke-width", "1.2"})
	}
	s.end()
}

// dockLegend explains the bars, and the shade of the dock hours when
// there are any, on the line at ly.
func dockLegend(s *svgDoc, ly float64, dockHours bool) {
	lx := dockLabel
	s.rect(lx, ly-10, 16, 12, attrs{"fill", routeColour(0)})
	s.text(lx+22, ly, "loading (in the route's colour)", attrs{"font-size", "11"})
	lx += 22 + textWidth("loading (in the route's colour)", 11) + 22
	s.rect(lx, ly-6, 16, dockStagedH, attrs{"fill", routeColour(0), "fill-opacity", "0.45"})
	s.line(lx+16, ly-8, lx+16, ly, attrs{"stroke", "#333333", "stroke-width", "1.2"})
	s.text(lx+22, ly, "staged in the yard, to the driver's hook-up", attrs{"font-size", "11"})
	lx += 22 + textWidth("staged in the yard, to the driver's hook-up", 11) + 22
	if !dockHours {
		return
	}
	s.rect(lx, ly-10, 16, 12, attrs{"fill", "#e6f2e6"})
	s.text(lx+22, ly, "dock hours", attrs{"font-size", "11"})
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// doorsOfDC says how many doors the DC has: "of 20 doors", or "doors not
// limited".
func (d *day) doorsOfDC() string {
	if d.req.DC.DockDoors == 0 {
		return "doors not limited"
	}
	return "of " + plural(d.req.DC.DockDoors, "door")
}

// labelLines places labels on numbered lines so that none overlaps
// another on its line: each label takes the first line whose last label
// ends at least gap before it starts. It returns each label's line, in the
// order given, and the number of lines taken. spans are left and right x
// positions, sorted by left.
func labelLines(spans [][2]float64, gap float64) (line []int, lines int) {
	var ends []float64
	line = make([]int, len(spans))
	for i, sp := range spans {
		k := 0
		for k < len(ends) && sp[0] < ends[k]+gap {
			k++
		}
		if k == len(ends) {
			ends = append(ends, sp[1])
		}
		ends[k] = sp[1]
		line[i] = k
	}
	return line, len(ends)
}
