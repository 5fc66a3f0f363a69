package engine

import (
	"bytes"
	"encoding/json"
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
    {"id": "P1", "store": "S1", "weightKg": 400, "heightMM": 1200, "temperature": "AMBIENT"},
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
			want: []problem{{"UNKNOWN_MEMBER@pallets[0].weightkg", []string{"not a member of a pallet", `did you mean "weightKg"`}}}},
		{name: "member name in upper case", from: `"weightKg": 300`, to: `"WEIGHTKG": 300`,
			want: []problem{{"UNKNOWN_MEMBER@pallets[1].WEIGHTKG", []string{`did you mean "weightKg"`}}}},
		{name: "misspelt member has its parent and index", from: `"weightKg": 400`, to: `"wieghtKg": 400`,
			want: []problem{{"UNKNOWN_MEMBER@pallets[0].wieghtKg", []string{`did you mean "weightKg"`}}}},
		{name: "duplicated member", from: `"weightKg": 400`, to: `"weightKg": 400, "weightKg": 500`,
			want: []problem{{"DUPLICATE_MEMBER@pallets[0].weightKg", []string{"more than once"}}}},
		{name: "unknown temperature class", from: `"FROZEN"`, to: `"COLD"`,
			want: []problem{{"INVALID_VALUE@pallets[1].temperature", []string{"one of AMBIENT, CHILLED, FROZEN", `"COLD"`}}}},
		{name: "shift start is not an instant", from: `"start": "2026-11-23T04:00:00-06:00"`, to: `"start": "tomorrow"`,
			want: []problem{{"INVALID_VALUE@shifts[0].start", []string{"an RFC 3339 instant", `"tomorrow"`}}}},
		{name: "duration that does not parse", from: `"fixed": "10m"`, to: `"fixed": "tomorrow"`,
			want: []problem{{"INVALID_VALUE@stores[0].unloading.fixed", []string{`a Go duration such as "90s" or a number of seconds`, `"tomorrow"`}}}},
		{name: "duration of the wrong type", from: `"timeLimit": "2s"`, to: `"timeLimit": true`,
			want: []problem{{"INVALID_TYPE@options.timeLimit", []string{"a Go duration", "not true"}}}},
		{name: "unknown objective", from: `"seed": 1`, to: `"seed": 1, "objective": "fastest"`,
			want: []problem{{"INVALID_VALUE@options.objective", []string{"one of trailers, cost", `"fastest"`}}}},
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
				{"REQUIRED@stores[0].hours.days.mon[1].close", nil}}},
		{name: "several problems in one document, all reported in document order",
			from: `"id": "P1", "store": "S1", "weightKg": 400, "heightMM": 1200, "temperature": "AMBIENT"`,
			to:   `"id": "P1", "store": "S1", "wieghtKg": 400, "heightMM": "tall", "temperature": "COLD", "heightMM": 3`,
			want: []problem{
				{"UNKNOWN_MEMBER@pallets[0].wieghtKg", nil},
				{"INVALID_TYPE@pallets[0].heightMM", []string{"a whole number of millimetres", `"tall"`}},
				{"INVALID_VALUE@pallets[0].temperature", nil},
				{"DUPLICATE_MEMBER@pallets[0].heightMM", nil},
			}},
		{name: "Check runs on what decoded, once per bad field",
			from: `"weightKg": 400, "heightMM": 1200`, to: `"weightKg": -4, "heightMM": "x"`,
			want: []problem{
				{"INVALID_TYPE@pallets[0].heightMM", nil},
				{"INVALID_VALUE@pallets[0].weightKg", []string{"must be in [0"}},
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

// TestDecodeRequestCapsViolations: a document with very many problems
// lists MaxViolations of them and counts the rest.
func TestDecodeRequestCapsViolations(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"pallets":[`)
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"weightkg":1}`)
	}
	b.WriteString(`]}`)
	_, err := DecodeRequest(strings.NewReader(b.String()))
	vs := constraints.AsViolations(err)
	if len(vs) != MaxViolations+1 {
		t.Fatalf("%d violations", len(vs))
	}
	last := vs[len(vs)-1]
	if last.Code != CodeTooManyViolations || !strings.Contains(last.Message, "and ") {
		t.Fatalf("last entry %v", last)
	}
	if vs[99].Path != "pallets[99].weightkg" {
		t.Fatalf("entry 99 at %s", vs[99].Path)
	}
}

// TestDurationsAreGoTypes: a request's durations are time.Duration values,
// read from strings or seconds and written as strings.
func TestDurationsAreGoTypes(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(decodeBase))
	if err != nil {
		t.Fatal(err)
	}
	if req.DC.LoadingPerPallet != time.Minute || req.Stores[0].Unloading.PerPallet != time.Minute ||
		req.Stores[0].Unloading.Fixed != 10*time.Minute || req.Options.TimeLimit != 2*time.Second {
		t.Fatalf("durations %+v %+v %+v", req.DC, req.Stores[0].Unloading, req.Options)
	}
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"loadingPerPallet":"1m0s"`, `"fixed":"10m0s"`, `"perPallet":"1m0s"`, `"timeLimit":"2s"`,
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
		{TrailerType{}, trailerObject}, {Dimensions{}, dimensionsObject}, {constraints.Equipment{}, equipmentObject},
		{constraints.AxleGeometry{}, axlesObject}, {Costs{}, costsObject}, {constraints.Shift{}, shiftObject},
		{constraints.HoursOfService{}, hoursOfServiceObject}, {geo.TravelModel{}, travelObject},
		{Result{}, resultObject}, {Route{}, routeObject}, {Stop{}, stopObject}, {Break{}, breakObject}, {LoadPlan{}, loadPlanObject},
		{Zone{}, zoneObject}, {Placement{}, placementObject}, {AxleLoad{}, axleLoadObject},
		{Unassigned{}, unassignedObject}, {RouteMetrics{}, routeMetricsObject}, {Metrics{}, metricsObject},
	} {
		check(reflect.TypeOf(c.zero), names(c.obj))
	}
}

// TestPlanRoundTrip: a plan written by json.Marshal reads back equal, with
// its durations.
func TestPlanRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 23, 4, 0, 0, 0, time.UTC)
	p := Result{
		Routes: []Route{{ID: "R1", Trailer: "T", Shift: "X", Start: at, Depart: at.Add(time.Minute), Return: at.Add(time.Hour),
			Stops: []Stop{{Store: "S", Arrival: at.Add(20 * time.Minute), Start: at.Add(25 * time.Minute), Departure: at.Add(30 * time.Minute),
				Wait: 5 * time.Minute, Pallets: []string{"P"}}},
			Load: LoadPlan{Zones: []Zone{{Temperature: constraints.Frozen, LastRow: 2, ToMM: 3000}},
				Placements: []Placement{{Pallet: "P", Side: "LEFT", XMM: 10}}, Axles: []AxleLoad{{AfterStop: -1, KingpinKg: 5000.5}}},
			Metrics: RouteMetrics{Stops: 1, Duration: time.Hour, Driving: 40 * time.Minute, Wait: 5 * time.Minute, PosUtil: 0.5}}},
		Unassigned: []Unassigned{{Pallet: "Q", Store: "S", Reason: ReasonCapacity, Message: "too heavy"}},
		Metrics:    Metrics{Routes: 1, Duration: time.Hour, Driving: 40 * time.Minute, Wait: 90 * time.Second, TrailersLowerBound: 1},
	}
	out, err := MarshalIndent(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"wait": "5m0s"`, `"duration": "1h0m0s"`, `"wait": "1m30s"`, `"temperature": "FROZEN"`} {
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
