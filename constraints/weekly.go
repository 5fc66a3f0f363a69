package constraints

import "time"

// The helpers in this file build WeeklyHours for the common cases without
// writing the day keys of the JSON form by hand. They check nothing: a bad
// zone or clock time is reported by Check (and so by engine's request
// check) with its path, as for hours decoded from JSON.

// Daily returns hours with the same opening every day of the week, from
// open to close ("HH:MM" local wall-clock times, close may be "24:00", a
// close at or before open crosses midnight) in the IANA time zone tz ("UTC"
// for UTC: a request's Check requires a zone). For example a store that receives from 05:00 to 12:00:
//
//	constraints.Daily("America/Chicago", "05:00", "12:00")
func Daily(tz, open, close string) WeeklyHours {
	days := make(map[string][]Opening, 7)
	for _, d := range dayKeys {
		days[d] = []Opening{{Open: open, Close: close}}
	}
	return WeeklyHours{TimeZone: tz, Days: days}
}

// Weekly returns hours with the openings of each weekday given by days; a
// weekday missing from days is closed. For example a store that receives
// on weekdays and on Saturday morning:
//
//	constraints.Weekly("America/Chicago", map[time.Weekday][]constraints.Opening{
//		time.Monday: {{Open: "05:00", Close: "12:00"}},
//		...
//		time.Saturday: {{Open: "06:00", Close: "10:00"}},
//	})
func Weekly(tz string, days map[time.Weekday][]Opening) WeeklyHours {
	h := WeeklyHours{TimeZone: tz, Days: make(map[string][]Opening, len(days))}
	for wd, os := range days {
		if wd >= time.Sunday && wd <= time.Saturday && len(os) > 0 {
			h.Days[dayKeys[wd]] = append([]Opening(nil), os...)
		}
	}
	return h
}

// On returns a copy of h whose openings on day are the given ones (none:
// closed that day, which ClosedOn says more plainly); h itself is not
// changed. It turns Daily into the usual exceptions:
//
//	constraints.Daily("America/Chicago", "05:00", "12:00").
//		On(time.Saturday, constraints.Opening{Open: "06:00", Close: "10:00"}).
//		ClosedOn(time.Sunday)
func (h WeeklyHours) On(day time.Weekday, openings ...Opening) WeeklyHours {
	days := cloneDays(h.Days)
	if days == nil {
		days = make(map[string][]Opening, 1)
	}
	key := dayKeys[((day%7)+7)%7]
	if len(openings) == 0 {
		delete(days, key)
	} else {
		days[key] = append([]Opening(nil), openings...)
	}
	h.Days = days
	h.ClosedDates = append([]string(nil), h.ClosedDates...)
	return h
}

// ClosedOn returns a copy of h that is closed on the given days of every
// week; h itself is not changed. Daily(...).ClosedOn(time.Sunday) is open
// every day but Sundays.
func (h WeeklyHours) ClosedOn(days ...time.Weekday) WeeklyHours {
	for _, d := range days {
		h = h.On(d)
	}
	return h
}

// Closing returns a copy of h that is also closed on the given local dates
// ("2006-01-02", see WeeklyHours.ClosedDates); h itself is not changed.
func (h WeeklyHours) Closing(dates ...string) WeeklyHours {
	h.Days = cloneDays(h.Days)
	h.ClosedDates = append(append([]string(nil), h.ClosedDates...), dates...)
	return h
}

func cloneDays(days map[string][]Opening) map[string][]Opening {
	if days == nil {
		return nil
	}
	out := make(map[string][]Opening, len(days))
	for k, os := range days {
		out[k] = append([]Opening(nil), os...)
	}
	return out
}
