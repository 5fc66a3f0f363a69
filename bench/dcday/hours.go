package dcday

import (
	"math/rand/v2"

	"github.com/haulplan/haulplan/constraints"
)

var days = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// thanksgiving is closed for every store: outside the generated day, but a
// real store's hours carry it.
const thanksgiving = "2026-11-26"

// stockCount is the Monday before the delivery day: a few stores close for
// a stock count, which drops their Monday-night window.
const stockCount = "2026-11-23"

// receiving returns one of the receiving patterns of grocery stores, with
// weights: early receiving (25 %), weekdays with a short Saturday (15 %),
// a night window across midnight and a morning one (15 %), split windows
// around the lunch rush (15 %), 24 h stores receiving from the night crew
// into the afternoon (20 %), small stores closed Sunday and Monday (10 %).
func receiving(r *rand.Rand) constraints.WeeklyHours {
	h := constraints.WeeklyHours{TimeZone: timeZone, Days: map[string][]constraints.Opening{},
		ClosedDates: []string{thanksgiving}}
	every := func(ds []string, os ...constraints.Opening) {
		for _, d := range ds {
			h.Days[d] = os
		}
	}
	switch u := r.IntN(20); {
	case u < 5:
		every(days, constraints.Opening{Open: "04:00", Close: "12:00"})
	case u < 8:
		every(days[:5], constraints.Opening{Open: "05:00", Close: "14:00"})
		h.Days["sat"] = []constraints.Opening{{Open: "06:00", Close: "10:00"}}
	case u < 11:
		every(days, constraints.Opening{Open: "22:00", Close: "02:00"}, constraints.Opening{Open: "06:00", Close: "11:00"})
		if r.IntN(5) == 0 {
			h.ClosedDates = append(h.ClosedDates, stockCount)
		}
	case u < 14:
		every(days[:6], constraints.Opening{Open: "06:00", Close: "10:30"}, constraints.Opening{Open: "13:30", Close: "17:00"})
	case u < 18:
		every(days, constraints.Opening{Open: "00:00", Close: "16:00"})
	default:
		every(days[1:6], constraints.Opening{Open: "07:00", Close: "15:00"})
	}
	return h
}

// dockHours are the DC's: loading starts at any time but in the hour and a
// half of the noon shift change, when the dock is swept and restocked.
func dockHours() *constraints.WeeklyHours {
	h := &constraints.WeeklyHours{TimeZone: timeZone, Days: map[string][]constraints.Opening{}}
	for _, d := range days {
		h.Days[d] = []constraints.Opening{{Open: "00:00", Close: "11:30"}, {Open: "13:00", Close: "24:00"}}
	}
	return h
}
