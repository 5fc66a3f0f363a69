package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
)

// printer writes the plan for a terminal: instants in the request's time
// zone with their date, durations as hh:mm, each stop's temperature mix
// and receiving window, axle loads against their limits.
type printer struct {
	req    engine.Request
	loc    *time.Location
	store  map[string]*engine.Store
	pallet map[string]*engine.Pallet
	fleet  map[string]*engine.TrailerType
	from   time.Time // the day the printout starts on
	to     time.Time
}

func newPrinter(req engine.Request, plan engine.Result) *printer {
	p := &printer{req: req, loc: report.TimeZone(req), store: map[string]*engine.Store{}, pallet: map[string]*engine.Pallet{}, fleet: map[string]*engine.TrailerType{}}
	for i := range req.Stores {
		p.store[req.Stores[i].ID] = &req.Stores[i]
	}
	for i := range req.Fleet {
		p.fleet[req.Fleet[i].ID] = &req.Fleet[i]
	}
	for i := range req.Pallets {
		p.pallet[req.Pallets[i].ID] = &req.Pallets[i]
	}
	for i, s := range req.Shifts {
		if i == 0 || s.Start.Before(p.from) {
			p.from = s.Start
		}
		if i == 0 || s.End.After(p.to) {
			p.to = s.End
		}
	}
	for i, r := range plan.Routes {
		if i == 0 || r.Start.Before(p.from) {
			p.from = r.Start
		}
	}
	return p
}

// at writes an instant with its date: "Tue 24 Nov 02:41".
func (p *printer) at(t time.Time) string { return t.In(p.loc).Format("Mon 2 Jan 15:04") }

// near writes an instant's time of day, with its date when it falls on
// another day than ref (a route past midnight).
func (p *printer) near(t, ref time.Time) string {
	a, b := t.In(p.loc), ref.In(p.loc)
	if a.Year() == b.Year() && a.YearDay() == b.YearDay() {
		return a.Format("15:04")
	}
	return p.at(t)
}

// hhmm writes a duration as hours and minutes, "5:16".
func hhmm(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	m := int((d + 30*time.Second) / time.Minute)
	return fmt.Sprintf("%s%d:%02d", sign, m/60, m%60)
}

// mix writes pallets by temperature class, colder first: "2 frozen, 4 ambient".
func (p *printer) mix(ids []string) string {
	var n [3]int
	for _, id := range ids {
		if pl, ok := p.pallet[id]; ok && pl.Temperature.Valid() {
			n[pl.Temperature]++
		}
	}
	var parts []string
	for i := 2; i >= 0; i-- {
		if n[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[i], strings.ToLower(constraints.Temperature(i).String())))
		}
	}
	return strings.Join(parts, ", ")
}

// window writes the store's receiving window that holds t, "05:00-14:00".
func (p *printer) window(store string, t time.Time) string {
	s, ok := p.store[store]
	if !ok || p.from.IsZero() {
		return "?"
	}
	ws, err := s.Hours.Resolve(p.from.Add(-24*time.Hour), p.to.Add(24*time.Hour))
	if err != nil {
		return "?"
	}
	for _, w := range ws {
		if w.Contains(t) {
			return p.near(w.Start, t) + "-" + p.near(w.End, w.Start)
		}
	}
	return "none"
}

// thousands writes a whole number with thousands separators.
func thousands(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// rows writes a zone's rows, numbered from 1 at the nose: "rows 1-8".
func rows(z engine.Zone) string {
	if z.FirstRow == z.LastRow {
		return fmt.Sprintf("row %d", z.FirstRow+1)
	}
	return fmt.Sprintf("rows %d-%d", z.FirstRow+1, z.LastRow+1)
}

// breakParts says what fills a break, the parts that take any time:
// "waiting 0:05, unloading 0:21, rest 0:04".
func breakParts(b *engine.Break) string {
	var parts []string
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"waiting", b.Wait}, {"unloading", b.Unloading}, {"rest", b.Rest}} {
		if p.d > 0 {
			parts = append(parts, p.name+" "+hhmm(p.d))
		}
	}
	return strings.Join(parts, ", ")
}

// plural writes a count with its noun, singular for 1: "1 route", "3 routes".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

func summary(w io.Writer, req engine.Request, plan engine.Result, name string, took time.Duration) {
	p := newPrinter(req, plan)
	fmt.Fprintf(w, "haulplan quickstart: %s: %s, %s, %s, %s; planned in %v (times in %s, durations hh:mm)\n\n",
		name, plural(len(req.Stores), "store"), plural(len(req.Pallets), "pallet"), plural(len(req.Fleet), "trailer type"), plural(len(req.Shifts), "shift"),
		took.Round(time.Millisecond), p.loc)
	for i := range plan.Routes {
		p.route(w, &plan.Routes[i])
	}
	p.drivers(w, plan)
	p.dock(w, plan)
	totals(w, plan)
	p.unassigned(w, plan.Unassigned)
}

// storeName is the name of the store with the given id, "" when the
// request has none.
func (p *printer) storeName(id string) string {
	if s := p.store[id]; s != nil {
		return s.Name
	}
	return ""
}

// route prints a route's line, a line per stop (and per break) and the
// axle loads at departure.
func (p *printer) route(w io.Writer, r *engine.Route) {
	m := r.Metrics
	var zones []string
	for _, z := range r.Load.Zones {
		zones = append(zones, fmt.Sprintf("%s %s", z.Temperature, rows(z)))
	}
	var all []string
	for _, s := range r.Stops {
		all = append(all, s.Pallets...)
	}
	tname := r.Trailer
	if t := p.fleet[r.Trailer]; t != nil && t.Name != "" {
		tname = t.Name
	}
	id := r.ID
	if r.Locked {
		id += " (locked: kept from the previous plan)"
	}
	fmt.Fprintf(w, "%s  %s %s, shift %s trip %d: loading at door %d %s-%s, driver on duty %s, depart %s, back %s (on duty %s, driving %s); %.1f km, %s (%s); positions %.0f%%, weight %.0f%%, volume %.0f%%; %s\n",
		id, tname, r.TrailerUnit, r.Shift, r.Trip, r.DockDoor, p.at(r.LoadingStart), p.near(r.LoadingEnd, r.LoadingStart),
		p.near(r.Start, r.LoadingStart), p.near(r.Depart, r.Start), p.near(r.Return, r.Start), hhmm(m.Duration), hhmm(m.Driving),
		m.DistanceM/1000, plural(m.Pallets, "pallet"), p.mix(all), 100*m.PosUtil, 100*m.WeightUtil, 100*m.VolumeUtil, strings.Join(zones, ", "))
	for i, s := range r.Stops {
		wait := ""
		if s.Wait > 0 {
			wait = fmt.Sprintf(", waits %s", hhmm(s.Wait))
		}
		fmt.Fprintf(w, "    %2d. %-22s window %-11s  arrive %s, unload %s, leave %s%s; %s: %s\n",
			i+1, p.storeName(s.Store), p.window(s.Store, s.Start), p.near(s.Arrival, r.Start), p.near(s.Start, r.Start), p.near(s.Departure, r.Start), wait,
			plural(len(s.Pallets), "pallet"), p.mix(s.Pallets))
		if b := s.Break; b != nil {
			fmt.Fprintf(w, "        hours-of-service break here: %s, %s-%s (%s)\n",
				hhmm(b.Duration), p.near(b.Start, r.Start), p.near(b.End(), r.Start), breakParts(b))
		}
	}
	p.axles(w, r)
}

// axles prints the route's axle loads at departure against the trailer's
// limits.
func (p *printer) axles(w io.Writer, r *engine.Route) {
	if len(r.Load.Axles) == 0 {
		return
	}
	a := r.Load.Axles[0]
	for _, x := range r.Load.Axles {
		if x.AfterStop == -1 {
			a = x
		}
	}
	if t := p.fleet[r.Trailer]; t != nil {
		g := t.Axles
		fmt.Fprintf(w, "    axle loads at departure: kingpin %s of %s kg (%.0f%%), trailer tandem %s of %s kg (%.0f%%)\n",
			thousands(a.KingpinKg), thousands(g.KingpinLimitKg), 100*a.KingpinKg/g.KingpinLimitKg,
			thousands(a.AxleGroupKg), thousands(g.AxleGroupLimitKg), 100*a.AxleGroupKg/g.AxleGroupLimitKg)
	}
}

// totals prints the plan's totals.
func totals(w io.Writer, plan engine.Result) {
	m := plan.Metrics
	breaks := 0
	for _, r := range plan.Routes {
		for _, s := range r.Stops {
			if s.Break != nil {
				breaks++
			}
		}
	}
	fmt.Fprintf(w, "\nTotals: %s (no plan needs fewer than %d for these pallets) driven by %s (at least %d) with %s (at least %d), %s, %s delivered, %d unassigned; %.1f km, %s driving, %s on duty, %s waiting, %s; cost %.2f; mean position use %.0f%%\n",
		plural(m.Routes, "route"), m.TrailersLowerBound, plural(m.ShiftsUsed, "shift"), m.ShiftsLowerBound, plural(m.TrailerUnitsUsed, "trailer unit"), m.TrailerUnitsLowerBound, plural(m.Stops, "stop"), plural(m.Pallets, "pallet"), m.Unassigned,
		m.DistanceM/1000, hhmm(m.Driving), hhmm(m.Duration), hhmm(m.Wait), plural(breaks, "break"), m.Cost, 100*m.PosUtil)
}

// unassigned prints the unassigned pallets counted per store and cause,
// in the order they are listed.
func (p *printer) unassigned(w io.Writer, unassigned []engine.Unassigned) {
	type cause struct{ store, reason, message string }
	count := map[cause]int{}
	var causes []cause
	for _, u := range unassigned {
		c := cause{u.Store, u.Reason, u.Message}
		if count[c] == 0 {
			causes = append(causes, c)
		}
		count[c]++
	}
	if len(causes) > 0 {
		fmt.Fprintln(w, "\nUnassigned:")
	}
	width := 0
	for _, c := range causes {
		width = max(width, len(p.storeName(c.store))+len(c.store)+3)
	}
	for _, c := range causes {
		fmt.Fprintf(w, "  %-*s %11s  %s: %s\n", width, p.storeName(c.store)+" ("+c.store+")", plural(count[c], "pallet"), c.reason, c.message)
	}
}
