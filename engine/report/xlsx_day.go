package report

import "sort"

// Column headers of the sheets of the DC's day: the drivers' shifts and
// the dock's loadings.
var (
	driversHead = []string{"Shift", "Trips", "Routes (trailer units)", "Shift start", "Shift end", "First on duty", "Last return",
		"Duty", "Driving", "At DC between trips", "km", "Pallets", "Shift cost", "Cost"}
	dockHead = []string{"Door", "Loading start", "Loading end", "Loading", "Route", "Trip", "Shift", "Trailer unit", "Pallets",
		"Staging", "On duty", "Departure"}
)

// driversTable lists each shift that drives, in the order its driver
// comes on duty: its trips, its duty from the first hook-up to the last
// return, its driving, and its cost (its trips' and its own).
func (d *day) driversTable(st *styles) *table {
	styles := []int{st.text, st.int, st.text, st.dateTime, st.dateTime, st.dateTime, st.dateTime,
		st.duration, st.duration, st.duration, st.km, st.int, st.money, st.money}
	t := &table{sheet: SheetDrivers, cols: columns(st, driversHead, styles)}
	for _, dd := range d.driverDays() {
		tot := d.driverTotals(dd)
		var start, end any
		if sh, ok := d.shift[dd.shift]; ok {
			start, end = d.excelTime(sh.Start), d.excelTime(sh.End)
		}
		t.rows = append(t.rows, []any{dd.shift, len(dd.trips), tot.routesWithUnits, start, end,
			d.excelTime(d.dutyStart(dd)), d.excelTime(d.dutyEnd(dd)), excelDuration(d.duty(dd)), excelDuration(tot.driving),
			excelDuration(tot.atDC), tot.distanceM / 1000, tot.pallets, tot.shiftCost, tot.cost})
	}
	return t
}

// dockTable lists each loading by door and start: the trailer unit, the
// route and trip it is loaded for, how long it is staged in the yard
// before the driver comes on duty to hook it up, and its departure.
func (d *day) dockTable(st *styles) *table {
	styles := []int{st.int, st.dateTime, st.dateTime, st.duration, st.text, st.int, st.text, st.text, st.int,
		st.duration, st.dateTime, st.dateTime}
	t := &table{sheet: SheetDock, cols: columns(st, dockHead, styles)}
	order := make([]int, len(d.plan.Routes))
	for i := range order {
		order[i] = i
	}
	routes := d.plan.Routes
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := &routes[order[a]], &routes[order[b]]
		if ra.DockDoor != rb.DockDoor {
			return ra.DockDoor < rb.DockDoor
		}
		return ra.LoadingStart.Before(rb.LoadingStart)
	})
	for _, i := range order {
		r := &routes[i]
		t.rows = append(t.rows, []any{r.DockDoor, d.excelTime(r.LoadingStart), d.excelTime(r.LoadingEnd),
			excelDuration(r.LoadingEnd.Sub(r.LoadingStart)), r.ID, r.Trip, r.Shift, r.TrailerUnit, r.Metrics.Pallets,
			excelDuration(r.Start.Sub(r.LoadingEnd)), d.excelTime(r.Start), d.excelTime(r.Depart)})
	}
	return t
}
