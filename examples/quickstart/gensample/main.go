// Command gensample writes examples/quickstart/sample.json: one DC south of
// Dallas and 48 stores across the Dallas–Fort Worth metro area, with store
// receiving hours that differ between stores, all three temperature
// classes, dry vans and reefers, driver shifts, and 400 pallets. It is
// deterministic, so the sample can be regenerated and reviewed:
//
//	go run ./examples/quickstart/gensample > examples/quickstart/sample.json
//
// A test checks that the committed sample is this command's output, byte
// for byte.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

type site struct {
	name     string
	lat, lng float64
	urban    bool // tight yard: 48 ft trailers at most
}

var stores = []site{
	{"Dallas Downtown", 32.7767, -96.7970, true}, {"Plano", 33.0198, -96.6989, false}, {"Frisco", 33.1507, -96.8236, false},
	{"McKinney", 33.1972, -96.6398, false}, {"Allen", 33.1032, -96.6706, false}, {"Richardson", 32.9483, -96.7299, false},
	{"Garland", 32.9126, -96.6389, false}, {"Mesquite", 32.7668, -96.5992, false}, {"Rowlett", 32.9029, -96.5639, false},
	{"Rockwall", 32.9312, -96.4597, false}, {"Irving", 32.8140, -96.9489, false}, {"Grand Prairie", 32.7459, -96.9978, false},
	{"Arlington", 32.7357, -97.1081, false}, {"Fort Worth Downtown", 32.7555, -97.3308, true}, {"Fort Worth West", 32.7310, -97.4180, false},
	{"Haltom City", 32.7996, -97.2692, false}, {"North Richland Hills", 32.8343, -97.2289, false}, {"Keller", 32.9346, -97.2517, false},
	{"Southlake", 32.9412, -97.1342, false}, {"Grapevine", 32.9343, -97.0781, false}, {"Coppell", 32.9546, -97.0150, false},
	{"Carrollton", 32.9756, -96.8899, false}, {"Lewisville", 33.0462, -96.9942, false}, {"Flower Mound", 33.0146, -97.0970, false},
	{"Denton", 33.2148, -97.1331, false}, {"Little Elm", 33.1626, -96.9375, false}, {"The Colony", 33.0890, -96.8864, false},
	{"Addison", 32.9618, -96.8292, true}, {"Farmers Branch", 32.9265, -96.8961, false}, {"Duncanville", 32.6518, -96.9083, false},
	{"DeSoto", 32.5899, -96.8570, false}, {"Cedar Hill", 32.5885, -96.9561, false}, {"Mansfield", 32.5632, -97.1417, false},
	{"Burleson", 32.5421, -97.3208, false}, {"Euless", 32.8371, -97.0820, false}, {"Bedford", 32.8440, -97.1431, false},
	{"Hurst", 32.8235, -97.1706, false}, {"Waxahachie", 32.3865, -96.8483, false}, {"Midlothian", 32.4824, -96.9944, false},
	{"Forney", 32.7482, -96.4719, false}, {"Sachse", 32.9762, -96.5953, false}, {"Wylie", 33.0151, -96.5389, false},
	{"Murphy", 33.0151, -96.6131, false}, {"Prosper", 33.2362, -96.8011, false}, {"Lake Highlands", 32.8860, -96.7180, true},
	{"Oak Cliff", 32.7400, -96.8400, true}, {"Highland Park", 32.8332, -96.7920, true}, {"Benbrook", 32.6732, -97.4606, false},
}

var days = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

// hours returns one of a few receiving patterns seen at grocery stores.
func hours(r *rand.Rand) constraints.WeeklyHours {
	h := constraints.WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]constraints.Opening{}}
	switch r.IntN(5) {
	case 0: // early receiving every day
		for _, d := range days {
			h.Days[d] = []constraints.Opening{{Open: "04:00", Close: "12:00"}}
		}
	case 1: // weekday receiving, short Saturday, closed Sunday
		for _, d := range days[:5] {
			h.Days[d] = []constraints.Opening{{Open: "05:00", Close: "14:00"}}
		}
		h.Days["sat"] = []constraints.Opening{{Open: "06:00", Close: "10:00"}}
	case 2: // night receiving across midnight plus a morning window
		for _, d := range days {
			h.Days[d] = []constraints.Opening{{Open: "22:00", Close: "02:00"}, {Open: "06:00", Close: "11:00"}}
		}
	case 3: // split receiving around the lunch rush
		for _, d := range days[:6] {
			h.Days[d] = []constraints.Opening{{Open: "06:00", Close: "10:30"}, {Open: "13:30", Close: "17:00"}}
		}
	default: // 24-hour store, receiving from the night crew into the afternoon
		for _, d := range days {
			h.Days[d] = []constraints.Opening{{Open: "00:00", Close: "16:00"}}
		}
	}
	return h
}

func axles(tareKg, tareCentre, axleGroup float64) constraints.AxleGeometry {
	return constraints.AxleGeometry{KingpinMM: 914, AxleGroupMM: axleGroup, TareKg: tareKg, TareCentreMM: tareCentre,
		KingpinLimitKg: 11300, AxleGroupLimitKg: 15422}
}

func main() {
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), `Usage: go run ./examples/quickstart/gensample > examples/quickstart/sample.json

Writes the quickstart's sample request to stdout: one DC south of Dallas,
48 stores across the Dallas–Fort Worth metro area, their pallets, the fleet
and the driver shifts of Tuesday 24 November 2026. The output is the same
on every run. It takes no flags but -h.
`)
	}
	flag.Parse() // -h prints the usage and exits 0
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	b, err := sampleJSON()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(b); err != nil {
		fmt.Fprintln(os.Stderr, "gensample:", err)
		os.Exit(1)
	}
}

// sampleJSON is the sample request in the engine's JSON form.
func sampleJSON() ([]byte, error) {
	r := rand.New(rand.NewPCG(2026, 11))
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		return nil, err
	}
	req := engine.Request{
		DC: engine.DC{ID: "DC-LANCASTER", Name: "Lancaster DC", Location: geo.Point{Lat: 32.5921, Lng: -96.7561},
			DockHours:        &constraints.WeeklyHours{TimeZone: "America/Chicago", Days: map[string][]constraints.Opening{}},
			LoadingPerPallet: 90 * time.Second},
		Options: engine.Options{TimeLimit: 5 * time.Second, Seed: 1},
	}
	for _, d := range days {
		req.DC.DockHours.Days[d] = []constraints.Opening{{Open: "01:00", Close: "22:00"}}
	}
	for i, s := range stores {
		st := engine.Store{ID: fmt.Sprintf("S%03d", i+1), Name: s.name, Location: geo.Point{Lat: s.lat, Lng: s.lng},
			Hours:     hours(r),
			Unloading: engine.Unloading{Fixed: 15 * time.Minute, PerPallet: 2 * time.Minute}}
		if s.urban {
			st.MaxTrailerLengthMM = 14630 // 48 ft
		}
		req.Stores = append(req.Stores, st)
		// Pallets: mostly ambient grocery, some chilled dairy and produce,
		// fewer frozen; a few half pallets of high-value goods.
		n := 0
		add := func(t constraints.Temperature, lo, hi float64, fp engine.Footprint) {
			n++
			req.Pallets = append(req.Pallets, engine.Pallet{
				ID: fmt.Sprintf("%s-P%02d", st.ID, n), Store: st.ID,
				WeightKg:  float64(int(lo + r.Float64()*(hi-lo))),
				HeightMM:  1200 + 50*r.IntN(14),
				Footprint: fp, Temperature: t,
			})
		}
		for range 4 + r.IntN(4) {
			if r.IntN(12) == 0 {
				add(constraints.Ambient, 120, 300, engine.HalfFootprint)
			} else {
				add(constraints.Ambient, 250, 750, engine.StandardFootprint)
			}
		}
		for range 1 + r.IntN(3) {
			add(constraints.Chilled, 300, 700, engine.StandardFootprint)
		}
		for range r.IntN(3) {
			add(constraints.Frozen, 300, 650, engine.StandardFootprint)
		}
	}
	req.Fleet = []engine.TrailerType{
		{ID: "DRY53", Name: "53 ft dry van", Count: 12, LengthMM: 16154, Inside: engine.Dimensions{LengthMM: 16002, WidthMM: 2540, HeightMM: 2794},
			PalletPositions: 30, PayloadKg: 20400, Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: axles(6350, 8500, 12500), Costs: engine.Costs{Fixed: 150, PerKm: 1.2, PerHour: 38}},
		{ID: "DRY48", Name: "48 ft dry van", Count: 3, LengthMM: 14630, Inside: engine.Dimensions{LengthMM: 14478, WidthMM: 2540, HeightMM: 2794},
			PalletPositions: 28, PayloadKg: 20900, Equipment: constraints.Equipment{Kind: constraints.DryVan},
			Axles: axles(5900, 7700, 11300), Costs: engine.Costs{Fixed: 140, PerKm: 1.15, PerHour: 38}},
		{ID: "REEF53", Name: "53 ft reefer", Count: 7, LengthMM: 16154, Inside: engine.Dimensions{LengthMM: 15850, WidthMM: 2464, HeightMM: 2629},
			PalletPositions: 30, PayloadKg: 19500, Equipment: constraints.Equipment{Kind: constraints.Reefer},
			Axles: axles(7250, 7400, 12500), Costs: engine.Costs{Fixed: 220, PerKm: 1.45, PerHour: 38}},
		{ID: "MT48", Name: "48 ft multi-temperature reefer", Count: 4, LengthMM: 14630, Inside: engine.Dimensions{LengthMM: 14350, WidthMM: 2464, HeightMM: 2629},
			PalletPositions: 28, PayloadKg: 18600, Equipment: constraints.Equipment{Kind: constraints.MultiTempReefer, MaxZones: 3},
			// The rear door and a curbside door for the nose compartment.
			Doors: []constraints.Door{{Side: constraints.RearDoor}, {Side: constraints.CurbDoor, FromMM: 0, ToMM: 2500}},
			Axles: axles(7600, 6900, 11300), Costs: engine.Costs{Fixed: 240, PerKm: 1.5, PerHour: 38}},
	}
	// Tuesday 24 November 2026: shifts start between 01:00 and 06:00.
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, chicago)
	for i := range 26 {
		start := day.Add(time.Duration(60+15*(i%21)) * time.Minute)
		req.Shifts = append(req.Shifts, constraints.Shift{ID: fmt.Sprintf("D%02d", i+1), Start: start, End: start.Add(13 * time.Hour)})
	}
	return engine.MarshalIndent(req)
}
