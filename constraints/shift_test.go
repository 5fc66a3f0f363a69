package constraints

import (
	"encoding/json"
	"testing"
	"time"
)

func TestHoursOfServiceCheck(t *testing.T) {
	h := HoursOfService{}.WithDefaults()
	t0 := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	at := func(h, m int) time.Time { return t0.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	leg := func(h1, m1, h2, m2 int) Leg { return Leg{at(h1, m1), at(h2, m2)} }
	legPath := func(i int) string { return Index("legs", i) }
	tests := []struct {
		name  string
		duty  Duty
		codes []string
	}{
		{"short day", Duty{at(0, 0), at(6, 0), []Leg{leg(0, 30, 2, 0), leg(3, 0, 5, 0)}}, nil},
		{"9 h driving with a 30 min stop after 5 h", Duty{at(0, 0), at(10, 0), []Leg{leg(0, 0, 5, 0), leg(5, 30, 9, 30)}}, nil},
		{"8 h 30 of driving broken only by 20 min", Duty{at(0, 0), at(9, 0), []Leg{leg(0, 0, 5, 0), leg(5, 20, 8, 50)}}, []string{CodeBreakRequired}},
		{"exactly 8 h then a break", Duty{at(0, 0), at(12, 0), []Leg{leg(0, 0, 8, 0), leg(8, 30, 10, 0)}}, nil},
		{"12 h driving", Duty{at(0, 0), at(13, 30), []Leg{leg(0, 0, 6, 0), leg(6, 30, 12, 30)}}, []string{CodeDrivingLimit}},
		{"15 h on duty", Duty{at(0, 0), at(15, 0), []Leg{leg(1, 0, 2, 0)}}, []string{CodeDutyLimit}},
		{"leg before the duty starts", Duty{at(1, 0), at(3, 0), []Leg{leg(0, 0, 2, 0)}}, []string{CodeLegOrder}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vs := h.Validate(tc.duty, "route", legPath)
			if len(vs) != len(tc.codes) {
				t.Fatalf("got %v, want codes %v", vs, tc.codes)
			}
			for _, c := range tc.codes {
				if !vs.Has(c) {
					t.Fatalf("got %v, want code %s", vs, c)
				}
			}
		})
	}
	// Limits are configurable: EU-style 4.5 h / 45 min.
	eu := HoursOfService{MaxDriving: 9 * time.Hour, BreakAfter: 270 * time.Minute, BreakDuration: 45 * time.Minute}.WithDefaults()
	if vs := eu.Validate(Duty{at(0, 0), at(10, 0), []Leg{leg(0, 0, 4, 0), leg(4, 30, 6, 0)}}, "", legPath); !vs.Has(CodeBreakRequired) {
		t.Fatalf("a 30 min stop is no 45 min break: got %v", vs)
	}
}

// TestHoursOfServiceJSON: limits are written as Go duration strings and
// zero limits left out (reading them is engine's request reader's job).
func TestHoursOfServiceJSON(t *testing.T) {
	b, err := json.Marshal(HoursOfService{MaxDriving: 9 * time.Hour, BreakDuration: 45 * time.Minute})
	if err != nil || string(b) != `{"maxDriving":"9h0m0s","breakDuration":"45m0s"}` {
		t.Errorf("marshal: %s, %v", b, err)
	}
	if b, _ := json.Marshal(HoursOfService{}); string(b) != `{}` {
		t.Errorf("zero: %s", b)
	}
}

func TestEquipment(t *testing.T) {
	dry, reefer, multi2 := Equipment{Kind: DryVan}, Equipment{Kind: Reefer}, Equipment{Kind: MultiTempReefer, MaxZones: 2}
	tests := []struct {
		e       Equipment
		classes []Temperature
		ok      bool
	}{
		{dry, []Temperature{Ambient, Ambient}, true},
		{dry, []Temperature{Chilled}, false},
		{reefer, []Temperature{Frozen, Frozen}, true},
		{reefer, []Temperature{Frozen, Chilled}, false},
		{multi2, []Temperature{Frozen, Chilled}, true},
		{multi2, []Temperature{Frozen, Chilled, Ambient}, false},
		{Equipment{Kind: MultiTempReefer}, []Temperature{Frozen, Chilled, Ambient}, true},
	}
	for _, tc := range tests {
		if got := tc.e.CarriesTogether(tc.classes); got != tc.ok {
			t.Errorf("%v carries %v: got %v, want %v", tc.e.Kind, tc.classes, got, tc.ok)
		}
	}
	var tmp Temperature
	if err := json.Unmarshal([]byte(`"LUKEWARM"`), &tmp); err == nil {
		t.Error("unknown class accepted")
	}
	var k EquipmentKind
	if err := json.Unmarshal([]byte(`"MULTI_TEMP_REEFER"`), &k); err != nil || k != MultiTempReefer {
		t.Errorf("kind: %v %v", k, err)
	}
}

func TestViolationsError(t *testing.T) {
	var vs Violations
	if vs.Err() != nil {
		t.Fatal("empty list must be no error")
	}
	vs.Add("A", "x.y", "bad %d", 1)
	vs.Add("B", "", "worse")
	err := vs.Err()
	if err == nil || err.Error() != "2 violations:\n  x.y: bad 1 [A]\n  worse [B]" {
		t.Fatalf("got %q", err)
	}
	if got := AsViolations(err); len(got) != 2 || !got.Has("B") {
		t.Fatalf("AsViolations: %v", got)
	}
}

// TestShiftJSON: a shift writes maxTrips and cost only when set, so that a
// shift without them reads back as one with no trip limit and no cost.
func TestShiftJSON(t *testing.T) {
	start := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	s := Shift{ID: "D1", Start: start, End: start.Add(14 * time.Hour)}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `{"id":"D1","start":"2026-11-24T04:00:00Z","end":"2026-11-24T18:00:00Z"}` {
		t.Errorf("without trips or cost: %s, %v", b, err)
	}
	s.MaxTrips, s.Cost = 3, 180.5
	b, err = json.Marshal(s)
	if err != nil || string(b) != `{"id":"D1","start":"2026-11-24T04:00:00Z","end":"2026-11-24T18:00:00Z","maxTrips":3,"cost":180.5}` {
		t.Errorf("with trips and cost: %s, %v", b, err)
	}
}
