package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/engine"
)

// The page holds every part the issue lists and fetches nothing.
func TestHTMLIsSelfContained(t *testing.T) {
	req, plan := samplePlan(t)
	var buf bytes.Buffer
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(", "src="} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	// The only URLs are the SVG namespace.
	for _, u := range regexp.MustCompile(`https?://[^"'\s<]+`).FindAllString(page, -1) {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("the page names %s", u)
		}
	}
	for _, want := range []string{`id="summary"`, `id="map"`, `id="schedule"`, `id="drivers"`, `id="dock"`, `id="routes"`, `id="unassigned"`, "@media print"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, r := range plan.Routes {
		if !strings.Contains(page, `id="route-`+r.ID+`"`) {
			t.Errorf("no section for route %s", r.ID)
		}
	}
	if n, want := strings.Count(page, "<svg "), 3+len(plan.Routes); n != want {
		t.Errorf("%d pictures, want %d (map, schedule, dock, a floor per route)", n, want)
	}
	// Each inline picture parses on its own.
	for _, m := range regexp.MustCompile(`(?s)<svg .*?</svg>`).FindAllString(page, -1) {
		parseSVG(t, []byte(m))
	}
}

func TestHTMLListsUnassigned(t *testing.T) {
	req, plan := samplePlan(t)
	p := plan
	p.Unassigned = nil
	r := p.Routes[0]
	p.Routes = p.Routes[1:]
	for _, s := range r.Stops {
		for _, id := range s.Pallets {
			p.Unassigned = append(p.Unassigned, unassigned(id, s.Store))
		}
	}
	var buf bytes.Buffer
	if err := HTML(&buf, req, p); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if !strings.Contains(page, p.Unassigned[0].Pallet) || !strings.Contains(page, "FLEET_EXHAUSTED") || !strings.Contains(page, "no trailer left &lt;test&gt;") {
		t.Error("the unassigned pallets, their reasons and escaped messages are not listed")
	}
}

func unassigned(pallet, store string) engine.Unassigned {
	return engine.Unassigned{Pallet: pallet, Store: store, Reason: engine.ReasonFleetExhausted, Message: "no trailer left <test>"}
}

// Each route's stop table says at which stop the driver takes the
// hours-of-service break, how long it lasts and what fills it; the other
// stops leave the column empty.
func TestHTMLShowsBreaks(t *testing.T) {
	req, plan := breaksPlan(t)
	if len(breakStops(plan)) == 0 {
		t.Fatal("setup: the plan takes no break")
	}
	var buf bytes.Buffer
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	row := regexp.MustCompile(`<tr><td class="n">(\d+)</td><td>(\S+) [^<]*</td>(?:<td[^>]*>[^<]*</td>){5}<td class="break">([^<]*)</td>`)
	for _, r := range plan.Routes {
		start := strings.Index(page, `<section class="route" id="route-`+r.ID+`">`)
		if start < 0 {
			t.Fatalf("no section for %s", r.ID)
		}
		section := page[start:]
		section = section[:strings.Index(section, "</section>")]
		rows := row.FindAllStringSubmatch(section, -1)
		if len(rows) != len(r.Stops) {
			t.Fatalf("%s: %d stop rows with a break column, %d stops", r.ID, len(rows), len(r.Stops))
		}
		for k, s := range r.Stops {
			got := rows[k][3]
			if rows[k][2] != s.Store {
				t.Fatalf("%s row %d: store %s, want %s", r.ID, k+1, rows[k][2], s.Store)
			}
			if s.Break == nil {
				if got != "" {
					t.Errorf("%s stop %d: break %q where none is taken", r.ID, k+1, got)
				}
				continue
			}
			b := s.Break
			for _, want := range []string{hhmm(b.Duration), "unloading " + hhmm(b.Unloading)} {
				if !strings.Contains(got, want) {
					t.Errorf("%s stop %d: break %q lacks %q", r.ID, k+1, got, want)
				}
			}
			if b.Rest > 0 && !strings.Contains(got, "rest "+hhmm(b.Rest)) {
				t.Errorf("%s stop %d: break %q lacks its rest of %s", r.ID, k+1, got, hhmm(b.Rest))
			}
		}
	}
}

// The page holds the drivers' schedule with a lane per shift and a table
// row per shift with its trips, and the dock picture with a lane per door;
// each route says its trip, trailer unit, door and loading.
func TestHTMLShowsDriversAndDock(t *testing.T) {
	req, plan := multiTripDay(t)
	var buf bytes.Buffer
	if err := HTML(&buf, req, plan); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	section := func(id string) string {
		i := strings.Index(page, `<section id="`+id+`">`)
		if i < 0 {
			t.Fatalf("no section %s", id)
		}
		return page[i : i+strings.Index(page[i:], "</section>")]
	}
	schedule, dock := section("schedule"), section("dock")
	if n := strings.Count(schedule, `class="shift-lane"`); n != 2 {
		t.Errorf("the schedule has %d lanes for 2 shifts", n)
	}
	if n := strings.Count(dock, `class="door-lane"`); n != 2 {
		t.Errorf("the dock picture has %d lanes for 2 doors", n)
	}
	for _, want := range []string{
		`<tr><td class="id">D1</td><td class="n">3</td><td>R1 (DRY53-01), R3 (DRY53-01), R5 (DRY53-01)</td><td>03:00–10:35</td><td class="n">7:35</td><td class="n">3:29</td><td class="n">2:03</td>`,
		`<tr><td class="id">D2</td><td class="n">2</td><td>R2 (DRY53-02), R4 (DRY53-02)</td><td>04:00–09:30</td><td class="n">5:30</td><td class="n">3:09</td><td class="n">0:59</td>`,
	} {
		if !strings.Contains(schedule, want) {
			t.Errorf("the drivers' table lacks %s", want)
		}
	}
	for _, want := range []string{"R2 · 53 ft dry van DRY53-02 · shift D2, trip 1", "Loaded at door 2 02:10–02:32, driver on duty 04:00, departs 04:15"} {
		if !strings.Contains(page, want) {
			t.Errorf("route R2's section lacks %q", want)
		}
	}
}
