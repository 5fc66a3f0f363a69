package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// profileRequest is decodeBase with the DC's zone and the travel profile
// given.
func profileRequest(zone, profile string) string {
	doc := decodeBase
	if zone != "" {
		doc = strings.Replace(doc, `"loadingPerPallet": "1m"`, `"loadingPerPallet": "1m", "timeZone": `+zone, 1)
	}
	return strings.Replace(doc, `"options"`, `"travel": {"profile": `+profile+`}, "options"`, 1)
}

// TestDecodeRushHours: a travel profile reads into Request.RushHours,
// clock times and days as given, and json.Marshal writes it back as
// "travel"."profile" in the same form.
func TestDecodeRushHours(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(profileRequest(`"America/Chicago"`,
		`[{"from": "06:30", "to": "09:00", "factor": 0.6, "days": ["mon", "tue", "wed", "thu", "fri"]}, {"from": "15:30", "to": "24:00", "factor": 0.65}]`)))
	if err != nil {
		t.Fatal(err)
	}
	want := geo.RushHours{
		{From: 6*time.Hour + 30*time.Minute, To: 9 * time.Hour, Factor: 0.6,
			Days: []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}},
		{From: 15*time.Hour + 30*time.Minute, To: 24 * time.Hour, Factor: 0.65},
	}
	if !reflect.DeepEqual(req.RushHours, want) || req.DC.TimeZone != "America/Chicago" {
		t.Fatalf("profile %+v, zone %q", req.RushHours, req.DC.TimeZone)
	}
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"profile":[{"from":"06:30","to":"09:00","factor":0.6,"days":["mon","tue","wed","thu","fri"]},{"from":"15:30","to":"24:00","factor":0.65}]`) {
		t.Errorf("written as %s", out)
	}
	back, err := DecodeRequest(strings.NewReader(string(out)))
	if err != nil || !reflect.DeepEqual(back.RushHours, want) {
		t.Fatalf("read back: %v, %+v", err, back.RushHours)
	}
}

// TestDecodeRushHoursProblems: every problem of a travel profile is
// reported at its path, the reader's and Check's alike, and a profile
// needs the DC's zone.
func TestDecodeRushHoursProblems(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want []problem
	}{
		{"no zone for the profile's clock", profileRequest("", `[{"from": "06:30", "to": "09:00", "factor": 0.6}]`),
			[]problem{{"REQUIRED@dc.timeZone", []string{"required with a travel profile", "dc.dockHours.timeZone"}}}},
		{"the dock hours' zone is the DC's",
			strings.Replace(profileRequest("", `[{"from": "06:30", "to": "09:00", "factor": 0.6}]`), `"loadingPerPallet": "1m"`,
				`"loadingPerPallet": "1m", "dockHours": {"timeZone": "America/Chicago", "days": {"mon": [{"open": "00:00", "close": "24:00"}]}}`, 1), nil},
		{"a zone that does not load", profileRequest(`"Mars/Olympus"`, `[{"from": "06:30", "to": "09:00", "factor": 0.6}]`),
			[]problem{{"INVALID_TIMEZONE@dc.timeZone", []string{`"Mars/Olympus"`}}}},
		{"not an array", profileRequest(`"UTC"`, `{"from": "06:30"}`),
			[]problem{{"INVALID_TYPE@travel.profile", []string{"an array of rush periods"}}}},
		{"every problem at its path", profileRequest(`"America/Chicago"`,
			`[{"from": "6:30", "to": "25:00", "factor": 1.5, "days": ["mon", "xyz", "mon"]}, {"from": "07:00", "to": "08:00", "factor": 0.05},
			  {"to": "10:00", "factor": "slow", "during": 1}, {"from": "07:30", "to": "09:00", "factor": 0.7, "days": ["tue"]}]`),
			[]problem{
				{"INVALID_VALUE@travel.profile[0].from", []string{`"HH:MM"`, `"6:30"`}},
				{"INVALID_VALUE@travel.profile[0].to", []string{`"25:00"`}},
				{"INVALID_VALUE@travel.profile[0].days[1]", []string{"one of sun, mon", `"xyz"`}},
				{"INVALID_TYPE@travel.profile[2].factor", []string{"a share of free-flow speed", `"slow"`}},
				{"UNKNOWN_MEMBER@travel.profile[2].during", []string{"not a member of a rush period"}},
				{"REQUIRED@travel.profile[2].from", []string{"is required in a rush period"}},
				{"INVALID_VALUE@travel.profile[0].factor", []string{"factor 1.5: must be at most 1"}},
				{"INVALID_VALUE@travel.profile[0].days[2]", []string{"listed twice"}},
				{"INVALID_VALUE@travel.profile[1].factor", []string{"factor 0.05: must be at least 0.1"}},
				{"INVALID_VALUE@travel.profile[3]", []string{"07:30 to 09:00 overlaps travel.profile[1], 07:00 to 08:00, on Tuesday"}},
				{"INVALID_VALUE@travel.profile[3]", []string{"overlaps travel.profile[2]"}},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeRequest(strings.NewReader(c.doc))
			vs := constraints.AsViolations(err)
			if err != nil && vs == nil {
				t.Fatalf("not a Violations: %v", err)
			}
			if len(vs) != len(c.want) {
				t.Fatalf("got %d violations, want %d:\n%v", len(vs), len(c.want), err)
			}
			for i, w := range c.want {
				if got := vs[i].Code + "@" + vs[i].Path; got != w.at {
					t.Errorf("violation %d is %s, want %s", i, got, w.at)
				}
				for _, word := range w.words {
					if !strings.Contains(vs[i].Message, word) {
						t.Errorf("%s: message %q lacks %q", w.at, vs[i].Message, word)
					}
				}
			}
		})
	}
}

// TestCheckRushHoursInGo: a Go caller's profile with seconds in a clock
// time, which the JSON form cannot write, is reported at its path.
func TestCheckRushHoursInGo(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(profileRequest(`"UTC"`, `[{"from": "06:30", "to": "09:00", "factor": 0.6}]`)))
	if err != nil {
		t.Fatal(err)
	}
	req.RushHours[0].To = 9*time.Hour + 15*time.Second
	vs := constraints.AsViolations(req.Check())
	if len(vs) != 1 || vs[0].Path != "travel.profile[0].to" || !strings.Contains(vs[0].Message, "09:00:15: must be a whole minute") {
		t.Fatalf("Check = %v", vs)
	}
}

// rushDay is a day of two stores, each 30 min from the DC and back by the
// road matrix and each with pallets for one trailer: S0 receives only
// from 07:00 to 08:00 UTC, S1 only from 12:00 to 13:00, and a morning
// rush from 06:30 to 09:00 halves travel speed.
func rushDay() Request {
	req := packingRequest(2, 2, []TrailerType{dryVan(2, 26)})
	req.DC.TimeZone = "UTC"
	for i, hours := range [][2]string{{"07:00", "08:00"}, {"12:00", "13:00"}} {
		h := constraints.WeeklyHours{TimeZone: "UTC", Days: map[string][]constraints.Opening{}}
		for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
			h.Days[d] = []constraints.Opening{{Open: hours[0], Close: hours[1]}}
		}
		req.Stores[i].Hours = h
		addPallets(&req, req.Stores[i].ID, constraints.Ambient, 20)
	}
	req.RoadMatrix = roadMatrixOf(req, []string{"DC", "S0", "S1"})
	for _, s := range []string{"S0", "S1"} {
		setLeg(req.RoadMatrix, "DC", s, 30_000, 30*time.Minute)
		setLeg(req.RoadMatrix, s, "DC", 30_000, 30*time.Minute)
	}
	req.RushHours = geo.RushHours{{From: 6*time.Hour + 30*time.Minute, To: 9 * time.Hour, Factor: 0.5}}
	return req
}

// TestPlanThroughRushHours: the trip to S0 drives in the morning rush and
// takes longer than the same 30 min leg to S1 at midday; the plan passes
// Validate, its driving is what its legs take; and Validate rejects the
// plan when a leg in the rush is timed at free flow.
func TestPlanThroughRushHours(t *testing.T) {
	req := rushDay()
	plan := planOK(t, req)
	if len(plan.Unassigned) > 0 || len(plan.Routes) != 2 {
		t.Fatalf("routes %d, unassigned %+v", len(plan.Routes), plan.Unassigned)
	}
	leg := map[string]time.Duration{}
	var rush *Route
	for i := range plan.Routes {
		r := &plan.Routes[i]
		st := r.Stops[0]
		leg[st.Store] = st.Arrival.Sub(r.Depart)
		if got, want := r.Metrics.Driving, st.Arrival.Sub(r.Depart)+r.Return.Sub(st.Departure); got != want {
			t.Errorf("%s: driving %v, its legs take %v", st.Store, got, want)
		}
		if st.Store == "S0" {
			rush = r
		}
	}
	if leg["S1"] != 30*time.Minute {
		t.Errorf("the midday leg to S1 takes %v, want its free-flow 30m0s", leg["S1"])
	}
	// Leaving by 06:30 covers part of the leg at free flow; every minute
	// in the rush covers half a minute of it.
	if leg["S0"] <= 30*time.Minute || leg["S0"] > time.Hour {
		t.Errorf("the leg to S0 in the rush takes %v, want more than 30m0s and at most 1h0m0s", leg["S0"])
	}
	// The way back leaves inside the rush: half speed to 09:00, then
	// free flow.
	dep := rush.Stops[0].Departure
	nine := time.Date(dep.Year(), dep.Month(), dep.Day(), 9, 0, 0, 0, time.UTC)
	if dep.Before(nine) {
		inRush := nine.Sub(dep)
		want := inRush + 30*time.Minute - inRush/2
		if inRush/2 >= 30*time.Minute {
			want = time.Hour
		}
		if back := rush.Return.Sub(dep); back != want {
			t.Errorf("S0's way back, leaving %s inside the rush, takes %v, want %v", dep.Format("15:04"), back, want)
		}
	} else {
		t.Errorf("S0's way back leaves %s, after the rush: the test no longer drives in it", dep.Format("15:04"))
	}

	// The way back from S0 at free flow: a travel time error that names
	// the slow periods.
	broken := clonePlan(t, plan)
	for i := range broken.Routes {
		if r := &broken.Routes[i]; r.Stops[0].Store == "S0" {
			r.Return = r.Stops[0].Departure.Add(30 * time.Minute)
		}
	}
	err := Validate(req, broken)
	if !hasCode(err, CodeTravelTime) || !strings.Contains(err.Error(), "slow periods") {
		t.Errorf("Validate accepts S0's way back at free flow in the rush: %v", err)
	}
	// Without the profile, the plan's legs in the rush are too slow.
	free := req
	free.RushHours = nil
	if !hasCode(Validate(free, plan), CodeTravelTime) {
		t.Errorf("Validate without the profile accepts the plan's slowed legs")
	}
}
