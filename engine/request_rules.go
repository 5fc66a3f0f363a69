package engine

import (
	"fmt"
	"strconv"
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

// LoadingTime is how long loading n pallets onto a trailer at the DC
// takes: LoadingFixed once, plus LoadingPerPallet for each pallet.
func (dc DC) LoadingTime(n int) time.Duration {
	return dc.LoadingFixed + time.Duration(n)*dc.LoadingPerPallet
}

// HookTime is the least time from a trip's start (the driver comes on
// duty) to its departure: DC.HookTime, or DefaultHookTime when zero.
func (r *Request) HookTime() time.Duration {
	if r.DC.HookTime > 0 {
		return r.DC.HookTime
	}
	return DefaultHookTime
}

// Turnaround is the least time from a trailer unit's return to the start
// of its next loading: DC.TrailerTurnaround, or DefaultTrailerTurnaround
// when zero.
func (r *Request) Turnaround() time.Duration {
	if r.DC.TrailerTurnaround > 0 {
		return r.DC.TrailerTurnaround
	}
	return DefaultTrailerTurnaround
}

// StagingLimit is the longest a loaded trailer of type t may wait between
// the end of its loading and the trip's start: the type's MaxStaging when
// set, else the DC's (0: none).
func (r *Request) StagingLimit(t TrailerType) time.Duration {
	if t.MaxStaging > 0 {
		return t.MaxStaging
	}
	return r.DC.MaxStaging
}

// UnitID names unit n (1…Count) of the trailer type: the type's ID, a
// hyphen and n in two digits, or as many as Count has when it has more
// ("DRY53-04", "REEF-117" of 150).
func (t TrailerType) UnitID(n int) string {
	digits := max(2, len(strconv.Itoa(t.Count)))
	return fmt.Sprintf("%s-%0*d", t.ID, digits, n)
}

// Route is the cost of a route that drives distanceM metres and lasts
// duration from its start (the driver comes on duty) to its return:
// Fixed + PerKm × km + PerHour × hours.
func (c Costs) Route(distanceM float64, duration time.Duration) float64 {
	return c.Fixed + c.PerKm*distanceM/1000 + c.PerHour*duration.Hours()
}
