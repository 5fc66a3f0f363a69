package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// day is what every output reads from a request and its plan: lookups by
// id, the time zone and the stores' receiving windows over the horizon.
type day struct {
	req     *engine.Request
	plan    *engine.Result
	loc     *time.Location
	store   map[string]*engine.Store
	pallet  map[string]*engine.Pallet
	trailer map[string]*engine.TrailerType
	shift   map[string]*constraints.Shift
	// from and to bound the day: the shifts, and every instant the plan names.
	from, to time.Time
	windows  map[string][]constraints.Window // resolved on first use
}

func newDay(req *engine.Request, plan *engine.Result) *day {
	d := &day{
		req: req, plan: plan, loc: req.TimeZone(),
		store:   make(map[string]*engine.Store, len(req.Stores)),
		pallet:  make(map[string]*engine.Pallet, len(req.Pallets)),
		trailer: make(map[string]*engine.TrailerType, len(req.Fleet)),
		shift:   make(map[string]*constraints.Shift, len(req.Shifts)),
		windows: map[string][]constraints.Window{},
	}
	for i := range req.Stores {
		d.store[req.Stores[i].ID] = &req.Stores[i]
	}
	for i := range req.Pallets {
		d.pallet[req.Pallets[i].ID] = &req.Pallets[i]
	}
	for i := range req.Fleet {
		d.trailer[req.Fleet[i].ID] = &req.Fleet[i]
	}
	widen := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if d.from.IsZero() || t.Before(d.from) {
			d.from = t
		}
		if d.to.IsZero() || t.After(d.to) {
			d.to = t
		}
	}
	for i := range req.Shifts {
		d.shift[req.Shifts[i].ID] = &req.Shifts[i]
		widen(req.Shifts[i].Start)
		widen(req.Shifts[i].End)
	}
	for _, r := range plan.Routes {
		widen(r.Start)
		widen(r.Return)
	}
	return d
}

// TimeZone is the request's time zone, in which the reports show every
// instant: engine.Request.TimeZone, the rule engine.Validate's messages
// follow too, so that the two agree.
func TimeZone(req engine.Request) *time.Location { return req.TimeZone() }

// storeName is the store's name, or its id when it has none.
func (d *day) storeName(id string) string {
	if s, ok := d.store[id]; ok && s.Name != "" {
		return s.Name
	}
	return id
}

// trailerName is the trailer type's name, or its id when it has none.
func (d *day) trailerName(id string) string {
	if t, ok := d.trailer[id]; ok && t.Name != "" {
		return t.Name
	}
	return id
}

// storeWindows are store id's receiving windows over the day (a day either
// side, so that a window reaching past a shift is whole).
func (d *day) storeWindows(id string) []constraints.Window {
	if ws, ok := d.windows[id]; ok {
		return ws
	}
	var ws []constraints.Window
	if s, ok := d.store[id]; ok && !d.from.IsZero() {
		ws, _ = s.Hours.Resolve(d.from.Add(-24*time.Hour), d.to.Add(24*time.Hour))
	}
	d.windows[id] = ws
	return ws
}

// windowAt is the receiving window of store id that holds t, if any.
func (d *day) windowAt(id string, t time.Time) (constraints.Window, bool) {
	for _, w := range d.storeWindows(id) {
		if w.Contains(t) {
			return w, true
		}
	}
	return constraints.Window{}, false
}

// byClass counts pallets by temperature class (AMBIENT, CHILLED, FROZEN).
func (d *day) byClass(ids []string) [3]int {
	var n [3]int
	for _, id := range ids {
		if p, ok := d.pallet[id]; ok && p.Temperature.Valid() {
			n[p.Temperature]++
		}
	}
	return n
}

// routeClasses counts a route's pallets by temperature class.
func (d *day) routeClasses(r *engine.Route) [3]int {
	var n [3]int
	for _, s := range r.Stops {
		c := d.byClass(s.Pallets)
		for i := range n {
			n[i] += c[i]
		}
	}
	return n
}

// peakAxles is the highest kingpin and axle-group load of a route's load
// plan, over departure and every stop.
func peakAxles(r *engine.Route) (kingpin, axle float64) {
	for _, a := range r.Load.Axles {
		kingpin = max(kingpin, a.KingpinKg)
		axle = max(axle, a.AxleGroupKg)
	}
	return kingpin, axle
}

// departureAxles is the axle load at departure (afterStop −1).
func departureAxles(r *engine.Route) (engine.AxleLoad, bool) {
	for _, a := range r.Load.Axles {
		if a.AfterStop == -1 {
			return a, true
		}
	}
	return engine.AxleLoad{}, false
}

// stopOf maps each pallet of a route to its stop's index.
func stopOf(r *engine.Route) map[string]int {
	m := map[string]int{}
	for k, s := range r.Stops {
		for _, id := range s.Pallets {
			m[id] = k
		}
	}
	return m
}

// levelName says where a pallet stands: on the floor (level 0) or stacked
// on the pallet below.
func levelName(level int) string {
	if level == 0 {
		return "floor"
	}
	return "stacked"
}

// plural writes a count with its noun, singular for 1: "1 stop", "3 stops".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// breakText says how long a break lasts and what fills it, the parts that
// take any time: "0:30 (unloading 0:21, rest 0:09)".
func breakText(b *engine.Break) string {
	var parts []string
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"waiting", b.Wait}, {"unloading", b.Unloading}, {"rest", b.Rest}} {
		if p.d > 0 {
			parts = append(parts, p.name+" "+hhmm(p.d))
		}
	}
	if len(parts) == 0 {
		return hhmm(b.Duration)
	}
	return hhmm(b.Duration) + " (" + join(parts) + ")"
}

// classNames are the temperature classes' names in the reports.
var classNames = [3]string{"Ambient", "Chilled", "Frozen"}

// hhmm writes a duration as hours and minutes, "7:05", rounded to the minute.
func hhmm(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	m := int((d + 30*time.Second) / time.Minute)
	return fmt.Sprintf("%s%d:%02d", sign, m/60, m%60)
}

// clock writes an instant in the request's zone with its date, "Tue 24 Nov 02:25".
func (d *day) clock(t time.Time) string { return t.In(d.loc).Format("Mon 2 Jan 15:04") }

// hm writes an instant's time of day in the request's zone.
func (d *day) hm(t time.Time) string { return t.In(d.loc).Format("15:04") }

func lower(s string) string { return strings.ToLower(s) }

func join(s []string) string { return strings.Join(s, ", ") }
