package report

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// handReplan is a small re-plan made by hand over the sample's stores:
//
//	previous: R1 U1/A/1: S001, S002 · R2 U2/B/1: S003 · R3 U3/C/1: S004
//	next:     R1 U1/A/1: S002 (40 min later) · R2 U2/B/1 (locked): S003, S001 · R3 U5/D/1: S005
//
// so S001 moves from U1's trip to U2's, S002 is retimed, S005 is added on a
// new trip and S004 is removed with the trip U3/C/1, which no longer runs
// (and whose id R3 the new plan gives to another trip).
func handReplan(t *testing.T) (engine.Request, engine.Result) {
	t.Helper()
	req, _ := samplePlan(t)
	loc := req.TimeZone()
	at := func(h, m int) time.Time { return time.Date(2026, 11, 24, h, m, 0, 0, loc) }
	stop := func(store string, arrive time.Time, pallets ...string) engine.Stop {
		return engine.Stop{Store: store, Arrival: arrive, Start: arrive, Departure: arrive.Add(20 * time.Minute), Pallets: pallets}
	}
	route := func(id, unit, shift string, start time.Time, stops ...engine.Stop) engine.Route {
		n := 0
		for _, s := range stops {
			n += len(s.Pallets)
		}
		return engine.Route{ID: id, Trailer: "DRY53", TrailerUnit: unit, Shift: shift, Trip: 1, DockDoor: 1,
			LoadingStart: start.Add(-time.Hour), LoadingEnd: start.Add(-30 * time.Minute), Start: start, Depart: start.Add(15 * time.Minute),
			Return: stops[len(stops)-1].Departure.Add(time.Hour), Stops: stops, Metrics: engine.RouteMetrics{Pallets: n}}
	}
	prev := engine.Result{Routes: []engine.Route{
		route("R1", "U1", "A", at(4, 0), stop("S001", at(6, 0), "p1", "p2"), stop("S002", at(7, 0), "p3", "p4", "p5")),
		route("R2", "U2", "B", at(4, 30), stop("S003", at(6, 30), "p6")),
		route("R3", "U3", "C", at(5, 0), stop("S004", at(8, 0), "p7", "p8")),
	}}
	next := engine.Result{Routes: []engine.Route{
		route("R1", "U1", "A", at(4, 0), stop("S002", at(7, 40), "p3", "p4", "p5")),
		route("R2", "U2", "B", at(4, 30), stop("S003", at(6, 30), "p6"), stop("S001", at(7, 0), "p1", "p2")),
		route("R3", "U5", "D", at(6, 0), stop("S005", at(9, 0), "p9", "p10", "p11", "p12")),
	}}
	next.Routes[1].Locked = true
	pc, err := engine.Changes(prev, next, engine.ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	next.Changes = &pc
	return req, next
}

// The Changes sheet lists each store change on each trailer trip it
// touches, trip by trip: the new plan's trips in its order, then the trips
// that no longer run; on a trip, the stores that ride it in stop order,
// then those that come off it.
func TestChangesSheetByTrip(t *testing.T) {
	req, plan := handReplan(t)
	f := reopenedSummary(t, req, plan)
	if got := f.GetSheetList(); len(got) < 2 || got[1] != SheetChanges {
		t.Fatalf("sheets %v, want %s second", got, SheetChanges)
	}
	rows, err := f.GetRows(SheetChanges)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(rows[0]) != fmt.Sprint(changesHead) {
		t.Fatalf("header %v", rows[0])
	}
	col := func(row []string, name string) string {
		if i := slices.Index(changesHead, name); i < len(row) {
			return row[i]
		}
		return ""
	}
	var got []string
	for _, r := range rows[1:] {
		got = append(got, strings.Join([]string{col(r, "Trailer unit"), col(r, "Shift"), col(r, "Trip"), col(r, "Route"), col(r, "Route before"),
			col(r, "Trip status"), col(r, "Locked"), col(r, "On this trip"), col(r, "Store"), col(r, "Change"),
			col(r, "Arrival before"), col(r, "Arrival now"), col(r, "Pallets before"), col(r, "Pallets now")}, "|"))
	}
	want := []string{
		"U1|A|1|R1|R1|changed||stays|S002|RETIMED|2026-11-24 07:00|2026-11-24 07:40|3|3",
		"U1|A|1|R1|R1|changed||comes off|S001|MOVED, RETIMED|2026-11-24 06:00|2026-11-24 07:00|2|2",
		"U2|B|1|R2||changed|yes|comes on|S001|MOVED, RETIMED|2026-11-24 06:00|2026-11-24 07:00|2|2",
		"U5|D|1|R3||new trip||comes on|S005|ADDED||2026-11-24 09:00|0|4",
		"U3|C|1||R3|no longer runs||comes off|S004|REMOVED|2026-11-24 08:00||2|0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Changes sheet:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if from, to := col(rows[2], "From"), col(rows[2], "To"); from != "R1 (U1, A trip 1)" || to != "R2 (U2, B trip 1)" {
		t.Errorf("S001 from %q to %q", from, to)
	}
	// One table like the other sheets: frozen header, and a dimension and
	// filter over the header and the rows.
	if panes, err := f.GetPanes(SheetChanges); err != nil || !panes.Freeze || panes.YSplit != 1 {
		t.Errorf("header row not frozen: %+v %v", panes, err)
	}
	var buf bytes.Buffer
	if err := DispatchSummary(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	x := sheetXML(t, buf.Bytes())[SheetChanges]
	ref := "A1:" + cellName(len(changesHead), len(want)+1)
	if xmlRef(x, "dimension") != ref || strings.ReplaceAll(xmlRef(x, "autoFilter"), "$", "") != ref {
		t.Errorf("dimension %q, filter %q, want %q", xmlRef(x, "dimension"), xmlRef(x, "autoFilter"), ref)
	}
	// The Summary counts the changes and the locked routes; the Routes
	// sheet marks the locked one.
	summary := map[string]string{}
	srows, _ := f.GetRows(SheetSummary)
	for _, r := range srows {
		if len(r) > 1 {
			summary[r[0]] = r[1]
		}
	}
	for k, v := range map[string]string{"Routes locked": "1", "Stores moved or retimed": "2", "Stores added": "1", "Stores removed": "1",
		"Routes whose paperwork changed": fmt.Sprint(plan.Changes.Metrics.RoutesChanged)} {
		if summary[k] != v {
			t.Errorf("Summary %q = %q, want %q", k, summary[k], v)
		}
	}
	rrows, _ := f.GetRows(SheetRoutes)
	lockedCol := slices.Index(routesHead, "Locked")
	for i, r := range plan.Routes {
		want := ""
		if r.Locked {
			want = "yes"
		}
		if got := cellAt(rrows[i+1], lockedCol); got != want {
			t.Errorf("Routes sheet: %s locked %q, want %q", r.ID, got, want)
		}
	}
}

func cellAt(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// The page's changes section holds a table body per trailer trip, headed
// by the trip, with a row per store change on it saying what it does to
// the trip; a plan without changes has no such section.
func TestHTMLChangesByTrip(t *testing.T) {
	req, plan := handReplan(t)
	var buf bytes.Buffer
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	sec := regexp.MustCompile(`(?s)<section id="changes">.*?</section>`).FindString(page)
	if sec == "" {
		t.Fatal("no changes section")
	}
	var trips []string
	for _, tb := range regexp.MustCompile(`(?s)<tbody class="trip-change"[^>]*>.*?</tbody>`).FindAllString(sec, -1) {
		head := regexp.MustCompile(`(?s)<th colspan="9" class="trip-head">(.*?)</th>`).FindStringSubmatch(tb)
		text := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(head[1], " ")
		line := strings.Join(strings.Fields(text), " ") + ":"
		for _, m := range regexp.MustCompile(`<tr class="store-change" data-store="(\w+)"><td class="(\w+)">([^<]+)</td>`).FindAllStringSubmatch(tb, -1) {
			line += fmt.Sprintf(" %s %s", m[1], m[3])
		}
		trips = append(trips, line)
	}
	want := []string{
		"U1 · shift A trip 1 · R1 changed: S002 stays S001 comes off",
		"U2 · shift B trip 1 · R2 locked changed: S001 comes on",
		"U5 · shift D trip 1 · R3 new trip: S005 comes on",
		"U3 · shift C trip 1 · was R3 no longer runs: S004 comes off",
	}
	if strings.Join(trips, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes by trip:\n%s\nwant\n%s", strings.Join(trips, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(sec, `<td class="t">07:00</td><td class="t differs">07:40</td>`) || !strings.Contains(sec, `<td class="n">0</td><td class="n differs">4</td>`) {
		t.Errorf("S002's arrival or S005's pallets not shown as differing:\n%s", sec)
	}
	if !regexp.MustCompile(`id="route-R2">\s*<h3>.*<span class="locked"`).MatchString(page) {
		t.Error("the locked route's section is not marked locked")
	}
	if regexp.MustCompile(`id="route-R1">\s*<h3>.*<span class="locked"`).MatchString(page) {
		t.Error("an unlocked route's section is marked locked")
	}
	plan.Changes = nil
	plan.Routes[1].Locked = false
	buf.Reset()
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="changes"`) || strings.Contains(buf.String(), `class="locked"`) {
		t.Error("a plan without changes or locks shows them")
	}
}

// When a shift's first trip is gone, its second runs as trip 1: a store
// that comes off it is shown on that trip, "trip 1 (was trip 2)", and the
// gone trip keeps its own number, in the workbook and on the page.
func TestChangesOnARenumberedTrip(t *testing.T) {
	req, _ := samplePlan(t)
	loc := req.TimeZone()
	at := func(h, m int) time.Time { return time.Date(2026, 11, 24, h, m, 0, 0, loc) }
	stop := func(store string, arrive time.Time, pallets ...string) engine.Stop {
		return engine.Stop{Store: store, Arrival: arrive, Start: arrive, Departure: arrive.Add(20 * time.Minute), Pallets: pallets}
	}
	route := func(id, unit, shift string, trip int, start time.Time, stops ...engine.Stop) engine.Route {
		return engine.Route{ID: id, Trailer: "DRY53", TrailerUnit: unit, Shift: shift, Trip: trip, DockDoor: 1,
			LoadingStart: start.Add(-time.Hour), LoadingEnd: start.Add(-30 * time.Minute), Start: start, Depart: start.Add(15 * time.Minute),
			Return: stops[len(stops)-1].Departure.Add(time.Hour), Stops: stops}
	}
	prev := engine.Result{Routes: []engine.Route{
		route("R1", "U1", "A", 1, at(4, 0), stop("S001", at(6, 0), "p1", "p2")),
		route("R2", "U2", "B", 1, at(4, 30), stop("S004", at(6, 30), "p7")),
		route("R3", "U1", "A", 2, at(9, 0), stop("S002", at(10, 0), "p3", "p4"), stop("S003", at(11, 0), "p5", "p6")),
	}}
	next := engine.Result{Routes: []engine.Route{
		route("R1", "U2", "B", 1, at(4, 30), stop("S004", at(6, 30), "p7"), stop("S003", at(7, 0), "p5", "p6")),
		route("R2", "U1", "A", 1, at(9, 0), stop("S002", at(10, 0), "p3", "p4")),
	}}
	pc, err := engine.Changes(prev, next, engine.ChangeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	next.Changes = &pc
	f := reopenedSummary(t, req, next)
	rows, err := f.GetRows(SheetChanges)
	if err != nil {
		t.Fatal(err)
	}
	col := func(row []string, name string) string { return cellAt(row, slices.Index(changesHead, name)) }
	var got []string
	for _, r := range rows[1:] {
		got = append(got, strings.Join([]string{col(r, "Trailer unit"), col(r, "Shift"), col(r, "Trip"), col(r, "Route"), col(r, "Route before"),
			col(r, "Trip before"), col(r, "Trip status"), col(r, "On this trip"), col(r, "Store"), col(r, "From")}, "|"))
	}
	want := []string{
		"U2|B|1|R1|||changed|comes on|S003|R3 (U1, A trip 2, now trip 1)",
		"U1|A|1|R2|R3|2|changed|comes off|S003|R3 (U1, A trip 2, now trip 1)",
		"U1|A|1||R1||no longer runs|comes off|S001|R1 (U1, A trip 1)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Changes sheet:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var buf bytes.Buffer
	if err := HTML(&buf, req, next); err != nil {
		t.Fatal(err)
	}
	for _, head := range []string{"U1 · shift A trip 1 (was trip 2) · R2, was R3", "U1 · shift A trip 1 · was R1"} {
		if !strings.Contains(buf.String(), head) {
			t.Errorf("the page has no trip headed %q", head)
		}
	}
}

// replanned is the sample re-planned: another seed, one store's pallets
// taken out and one pallet added to another store's, the changes from the
// sample's plan, and the routes that load in the first two hours locked.
var replanned struct {
	once sync.Once
	req  engine.Request
	plan engine.Result
	err  error
}

func replannedPlan(t *testing.T) (engine.Request, engine.Result) {
	t.Helper()
	req, prev := samplePlan(t)
	replanned.once.Do(func() {
		next := req
		gone := prev.Routes[0].Stops[0].Store
		next.Pallets = nil
		for _, p := range req.Pallets {
			if p.Store != gone {
				next.Pallets = append(next.Pallets, p)
			}
		}
		next.Options.Seed = req.Options.Seed + 9
		plan, err := engine.Plan(context.Background(), next)
		if err != nil {
			replanned.err = err
			return
		}
		pc, err := engine.Changes(prev, plan, engine.ChangeOptions{})
		if err != nil {
			replanned.err = err
			return
		}
		plan.Changes = &pc
		// Plan numbers its routes by loading start: the first half
		// loads first, as the routes a lock's "before" fixes do.
		for i := range plan.Routes {
			plan.Routes[i].Locked = i < len(plan.Routes)/2
		}
		replanned.req, replanned.plan = next, plan
	})
	if replanned.err != nil {
		t.Fatal(replanned.err)
	}
	return replanned.req, replanned.plan
}

// On a re-planned sample every store change shows on every trailer trip
// it touches, once, in the workbook and on the page, and each trip's rows
// stand together.
func TestReplanReportsEveryChange(t *testing.T) {
	req, plan := replannedPlan(t)
	pc := plan.Changes
	if len(pc.Stores) < 3 || pc.Metrics.StoresRemoved == 0 {
		t.Fatalf("setup: changes %+v", pc.Metrics)
	}
	type place struct{ unit, shift, trip, store string }
	want := map[place]string{}
	for _, c := range pc.Stores {
		for _, r := range c.From {
			want[place{r.TrailerUnit, r.Shift, fmt.Sprint(r.Trip), c.Store}] = tripComesOff
		}
		for _, r := range c.To {
			p := place{r.TrailerUnit, r.Shift, fmt.Sprint(r.Trip), c.Store}
			if want[p] == tripComesOff {
				want[p] = tripStays
			} else {
				want[p] = tripComesOn
			}
		}
	}
	f := reopenedSummary(t, req, plan)
	rows, err := f.GetRows(SheetChanges)
	if err != nil {
		t.Fatal(err)
	}
	i := func(name string) int { return slices.Index(changesHead, name) }
	got := map[place]string{}
	seen := map[string]bool{} // trips whose rows have ended
	last := ""
	for _, r := range rows[1:] {
		p := place{r[i("Trailer unit")], r[i("Shift")], r[i("Trip")], r[i("Store")]}
		if _, dup := got[p]; dup {
			t.Errorf("%v twice", p)
		}
		got[p] = r[i("On this trip")]
		trip := p.unit + "/" + p.shift + "/" + p.trip
		if trip != last {
			if seen[trip] {
				t.Errorf("trip %s's rows do not stand together", trip)
			}
			seen[last], last = true, trip
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Changes sheet:\n%v\nwant\n%v", got, want)
	}
	var buf bytes.Buffer
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	onPage := map[place]string{}
	for _, tb := range regexp.MustCompile(`(?s)<tbody class="trip-change" data-unit="([^"]*)" data-shift="([^"]*)" data-trip="(\d+)"[^>]*>(.*?)</tbody>`).FindAllStringSubmatch(page, -1) {
		for _, m := range regexp.MustCompile(`<tr class="store-change" data-store="(\w+)"><td class="\w+">([^<]+)</td>`).FindAllStringSubmatch(tb[4], -1) {
			onPage[place{tb[1], tb[2], tb[3], m[1]}] = m[2]
		}
	}
	if fmt.Sprint(onPage) != fmt.Sprint(want) {
		t.Errorf("page:\n%v\nwant\n%v", onPage, want)
	}
	for _, m := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1) {
		parseSVG(t, []byte(m))
	}
	// The hatches of the locked routes are the page's own: each named
	// once, and nothing else fetched.
	for _, u := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(page, -1) {
		id, ok := strings.CutPrefix(u[1], "#")
		if !ok || strings.Count(page, `id="`+id+`"`) != 1 {
			t.Errorf("the page refers to %s", u[0])
		}
	}
}

// The schedule hatches each locked trip from its hook-up to its return,
// with a padlock before its label, and explains the mark in its legend; an unlocked trip has neither.
func TestScheduleMarksLockedRoutes(t *testing.T) {
	req, plan := replannedPlan(t)
	els := schedulePicture(t, req, plan)
	x := pictureAxis(t, els)
	byID := map[string]engine.Route{}
	locked := 0
	for _, r := range plan.Routes {
		byID[r.ID] = r
		if r.Locked {
			locked++
		}
	}
	if locked == 0 || locked == len(plan.Routes) {
		t.Fatalf("setup: %d of %d routes locked", locked, len(plan.Routes))
	}
	marked := map[string]bool{}
	for _, e := range els {
		trip := e.within("trip")
		switch {
		case hasClass(e, "locked"):
			if trip == nil {
				t.Fatal("a locked mark outside a trip")
			}
			r := byID[trip.attrs["data-route"]]
			if !r.Locked || trip.attrs["data-locked"] != "true" {
				t.Errorf("%s is marked locked", r.ID)
			}
			if x0, x1 := e.f(t, "x"), e.f(t, "x")+e.f(t, "width"); abs(x0-x(r.Start)) > 0.5 || abs(x1-x(r.Return)) > 0.5 {
				t.Errorf("%s: the mark spans %.1f–%.1f, the trip %.1f–%.1f", r.ID, x0, x1, x(r.Start), x(r.Return))
			}
			marked[r.ID] = true
		case e.name == "path" && trip != nil:
			if !byID[trip.attrs["data-route"]].Locked {
				t.Errorf("%s has a padlock", trip.attrs["data-route"])
			}
		}
	}
	for _, r := range plan.Routes {
		if r.Locked != marked[r.ID] {
			t.Errorf("%s locked %v, marked %v", r.ID, r.Locked, marked[r.ID])
		}
	}
	legend := false
	for _, e := range els {
		legend = legend || hasClass(e, "locked-legend")
	}
	if !legend {
		t.Error("no legend for the locked mark")
	}
	// Without locks, no mark and no legend.
	plain := plan
	plain.Routes = slices.Clone(plan.Routes)
	for i := range plain.Routes {
		plain.Routes[i].Locked = false
	}
	for _, e := range schedulePicture(t, req, plain) {
		if hasClass(e, "locked") || e.name == "pattern" || strings.HasPrefix(e.text, "locked: ") {
			t.Fatalf("an unlocked plan shows <%s class=%q>%s", e.name, e.attrs["class"], e.text)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// The dock picture hatches each locked loading, from its start to its
// end, and explains the mark in its legend; an unlocked loading has
// neither.
func TestDockMarksLockedLoadings(t *testing.T) {
	req, plan := replannedPlan(t)
	var buf bytes.Buffer
	if err := DockSchedule(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	els := parseSVG(t, buf.Bytes())
	x := pictureAxis(t, els)
	byID := map[string]engine.Route{}
	for _, r := range plan.Routes {
		byID[r.ID] = r
	}
	marked := map[string]bool{}
	legend := false
	for _, e := range els {
		legend = legend || hasClass(e, "locked-legend")
		if !hasClass(e, "locked") {
			continue
		}
		g := e.within("loading-trip")
		if g == nil {
			t.Fatal("a locked mark outside a loading")
		}
		r := byID[g.attrs["data-route"]]
		if x0, x1 := e.f(t, "x"), e.f(t, "x")+e.f(t, "width"); abs(x0-x(r.LoadingStart)) > 0.5 || abs(x1-x(r.LoadingEnd)) > 0.5 {
			t.Errorf("%s: the mark spans %.1f–%.1f, the loading %.1f–%.1f", r.ID, x0, x1, x(r.LoadingStart), x(r.LoadingEnd))
		}
		marked[r.ID] = true
	}
	for _, r := range plan.Routes {
		if r.Locked != marked[r.ID] {
			t.Errorf("%s locked %v, marked %v", r.ID, r.Locked, marked[r.ID])
		}
	}
	if !legend {
		t.Error("no legend for the locked mark")
	}
}
