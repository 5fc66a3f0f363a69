package engine

import (
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// The rules in this file say what a request means: how long a stop or a
// loading takes, what a route costs, which hours-of-service limits bind a
// shift. The planner, Validate and the reports read them alike, so that
// they can disagree only about a plan, never about the request.

// ShiftLimits returns the hours-of-service limits of shift i, field by
// field: the shift's own limit where it states one, else the request's
// HoursOfService, else the US default (constraints.HoursOfService's
// WithDefaults).
func (r *Request) ShiftLimits(i int) constraints.HoursOfService {
	h := r.HoursOfService
	if l := r.Shifts[i].Limits; l != nil {
		pick := func(own, fallback time.Duration) time.Duration {
			if own != 0 {
				return own
			}
			return fallback
		}
		h = constraints.HoursOfService{
			MaxDriving:    pick(l.MaxDriving, h.MaxDriving),
			MaxDuty:       pick(l.MaxDuty, h.MaxDuty),
			BreakAfter:    pick(l.BreakAfter, h.BreakAfter),
			BreakDuration: pick(l.BreakDuration, h.BreakDuration),
		}
	}
	return h.WithDefaults()
}

// Time is how long a stop that unloads n pallets takes: Fixed once, plus
// PerPallet for each pallet.
func (u Unloading) Time(n int) time.Duration {
	return u.Fixed + time.Duration(n)*u.PerPallet
}

// LoadingTime is how long loading n pallets onto a trailer at the DC takes.
func (dc DC) LoadingTime(n int) time.Duration {
	return time.Duration(n) * dc.LoadingPerPallet
}

// Route is the cost of a route that drives distanceM metres and lasts
// duration from loading start to return: Fixed + PerKm × km + PerHour ×
// hours.
func (c Costs) Route(distanceM float64, duration time.Duration) float64 {
	return c.Fixed + c.PerKm*distanceM/1000 + c.PerHour*duration.Hours()
}
