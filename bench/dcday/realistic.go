package dcday

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// Mode is the kind of day Generate makes.
type Mode int

const (
	// Standard is the metro and regional day of doc.go: fleet and shifts
	// Slack times the full-trailer count, no limit on dock doors.
	Standard Mode = iota
	// Realistic is a DC's day as it runs: stores 60–120 km out, drivers
	// the scarce resource, trailer units that must turn, 10–30 dock
	// doors, loading through the night with the trailers staged for the
	// morning (RealisticDay gives the figures).
	Realistic
	// DoorLimited is the Realistic day with DoorLimitedDoors doors open
	// only for the DoorLimitedHours of the night, fleet and shifts as
	// Standard gives them: the doors, not the drivers, bound the day.
	DoorLimited
	// Near is the Realistic day with its stores NearInnerKm to NearOuterKm
	// out, fleet and shifts as Standard gives them and no limit on dock
	// doors: how few drivers a day needs when each may drive several
	// trips.
	Near
)

// modeNames are the names of the modes, as haulbench's -mode takes them.
var modeNames = []string{"standard", "realistic", "door-limited", "near"}

// String names the mode: standard, realistic, door-limited or near.
func (m Mode) String() string {
	if m < Standard || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode reads a mode's name; false for none.
func ParseMode(name string) (Mode, bool) {
	i := slices.Index(modeNames, name)
	return Mode(i), i >= 0
}

// The figures of a Realistic day.
const (
	// RingInnerKm and RingOuterKm bound the stores' great-circle distance
	// from the DC.
	RingInnerKm = 60
	RingOuterKm = 120
	// NearInnerKm and NearOuterKm bound them on a Near day.
	NearInnerKm = 20
	NearOuterKm = 60
	// ShiftShare is the drivers a Realistic day has for every trailer
	// load its freight fills by positions (30 a trailer): fewer drivers
	// than trips, so that most drivers must drive two. A trip to this ring
	// takes 5–7 h, so a 14 h shift drives two at most, and a shift that
	// starts late or drives long trips one: at 0.45 and 0.7 every shift
	// drove and pallets stayed behind (200 stores, 30 s).
	ShiftShare = 0.8
	// UnitShare is the trailer units of each kind for every trailer load
	// of that kind's freight, plus one: fewer units than trips, so that
	// units turn. The first wave holds its units from the night's loading
	// until it is back in the late morning, while the second wave loads:
	// at 0.7 every unit was out and pallets stayed behind with drivers
	// free (200 stores, 30 s).
	UnitShare = 0.9
	// MinDoors and MaxDoors bound the dock doors, one for every
	// StoresPerDoor stores.
	MinDoors      = 10
	MaxDoors      = 30
	StoresPerDoor = 33
	// DoorLimitedDoors and DoorLimitedHours are the dock of a DoorLimited
	// day: 20 doors from 20:00 to 04:00.
	DoorLimitedDoors = 20
	DoorLimitedHours = 8
)

// The DC's times on a Realistic day.
const (
	realisticHook       = 15 * time.Minute
	realisticTurnaround = 30 * time.Minute
	// realisticStaging lets a trailer loaded at 20:00 wait until a driver
	// hooks it at 08:00.
	realisticStaging     = 12 * time.Hour
	realisticLoadingOnce = 10 * time.Minute
)

// Doors is the dock doors of a Realistic day of n stores.
func Doors(n int) int { return min(MaxDoors, max(MinDoors, n/StoresPerDoor)) }

// generateRealistic makes the Realistic or DoorLimited day of cfg.
//
// Dock hours: a Realistic DC loads from 20:00 to 04:00 for the first
// wave, staged in the yard until the drivers hook the trailers from
// 03:00, and again from 08:00 to 13:00 for the second wave, on the units
// back from the first: with night loading alone every trip would need a
// unit of its own, since all would be loaded by 04:00 and unload after
// it. A DoorLimited DC loads from 20:00 to 04:00 only.
func generateRealistic(cfg Config) engine.Request {
	r := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.Stores)<<8|uint64(cfg.Mode)))
	dock := []constraints.Opening{{Open: "20:00", Close: "04:00"}, {Open: "08:00", Close: "13:00"}}
	if cfg.Mode == DoorLimited {
		dock = dock[:1]
	}
	req := engine.Request{
		DC: engine.DC{ID: "DC", Name: "Lancaster DC", Location: dcLocation, DockHours: everyDay(dock...),
			LoadingPerPallet: 90 * time.Second, LoadingFixed: realisticLoadingOnce, HookTime: realisticHook,
			TrailerTurnaround: realisticTurnaround, MaxStaging: realisticStaging, DockDoors: Doors(cfg.Stores)},
		HoursOfService: constraints.HoursOfService{MaxDriving: 11 * time.Hour, MaxDuty: 14 * time.Hour,
			BreakAfter: 8 * time.Hour, BreakDuration: 30 * time.Minute},
		Travel: cfg.Travel,
	}
	inner, outer := float64(RingInnerKm), float64(RingOuterKm)
	if cfg.Mode == Near {
		inner, outer = NearInnerKm, NearOuterKm
	}
	sites := ringSites(r, cfg.Stores, inner, outer)
	short := shortYards(r, sites)
	for i, s := range sites {
		st := engine.Store{ID: fmt.Sprintf("S%04d", i+1), Location: s.at, Hours: morningReceiving(r),
			Unloading: engine.Unloading{Fixed: time.Duration(10+5*r.IntN(3)) * time.Minute, PerPallet: 2 * time.Minute}}
		if short[i] {
			st.MaxTrailerLengthMM = ShortYardMM
		}
		req.Stores = append(req.Stores, st)
		req.Pallets = append(req.Pallets, storePallets(r, st.ID, cfg.freight())...)
	}
	if cfg.Mode == DoorLimited || cfg.Mode == Near {
		// The standard day's fleet and shifts: the doors (or nothing)
		// bound the day, not the drivers or the units.
		req.DC.DockDoors = 0
		if cfg.Mode == DoorLimited {
			req.DC.DockDoors = DoorLimitedDoors
		}
		req.Fleet = fleet(req)
		req.Shifts = staggeredShifts(shiftCount(req), DeliveryDate.Add(3*time.Hour), 20)
		return req
	}
	req.Fleet = fleetScaled(req, UnitShare)
	n := min(engine.MaxShifts, int(math.Ceil(ShiftShare*floorPositions(req)/30)))
	req.Shifts = staggeredShifts(n, DeliveryDate.Add(3*time.Hour), 20)
	return req
}

// everyDay is dock hours of the openings on every day of the week.
func everyDay(os ...constraints.Opening) *constraints.WeeklyHours {
	h := &constraints.WeeklyHours{TimeZone: timeZone, Days: map[string][]constraints.Opening{}}
	for _, d := range days {
		h.Days[d] = os
	}
	return h
}

// ringSites places n stores between inner and outer km of the DC, a few to
// a town, in towns spread over the ring.
func ringSites(r *rand.Rand, n int, inner, outer float64) []site {
	towns := make([]geo.Point, max(4, n/6))
	for i := range towns {
		d := inner + 5 + (outer-inner-10)*r.Float64()
		towns[i] = offset(dcLocation, d, 2*math.Pi*r.Float64())
	}
	sites := make([]site, n)
	for i := range sites {
		for {
			c := towns[r.IntN(len(towns))]
			d := math.Abs(r.NormFloat64()) * 3
			s := site{at: offset(c, d, 2*math.Pi*r.Float64()), urban: d < 1}
			if km := geo.Distance(dcLocation, s.at) / 1000; km >= inner && km <= outer {
				sites[i] = s
				break
			}
		}
	}
	return sites
}

// morningReceiving returns stores' receiving in the morning and through
// midday, every day: from 04:00, 05:00 or 06:00 for ten hours, or split
// around the lunch rush.
func morningReceiving(r *rand.Rand) constraints.WeeklyHours {
	h := constraints.WeeklyHours{TimeZone: timeZone, Days: map[string][]constraints.Opening{},
		ClosedDates: []string{thanksgiving}}
	open := 4 + r.IntN(3)
	os := []constraints.Opening{{Open: fmt.Sprintf("%02d:00", open), Close: fmt.Sprintf("%02d:00", open+10)}}
	if r.IntN(5) == 0 {
		os = []constraints.Opening{{Open: "05:00", Close: "11:00"}, {Open: "13:00", Close: "16:00"}}
	}
	for _, d := range days {
		h.Days[d] = os
	}
	return h
}
