package constraints

import (
	"encoding/json"
	"time"
)

// US hours-of-service defaults for property-carrying drivers (49 CFR 395.3).
const (
	DefaultMaxDriving    = 11 * time.Hour
	DefaultMaxDuty       = 14 * time.Hour
	DefaultBreakAfter    = 8 * time.Hour
	DefaultBreakDuration = 30 * time.Minute
)

// Codes of the violations reported by HoursOfService.Validate.
const (
	CodeDrivingLimit  = "DRIVING_LIMIT"
	CodeDutyLimit     = "DUTY_LIMIT"
	CodeBreakRequired = "BREAK_REQUIRED"
	CodeLegOrder      = "LEG_ORDER"
)

// HoursOfService holds the limits on one duty period. A zero field means
// the US default above. Every number is configurable so that other
// jurisdictions (EU 561/2006: 9 h driving, 45 min break after 4.5 h) can be
// expressed.
type HoursOfService struct {
	MaxDriving    time.Duration `json:"maxDriving,omitempty"`        // total driving in the duty period
	MaxDuty       time.Duration `json:"maxDuty,omitempty"`           // from coming on duty to going off duty
	BreakAfter    time.Duration `json:"breakAfterDriving,omitempty"` // driving allowed without an interruption
	BreakDuration time.Duration `json:"breakDuration,omitempty"`     // shortest interruption that counts as a break
}

// MarshalJSON writes the limits with durations as Go duration strings
// ("11h0m0s") and zero limits left out, the form engine's request reader
// takes. The other fields follow the struct tags.
func (h HoursOfService) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		MaxDriving    string `json:"maxDriving,omitempty"`
		MaxDuty       string `json:"maxDuty,omitempty"`
		BreakAfter    string `json:"breakAfterDriving,omitempty"`
		BreakDuration string `json:"breakDuration,omitempty"`
	}{durationText(h.MaxDriving), durationText(h.MaxDuty), durationText(h.BreakAfter), durationText(h.BreakDuration)})
}

// durationText is d as a Go duration string, "" for zero (left out).
func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// WithDefaults returns h with every zero field set to its US default.
func (h HoursOfService) WithDefaults() HoursOfService {
	def := func(d, v time.Duration) time.Duration {
		if d == 0 {
			return v
		}
		return d
	}
	return HoursOfService{
		MaxDriving:    def(h.MaxDriving, DefaultMaxDriving),
		MaxDuty:       def(h.MaxDuty, DefaultMaxDuty),
		BreakAfter:    def(h.BreakAfter, DefaultBreakAfter),
		BreakDuration: def(h.BreakDuration, DefaultBreakDuration),
	}
}

// Check reports negative limits.
func (h HoursOfService) Check(path string) Violations {
	var vs Violations
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"maxDriving", h.MaxDriving}, {"maxDuty", h.MaxDuty}, {"breakAfterDriving", h.BreakAfter}, {"breakDuration", h.BreakDuration}} {
		if f.d < 0 {
			vs.Add("INVALID_DURATION", Field(path, f.name), "%s %v: must not be negative (0 means the default)", f.name, f.d)
		}
	}
	return vs
}

// Shift is a driver's shift: the driver may come on duty at Start and must
// be off duty by End. ID, Start and End are required. Limits, when set,
// override the request's hours-of-service limits for this driver, field
// by field: a zero field keeps the request's limit (and that one's zero,
// the US default).
//
// A shift may drive several trips one after another, each from the DC back
// to the DC; the hours-of-service limits bind the whole shift as one duty
// period, from the first trip's start to the last trip's return.
type Shift struct {
	ID     string          `json:"id"`
	Start  time.Time       `json:"start"`
	End    time.Time       `json:"end"`
	Limits *HoursOfService `json:"limits,omitempty"`
	// MaxTrips caps the trips the shift drives; 0 (the default) means no
	// limit. It must not be negative.
	MaxTrips int `json:"maxTrips,omitempty"`
	// Cost is what the shift costs once when it drives at all (a driver's
	// day), added to the plan's cost, not to any trip's; 0 by default, never
	// negative. It lets the cost objective weigh drivers against kilometres.
	Cost float64 `json:"cost,omitempty"`
}

// Leg is one uninterrupted drive from Depart to Arrive.
type Leg struct {
	Depart, Arrive time.Time
}

// Duty is one duty period: on duty from Start to End, driving Legs in order.
// Everything between legs (loading, waiting, unloading, resting) is
// on-duty time that is not driving.
type Duty struct {
	Start, End time.Time
	Legs       []Leg
}

// Driving returns the total driving time of the duty.
func (d Duty) Driving() time.Duration {
	var t time.Duration
	for _, l := range d.Legs {
		t += l.Arrive.Sub(l.Depart)
	}
	return t
}

// Validate reports every way the duty breaks the limits (which should have
// defaults applied). The break rule: the driving accumulated since the last
// non-driving period of at least BreakDuration (or since Start), including
// the current leg, must not exceed BreakAfter. legPath(i) names leg i in the
// caller's document for the violation's path.
func (h HoursOfService) Validate(d Duty, path string, legPath func(i int) string) Violations {
	var vs Violations
	if duty := d.End.Sub(d.Start); duty > h.MaxDuty {
		vs.Add(CodeDutyLimit, path, "on duty %v, more than the limit of %v", duty, h.MaxDuty)
	}
	if drive := d.Driving(); drive > h.MaxDriving {
		vs.Add(CodeDrivingLimit, path, "driving %v, more than the limit of %v", drive, h.MaxDriving)
	}
	var since time.Duration
	prev := d.Start
	for i, l := range d.Legs {
		if l.Arrive.Before(l.Depart) || l.Depart.Before(prev) {
			vs.Add(CodeLegOrder, legPath(i), "leg departs %s and arrives %s, out of order", l.Depart.Format(time.RFC3339), l.Arrive.Format(time.RFC3339))
		}
		if i > 0 && l.Depart.Sub(prev) >= h.BreakDuration {
			since = 0
		}
		since += l.Arrive.Sub(l.Depart)
		if since > h.BreakAfter {
			vs.Add(CodeBreakRequired, legPath(i), "%v of driving without a break of %v, more than %v", since, h.BreakDuration, h.BreakAfter)
			since = 0 // report each missing break once
		}
		prev = l.Arrive
	}
	return vs
}
