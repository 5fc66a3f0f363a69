package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/constraints"
)

// FuzzDecodeAndValidate feeds arbitrary bytes to the request and plan
// decoders and, for requests that decode, arbitrary plans to Validate:
// nothing may panic; neither decoder accepts what encoding/json rejects
// as syntax; every violation has a code and a message, and no two entries
// repeat each other (repeats are grouped); a decoded request passes its
// own Check; and what decodes is written by json.Marshal in a form that
// reads back the same.
func FuzzDecodeAndValidate(f *testing.F) {
	// The quickstart sample is not a seed: at 250 kB, minimising every
	// interesting mutation of it stalls the fuzzer for many seconds.
	f.Add([]byte(`{"dc":{"id":"D","location":{"lat":0,"lng":0}},"stores":[],"pallets":[],"fleet":[],"shifts":[]}`), []byte(`{}`))
	f.Add([]byte(decodeBase), []byte(`{"routes":[],"unassigned":[],"metrics":{"routes":0,"duration":"0s"}}`))
	f.Add([]byte(`{"dc":{"id":"D","location":{"lat":1,"lng":2},"loadingPerPallet":"1m"},"stores":[{"id":"S","location":{"lat":1.1,"lng":2},"hours":{"days":{"mon":[{"open":"22:00","close":"02:00"}]}},"unloading":{"fixed":"10m","perPallet":60}}],"pallets":[{"id":"P","store":"S","weightKg":100,"heightMM":1000,"temperature":"FROZEN","footprint":"HALF"}],"fleet":[{"id":"T","count":1,"inside":{"lengthMM":16000,"widthMM":2500,"heightMM":2700},"palletPositions":30,"payloadKg":20000,"equipment":{"kind":"REEFER"},"axles":{"kingpinMM":900,"axleGroupMM":12000,"tareKg":6000,"tareCentreMM":7000,"kingpinLimitKg":11000,"axleGroupLimitKg":15422}}],"shifts":[{"id":"X","start":"2026-11-23T04:00:00Z","end":"2026-11-23T16:00:00Z","limits":{"maxDriving":"10h"}}]}`),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00Z","depart":"2026-11-23T04:01:00Z","return":"2026-11-23T05:00:00Z","stops":[{"store":"S","arrival":"2026-11-23T04:20:00Z","start":"2026-11-23T04:20:00Z","departure":"2026-11-23T04:40:00Z","wait":"0s","pallets":["P","P","Q"]}],"load":{"zones":[{"temperature":"FROZEN","firstRow":0,"lastRow":-3}],"placements":[{"pallet":"P","row":-1,"side":"UP","zone":7,"xMM":-5,"slot":3},{"pallet":"Q","side":"LEFT","slot":"1"}],"axles":[{"afterStop":9}]}}],"unassigned":[{"pallet":"Z","reason":"?"}]}`))
	f.Add([]byte(strings.Replace(decodeBase, `"seed": 1`, `"seed": 1, "objective": "cost", "wholeDeliveries": true`, 1)), []byte(`{}`))
	f.Add([]byte(strings.Replace(strings.Replace(decodeBase, `"loadingPerPallet": "1m"`,
		`"loadingPerPallet": "1m", "loadingFixed": "5m", "hookTime": -3, "trailerTurnaround": "1h", "dockDoors": 2, "maxStaging": "3h"`, 1),
		`"end": "2026-11-23T16:00:00-06:00"`, `"end": "2026-11-23T16:00:00-06:00", "maxTrips": 2, "cost": 1e400`, 1)),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","trip":0,"trailerUnit":"T-9","dockDoor":-1,"loadingStart":"2026-11-23T03:00:00Z","loadingEnd":"2026-11-23T02:00:00Z","start":"2026-11-23T04:00:00Z","depart":"2026-11-23T04:01:00Z","return":"2026-11-23T05:00:00Z","stops":[]}],"metrics":{"shiftsUsed":1,"trailerUnitsUsed":"1","peakDockDoors":2}}`))
	f.Add([]byte(strings.Replace(decodeBase, `"options"`, `"travel": {"bands": [{"upToKm": 5, "speedKmh": 35, "circuity": 1.4}, {"speedKmh": 90, "circuity": 1.12}]}, "options"`, 1)),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00-06:00","depart":"2026-11-23T04:05:00-06:00","return":"2026-11-23T06:00:00-06:00","stops":[{"store":"S1","arrival":"2026-11-23T05:00:00-06:00","start":"2026-11-23T05:00:00-06:00","departure":"2026-11-23T05:20:00-06:00","pallets":["P1","P2"]}]}]}`))
	f.Add([]byte(strings.Replace(decodeBase, `"options"`, `"travel": {"speedKmh": 50, "bands": [{"upToKm": -5, "speedKmh": 1e400, "circuity": "x"}, {"upToKm": 3, "speedKmh": 20}, null, 7]}, "options"`, 1)), []byte(`{}`))
	// Doors: a multi-temperature reefer with a curbside door for its nose,
	// and door lists of every bad shape.
	f.Add([]byte(strings.Replace(decodeBase, `{"kind": "MULTI_TEMP_REEFER"}`, `{"kind": "MULTI_TEMP_REEFER"}, "doors": [{"side": "REAR"}, {"side": "CURB", "toMM": 2500}]`, 1)), []byte(`{}`))
	f.Add([]byte(strings.Replace(decodeBase, `{"kind": "MULTI_TEMP_REEFER"}`,
		`{"kind": "MULTI_TEMP_REEFER"}, "doors": [{"side": "CURB", "toMM": 2500}, {"side": "ROAD", "fromMM": -5, "toMM": "x"}, {"side": 3}, null, {"side": "REAR", "fromMM": 7}, {"side": "CURB", "fromMM": 2000, "toMM": 99999}]`, 1)), []byte(`{}`))
	f.Add([]byte(`{"pallets":[{"weightkg":1,"WEIGHTKG":2,"temperature":"COLD"}],"shifts":[{"start":"tomorrow"}]`), []byte(`{"routes":[{"stops":[{"wait":"soon"}]}]`))
	f.Add([]byte(`{"dc":{},"pallets":[{"weightkg":1},{"weightkg":1},{"weightKg":-1},{"weightkg":1,"footprint":{"lengthMM":0}}]}`),
		[]byte(`{"routes":[{"stops":[{"wait":"soon"},{"wait":"soon"}]},{"stops":[{"wait":"soon"}]}]}`))
	f.Add([]byte(matrixRequest(`{"ids": ["DC", "S1"], "distancesM": [[0, 9000], [null, 0]], "durationsS": [[0, 600], [700, 0]]}`)),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00-06:00","depart":"2026-11-23T04:05:00-06:00","return":"2026-11-23T06:00:00-06:00","stops":[{"store":"S1","arrival":"2026-11-23T04:15:00-06:00","start":"2026-11-23T05:00:00-06:00","departure":"2026-11-23T05:30:00-06:00","wait":"45m0s","pallets":["P1","P2"]}]}]}`))
	f.Add([]byte(strings.Replace(strings.Replace(decodeBase, `"loadingPerPallet": "1m"`, `"loadingPerPallet": "1m", "timeZone": "America/Chicago"`, 1), `"options"`,
		`"travel": {"profile": [{"from": "04:30", "to": "09:00", "factor": 0.6, "days": ["mon", "tue"]}, {"from": "15:30", "to": "24:00", "factor": 0.65}, {"from": "6:30", "to": "25:00", "factor": 1.5, "days": ["xyz", 1]}]}, "options"`, 1)),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00-06:00","depart":"2026-11-23T04:15:00-06:00","return":"2026-11-23T06:30:00-06:00","stops":[{"store":"S1","arrival":"2026-11-23T05:00:00-06:00","start":"2026-11-23T05:00:00-06:00","departure":"2026-11-23T05:20:00-06:00","pallets":["P1","P2"]}]}]}`))
	f.Add([]byte(strings.Replace(strings.Replace(decodeBase, `"loadingPerPallet": "1m"`, `"loadingPerPallet": "1m", "timeZone": "America/Chicago"`, 1), `"options"`,
		`"travel": {"profile": [{"from": "04:30", "to": "09:00", "factor": 0.5}]}, "options"`, 1)),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00-06:00","depart":"2026-11-23T04:15:00-06:00","return":"2026-11-23T06:30:00-06:00","stops":[{"store":"S1","arrival":"2026-11-23T05:00:00-06:00","start":"2026-11-23T05:00:00-06:00","departure":"2026-11-23T05:20:00-06:00","pallets":["P1","P2"]}]}]}`))
	// Re-plans: the base request with its own plan as the previous plan,
	// under each kind of lock and the stability options, and a previous
	// plan and lock of a bad shape.
	if prev, err := replanSeed(); err == nil {
		f.Add([]byte(strings.Replace(decodeBase, `"options"`, `"previous": `+prev+`, "lock": {"routes": ["R1"]}, "options"`, 1)), []byte(prev))
		f.Add([]byte(strings.Replace(strings.Replace(decodeBase, `"options"`, `"previous": `+prev+`, "lock": {"before": "2026-11-23T05:00:00-06:00", "stores": ["S1", "S9"]}, "options"`, 1),
			`"seed": 1`, `"seed": 1, "stability": 12.5, "toleranceMinutes": 20`, 1)), []byte(prev))
	} else {
		f.Fatal(err)
	}
	f.Add([]byte(strings.Replace(decodeBase, `"options"`, `"previous": {"routes": [{"id": "R1", "trip": 0}, {"id": "R1", "stops": [{"pallets": ["P1", "P1"]}]}], "unassigned": []}, "lock": {"routes": [1, "R7"], "before": "soon", "stores": null}, "options"`, 1)), []byte(`{}`))
	f.Add([]byte(strings.Replace(decodeBase, `"seed": 1`, `"seed": 1, "stability": -1e400, "toleranceMinutes": "15m"`, 1)), []byte(`{}`))
	f.Fuzz(func(t *testing.T, reqJSON, planJSON []byte) {
		req, err := DecodeRequest(bytes.NewReader(reqJSON))
		checkDecodeError(t, reqJSON, err)
		plan, perr := DecodePlan(bytes.NewReader(planJSON))
		checkDecodeError(t, planJSON, perr)
		if perr == nil {
			out, err := json.Marshal(plan)
			if err == nil { // times beyond year 9999 have no JSON form
				back, err := DecodePlan(bytes.NewReader(out))
				if err != nil || !reflect.DeepEqual(normalPlan(back), normalPlan(plan)) {
					t.Fatalf("plan round trip: %v\n%s", err, out)
				}
			}
		}
		if err != nil {
			return
		}
		if err := req.Check(); err != nil {
			t.Fatalf("DecodeRequest accepted a request that fails Check: %v", err)
		}
		if out, err := json.Marshal(req); err == nil {
			if _, err := DecodeRequest(bytes.NewReader(out)); err != nil {
				t.Fatalf("request round trip: %v\n%s", err, out)
			}
		}
		if perr == nil {
			_ = Validate(req, plan)
		}
		// A small re-plan is planned: a lock the request breaks is an
		// error with violations, and a plan passes Validate with its locks.
		if req.Previous != nil && len(req.Pallets) <= 20 && len(req.Stores) <= 10 {
			req.Options.TimeLimit, req.Options.Iterations, req.Options.Streams = 200*time.Millisecond, 20, 1
			got, err := Plan(context.Background(), req)
			switch {
			case errors.Is(err, ErrInternal):
				t.Fatalf("re-plan: %v", err)
			case err != nil:
				checkDecodeError(t, reqJSON, err)
			default:
				if err := Validate(req, got); err != nil {
					t.Fatalf("re-plan fails Validate: %v", err)
				}
			}
		}
	})
}

// replanSeed is the plan of decodeBase in JSON, a previous plan for the
// fuzz seeds.
func replanSeed() (string, error) {
	req, err := DecodeRequest(strings.NewReader(decodeBase))
	if err != nil {
		return "", err
	}
	req.Options.Iterations = 20
	plan, err := Plan(context.Background(), req)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(plan)
	return string(b), err
}

// checkDecodeError: an error is a non-empty Violations whose entries all
// have a code, and no document encoding/json rejects is accepted.
func checkDecodeError(t *testing.T, doc []byte, err error) {
	t.Helper()
	if err == nil {
		if !json.Valid(doc) {
			t.Fatalf("accepted invalid JSON %q", doc)
		}
		return
	}
	vs := constraints.AsViolations(err)
	if len(vs) == 0 {
		t.Fatalf("error without violations: %v", err)
	}
	seen := map[constraints.Violation]bool{}
	for _, v := range vs {
		if v.Code == "" || v.Message == "" {
			t.Fatalf("violation without code or message: %+v", v)
		}
		if seen[v] {
			t.Fatalf("entry listed twice: %+v", v)
		}
		seen[v] = true
	}
	if len(vs) > MaxViolations+1 {
		t.Fatalf("%d violations", len(vs))
	}
}

// normalPlan makes times comparable after a round trip (the location of a
// parsed instant is a fixed zone, not the one it was written from).
func normalPlan(p Result) Result {
	b, _ := json.Marshal(p)
	return Result{Unassigned: []Unassigned{{Message: string(b)}}}
}
