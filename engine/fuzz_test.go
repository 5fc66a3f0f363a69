package engine

import (
	"bytes"
	"testing"
)

// FuzzDecodeAndValidate feeds arbitrary bytes to the request decoder and,
// for requests that decode, arbitrary plans to Validate: nothing may panic,
// and a decoded request must pass its own Check.
func FuzzDecodeAndValidate(f *testing.F) {
	// The quickstart sample is not a seed: at 250 kB, minimising every
	// interesting mutation of it stalls the fuzzer for many seconds.
	f.Add([]byte(`{"dc":{"id":"D","location":{"lat":0,"lng":0}},"stores":[],"pallets":[],"fleet":[],"shifts":[]}`), []byte(`{}`))
	f.Add([]byte(`{"dc":{"id":"D","location":{"lat":1,"lng":2},"loadingPerPallet":"1m"},"stores":[{"id":"S","location":{"lat":1.1,"lng":2},"hours":{"days":{"mon":[{"open":"22:00","close":"02:00"}]}},"unloading":{"fixed":"10m","perPallet":60}}],"pallets":[{"id":"P","store":"S","weightKg":100,"heightMM":1000,"temperature":"FROZEN","footprint":"HALF"}],"fleet":[{"id":"T","count":1,"inside":{"lengthMM":16000,"widthMM":2500,"heightMM":2700},"palletPositions":30,"payloadKg":20000,"equipment":{"kind":"REEFER"},"axles":{"kingpinMM":900,"axleGroupMM":12000,"tareKg":6000,"tareCentreMM":7000,"kingpinLimitKg":11000,"axleGroupLimitKg":15422}}],"shifts":[{"id":"X","start":"2026-11-23T04:00:00Z","end":"2026-11-23T16:00:00Z"}]}`),
		[]byte(`{"routes":[{"id":"R1","trailer":"T","shift":"X","start":"2026-11-23T04:00:00Z","depart":"2026-11-23T04:01:00Z","return":"2026-11-23T05:00:00Z","stops":[{"store":"S","arrival":"2026-11-23T04:20:00Z","start":"2026-11-23T04:20:00Z","departure":"2026-11-23T04:40:00Z","wait":"0s","pallets":["P","P","Q"]}],"load":{"zones":[{"temperature":"FROZEN","firstRow":0,"lastRow":-3}],"placements":[{"pallet":"P","row":-1,"side":"UP","zone":7,"xMM":-5}],"axles":[{"afterStop":9}]}}],"unassigned":[{"pallet":"Z","reason":"?"}]}`))
	f.Fuzz(func(t *testing.T, reqJSON, planJSON []byte) {
		req, err := DecodeRequest(bytes.NewReader(reqJSON))
		if err != nil {
			return
		}
		if err := req.Check(); err != nil {
			t.Fatalf("DecodeRequest accepted a request that fails Check: %v", err)
		}
		plan, err := DecodePlan(bytes.NewReader(planJSON))
		if err != nil {
			return
		}
		_ = Validate(req, plan)
	})
}
