// Package dcday generates realistic days of a grocery distribution centre
// (DC) as engine requests, seeded and reproducible, for the dcday benchmark
// (haulbench dcday).
//
// The academic routing sets (Solomon, Gehring & Homberger) have a depot,
// one vehicle type and one window per customer; a DC's day has none of that
// simplicity, and it is the day haulplan is for. A generated day has:
//
//   - one DC south of Dallas and its stores on a metro and regional area
//     around it: most in the metro core and suburbs, the rest in towns up to
//     180 km away (250 km from 2,000 stores up), as a regional grocer's
//     network is;
//   - grocery receiving patterns in America/Chicago: early receiving, weekday
//     receiving closed on Sunday, a night window across midnight plus a
//     morning one, split windows around the lunch rush, 24 h stores, stores
//     closed on Sunday and Monday, all closed on Thanksgiving;
//   - dock hours open most of the day with a gap at the noon shift change;
//   - the US hours of service (11 h driving, 14 h on duty, 30 min break
//     after 8 h of driving) and 14 h driver shifts staggered from 21:00 to
//     09:00 through the night before the delivery day;
//   - about 15 % of stores whose yards take 48 ft trailers at most
//     (maxTrailerLengthMM 14630), most of them in the metro core;
//   - 4 to 20 pallets a store, about 65/25/10 % ambient/chilled/frozen, some
//     half pallets and some low pallets that may be stacked two high;
//   - a fleet of 53 ft and 48 ft dry vans, 53 ft reefers and 48 ft
//     multi-temperature reefers (engine's trailer presets) whose counts, and
//     the number of shifts, are Slack times what the day's freight fills by
//     pallet positions, kind by kind: neither scarce nor lavish;
//   - roads as geo's default speed bands drive them (town streets,
//     arterials, then highway at 90 km/h), so that a store 250 km out is
//     about 3 h 30 min away; Config.Travel chooses another model.
//
// That is the Standard mode. Config.Mode chooses two others:
//
//   - Realistic, a DC's day as it runs: stores in towns 60 to 120 km out,
//     receiving from 04:00–06:00 for ten hours (some split around the
//     lunch rush); drivers the scarce resource, ShiftShare (0.8) of a
//     shift for every full trailer load, in 14 h shifts from 03:00 to
//     07:45; trailer units UnitShare (0.9) of the loads of each kind, so
//     that units turn; Doors(stores) dock doors (10 to 30), loading from
//     20:00 to 04:00 for the first wave and from 08:00 to 13:00 for the
//     second, 10 min a trailer plus 90 s a pallet; trailers staged up to
//     12 h, hooked in 15 min, turned in 30 min;
//   - DoorLimited, the Realistic day with 20 doors open only from 20:00
//     to 04:00 and Standard's ample fleet and shifts: the doors bound it.
//
// Generate returns the request; the same Config gives the same request.
package dcday
