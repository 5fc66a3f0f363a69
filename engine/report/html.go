package report

import (
	"fmt"
	"html/template"
	"io"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/internal/numtext"
)

// HTML writes one self-contained page of the plan: the summary, what
// changed from the previous plan when the plan carries changes
// (Result.Changes: the stores that came on or off each trailer trip, or
// were retimed or given other pallets on it, trip by trip, for the
// loaders and drivers who hold its paperwork), the route map, the drivers' schedule and a table of their shifts, the dock doors'
// loadings, a table of the routes, each route's stops and trailer floor,
// and the unassigned pallets with their reasons. Locked routes (kept from
// the previous plan) are marked in the tables and on the schedule. The pictures are
// inline SVG and the styles inline CSS; the page fetches nothing (no
// scripts, fonts or images), so it opens offline, can be mailed as one
// file, and prints (each route on its own page when it fits).
func HTML(w io.Writer, req engine.Request, plan engine.Result) error {
	d := newDay(&req, &plan)
	page, err := d.page()
	if err != nil {
		return err
	}
	return pageTemplate.Execute(w, page)
}

// htmlPage is what the template shows, every number already formatted.
type htmlPage struct {
	Title, Zone         string
	Cards               []card
	Changes             *htmlChanges // nil: the plan carries no changes
	Map, Schedule, Dock template.HTML
	Drivers             []htmlDriver
	Routes              []htmlRoute
	Unassigned          []htmlUnassigned
}

type card struct{ Label, Value, Note string }

// htmlDriver is one shift that drives.
type htmlDriver struct {
	Shift, Trips, Routes, OnDuty, Duty, Driving, AtDC, Cost string
}

type htmlRoute struct {
	ID, Colour, Trailer, TrailerName, Shift string
	Trip, Door                              int
	Locked                                  bool
	Unit, OnDuty                            string
	StopCount, PalletCount                  string // "1 stop", "27 pallets"
	Breaks                                  bool
	Depart, Return                          string
	Load                                    string // loading start and end, the times only on the plan's day
	Classes                                 [3]int
	Stops, Pallets                          int
	Mix, Km, Driving, Duty, Wait, Cost      string
	PosUtil, WeightUtil, VolumeUtil         string
	Kingpin, KingpinLimit, Axle, AxleLimit  string
	KingpinOver, AxleOver                   bool
	StopRows                                []htmlStop
	Floor                                   template.HTML
}

type htmlStop struct {
	Seq                                  int
	Store, Name, Window                  string
	Arrival, Start, Departure, Wait, Mix string
	Break                                string // "" where no break is taken
	Pallets                              int
	Waits                                bool
}

type htmlUnassigned struct{ Pallet, Store, Name, Reason, Message string }

func (d *day) page() (*htmlPage, error) {
	m := d.plan.Metrics
	p := &htmlPage{Title: "Dispatch summary · " + d.title(), Zone: d.loc.String()}
	var w, v float64
	for _, r := range d.plan.Routes {
		w += r.Metrics.WeightUtil
		v += r.Metrics.VolumeUtil
	}
	n := max(1, float64(len(d.plan.Routes)))
	onTime, stops := d.onTime()
	p.Cards = []card{
		{"Routes", fmt.Sprint(m.Routes), fmt.Sprintf("trailer loads; no plan needs fewer than %d", m.TrailersLowerBound)},
		{"Drivers", fmt.Sprint(m.ShiftsUsed), fmt.Sprintf("shifts driving %s; no plan needs fewer than %d", plural(m.Routes, "trip"), m.ShiftsLowerBound)},
		{"Trailer units", fmt.Sprint(m.TrailerUnitsUsed), fmt.Sprintf("a unit may run several trips; no plan needs fewer than %d", m.TrailerUnitsLowerBound)},
		{"Dock doors", fmt.Sprintf("%d at once", m.PeakDockDoors), d.doorsOfDC()},
		{"Pallets delivered", fmt.Sprintf("%d of %d", m.Pallets, len(d.req.Pallets)), fmt.Sprintf("%d unassigned", m.Unassigned)},
		{"Stops", fmt.Sprint(m.Stops), fmt.Sprintf("%d of %d on time", onTime, stops)},
		{"Distance", numtext.Whole(m.DistanceM/1000) + " km", ""},
		{"Driving", hhmm(m.Driving), "hours:minutes, all routes"},
		{"Duty", hhmm(m.Duration), fmt.Sprintf("hook-up to return, all trips; waiting %s", hhmm(m.Wait))},
		{"Cost", numtext.Whole(m.Cost), ""},
		{"Utilisation", pct(m.PosUtil) + " positions", fmt.Sprintf("%s weight, %s volume", pct(w/n), pct(v/n))},
	}
	if n := d.lockedRoutes(); n > 0 || d.plan.Changes != nil {
		p.Cards = append(p.Cards, card{"Locked routes", fmt.Sprint(n), "kept from the previous plan as they were"})
	}
	if pc := d.plan.Changes; pc != nil {
		cm := pc.Metrics
		p.Cards = append(p.Cards, card{"Changed stores", fmt.Sprint(len(pc.Stores)),
			fmt.Sprintf("%d moved, %d retimed, %d added, %d removed; %s to reprint", cm.StoresMoved, cm.StoresRetimed, cm.StoresAdded, cm.StoresRemoved,
				plural(cm.RoutesChanged, "route"))})
		p.Changes = d.htmlChanges()
	}
	p.Map = template.HTML(d.routeMap().bytes())
	p.Schedule = template.HTML(d.schedule().bytes())
	p.Dock = template.HTML(d.dockSchedule().bytes())
	p.Drivers = d.htmlDrivers()
	for i := range d.plan.Routes {
		hr, err := d.htmlRoute(i)
		if err != nil {
			return nil, err
		}
		p.Routes = append(p.Routes, hr)
	}
	for _, u := range d.plan.Unassigned {
		p.Unassigned = append(p.Unassigned, htmlUnassigned{u.Pallet, u.Store, d.storeName(u.Store), u.Reason, u.Message})
	}
	return p, nil
}

// htmlRoute is the page's card of route i: its times, load, axles, stops
// and floor.
func (d *day) htmlRoute(i int) (htmlRoute, error) {
	r := &d.plan.Routes[i]
	hr := htmlRoute{
		ID: r.ID, Colour: routeColour(i), Trailer: r.Trailer, TrailerName: d.trailerName(r.Trailer), Shift: r.Shift,
		Trip: r.Trip, Door: r.DockDoor, Locked: r.Locked, Unit: r.TrailerUnit, OnDuty: d.timeNear(r.Start, d.firstStart()),
		Depart: d.timeNear(r.Depart, d.firstStart()), Return: d.timeNear(r.Return, d.firstStart()),
		Stops: len(r.Stops), Pallets: r.Metrics.Pallets, Mix: mix(d.routeClasses(r)),
		Km: fmt.Sprintf("%.1f", r.Metrics.DistanceM/1000), Driving: hhmm(r.Metrics.Driving), Duty: hhmm(r.Metrics.Duration),
		Wait: hhmm(r.Metrics.Wait), Cost: fmt.Sprintf("%.2f", r.Metrics.Cost),
		PosUtil: pct(r.Metrics.PosUtil), WeightUtil: pct(r.Metrics.WeightUtil), VolumeUtil: pct(r.Metrics.VolumeUtil),
	}
	hr.Load = d.timeNear(r.LoadingStart, d.firstStart()) + "–" + d.timeNear(r.LoadingEnd, r.LoadingStart)
	hr.StopCount, hr.PalletCount = plural(len(r.Stops), "stop"), plural(r.Metrics.Pallets, "pallet")
	hr.Classes = d.routeClasses(r)
	kp, ax := peakAxles(r)
	if t, ok := d.trailer[r.Trailer]; ok {
		hr.Kingpin, hr.KingpinLimit = numtext.Whole(kp), numtext.Whole(t.Axles.KingpinLimitKg)
		hr.Axle, hr.AxleLimit = numtext.Whole(ax), numtext.Whole(t.Axles.AxleGroupLimitKg)
		hr.KingpinOver, hr.AxleOver = kp > t.Axles.KingpinLimitKg, ax > t.Axles.AxleGroupLimitKg
	}
	for k, s := range r.Stops {
		hs := htmlStop{Seq: k + 1, Store: s.Store, Name: d.storeName(s.Store),
			Arrival: d.timeNear(s.Arrival, r.Start), Start: d.timeNear(s.Start, r.Start), Departure: d.timeNear(s.Departure, r.Start),
			Wait: hhmm(s.Wait), Waits: s.Wait > 0, Pallets: len(s.Pallets), Mix: mix(d.byClass(s.Pallets))}
		if b := s.Break; b != nil {
			hs.Break = breakText(b)
			hr.Breaks = true
		}
		hs.Window = "—"
		if win, ok := d.windowAt(s.Store, s.Start); ok {
			hs.Window = d.timeNear(win.Start, r.Start) + "–" + d.timeNear(win.End, win.Start)
		}
		hr.StopRows = append(hr.StopRows, hs)
	}
	floor, err := d.floor(r)
	if err != nil {
		return htmlRoute{}, err
	}
	hr.Floor = template.HTML(floor.bytes())
	return hr, nil
}

// htmlDrivers lists the shifts that drive, in the order they come on duty.
func (d *day) htmlDrivers() []htmlDriver {
	var out []htmlDriver
	for _, dd := range d.driverDays() {
		tot := d.driverTotals(dd)
		out = append(out, htmlDriver{Shift: dd.shift, Trips: fmt.Sprint(len(dd.trips)), Routes: tot.routesWithUnits,
			OnDuty: d.timeNear(d.dutyStart(dd), d.firstStart()) + "–" + d.timeNear(d.dutyEnd(dd), d.dutyStart(dd)),
			Duty:   hhmm(d.duty(dd)), Driving: hhmm(tot.driving), AtDC: hhmm(tot.atDC), Cost: fmt.Sprintf("%.2f", tot.cost)})
	}
	return out
}

// timeNear writes t's time of day, with its date when that differs from
// ref's (a route that runs past midnight).
func (d *day) timeNear(t, ref time.Time) string {
	a, b := t.In(d.loc), ref.In(d.loc)
	if a.YearDay() == b.YearDay() && a.Year() == b.Year() {
		return a.Format("15:04")
	}
	return a.Format("Mon 2 Jan 15:04")
}

// mix writes pallets by class, colder first: "3 frozen, 10 ambient".
func mix(c [3]int) string {
	var parts []string
	for i := 2; i >= 0; i-- {
		if c[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[i], lower(classNames[i])))
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return join(parts)
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; margin: 0 auto; padding: 16px 24px 40px; max-width: 1280px; }
h1 { font-size: 22px; margin: 4px 0 2px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 0 0 6px; }
.zone { color: #666; margin: 0 0 12px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 10px; background: #fafafa; }
.card .label { color: #666; font-size: 12px; }
.card .value { font-size: 20px; font-weight: 600; }
.card .note { color: #666; font-size: 12px; }
svg { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 6px 0 10px; }
th, td { padding: 3px 5px; border-bottom: 1px solid #e6e6e6; text-align: left; vertical-align: top; }
th { background: #eef2f7; font-weight: 600; position: sticky; top: 0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n, td.id { white-space: nowrap; }
.scroll { overflow-x: auto; }
.chip { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin-right: 6px; }
.route { border: 1px solid #ddd; border-radius: 6px; padding: 10px 12px; margin: 14px 0; }
.route .facts { color: #444; margin: 0 0 6px; }
.over { color: #c62828; font-weight: 600; }
.wait { color: #b36b00; }
td.break { color: #c0392b; font-weight: 600; white-space: nowrap; }
.note { color: #555; font-size: 12px; margin: 0 0 8px; }
.none { color: #2e7d32; }
.locked { display: inline-block; font-size: 11px; font-weight: 600; line-height: 14px; padding: 0 5px; margin-left: 6px; border: 1px solid #555; border-radius: 3px; color: #222;
  background: repeating-linear-gradient(45deg, #ffffff 0 3px, #dddddd 3px 6px); vertical-align: 1px; }
tbody.trip-change th.trip-head { background: #f4f4f4; font-size: 13px; border-top: 2px solid #ccc; }
tbody.trip-change .status { color: #666; font-weight: normal; margin-left: 8px; }
td.on { color: #2e7d32; font-weight: 600; white-space: nowrap; }
td.off { color: #c62828; font-weight: 600; white-space: nowrap; }
td.stays { color: #555; white-space: nowrap; }
td.differs { font-weight: 600; }
td.t { white-space: nowrap; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  @page { size: A4 landscape; margin: 10mm; }
  h2 { break-after: avoid; }
  .route, figure { break-inside: avoid; }
  #changes, #map, #schedule, #dock { break-before: page; }
  tbody.trip-change { break-inside: avoid; }
  th { position: static; }
  /* a picture no taller than a landscape page, keeping its proportions */
  figure svg { max-height: 180mm; width: auto; }
}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="zone">Times in {{.Zone}}; durations hours:minutes.</p>
<section id="summary">
<div class="cards">
{{- range .Cards}}
<div class="card"><div class="label">{{.Label}}</div><div class="value">{{.Value}}</div>{{if .Note}}<div class="note">{{.Note}}</div>{{end}}</div>
{{- end}}
</div>
</section>
{{- with .Changes}}
<section id="changes"><h2>Changes since the previous plan</h2>
<p class="note">{{.Note}}. Trip by trip, for the loaders and drivers who hold its paperwork: a store that moves comes off one trip and comes on another.</p>
{{- if .Trips}}
<div class="scroll"><table id="changes-by-trip">
<thead><tr><th>On this trip</th><th>Store</th><th>Change</th><th>From</th><th>To</th><th title="first arrival, and last where several stops deliver the store">Arrival before</th><th>Arrival now</th><th class="n">Pallets before</th><th class="n">Pallets now</th></tr></thead>
{{- range .Trips}}
<tbody class="trip-change" data-unit="{{.Unit}}" data-shift="{{.Shift}}" data-trip="{{.Trip}}" data-route="{{.Route}}">
<tr><th colspan="9" class="trip-head"><span class="chip" style="background:{{.Colour}}"></span>{{if .Route}}<a href="#route-{{.Route}}">{{.Heading}}</a>{{else}}{{.Heading}}{{end}}{{if .Locked}}<span class="locked">locked</span>{{end}}<span class="status">{{.Status}}</span></th></tr>
{{- range .Stores}}
<tr class="store-change" data-store="{{.Store}}"><td class="{{.EffectClass}}">{{.Effect}}</td><td>{{.Store}} {{.Name}}</td><td>{{.Kinds}}</td><td>{{.From}}</td><td>{{.To}}</td><td class="t">{{.ArrivalOld}}</td><td class="t{{if .Retimed}} differs{{end}}">{{.ArrivalNew}}</td><td class="n">{{.PalletsOld}}</td><td class="n{{if .PalletsDiff}} differs{{end}}">{{.PalletsNew}}</td></tr>
{{- end}}
</tbody>
{{- end}}
</table></div>
{{- else}}
<p class="none">No store's delivery changed.</p>
{{- end}}
</section>
{{- end}}
<section id="map"><h2>Route map</h2>
<figure style="margin:0">{{.Map}}</figure>
</section>
<section id="schedule"><h2>Drivers</h2>
<figure style="margin:0">{{.Schedule}}</figure>
<div class="scroll"><table id="drivers">
<thead><tr><th>Shift</th><th class="n">Trips</th><th>Routes (trailer units)</th><th title="from the first hook-up to the last return">On duty</th><th class="n">Duty</th><th class="n">Driving</th><th class="n" title="on duty at the DC between trips">At DC</th><th class="n" title="the trips' costs and the shift's own">Cost</th></tr></thead>
<tbody>
{{- range .Drivers}}
<tr><td class="id">{{.Shift}}</td><td class="n">{{.Trips}}</td><td>{{.Routes}}</td><td>{{.OnDuty}}</td><td class="n">{{.Duty}}</td><td class="n">{{.Driving}}</td><td class="n">{{.AtDC}}</td><td class="n">{{.Cost}}</td></tr>
{{- end}}
</tbody>
</table></div>
</section>
<section id="dock"><h2>Dock doors</h2>
<figure style="margin:0">{{.Dock}}</figure>
</section>
<section id="routes"><h2>Routes</h2>
<div class="scroll"><table>
<thead><tr><th>Route</th><th>Trailer</th><th>Unit</th><th>Shift</th><th class="n">Trip</th><th class="n">Door</th><th>Loading</th><th title="the driver comes on duty and hooks the trailer up">On duty</th><th>Depart</th><th>Return</th><th class="n">Stops</th><th class="n">Pallets</th><th class="n">Frozen</th><th class="n">Chilled</th><th class="n">Ambient</th><th class="n">km</th><th class="n">Driving</th><th class="n">Duty</th><th class="n">Cost</th><th class="n">Positions</th><th class="n">Weight</th><th class="n" title="highest kingpin load, at departure or after a stop, and its limit">Kingpin / limit kg</th><th class="n" title="highest axle group load and its limit">Axles / limit kg</th></tr></thead>
<tbody>
{{- range .Routes}}
<tr><td class="id"><span class="chip" style="background:{{.Colour}}"></span><a href="#route-{{.ID}}">{{.ID}}</a>{{if .Locked}}<span class="locked" title="kept from the previous plan as it was">locked</span>{{end}}</td><td title="{{.TrailerName}}">{{.Trailer}}</td><td>{{.Unit}}</td><td>{{.Shift}}</td><td class="n">{{.Trip}}</td><td class="n">{{.Door}}</td><td>{{.Load}}</td><td>{{.OnDuty}}</td><td>{{.Depart}}</td><td>{{.Return}}</td><td class="n">{{.Stops}}</td><td class="n">{{.Pallets}}</td><td class="n">{{index .Classes 2}}</td><td class="n">{{index .Classes 1}}</td><td class="n">{{index .Classes 0}}</td><td class="n">{{.Km}}</td><td class="n">{{.Driving}}</td><td class="n">{{.Duty}}</td><td class="n">{{.Cost}}</td><td class="n">{{.PosUtil}}</td><td class="n">{{.WeightUtil}}</td><td class="n{{if .KingpinOver}} over{{end}}">{{.Kingpin}} / {{.KingpinLimit}}</td><td class="n{{if .AxleOver}} over{{end}}">{{.Axle}} / {{.AxleLimit}}</td></tr>
{{- end}}
</tbody>
</table></div>
</section>
{{- range .Routes}}
<section class="route" id="route-{{.ID}}">
<h3><span class="chip" style="background:{{.Colour}}"></span>{{.ID}} · {{.TrailerName}} {{.Unit}} · shift {{.Shift}}, trip {{.Trip}}{{if .Locked}}<span class="locked" title="kept from the previous plan as it was">locked</span>{{end}}</h3>
<p class="facts">Loaded at door {{.Door}} {{.Load}}, driver on duty {{.OnDuty}}, departs {{.Depart}}, back {{.Return}} · {{.StopCount}}, {{.PalletCount}} ({{.Mix}}) · {{.Km}} km · driving {{.Driving}}, on duty {{.Duty}}{{if ne .Wait "0:00"}}, waiting {{.Wait}}{{end}} · cost {{.Cost}} · positions {{.PosUtil}}, weight {{.WeightUtil}}, volume {{.VolumeUtil}}</p>
<table>
<thead><tr><th class="n">#</th><th>Store</th><th>Receiving window</th><th>Arrive</th><th>Unload</th><th>Leave</th><th class="n">Wait</th><th title="the hours-of-service break taken at the stop: arrival to departure, and what fills it">Break</th><th class="n">Pallets</th><th>Temperatures</th></tr></thead>
<tbody>
{{- range .StopRows}}
<tr><td class="n">{{.Seq}}</td><td>{{.Store}} {{.Name}}</td><td>{{.Window}}</td><td>{{.Arrival}}</td><td>{{.Start}}</td><td>{{.Departure}}</td><td class="n{{if .Waits}} wait{{end}}">{{.Wait}}</td><td class="break">{{.Break}}</td><td class="n">{{.Pallets}}</td><td>{{.Mix}}</td></tr>
{{- end}}
</tbody>
</table>
{{- if .Breaks}}
<p class="note">Break: the driver's hours-of-service break, taken at that stop from arrival to departure; the time on site counts as the break.</p>
{{- end}}
<figure style="margin:0">{{.Floor}}</figure>
</section>
{{- end}}
<section id="unassigned"><h2>Unassigned pallets</h2>
{{- if .Unassigned}}
<table>
<thead><tr><th>Pallet</th><th>Store</th><th>Reason</th><th>What stands in the way</th></tr></thead>
<tbody>
{{- range .Unassigned}}
<tr><td>{{.Pallet}}</td><td>{{.Store}} {{.Name}}</td><td>{{.Reason}}</td><td>{{.Message}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="none">None: every pallet is delivered.</p>
{{- end}}
</section>
</body>
</html>
`))
