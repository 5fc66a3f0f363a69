package engine_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/engine"
)

// A DC in Lancaster, Texas delivers six pallets to two Dallas stores with
// one dry van and one driver.
const exampleRequest = `{
  "dc": {"id": "DC", "location": {"lat": 32.5921, "lng": -96.7561}, "loadingPerPallet": "90s"},
  "stores": [
    {"id": "DOWNTOWN", "location": {"lat": 32.7767, "lng": -96.7970},
     "hours": {"timeZone": "America/Chicago", "days": {"tue": [{"open": "05:00", "close": "11:00"}]}},
     "unloading": {"fixed": "15m", "perPallet": "2m"}},
    {"id": "GARLAND", "location": {"lat": 32.9126, "lng": -96.6389},
     "hours": {"timeZone": "America/Chicago", "days": {"mon": [{"open": "22:00", "close": "09:00"}]}},
     "unloading": {"fixed": "15m", "perPallet": "2m"}}
  ],
  "pallets": [
    {"id": "D1", "store": "DOWNTOWN", "weightKg": 600, "heightMM": 1500, "temperature": "AMBIENT", "footprint": "STANDARD"},
    {"id": "D2", "store": "DOWNTOWN", "weightKg": 550, "heightMM": 1500, "temperature": "AMBIENT", "footprint": "STANDARD"},
    {"id": "D3", "store": "DOWNTOWN", "weightKg": 300, "heightMM": 1200, "temperature": "AMBIENT", "footprint": "HALF"},
    {"id": "G1", "store": "GARLAND", "weightKg": 700, "heightMM": 1600, "temperature": "AMBIENT", "footprint": "STANDARD"},
    {"id": "G2", "store": "GARLAND", "weightKg": 650, "heightMM": 1600, "temperature": "AMBIENT", "footprint": "STANDARD"},
    {"id": "G3", "store": "GARLAND", "weightKg": 400, "heightMM": 1400, "temperature": "AMBIENT", "footprint": "STANDARD"}
  ],
  "fleet": [
    {"id": "DRY53", "count": 1, "lengthMM": 16154,
     "inside": {"lengthMM": 16002, "widthMM": 2540, "heightMM": 2794},
     "palletPositions": 30, "payloadKg": 20400, "equipment": {"kind": "DRY_VAN"},
     "axles": {"kingpinMM": 914, "axleGroupMM": 12500, "tareKg": 6350, "tareCentreMM": 8500,
               "kingpinLimitKg": 11300, "axleGroupLimitKg": 15422},
     "costs": {"fixed": 150, "perKm": 1.2, "perHour": 38}}
  ],
  "shifts": [{"id": "D01", "start": "2026-11-24T04:00:00-06:00", "end": "2026-11-24T16:00:00-06:00"}],
  "options": {"timeLimit": "5s", "seed": 1, "workers": 1, "iterations": 200}
}`

func ExamplePlan() {
	req, err := engine.DecodeRequest(strings.NewReader(exampleRequest))
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := engine.Plan(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	chicago, _ := time.LoadLocation("America/Chicago")
	for _, r := range plan.Routes {
		fmt.Printf("%s on %s with shift %s: depart %s, back %s\n", r.ID, r.Trailer, r.Shift,
			r.Depart.In(chicago).Format("15:04"), r.Return.In(chicago).Format("15:04"))
		for _, s := range r.Stops {
			fmt.Printf("  %-8s unload %s, %d pallets\n", s.Store, s.Start.In(chicago).Format("15:04"), len(s.Pallets))
		}
	}
	fmt.Println("unassigned:", len(plan.Unassigned))
	fmt.Println("valid:", engine.Validate(req, plan) == nil)
	// Output:
	// R1 on DRY53 with shift D01: depart 04:28, back 07:02
	//   DOWNTOWN unload 05:00, 3 pallets
	//   GARLAND  unload 05:53, 3 pallets
	// unassigned: 0
	// valid: true
}

// DecodeRequest reports every problem of a request at once, each with its
// full path, a code and a message in the request's terms that shows the
// offending value and its unit; a problem repeated over a list is one
// entry that gives the indices and the count.
func ExampleDecodeRequest_problems() {
	bad := strings.NewReplacer(
		`"weightKg": 550`, `"weightkg": 550`,
		`"weightKg": 300`, `"weightKg": "300"`,
		`"weightKg": 400`, `"weightKg": -400`,
		`"heightMM": 1600, "temperature": "AMBIENT"`, `"heightMM": 1600, "temperature": "COLD"`,
		`"temperature": "AMBIENT", "footprint": "STANDARD"}`, `"temperature": "AMBIENT"}`,
		`"end": "2026-11-24T16:00:00-06:00"`, `"end": "2026-11-24T03:00:00-06:00"`,
		`"perPallet": "2m"}},`, `"perPallet": "2 minutes"}},`,
	).Replace(exampleRequest)
	_, err := engine.DecodeRequest(strings.NewReader(bad))
	for _, v := range constraints.AsViolations(err) {
		fmt.Printf("%s %s: %s\n", v.Code, v.Path, v.Message)
	}
	// Output:
	// INVALID_VALUE stores[0].unloading.perPallet: must be a Go duration such as "90s" or a number of seconds, not "2 minutes"
	// REQUIRED pallets[0,1,5].footprint: is required in a pallet (3 times)
	// UNKNOWN_MEMBER pallets[1].weightkg: is not a member of a pallet; did you mean "weightKg"?
	// REQUIRED pallets[1].weightKg: is required in a pallet
	// INVALID_TYPE pallets[2].weightKg: must be a number of kilograms, not "300"
	// INVALID_VALUE pallets[3,4].temperature: must be one of AMBIENT, CHILLED, FROZEN, not "COLD" (2 times)
	// INVALID_VALUE pallets[5].weightKg: weightKg -400 kg: must be more than 0 and at most 1,000,000,000 kg
	// INVALID_VALUE shifts[0].end: end 03:00 is before start 04:00
}
