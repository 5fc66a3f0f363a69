package report

import "time"

// timeAxis maps instants to x positions on a picture: whole hours from
// from to to over width pixels from left. The schedule and the dock
// picture share it, so that their hours read alike.
type timeAxis struct {
	from, to    time.Time
	left, width float64
}

// newTimeAxis spans the instants given, widened to whole hours of the
// request's zone and to at least an hour; with no instant it spans the
// plan's day.
func (d *day) newTimeAxis(left, width float64, instants []time.Time) timeAxis {
	var from, to time.Time
	for _, t := range instants {
		if t.IsZero() {
			continue
		}
		if from.IsZero() || t.Before(from) {
			from = t
		}
		if to.IsZero() || t.After(to) {
			to = t
		}
	}
	if from.IsZero() {
		from, to = d.from, d.to
	}
	from = from.In(d.loc).Truncate(time.Hour)
	if to.After(to.Truncate(time.Hour)) {
		to = to.Truncate(time.Hour).Add(time.Hour)
	}
	if !to.After(from) {
		to = from.Add(time.Hour)
	}
	return timeAxis{from: from, to: to, left: left, width: width}
}

func (a timeAxis) x(t time.Time) float64 {
	return a.left + a.width*float64(t.Sub(a.from))/float64(a.to.Sub(a.from))
}

// right is the x position of the axis' end.
func (a timeAxis) right() float64 { return a.left + a.width }

// draw writes the hour lines from top down to bottom, labelled every hour
// or every few when the span is long, with the date over the first hour
// and over midnight.
func (a timeAxis) draw(s *svgDoc, loc *time.Location, top, bottom float64) {
	every := max(1, int(a.to.Sub(a.from).Hours()/16+0.999))
	s.group(attrs{"class", "axis", "font-size", "10", "fill", "#444444"})
	for t, h := a.from, 0; !t.After(a.to); t, h = t.Add(time.Hour), h+1 {
		xx := a.x(t)
		s.line(xx, top-4, xx, bottom, attrs{"stroke", "#e3e3e3"})
		if h%every == 0 {
			local := t.In(loc)
			if h == 0 || local.Hour() == 0 {
				s.text(xx, top-20, local.Format("Mon 2 Jan"), attrs{"text-anchor", "middle", "font-weight", "bold"})
			}
			s.text(xx, top-8, local.Format("15:04"), attrs{"text-anchor", "middle", "class", "hour", "data-time", t.Format(time.RFC3339)})
		}
	}
	s.end()
}
