package engine

import (
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// TestShiftLimitsFallBackFieldByField: a shift's own limit wins where it
// states one; a field it leaves zero takes the request's, and a field zero
// in both takes the US default.
func TestShiftLimitsFallBackFieldByField(t *testing.T) {
	hours := func(h int) time.Duration { return time.Duration(h) * time.Hour }
	tests := []struct {
		own  *constraints.HoursOfService
		want constraints.HoursOfService
	}{
		{nil, constraints.HoursOfService{MaxDriving: hours(11), MaxDuty: hours(12), BreakAfter: hours(6), BreakDuration: 30 * time.Minute}},
		{&constraints.HoursOfService{MaxDriving: hours(9)}, constraints.HoursOfService{MaxDriving: hours(9), MaxDuty: hours(12), BreakAfter: hours(6), BreakDuration: 30 * time.Minute}},
		{&constraints.HoursOfService{MaxDuty: hours(13), BreakDuration: hours(1)}, constraints.HoursOfService{MaxDriving: hours(11), MaxDuty: hours(13), BreakAfter: hours(6), BreakDuration: hours(1)}},
		{&constraints.HoursOfService{}, constraints.HoursOfService{MaxDriving: hours(11), MaxDuty: hours(12), BreakAfter: hours(6), BreakDuration: 30 * time.Minute}},
	}
	for _, tc := range tests {
		req := Request{
			HoursOfService: constraints.HoursOfService{MaxDuty: hours(12), BreakAfter: hours(6)},
			Shifts:         []constraints.Shift{{ID: "D1", Limits: tc.own}},
		}
		if got := req.ShiftLimits(0); got != tc.want {
			t.Errorf("shift limits %+v: got %+v, want %+v", tc.own, got, tc.want)
		}
	}
}

// TestRequestTimesAndCosts: a stop, a loading and a route cost what the
// request's figures say.
func TestRequestTimesAndCosts(t *testing.T) {
	if got, want := (Unloading{Fixed: 10 * time.Minute, PerPallet: 2 * time.Minute}).Time(7), 24*time.Minute; got != want {
		t.Errorf("unloading 7 pallets: %v, want %v", got, want)
	}
	if got, want := (DC{LoadingPerPallet: 90 * time.Second}).LoadingTime(20), 30*time.Minute; got != want {
		t.Errorf("loading 20 pallets: %v, want %v", got, want)
	}
	if got, want := (Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}).Route(250_000, 6*time.Hour+30*time.Minute), 150+1.2*250+38*6.5; got != want {
		t.Errorf("route cost: %v, want %v", got, want)
	}
}

// TestDCTimesAndDefaults: loading adds its fixed time once; hook-up and
// turnaround take their defaults when not set and the DC's figure when set;
// a trailer type's own staging limit wins over the DC's; units are named
// with two digits, more when the count needs them.
func TestDCTimesAndDefaults(t *testing.T) {
	dc := DC{LoadingPerPallet: 90 * time.Second, LoadingFixed: 10 * time.Minute}
	if got, want := dc.LoadingTime(20), 40*time.Minute; got != want {
		t.Errorf("loading 20 pallets with 10 min fixed: %v, want %v", got, want)
	}
	req := Request{DC: dc}
	if got := req.HookTime(); got != 15*time.Minute {
		t.Errorf("hook time not set: %v, want 15m", got)
	}
	if got := req.Turnaround(); got != 30*time.Minute {
		t.Errorf("turnaround not set: %v, want 30m", got)
	}
	req.DC.HookTime, req.DC.TrailerTurnaround, req.DC.MaxStaging = 5*time.Minute, time.Hour, 3*time.Hour
	if got := req.HookTime(); got != 5*time.Minute {
		t.Errorf("hook time 5m: %v", got)
	}
	if got := req.Turnaround(); got != time.Hour {
		t.Errorf("turnaround 1h: %v", got)
	}
	if got := req.StagingLimit(TrailerType{}); got != 3*time.Hour {
		t.Errorf("staging of a type without its own: %v, want the DC's 3h", got)
	}
	if got := req.StagingLimit(TrailerType{MaxStaging: time.Hour}); got != time.Hour {
		t.Errorf("staging of a type with 1h: %v", got)
	}
	for _, tc := range []struct {
		count, n int
		want     string
	}{{4, 4, "DRY53-04"}, {99, 12, "DRY53-12"}, {150, 7, "DRY53-007"}} {
		if got := (TrailerType{ID: "DRY53", Count: tc.count}).UnitID(tc.n); got != tc.want {
			t.Errorf("unit %d of %d: %q, want %q", tc.n, tc.count, got, tc.want)
		}
	}
}
