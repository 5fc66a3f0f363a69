package engine

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// checkBase is decodeBase as a Go request, with a store that limits the
// trailer length and a trailer type that gives its outside length.
func checkBase(t *testing.T) Request {
	t.Helper()
	req, err := DecodeRequest(strings.NewReader(decodeBase))
	if err != nil {
		t.Fatal(err)
	}
	req.Stores[0].MaxTrailerLengthMM = 16200
	req.Fleet[0].LengthMM = 16154
	if err := req.Check(); err != nil {
		t.Fatal(err)
	}
	return req
}

// TestCheckMessages: each message shows the offending value with its unit
// (large numbers with thousands separators) and the rule it breaks; a
// value of a Go request that no real input has (a pallet of 0 kg) is
// REQUIRED.
func TestCheckMessages(t *testing.T) {
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, hour, min int) time.Time { return time.Date(2026, 11, day, hour, min, 0, 0, chicago) }
	cases := []struct {
		name   string
		change func(r *Request)
		want   []string // code path: message
	}{
		{"negative weight", func(r *Request) { r.Pallets[0].WeightKg = -3 },
			[]string{"INVALID_VALUE pallets[0].weightKg: weightKg -3 kg: must be more than 0 and at most 1,000,000,000 kg"}},
		{"weight too large", func(r *Request) { r.Pallets[0].WeightKg = 2e9 },
			[]string{"INVALID_VALUE pallets[0].weightKg: weightKg 2,000,000,000 kg: must be more than 0 and at most 1,000,000,000 kg"}},
		{"weight not given", func(r *Request) { r.Pallets[0].WeightKg = 0 },
			[]string{"REQUIRED pallets[0].weightKg: weightKg 0 kg: required, a pallet weighs more than 0 kg"}},
		{"weight not a number", func(r *Request) { r.Pallets[0].WeightKg = math.NaN() },
			[]string{"INVALID_VALUE pallets[0].weightKg: weightKg NaN: must be a finite number of kilograms"}},
		{"volume", func(r *Request) { r.Pallets[0].VolumeM3 = -1.5 },
			[]string{"INVALID_VALUE pallets[0].volumeM3: volumeM3 -1.5 m³: must be between 0 and 1,000,000,000 m³ (0 means footprint × height)"}},
		{"footprint not given", func(r *Request) { r.Pallets[0].Footprint = Footprint{} },
			[]string{`REQUIRED pallets[0].footprint: footprint: required, STANDARD, HALF or {"lengthMM", "widthMM"}`}},
		{"footprint side", func(r *Request) { r.Pallets[0].Footprint = Footprint{LengthMM: 1200, WidthMM: 200000} },
			[]string{"INVALID_VALUE pallets[0].footprint: footprint 1,200 × 200,000 mm: each side must be between 1 and 100,000 mm"}},
		{"height not given", func(r *Request) { r.Pallets[0].HeightMM = 0 },
			[]string{"REQUIRED pallets[0].heightMM: heightMM 0 mm: required, the pallet's height with its load in millimetres"}},
		{"height too large", func(r *Request) { r.Pallets[0].HeightMM = 250000 },
			[]string{"INVALID_VALUE pallets[0].heightMM: heightMM 250,000 mm: must be between 1 and 100,000 mm"}},
		{"temperature", func(r *Request) { r.Pallets[0].Temperature = 7 },
			[]string{"INVALID_VALUE pallets[0].temperature: temperature 7: must be AMBIENT, CHILLED or FROZEN"}},
		{"unknown store", func(r *Request) { r.Pallets[1].Store = "S9" },
			[]string{`UNKNOWN_REFERENCE pallets[1].store: store "S9": no store has this id`}},
		{"duplicate id", func(r *Request) { r.Pallets[1].ID = "P1" },
			[]string{`DUPLICATE_ID pallets[1].id: id "P1": pallets[0] has it too`}},
		{"long id", func(r *Request) { r.Shifts[0].ID = strings.Repeat("x", 1234) },
			[]string{"INVALID_VALUE shifts[0].id: id of 1,234 bytes: at most 200 bytes"}},
		{"end before start", func(r *Request) { r.Shifts[0].Start, r.Shifts[0].End = at(23, 6, 0), at(23, 5, 0) },
			[]string{"INVALID_VALUE shifts[0].end: end 05:00 is before start 06:00"}},
		{"end before start, the day before", func(r *Request) { r.Shifts[0].Start, r.Shifts[0].End = at(23, 6, 0), at(22, 23, 30) },
			[]string{"INVALID_VALUE shifts[0].end: end 2026-11-22 23:30 is before start 2026-11-23 06:00"}},
		{"end at start", func(r *Request) { r.Shifts[0].End = r.Shifts[0].Start },
			[]string{"INVALID_VALUE shifts[0].end: end 04:00 is the start: a shift must end after it starts"}},
		{"start not given", func(r *Request) { r.Shifts[0].Start = time.Time{} },
			[]string{"REQUIRED shifts[0].start: start: required, the instant the driver may come on duty"}},
		{"start not given, and limits checked all the same", func(r *Request) {
			r.Shifts[0].Start, r.Shifts[0].Limits = time.Time{}, &constraints.HoursOfService{MaxDriving: -time.Hour}
		}, []string{"REQUIRED shifts[0].start: start: required, the instant the driver may come on duty",
			"INVALID_DURATION shifts[0].limits.maxDriving: maxDriving -1h0m0s: must not be negative (0 means the default)"}},
		{"horizon", func(r *Request) {
			r.Shifts = append(r.Shifts, constraints.Shift{ID: "Y", Start: at(23, 4, 0).AddDate(0, 0, 40), End: at(23, 16, 0).AddDate(0, 0, 40)})
		}, []string{"INVALID_VALUE shifts: shifts span 40 days 12 h, from 2026-11-23 04:00 to 2027-01-02 16:00: at most 31 days per request"}},
		{"shift limits", func(r *Request) { r.Shifts[0].Limits = &constraints.HoursOfService{MaxDuty: -time.Hour} },
			[]string{"INVALID_DURATION shifts[0].limits.maxDuty: maxDuty -1h0m0s: must not be negative (0 means the default)"}},
		{"latitude", func(r *Request) { r.DC.Location.Lat = 95 },
			[]string{"INVALID_COORDINATE dc.location.lat: lat 95°: must be between -90° and 90°"}},
		{"loading time", func(r *Request) { r.DC.LoadingPerPallet = -time.Minute },
			[]string{"INVALID_VALUE dc.loadingPerPallet: loadingPerPallet -1m0s: must not be negative"}},
		{"unloading time", func(r *Request) { r.Stores[0].Unloading.Fixed = -5 * time.Minute },
			[]string{"INVALID_VALUE stores[0].unloading.fixed: fixed -5m0s: must not be negative"}},
		{"hours without a zone", func(r *Request) { r.Stores[0].Hours.TimeZone = "" },
			[]string{`REQUIRED stores[0].hours.timeZone: timeZone: required, the IANA zone the hours are local to, such as "America/Chicago" ("UTC" for UTC)`}},
		{"opening time", func(r *Request) { r.Stores[0].Hours.Days["mon"][0].Open = "25:00" },
			[]string{`INVALID_TIME stores[0].hours.days.mon[0].open: open "25:00": must be a local time "HH:MM" from 00:00 to 23:59`}},
		{"store's length limit", func(r *Request) { r.Stores[0].MaxTrailerLengthMM = -5 },
			[]string{"INVALID_VALUE stores[0].maxTrailerLengthMM: maxTrailerLengthMM -5 mm: must not be negative (0 means any length)"}},
		{"trailer's outside length not given while a store limits it", func(r *Request) { r.Fleet[0].LengthMM = 0 },
			[]string{`REQUIRED fleet[0].lengthMM: lengthMM: required, the trailer's outside length in millimetres, since store "S1" (stores[0]) accepts at most 16,200 mm`}},
		{"count", func(r *Request) { r.Fleet[0].Count = -1 },
			[]string{"INVALID_VALUE fleet[0].count: count -1: must not be negative"}},
		{"inside width not given", func(r *Request) { r.Fleet[0].Inside.WidthMM = 0 },
			[]string{"REQUIRED fleet[0].inside.widthMM: widthMM 0 mm: required, the inside width in millimetres"}},
		{"pallet positions not given", func(r *Request) { r.Fleet[0].PalletPositions = 0 },
			[]string{"REQUIRED fleet[0].palletPositions: palletPositions 0: required, the number of pallets the floor holds"}},
		{"pallet positions", func(r *Request) { r.Fleet[0].PalletPositions = 123456 },
			[]string{"INVALID_VALUE fleet[0].palletPositions: palletPositions 123,456: must be between 1 and 100,000"}},
		{"payload not given", func(r *Request) { r.Fleet[0].PayloadKg = 0 },
			[]string{"REQUIRED fleet[0].payloadKg: payloadKg 0 kg: required, the most the trailer may carry, more than 0 kg"}},
		{"payload", func(r *Request) { r.Fleet[0].PayloadKg = -20000 },
			[]string{"INVALID_VALUE fleet[0].payloadKg: payloadKg -20,000 kg: must be more than 0 kg"}},
		{"payload too large", func(r *Request) { r.Fleet[0].PayloadKg = 5e12 },
			[]string{"INVALID_VALUE fleet[0].payloadKg: payloadKg 5,000,000,000,000 kg: must be between -1,000,000,000,000 and 1,000,000,000,000 kg"}},
		{"trailer volume", func(r *Request) { r.Fleet[0].VolumeM3 = -2 },
			[]string{"INVALID_VALUE fleet[0].volumeM3: volumeM3 -2 m³: must not be negative (0 means inside length × width × height)"}},
		{"zones", func(r *Request) { r.Fleet[0].Equipment.MaxZones = 4 },
			[]string{"INVALID_VALUE fleet[0].equipment.maxZones: maxZones 4: a MULTI_TEMP_REEFER has 2 or 3 zones (0 means 3)"}},
		{"side door beyond the trailer", func(r *Request) {
			r.Fleet[0].Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: 2500}, {Side: constraints.RoadDoor, FromMM: 15000, ToMM: 16001}}
		}, []string{"INVALID_VALUE fleet[0].doors[2].toMM: toMM 16,001 mm: beyond the end of the 16,000 mm inside length"}},
		{"side doors overlapping in one wall", func(r *Request) {
			r.Fleet[0].Doors = []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, ToMM: 2500}, {Side: constraints.CurbDoor, FromMM: 2000, ToMM: 4000}}
		}, []string{"INVALID_VALUE fleet[0].doors[2].fromMM: CURB door 2,000–4,000 mm overlaps fleet[0].doors[1] at 0–2,500 mm in the same wall"}},
		{"doors without the rear door", func(r *Request) { r.Fleet[0].Doors = []constraints.Door{{Side: constraints.CurbDoor, ToMM: 2500}} },
			[]string{"REQUIRED fleet[0].doors: the rear door: a trailer that lists its doors lists its REAR door too"}},
		{"tare not given", func(r *Request) { r.Fleet[0].Axles.TareKg = 0 },
			[]string{"REQUIRED fleet[0].axles.tareKg: tareKg: required, the empty trailer's weight in kilograms"}},
		{"axle group beyond the trailer", func(r *Request) { r.Fleet[0].Axles.AxleGroupMM = 16500 },
			[]string{"INVALID_VALUE fleet[0].axles.axleGroupMM: axleGroupMM 16,500 mm: the axle group must lie within the trailer's 16,000 mm"}},
		{"cost per km", func(r *Request) { r.Fleet[0].Costs.PerKm = -1.2 },
			[]string{"INVALID_VALUE fleet[0].costs.perKm: perKm -1.2 per km: must not be negative"}},
		{"fleet", func(r *Request) { r.Fleet = nil },
			[]string{"REQUIRED fleet: fleet: required, at least one trailer type to carry the 2 pallets"}},
		{"hours of service", func(r *Request) { r.HoursOfService.BreakAfter = -8 * time.Hour },
			[]string{"INVALID_DURATION hoursOfService.breakAfterDriving: breakAfterDriving -8h0m0s: must not be negative (0 means the default)"}},
		{"speed", func(r *Request) { r.Travel.SpeedKmh = -5 },
			[]string{"INVALID_VALUE travel.speedKmh: speedKmh -5 km/h: must be more than 0 km/h (0 means 55 km/h with a circuity, the default speed bands without)"}},
		{"circuity", func(r *Request) { r.Travel.Circuity = 0.5 },
			[]string{"INVALID_VALUE travel.circuity: circuity 0.5: must be at least 1 (0 means 1.3 with a speedKmh, the default speed bands without)"}},
		{"speed bands", func(r *Request) {
			r.Travel.Bands = []geo.SpeedBand{{UpToKm: 10, SpeedKmh: 50, Circuity: 1.3}, {UpToKm: 5, SpeedKmh: 45, Circuity: 1.4}}
		}, []string{
			"INVALID_VALUE travel.bands[1].upToKm: upToKm 5 km: must be left out on the last band, which covers every longer distance",
			"INVALID_VALUE travel.bands[1].speedKmh: speedKmh 45 km/h: must be at least the previous band's 50 km/h: speeds may not fall as legs grow",
			"INVALID_VALUE travel.bands[1].circuity: circuity 1.4: must be at most the previous band's 1.3: circuity may not rise as legs grow"}},
		{"speed bands and a speed", func(r *Request) {
			r.Travel = geo.TravelModel{SpeedKmh: 60, Bands: geo.DefaultBands()}
		}, []string{"INVALID_VALUE travel.speedKmh: speedKmh 60 km/h: must be left out with bands, which give each band's speed"}},
		{"time limit", func(r *Request) { r.Options.TimeLimit = -time.Second },
			[]string{"INVALID_VALUE options.timeLimit: timeLimit -1s: must not be negative (0 means 10s, 1.5s for a re-plan)"}},
		{"streams", func(r *Request) { r.Options.Streams = 300 },
			[]string{"INVALID_VALUE options.streams: streams 300: must be between 0 and 256 (0 means 4)"}},
		{"objective", func(r *Request) { r.Options.Objective = 5 },
			[]string{"INVALID_VALUE options.objective: objective 5: must be trailers, drivers or cost"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := checkBase(t)
			c.change(&req)
			var got []string
			for _, v := range constraints.AsViolations(req.Check()) {
				got = append(got, v.Code+" "+v.Path+": "+v.Message)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestCheckGroupsRepeats: a Go request whose pallets all lack their
// footprint gets one entry for them, and its other problem stays in view.
func TestCheckGroupsRepeats(t *testing.T) {
	req := checkBase(t)
	p := req.Pallets[0]
	p.Footprint = Footprint{}
	req.Pallets = nil
	for i := range 300 {
		p.ID = "P" + strings.Repeat("0", 3) + string(rune('a'+i%26)) + string(rune('a'+i/26))
		req.Pallets = append(req.Pallets, p)
	}
	req.Fleet[0].Costs.Fixed = -1
	var got []string
	for _, v := range constraints.AsViolations(req.Check()) {
		got = append(got, v.Code+" "+v.Path+": "+v.Message)
	}
	want := []string{`REQUIRED pallets[0..299].footprint: footprint: required, STANDARD, HALF or {"lengthMM", "widthMM"} (300 times)`,
		"INVALID_VALUE fleet[0].costs.fixed: fixed -1: must not be negative"}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
