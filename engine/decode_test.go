package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// decodeBase is a valid request, written as a person would, that the cases
// of TestDecodeRequestProblems break one way each.
const decodeBase = `{
  "dc": {"id": "DC", "location": {"lat": 32.7, "lng": -96.8}, "loadingPerPallet": "1m"},
  "stores": [
    {"id": "S1", "location": {"lat": 32.9, "lng": -96.9},
     "hours": {"timeZone": "America/Chicago", "days": {"mon": [{"open": "05:00", "close": "12:00"}]}},
     "unloading": {"fixed": "10m", "perPallet": 60}}
  ],
  "pallets": [
    {"id": "P1", "store": "S1", "weightKg": 400, "heightMM": 1200, "temperature": "AMBIENT", "footprint": "STANDARD"},
    {"id": "P2", "store": "S1", "weightKg": 300, "heightMM": 1000, "temperature": "FROZEN", "footprint": "HALF"}
  ],
  "fleet": [
    {"id": "T", "count": 2, "inside": {"lengthMM": 16000, "widthMM": 2490, "heightMM": 2700},
     "palletPositions": 26, "payloadKg": 20000, "equipment": {"kind": "MULTI_TEMP_REEFER"},
     "axles": {"kingpinMM": 900, "axleGroupMM": 12500, "tareKg": 7000, "tareCentreMM": 7000,
               "kingpinLimitKg": 11000, "axleGroupLimitKg": 15422},
     "costs": {"fixed": 100, "perKm": 1.2, "perHour": 30}}
  ],
  "shifts": [{"id": "X", "start": "2026-11-23T04:00:00-06:00", "end": "2026-11-23T16:00:00-06:00"}],
  "options": {"timeLimit": "2s", "seed": 1}
}`

// problem is one expected violation: code@path, and words its message
// must hold.
type problem struct {
	at    string
	words []string
}

func TestDecodeRequestProblems(t *testing.T) {
	if _, err := DecodeRequest(strings.NewReader(decodeBase)); err != nil {
		t.Fatalf("base request: %v", err)
	}
	cases := []struct {
		name string
		from string // text of decodeBase to replace; "" means the whole document is body
		to   string
		want []problem // exactly these, in this order
	}{
		{name: "member name in lower case", from: `"weightKg": 400`, to: `"weightkg": 400`,
			want: []problem{{"UNKNOWN_MEMBER@pallets[0].weightkg", []string{"not a member of a pallet", `did you mean "weightKg"`}},
				{"REQUIRED@pallets[0].weightKg", []string{"is required in a pallet"}}}},
		{name: "member name in upper case", from: `"weightKg": 300`, to: `"WEIGHTKG": 300`,
			want: []problem{{"UNKNOWN_MEMBER@pallets[1].WEIGHTKG", []string{`did you mean "weightKg"`}}, {"REQUIRED@pallets[1].weightKg", nil}}},
		{name: "misspelt member has its parent and index", from: `"weightKg": 400`, to: `"wieghtKg": 400`,
			want: []problem{{"UNKNOWN_MEMBER@pallets[0].wieghtKg", []string{`did you mean "weightKg"`}}, {"REQUIRED@pallets[0].weightKg", nil}}},
		{name: "duplicated member", from: `"weightKg": 400`, to: `"weightKg": 400, "weightKg": 500`,
			want: []problem{{"DUPLICATE_MEMBER@pallets[0].weightKg", []string{"more than once"}}}},
		{name: "unknown door side", from: `{"kind": "MULTI_TEMP_REEFER"}`, to: `{"kind": "MULTI_TEMP_REEFER"}, "doors": [{"side": "REAR"}, {"side": "LEFT", "toMM": 2500}]`,
			want: []problem{{"INVALID_VALUE@fleet[0].doors[1].side", []string{"one of REAR, CURB, ROAD", `"LEFT"`}}}},
		{name: "side door past the trailer's end", from: `{"kind": "MULTI_TEMP_REEFER"}`, to: `{"kind": "MULTI_TEMP_REEFER"}, "doors": [{"side": "REAR"}, {"side": "CURB", "fromMM": 15000, "toMM": 16001}]`,
			want: []problem{{"INVALID_VALUE@fleet[0].doors[1].toMM", []string{"toMM 16,001 mm", "beyond the end of the 16,000 mm inside length"}}}},
		{name: "unknown temperature class", from: `"FROZEN"`, to: `"COLD"`,
			want: []problem{{"INVALID_VALUE@pallets[1].temperature", []string{"one of AMBIENT, CHILLED, FROZEN", `"COLD"`}}}},
		{name: "shift start is not an instant", from: `"start": "2026-11-23T04:00:00-06:00"`, to: `"start": "tomorrow"`,
			want: []problem{{"INVALID_VALUE@shifts[0].start", []string{"an RFC 3339 instant", `"tomorrow"`}}}},
		{name: "duration that does not parse", from: `"fixed": "10m"`, to: `"fixed": "tomorrow"`,
			want: []problem{{"INVALID_VALUE@stores[0].unloading.fixed", []string{`a Go duration such as "90s" or a number of seconds`, `"tomorrow"`}}}},
		{name: "duration of the wrong type", from: `"timeLimit": "2s"`, to: `"timeLimit": true`,
			want: []problem{{"INVALID_TYPE@options.timeLimit", []string{"a Go duration", "not true"}}}},
		{name: "unknown objective", from: `"seed": 1`, to: `"seed": 1, "objective": "fastest"`,
			want: []problem{{"INVALID_VALUE@options.objective", []string{"one of trailers, cost, drivers", `"fastest"`}}}},
		{name: "the drivers objective", from: `"seed": 1`, to: `"seed": 1, "objective": "drivers"`},
		{name: "negative DC times and doors, each at its path",
			from: `"loadingPerPallet": "1m"`,
			to:   `"loadingPerPallet": "1m", "loadingFixed": "-1m", "hookTime": "-5m", "trailerTurnaround": -60, "dockDoors": -2, "maxStaging": "-1h"`,
			want: []problem{
				{"INVALID_VALUE@dc.loadingFixed", []string{"loadingFixed -1m0s: must not be negative"}},
				{"INVALID_VALUE@dc.hookTime", []string{"hookTime -5m0s: must not be negative (0 means 15m0s)"}},
				{"INVALID_VALUE@dc.trailerTurnaround", []string{"trailerTurnaround -1m0s: must not be negative (0 means 30m0s)"}},
				{"INVALID_VALUE@dc.maxStaging", []string{"maxStaging -1h0m0s: must not be negative"}},
				{"INVALID_VALUE@dc.dockDoors", []string{"dockDoors -2: must not be negative"}},
			}},
		{name: "dock doors with a fraction", from: `"loadingPerPallet": "1m"`, to: `"loadingPerPallet": "1m", "dockDoors": 2.5`,
			want: []problem{{"INVALID_VALUE@dc.dockDoors", []string{"a whole number of dock doors"}}}},
		{name: "negative staging of a trailer type", from: `"perHour": 30}`, to: `"perHour": 30}, "maxStaging": "-30m"`,
			want: []problem{{"INVALID_VALUE@fleet[0].maxStaging", []string{"maxStaging -30m0s: must not be negative (0 means the DC's)"}}}},
		{name: "negative trips and cost of a shift",
			from: `"end": "2026-11-23T16:00:00-06:00"`, to: `"end": "2026-11-23T16:00:00-06:00", "maxTrips": -1, "cost": -150`,
			want: []problem{
				{"INVALID_VALUE@shifts[0].maxTrips", []string{"maxTrips -1: must not be negative (0 means no limit)"}},
				{"INVALID_VALUE@shifts[0].cost", []string{"cost -150 per shift: must not be negative"}},
			}},
		{name: "shift cost as a string", from: `"end": "2026-11-23T16:00:00-06:00"`, to: `"end": "2026-11-23T16:00:00-06:00", "cost": "cheap"`,
			want: []problem{{"INVALID_TYPE@shifts[0].cost", []string{"an amount of money", `"cheap"`}}}},
		{name: "whole deliveries as a string", from: `"seed": 1`, to: `"seed": 1, "wholeDeliveries": "yes"`,
			want: []problem{{"INVALID_TYPE@options.wholeDeliveries", []string{`not "yes"`}}}},
		{name: "kilograms as a string", from: `"weightKg": 300`, to: `"weightKg": "300"`,
			want: []problem{{"INVALID_TYPE@pallets[1].weightKg", []string{"must be a number of kilograms", `not "300"`}}}},
		{name: "millimetres with a fraction", from: `"heightMM": 1200`, to: `"heightMM": 1200.5`,
			want: []problem{{"INVALID_VALUE@pallets[0].heightMM", []string{"a whole number of millimetres", "1200.5"}}}},
		{name: "equipment kind", from: `"MULTI_TEMP_REEFER"`, to: `"FRIDGE"`,
			want: []problem{{"INVALID_VALUE@fleet[0].equipment.kind", []string{"one of DRY_VAN, REEFER, MULTI_TEMP_REEFER"}}}},
		{name: "footprint name", from: `"HALF"`, to: `"QUARTER"`,
			want: []problem{{"INVALID_VALUE@pallets[1].footprint", []string{"one of STANDARD, HALF"}}}},
		{name: "opening in a day's array", from: `[{"open": "05:00", "close": "12:00"}]`, to: `[{"open": "05:00", "close": "12:00"}, {"open": 6}]`,
			want: []problem{{"INVALID_TYPE@stores[0].hours.days.mon[1].open", []string{"must be a string, not 6"}},
				{"REQUIRED@stores[0].hours.days.mon[1].close", []string{"is required in an opening"}}}},
		{name: "several problems in one document, all reported in document order",
			from: `"id": "P1", "store": "S1", "weightKg": 400, "heightMM": 1200, "temperature": "AMBIENT"`,
			to:   `"id": "P1", "store": "S1", "wieghtKg": 400, "heightMM": "tall", "temperature": "COLD", "heightMM": 3`,
			want: []problem{
				{"UNKNOWN_MEMBER@pallets[0].wieghtKg", nil},
				{"INVALID_TYPE@pallets[0].heightMM", []string{"a whole number of millimetres", `"tall"`}},
				{"INVALID_VALUE@pallets[0].temperature", nil},
				{"DUPLICATE_MEMBER@pallets[0].heightMM", nil},
				{"REQUIRED@pallets[0].weightKg", nil},
			}},
		{name: "Check runs on what decoded, once per bad field",
			from: `"weightKg": 400, "heightMM": 1200`, to: `"weightKg": -4, "heightMM": "x"`,
			want: []problem{
				{"INVALID_TYPE@pallets[0].heightMM", nil},
				{"INVALID_VALUE@pallets[0].weightKg", []string{"weightKg -4 kg: must be more than 0 and at most 1,000,000,000 kg"}},
			}},
		{name: "a store that did not read is no unknown reference",
			from: `"id": "S1", "location"`, to: `"id": 1, "location"`,
			want: []problem{{"INVALID_TYPE@stores[0].id", []string{"must be a string, not 1"}}}},
		{name: "syntax error with line and column", from: `"weightKg": 300,`, to: `"weightKg": 300,,`,
			want: []problem{{"INVALID_JSON@", []string{"line 10, column"}}}},
		{name: "syntax error in a string", from: "", to: "{\"dc\":\n  {\"id\": \"a\x01\"}}",
			want: []problem{{"INVALID_JSON@", []string{"control character", "line 2, column 12"}}}},
		{name: "empty document", from: "", to: "",
			want: []problem{{"INVALID_JSON@", []string{"unexpected end of input", "line 1, column 1"}}}},
		{name: "data after the request", from: "", to: decodeBase + " {}",
			want: []problem{{"INVALID_JSON@", []string{"after the JSON value"}}}},
		{name: "not an object", from: "", to: `[1]`,
			want: []problem{{"INVALID_TYPE@", []string{"must be a planning request, not an array"}}}},
		{name: "null where an object is needed", from: `"location": {"lat": 32.7, "lng": -96.8}`, to: `"location": null`,
			want: []problem{{"INVALID_TYPE@dc.location", []string{`must be a location {"lat", "lng"}, not null`}}}},
		{name: "null dock hours mean always", from: `"loadingPerPallet": "1m"`, to: `"loadingPerPallet": "1m", "dockHours": null`},
		{name: "durations as seconds", from: `"timeLimit": "2s"`, to: `"timeLimit": 2.5`},
		{name: "speed bands", from: `"options"`,
			to: `"travel": {"bands": [{"upToKm": 8, "speedKmh": 30, "circuity": 1.5}, {"speedKmh": 80, "circuity": 1.15}]}, "options"`},
		{name: "speed bands beside a single speed", from: `"options"`,
			to: `"travel": {"speedKmh": 60, "circuity": 1.2, "bands": [{"speedKmh": 80, "circuity": 1.15}]}, "options"`,
			want: []problem{
				{"INVALID_VALUE@travel.speedKmh", []string{"speedKmh 60 km/h: must be left out with bands"}},
				{"INVALID_VALUE@travel.circuity", []string{"circuity 1.2: must be left out with bands"}},
			}},
		{name: "every bad field of the bands at its path", from: `"options"`,
			to: `"travel": {"bands": [{"upToKm": 20, "speedKmh": 0, "circuity": 1.5}, {"upToKm": 10, "speedKmh": 40, "circuity": 0.9},
				{"upToKm": 50, "speedKmh": 30, "circuity": 1.6}, {"upToKm": 70, "speedKmh": 90, "circuity": 1.1}]}, "options"`,
			want: []problem{
				{"INVALID_VALUE@travel.bands[0].speedKmh", []string{"speedKmh 0 km/h: must be more than 0 km/h"}},
				{"INVALID_VALUE@travel.bands[1].upToKm", []string{"upToKm 10 km: must be more than the previous band's 20 km"}},
				{"INVALID_VALUE@travel.bands[1].circuity", []string{"circuity 0.9: must be at least 1"}},
				{"INVALID_VALUE@travel.bands[2].speedKmh", []string{"speedKmh 30 km/h: must be at least the previous band's 40 km/h"}},
				{"INVALID_VALUE@travel.bands[3].upToKm", []string{"upToKm 70 km: must be left out on the last band"}},
			}},
		{name: "a band's members read and required", from: `"options"`,
			to: `"travel": {"bands": [{"upToKm": "far", "speedKmh": 30}, {"speedKmh": 80, "circuity": 1.15, "km": 3}]}, "options"`,
			want: []problem{
				{"INVALID_TYPE@travel.bands[0].upToKm", []string{"a great-circle distance in km", `"far"`}},
				{"REQUIRED@travel.bands[0].circuity", []string{"is required in a speed band"}},
				{"UNKNOWN_MEMBER@travel.bands[1].km", []string{"not a member of a speed band"}},
			}},
		{name: "bands not an array", from: `"options"`, to: `"travel": {"bands": {"speedKmh": 80}}, "options"`,
			want: []problem{{"INVALID_TYPE@travel.bands", []string{"an array of speed bands"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := c.to
			if c.from != "" {
				if !strings.Contains(decodeBase, c.from) {
					t.Fatalf("%q is not in the base request", c.from)
				}
				doc = strings.Replace(decodeBase, c.from, c.to, 1)
			}
			_, err := DecodeRequest(strings.NewReader(doc))
			vs := constraints.AsViolations(err)
			if err != nil && vs == nil {
				t.Fatalf("not a Violations: %v", err)
			}
			if len(vs) != len(c.want) {
				t.Fatalf("got %d violations, want %d:\n%v", len(vs), len(c.want), err)
			}
			for i, w := range c.want {
				v := vs[i]
				if v.Code+"@"+v.Path != w.at {
					t.Errorf("violation %d is %s@%s, want %s", i, v.Code, v.Path, w.at)
				}
				for _, word := range w.words {
					if !strings.Contains(v.Message, word) {
						t.Errorf("%s: message %q lacks %q", w.at, v.Message, word)
					}
				}
				for _, goType := range []string{"float64", "int64", "time.Duration", "string into", "json:"} {
					if strings.Contains(v.Message, goType) {
						t.Errorf("%s: message %q speaks Go (%s)", w.at, v.Message, goType)
					}
				}
			}
		})
	}
}

// fullRequest is a valid request that holds every member of the JSON
// form, for TestRequiredMembers to leave out one at a time.
const fullRequest = `{
  "dc": {"id": "DC", "name": "Lancaster", "location": {"lat": 32.59, "lng": -96.75}, "timeZone": "America/Chicago",
         "dockHours": {"timeZone": "America/Chicago", "days": {"mon": [{"open": "01:00", "close": "22:00"}]}, "closedDates": ["2026-11-26"]},
         "loadingPerPallet": "90s", "loadingFixed": "10m", "hookTime": "12m", "trailerTurnaround": "40m", "dockDoors": 8, "maxStaging": "6h"},
  "stores": [{"id": "S1", "name": "Downtown", "location": {"lat": 32.77, "lng": -96.79},
              "hours": {"timeZone": "America/Chicago", "days": {"mon": [{"open": "05:00", "close": "12:00"}]}, "closedDates": ["2026-11-26"]},
              "unloading": {"fixed": "15m", "perPallet": "2m"}, "maxTrailerLengthMM": 16200}],
  "pallets": [{"id": "P1", "store": "S1", "weightKg": 400, "volumeM3": 1.5, "footprint": {"lengthMM": 1219, "widthMM": 1016},
               "heightMM": 1200, "temperature": "AMBIENT", "mayBeStacked": true, "mayCarry": true}],
  "fleet": [{"id": "T", "name": "53 ft reefer", "count": 2, "lengthMM": 16154,
             "inside": {"lengthMM": 15850, "widthMM": 2489, "heightMM": 2591}, "palletPositions": 30, "payloadKg": 19950, "volumeM3": 100,
             "equipment": {"kind": "REEFER", "maxZones": 1}, "doors": [{"side": "REAR"}, {"side": "CURB", "fromMM": 100, "toMM": 2500}],
             "axles": {"kingpinMM": 914, "axleGroupMM": 12480, "tareKg": 6800, "tareCentreMM": 8000, "kingpinLimitKg": 11300, "axleGroupLimitKg": 15422},
             "costs": {"fixed": 220, "perKm": 1.45, "perHour": 38}, "maxStaging": "4h"}],
  "shifts": [{"id": "D1", "start": "2026-11-23T04:00:00-06:00", "end": "2026-11-23T16:00:00-06:00",
              "limits": {"maxDriving": "10h", "maxDuty": "13h", "breakAfterDriving": "8h", "breakDuration": "30m"},
              "maxTrips": 3, "cost": 240}],
  "hoursOfService": {"maxDriving": "11h", "maxDuty": "14h", "breakAfterDriving": "8h", "breakDuration": "30m"},
  "travel": {"speedKmh": 55, "circuity": 1.3, "profile": [{"from": "06:30", "to": "09:00", "factor": 0.6, "days": ["mon", "fri"]}]},
  "options": {"timeLimit": "2s", "iterations": 100, "seed": 1, "streams": 2, "objective": "cost", "wholeDeliveries": true, "workers": 1}
}`

// TestRequiredMembers leaves out each member of a request that has every
// member, one at a time: a member a plan's legality depends on is
// REQUIRED at its path, and leaving out any other gives a request that
// reads and checks. The map below is the list of required members.
func TestRequiredMembers(t *testing.T) {
	required := []string{
		"dc", "dc.id", "dc.location", "dc.location.lat", "dc.location.lng", "dc.loadingPerPallet",
		"dc.dockHours.days", "dc.dockHours.days.mon[0].open", "dc.dockHours.days.mon[0].close",
		"stores[0].id", "stores[0].location", "stores[0].location.lat", "stores[0].location.lng",
		"stores[0].hours", "stores[0].hours.days", "stores[0].hours.days.mon[0].open", "stores[0].hours.days.mon[0].close",
		"stores[0].unloading", "stores[0].unloading.fixed", "stores[0].unloading.perPallet",
		"pallets[0].id", "pallets[0].store", "pallets[0].weightKg", "pallets[0].footprint",
		"pallets[0].footprint.lengthMM", "pallets[0].footprint.widthMM", "pallets[0].heightMM", "pallets[0].temperature",
		"fleet[0].id", "fleet[0].count", "fleet[0].inside", "fleet[0].inside.lengthMM",
		"fleet[0].inside.widthMM", "fleet[0].inside.heightMM", "fleet[0].palletPositions", "fleet[0].payloadKg",
		"fleet[0].equipment", "fleet[0].equipment.kind", "fleet[0].axles", "fleet[0].axles.kingpinMM",
		"fleet[0].axles.axleGroupMM", "fleet[0].axles.tareKg", "fleet[0].axles.tareCentreMM",
		"fleet[0].axles.kingpinLimitKg", "fleet[0].axles.axleGroupLimitKg", "fleet[0].costs",
		"fleet[0].doors[0].side", "fleet[0].doors[1].side", "fleet[0].doors[1].toMM",
		"shifts[0].id", "shifts[0].start", "shifts[0].end",
		// Required as soon as there is a pallet.
		"fleet", "shifts",
		// Required of hours that state an opening or a closed date.
		"dc.dockHours.timeZone", "stores[0].hours.timeZone",
		// Required when a store limits the trailer length.
		"fleet[0].lengthMM",
		// A rush period's clock times and factor.
		"travel.profile[0].from", "travel.profile[0].to", "travel.profile[0].factor",
	}
	want := map[string][]string{ // member left out → the violations, code@path
		// Not required, but the pallet's store is then no store.
		"stores": {"UNKNOWN_REFERENCE@pallets[0].store"},
	}
	for _, at := range required {
		want[at] = []string{"REQUIRED@" + at}
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(fullRequest), &doc); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeRequest(strings.NewReader(fullRequest)); err != nil {
		t.Fatalf("the full request: %v", err)
	}
	tried := map[string]bool{}
	var leaveOut func(path string, v any)
	leaveOut = func(path string, v any) {
		switch v := v.(type) {
		case []any:
			for i, e := range v {
				leaveOut(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			for name, member := range v {
				at := name
				if path != "" {
					at = path + "." + name
				}
				delete(v, name)
				b, err := json.Marshal(doc)
				v[name] = member
				if err != nil {
					t.Fatal(err)
				}
				tried[at] = true
				var got []string
				_, err = DecodeRequest(bytes.NewReader(b))
				for _, v := range constraints.AsViolations(err) {
					got = append(got, v.Code+"@"+v.Path)
				}
				if !slices.Equal(got, want[at]) {
					t.Errorf("without %s: got %v, want %v", at, err, want[at])
				}
				leaveOut(at, member)
			}
		}
	}
	leaveOut("", doc)
	for at := range want {
		if !tried[at] {
			t.Errorf("%s is not in the full request", at)
		}
	}
}

// TestDecodeRequestGroupsRepeats: one misspelt member on 400 pallets is
// one entry (with the required member it leaves absent, another), and
// the document's other problem stays in view.
func TestDecodeRequestGroupsRepeats(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "P%d", "store": "S1", "weightkg": 400, "heightMM": 1200, "temperature": "AMBIENT", "footprint": "STANDARD"}`, i)
	}
	doc := strings.Replace(decodeBase, decodeBase[strings.Index(decodeBase, `"pallets": [`):strings.Index(decodeBase, `"fleet": [`)],
		`"pallets": [`+b.String()+"],\n  ", 1)
	doc = strings.Replace(doc, `"end": "2026-11-23T16:00:00-06:00"`, `"end": "2026-11-23T03:30:00-06:00"`, 1)
	_, err := DecodeRequest(strings.NewReader(doc))
	var got []string
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+" "+v.Path+": "+v.Message)
	}
	want := []string{
		`UNKNOWN_MEMBER pallets[0..399].weightkg: is not a member of a pallet; did you mean "weightKg"? (400 times)`,
		`REQUIRED pallets[0..399].weightKg: is required in a pallet (400 times)`,
		`INVALID_VALUE shifts[0].end: end 03:30 is before start 04:00`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDecodeRequestCapsViolations: a document with very many different
// problems lists MaxViolations entries and counts the violations left
// out; a repeat found past the cap still joins its entry.
func TestDecodeRequestCapsViolations(t *testing.T) {
	var b strings.Builder
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "P%d", "store": "S1", "weightkg": 1, "x%d": 1, "heightMM": 1000, "temperature": "AMBIENT", "footprint": "HALF"}`, i, i)
	}
	doc := strings.Replace(decodeBase, decodeBase[strings.Index(decodeBase, `"pallets": [`):strings.Index(decodeBase, `"fleet": [`)],
		`"pallets": [`+b.String()+"],\n  ", 1)
	_, err := DecodeRequest(strings.NewReader(doc))
	vs := constraints.AsViolations(err)
	if len(vs) != MaxViolations+1 {
		t.Fatalf("%d violations", len(vs))
	}
	// Per pallet: weightkg (one entry for all), x<i> (one each), weightKg
	// absent (one entry for all): 3 + 97 entries listed, 52 x<i> left out.
	if last := vs[len(vs)-1]; last.Code != CodeTooManyViolations || last.Message != "and 52 more violations not listed" {
		t.Fatalf("last entry %v", last)
	}
	if vs[0].Path != "pallets[0..149].weightkg" || vs[1].Path != "pallets[0].x0" || vs[2].Path != "pallets[0..149].weightKg" || vs[99].Path != "pallets[97].x97" {
		t.Fatalf("entries 0, 1, 2 and 99 at %s, %s, %s and %s", vs[0].Path, vs[1].Path, vs[2].Path, vs[99].Path)
	}
}

// TestDurationsAreGoTypes: a request's durations are time.Duration values,
// read from strings or seconds and written as strings.
func TestDurationsAreGoTypes(t *testing.T) {
	doc := strings.Replace(decodeBase, `"loadingPerPallet": "1m"`,
		`"loadingPerPallet": "1m", "loadingFixed": 300, "hookTime": "10m", "trailerTurnaround": "45m", "maxStaging": "2h"`, 1)
	doc = strings.Replace(doc, `"perHour": 30}`, `"perHour": 30}, "maxStaging": "90m"`, 1)
	req, err := DecodeRequest(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if req.DC.LoadingFixed != 5*time.Minute || req.DC.HookTime != 10*time.Minute || req.DC.TrailerTurnaround != 45*time.Minute ||
		req.DC.MaxStaging != 2*time.Hour || req.Fleet[0].MaxStaging != 90*time.Minute {
		t.Fatalf("DC times %+v, trailer staging %v", req.DC, req.Fleet[0].MaxStaging)
	}
	if req.DC.LoadingPerPallet != time.Minute || req.Stores[0].Unloading.PerPallet != time.Minute ||
		req.Stores[0].Unloading.Fixed != 10*time.Minute || req.Options.TimeLimit != 2*time.Second {
		t.Fatalf("durations %+v %+v %+v", req.DC, req.Stores[0].Unloading, req.Options)
	}
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"loadingPerPallet":"1m0s"`, `"loadingFixed":"5m0s"`, `"hookTime":"10m0s"`, `"trailerTurnaround":"45m0s"`,
		`"maxStaging":"2h0m0s"`, `"maxStaging":"1h30m0s"`, `"fixed":"10m0s"`, `"perPallet":"1m0s"`, `"timeLimit":"2s"`,
		`"footprint":"HALF"`, `"temperature":"FROZEN"`, `"kind":"MULTI_TEMP_REEFER"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
	back, err := DecodeRequest(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("written request does not read back: %v", err)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(out, again) {
		t.Fatalf("round trip:\n%s\n%s", out, again)
	}
	var viaJSON Request
	if err := json.Unmarshal(out, &viaJSON); err != nil || !reflect.DeepEqual(viaJSON, back) {
		t.Fatalf("json.Unmarshal: %v", err)
	}
}

// TestJSONTablesMatchStructTags: every member the readers list is a field
// of its Go type under the same JSON name, and every field with a JSON
// name is read, so that reading and json.Marshal cannot drift apart.
func TestJSONTablesMatchStructTags(t *testing.T) {
	check := func(typ reflect.Type, names []string) {
		t.Helper()
		var tags []string
		for f := range typ.Fields() {
			tag := strings.Split(f.Tag.Get("json"), ",")[0]
			if tag == "-" || !f.IsExported() {
				continue
			}
			tags = append(tags, tag)
		}
		if !slices.Equal(tags, names) {
			t.Errorf("%v: struct tags %v, reader %v", typ, tags, names)
		}
	}
	names := func(ms any) []string {
		var out []string
		v := reflect.ValueOf(ms).Elem().FieldByName("Members")
		for i := range v.Len() {
			out = append(out, v.Index(i).FieldByName("Name").String())
		}
		return out
	}
	for _, c := range []struct {
		zero any
		obj  any
	}{
		{Request{}, requestObject}, {Options{}, optionsObject}, {geo.Point{}, pointObject}, {DC{}, dcObject},
		{constraints.WeeklyHours{}, weeklyHoursObject}, {constraints.Opening{}, openingObject},
		{Store{}, storeObject}, {Unloading{}, unloadingObject}, {Pallet{}, palletObject}, {Footprint{}, footprintObject},
		{TrailerType{}, trailerObject}, {Dimensions{}, dimensionsObject}, {constraints.Equipment{}, equipmentObject}, {constraints.Door{}, doorObject},
		{constraints.AxleGeometry{}, axlesObject}, {Costs{}, costsObject}, {constraints.Shift{}, shiftObject},
		{constraints.HoursOfService{}, hoursOfServiceObject}, {geo.TravelModel{}, travelObject}, {geo.SpeedBand{}, speedBandObject}, {rushPeriodWire{}, rushPeriodObject},
		{Result{}, resultObject}, {Route{}, routeObject}, {Stop{}, stopObject}, {Break{}, breakObject}, {LoadPlan{}, loadPlanObject},
		{Zone{}, zoneObject}, {Placement{}, placementObject}, {AxleLoad{}, axleLoadObject},
		{Unassigned{}, unassignedObject}, {RouteMetrics{}, routeMetricsObject}, {Metrics{}, metricsObject},
		{PlanChanges{}, planChangesObject}, {StoreChange{}, storeChangeObject}, {Lock{}, lockObject}, {RouteRef{}, routeRefObject}, {ChangeMetrics{}, changeMetricsObject},
	} {
		check(reflect.TypeOf(c.zero), names(c.obj))
	}
}

// TestPlanRoundTrip: a plan written by json.Marshal reads back equal, with
// its durations.
func TestPlanRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 23, 4, 0, 0, 0, time.UTC)
	p := Result{
		Routes: []Route{{ID: "R1", Trailer: "T", Shift: "X", Trip: 2, TrailerUnit: "T-03", DockDoor: 4,
			LoadingStart: at.Add(-time.Hour), LoadingEnd: at.Add(-30 * time.Minute), Start: at, Depart: at.Add(time.Minute), Return: at.Add(time.Hour),
			Stops: []Stop{{Store: "S", Arrival: at.Add(20 * time.Minute), Start: at.Add(25 * time.Minute), Departure: at.Add(30 * time.Minute),
				Wait: 5 * time.Minute, Pallets: []string{"P"}}},
			Load: LoadPlan{Zones: []Zone{{Temperature: constraints.Frozen, LastRow: 2, ToMM: 3000}},
				Placements: []Placement{{Pallet: "P", Side: "LEFT", XMM: 10}, {Pallet: "H", Side: "RIGHT", XMM: 10, Slot: 1}}, Axles: []AxleLoad{{AfterStop: -1, KingpinKg: 5000.5}}},
			Metrics: RouteMetrics{Stops: 1, Duration: time.Hour, Driving: 40 * time.Minute, Wait: 5 * time.Minute, PosUtil: 0.5}}},
		Unassigned: []Unassigned{{Pallet: "Q", Store: "S", Reason: ReasonCapacity, Message: "too heavy"}},
		Metrics: Metrics{Routes: 1, Duration: time.Hour, Driving: 40 * time.Minute, Wait: 90 * time.Second, TrailersLowerBound: 1,
			ShiftsUsed: 1, TrailerUnitsUsed: 1, PeakDockDoors: 1},
	}
	out, err := MarshalIndent(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"wait": "5m0s"`, `"duration": "1h0m0s"`, `"wait": "1m30s"`, `"temperature": "FROZEN"`,
		`"trip": 2`, `"trailerUnit": "T-03"`, `"dockDoor": 4`, `"loadingStart": "2026-11-23T03:00:00Z"`, `"loadingEnd": "2026-11-23T03:30:00Z"`,
		`"shiftsUsed": 1`, `"trailerUnitsUsed": 1`, `"peakDockDoors": 1`, `"slot": 1`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("plan lacks %s:\n%s", want, out)
		}
	}
	back, err := DecodePlan(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, p) {
		t.Fatalf("round trip:\n%+v\n%+v", back, p)
	}
	_, err = DecodePlan(strings.NewReader(`{"routes":[{"stops":[{"wait":"soon"}]}],"metrics":{"Routes":1}}`))
	got := []string{}
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+"@"+v.Path)
	}
	if want := []string{"INVALID_VALUE@routes[0].stops[0].wait", "UNKNOWN_MEMBER@metrics.Routes"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
