package report

import (
	"fmt"
	"time"
)

// Column headers of the sheets; the tests read the workbook back by them.
var (
	routesHead = []string{"Route", "Trailer type", "Trailer", "Trailer unit", "Shift", "Trip", "Locked", "Dock door", "Loading start", "Loading end",
		"On duty", "Departure", "Return", "Stops", "Pallets",
		"Ambient", "Chilled", "Frozen", "km", "Driving", "Duty", "Wait", "Cost",
		"Positions %", "Weight %", "Volume %", "Weight kg", "Peak kingpin kg", "Kingpin limit kg", "Peak axle group kg", "Axle group limit kg"}
	stopsHead = []string{"Route", "Seq", "Store", "Name", "Window opens", "Window closes", "Arrival", "Unloading start", "Departure", "Wait",
		"Break", "Rest in break", "Pallets", "Ambient", "Chilled", "Frozen"}
	loadHead  = []string{"Route", "Stop", "Store", "Pallet", "Row", "Side", "Level", "Zone", "Temperature", "x mm", "Turned", "Weight kg"}
	axleHead  = []string{"Route", "After stop", "Store", "Kingpin kg", "Kingpin limit kg", "Kingpin %", "Axle group kg", "Axle group limit kg", "Axle group %"}
	unassHead = []string{"Pallet", "Store", "Name", "Reason", "Message"}
	summHead  = []string{"Measure", "Value", "Note"}
)

func (d *day) summaryTable(st *styles) *table {
	t := &table{sheet: SheetSummary}
	t.cols = []column{{summHead[0], st.text, 0}, {summHead[1], st.text, 18}, {summHead[2], st.text, 0}}
	m := d.plan.Metrics
	add := func(name string, style int, v any, note string) {
		t.rows = append(t.rows, []any{name, cellStyled{style, v}, note})
	}
	dayStart := d.from
	if len(d.plan.Routes) > 0 {
		dayStart = d.plan.Routes[0].Start
		for _, r := range d.plan.Routes {
			if r.Start.Before(dayStart) {
				dayStart = r.Start
			}
		}
	}
	dc := d.req.DC.Name
	if dc == "" {
		dc = d.req.DC.ID
	}
	if !dayStart.IsZero() {
		local := dayStart.In(d.loc)
		add("Day", st.day, time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, d.loc), "times in "+d.loc.String())
	}
	add("DC", st.text, dc, d.req.DC.ID)
	add("Routes", st.int, m.Routes, fmt.Sprintf("trailer loads (trips); no plan delivering these pallets needs fewer than %d", m.TrailersLowerBound))
	add("Routes lower bound", st.int, m.TrailersLowerBound, "")
	add("Shifts used", st.int, m.ShiftsUsed, "drivers; their trips on the Drivers sheet")
	add("Shifts lower bound", st.int, m.ShiftsLowerBound, "no plan delivering these pallets needs fewer")
	add("Trailer units used", st.int, m.TrailerUnitsUsed, "a unit may run several trips")
	add("Trailer units lower bound", st.int, m.TrailerUnitsLowerBound, "no plan delivering these pallets needs fewer")
	add("Peak dock doors", st.int, m.PeakDockDoors, d.doorsOfDC()+"; the loadings on the Dock sheet")
	add("Stops", st.int, m.Stops, "")
	add("Pallets delivered", st.int, m.Pallets, fmt.Sprintf("of %d", len(d.req.Pallets)))
	add("Pallets unassigned", st.int, m.Unassigned, "see the Unassigned sheet")
	add("Distance km", st.km, m.DistanceM/1000, "")
	add("Driving", st.duration, excelDuration(m.Driving), "hours:minutes")
	add("Duty", st.duration, excelDuration(m.Duration), "hook-up to return, all trips (loading is the DC's work)")
	add("Waiting", st.duration, excelDuration(m.Wait), "")
	breaks := 0
	for _, r := range d.plan.Routes {
		for _, s := range r.Stops {
			if s.Break != nil {
				breaks++
			}
		}
	}
	add("Breaks", st.int, breaks, "hours-of-service breaks, taken at the stops the Stops sheet names")
	add("Cost", st.money, m.Cost, "")
	var w, v float64
	for _, r := range d.plan.Routes {
		w += r.Metrics.WeightUtil
		v += r.Metrics.VolumeUtil
	}
	n := float64(len(d.plan.Routes))
	add("Average utilisation: positions", st.pct, m.PosUtil, "mean over the routes")
	add("Average utilisation: weight", st.pct, ratio(w, n), "")
	add("Average utilisation: volume", st.pct, ratio(v, n), "")
	onTime, stops := d.onTime()
	add("On-time stops", st.pct, ratio(float64(onTime), float64(stops)), fmt.Sprintf("unloading inside the store's receiving hours: %d of %d", onTime, stops))
	if d.plan.Changes != nil || d.lockedRoutes() > 0 {
		add("Routes locked", st.int, d.lockedRoutes(), "kept from the previous plan as they were; marked on the Routes sheet")
	}
	if pc := d.plan.Changes; pc != nil {
		cm := pc.Metrics
		add("Stores moved or retimed", st.int, cm.StoresMovedOrRetimed, fmt.Sprintf("of %s both plans deliver: %d moved to other trips, %d with an arrival moved by more than %s; see the Changes sheet",
			plural(cm.StoresCompared, "store"), cm.StoresMoved, cm.StoresRetimed, hhmm(pc.Tolerance)))
		add("Stores added", st.int, cm.StoresAdded, "delivered now, not by the previous plan")
		add("Stores removed", st.int, cm.StoresRemoved, "delivered by the previous plan, not now")
		add("Stores with another pallet count", st.int, cm.StoresPalletsChanged, "")
		add("Routes whose paperwork changed", st.int, cm.RoutesChanged, "trailer trips with other stops, stop order or pallets, and trips added or gone")
	}
	return t
}

// cellStyled is a value with a style of its own, for a column whose rows
// differ (the Summary's values).
type cellStyled struct {
	style int
	v     any
}

// onTime counts the stops whose unloading starts inside a receiving window.
func (d *day) onTime() (onTime, stops int) {
	for _, r := range d.plan.Routes {
		for _, s := range r.Stops {
			stops++
			if _, ok := d.windowAt(s.Store, s.Start); ok {
				onTime++
			}
		}
	}
	return onTime, stops
}

func (d *day) routesTable(st *styles) *table {
	styles := []int{st.text, st.text, st.text, st.text, st.text, st.int, st.text, st.int, st.dateTime, st.dateTime,
		st.dateTime, st.dateTime, st.dateTime, st.int, st.int,
		st.int, st.int, st.int, st.km, st.duration, st.duration, st.duration, st.money,
		st.pct, st.pct, st.pct, st.kg, st.kg, st.kg, st.kg, st.kg}
	t := &table{sheet: SheetRoutes, cols: columns(st, routesHead, styles)}
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		m := r.Metrics
		c := d.routeClasses(r)
		kp, ax := peakAxles(r)
		var kpLimit, axLimit any
		if tt, ok := d.trailer[r.Trailer]; ok {
			kpLimit, axLimit = tt.Axles.KingpinLimitKg, tt.Axles.AxleGroupLimitKg
		}
		locked := ""
		if r.Locked {
			locked = "yes"
		}
		t.rows = append(t.rows, []any{r.ID, r.Trailer, d.trailerName(r.Trailer), r.TrailerUnit, r.Shift, r.Trip, locked, r.DockDoor,
			d.excelTime(r.LoadingStart), d.excelTime(r.LoadingEnd),
			d.excelTime(r.Start), d.excelTime(r.Depart), d.excelTime(r.Return), len(r.Stops), m.Pallets,
			c[0], c[1], c[2], m.DistanceM / 1000, excelDuration(m.Driving), excelDuration(m.Duration), excelDuration(m.Wait), m.Cost,
			m.PosUtil, m.WeightUtil, m.VolumeUtil, m.WeightKg, kp, kpLimit, ax, axLimit})
	}
	return t
}

func (d *day) stopsTable(st *styles) *table {
	styles := []int{st.text, st.int, st.text, st.text, st.dateTime, st.dateTime, st.dateTime, st.dateTime, st.dateTime, st.duration,
		st.duration, st.duration, st.int, st.int, st.int, st.int}
	t := &table{sheet: SheetStops, cols: columns(st, stopsHead, styles)}
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		for k, s := range r.Stops {
			var open, closes any
			if w, ok := d.windowAt(s.Store, s.Start); ok {
				open, closes = d.excelTime(w.Start), d.excelTime(w.End)
			}
			var brk, rest any
			if b := s.Break; b != nil {
				brk, rest = excelDuration(b.Duration), excelDuration(b.Rest)
			}
			c := d.byClass(s.Pallets)
			t.rows = append(t.rows, []any{r.ID, k + 1, s.Store, d.storeName(s.Store), open, closes,
				d.excelTime(s.Arrival), d.excelTime(s.Start), d.excelTime(s.Departure), excelDuration(s.Wait),
				brk, rest, len(s.Pallets), c[0], c[1], c[2]})
		}
	}
	return t
}

// loadTable lists where each pallet stands, rows and zones numbered from 1.
func (d *day) loadTable(st *styles) *table {
	styles := []int{st.text, st.int, st.text, st.text, st.int, st.text, st.text, st.int, st.text, st.kg, st.text, st.kg}
	t := &table{sheet: SheetLoad, cols: columns(st, loadHead, styles)}
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		stop := stopOf(r)
		for _, p := range r.Load.Placements {
			k, ok := stop[p.Pallet]
			var stopNo, store any
			if ok {
				stopNo, store = k+1, r.Stops[k].Store
			}
			temp, weight := "", any(nil)
			if z := p.Zone; z >= 0 && z < len(r.Load.Zones) {
				temp = r.Load.Zones[z].Temperature.String()
			}
			if pl, ok := d.pallet[p.Pallet]; ok {
				weight = pl.WeightKg
			}
			turned := ""
			if p.Turned {
				turned = "yes"
			}
			t.rows = append(t.rows, []any{r.ID, stopNo, store, p.Pallet, p.Row + 1, p.Side, levelName(p.Level), p.Zone + 1, temp, p.XMM, turned, weight})
		}
	}
	return t
}

// axlesTable lists each route's axle loads at departure and after each
// stop, against the trailer's limits.
func (d *day) axlesTable(st *styles) *table {
	styles := []int{st.text, st.text, st.text, st.kg, st.kg, st.pct, st.kg, st.kg, st.pct}
	t := &table{sheet: SheetAxles, cols: columns(st, axleHead, styles)}
	for i := range d.plan.Routes {
		r := &d.plan.Routes[i]
		var kpLimit, axLimit float64
		if tt, ok := d.trailer[r.Trailer]; ok {
			kpLimit, axLimit = tt.Axles.KingpinLimitKg, tt.Axles.AxleGroupLimitKg
		}
		for _, a := range r.Load.Axles {
			after, store := "departure", ""
			if a.AfterStop >= 0 {
				after = fmt.Sprintf("stop %d", a.AfterStop+1)
				if a.AfterStop < len(r.Stops) {
					store = r.Stops[a.AfterStop].Store
				}
			}
			t.rows = append(t.rows, []any{r.ID, after, store, a.KingpinKg, kpLimit, ratio(a.KingpinKg, kpLimit),
				a.AxleGroupKg, axLimit, ratio(a.AxleGroupKg, axLimit)})
		}
	}
	return t
}

func (d *day) unassignedTable(st *styles) *table {
	t := &table{sheet: SheetUnassigned, cols: columns(st, unassHead, []int{st.text, st.text, st.text, st.text, st.text})}
	for _, u := range d.plan.Unassigned {
		t.rows = append(t.rows, []any{u.Pallet, u.Store, d.storeName(u.Store), u.Reason, u.Message})
	}
	return t
}

// columns pairs headers with styles; numbers get the width their format
// needs.
func columns(st *styles, heads []string, styles []int) []column {
	cs := make([]column, len(heads))
	for i, h := range heads {
		w := 9.0
		switch styles[i] {
		case st.dateTime:
			w = 17
		case st.text:
			w = 4
		}
		cs[i] = column{head: h, style: styles[i], width: w}
	}
	return cs
}
