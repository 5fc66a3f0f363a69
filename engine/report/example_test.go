package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/paulmach/orb"
	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
)

// plan plans the quickstart's sample with an iteration budget, so that
// the examples give the same plan on any machine.
func plan() (engine.Request, engine.Result) {
	f, err := os.Open("../../examples/quickstart/sample.json")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	req, err := engine.DecodeRequest(f)
	if err != nil {
		panic(err)
	}
	req.Options.Iterations, req.Options.Streams = 300, 2
	res, err := engine.Plan(context.Background(), req)
	if err != nil {
		panic(err)
	}
	return req, res
}

func ExampleDispatchSummary() {
	req, res := plan()
	var buf bytes.Buffer // or an http.ResponseWriter, or a file
	if err := report.DispatchSummary(&buf, req, res); err != nil {
		panic(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	fmt.Println(f.GetSheetList())
	day, _ := f.GetCellValue("Summary", "B2")
	fmt.Println(day)
	// Output:
	// [Summary Routes Drivers Dock Stops Load Axle loads Unassigned]
	// Tuesday 2026-11-24
}

func ExampleGeoJSON() {
	req, res := plan()
	fc := report.GeoJSON(req, res)
	dc := orb.Point{req.DC.Location.Lng, req.DC.Location.Lat}
	kinds := map[any]int{}
	closed := true
	for _, f := range fc.Features {
		kinds[f.Properties["kind"]]++
		if line, ok := f.Geometry.(orb.LineString); ok {
			closed = closed && line[0] == dc && line[len(line)-1] == dc
		}
	}
	b, _ := json.Marshal(fc.Features[0].Geometry.(orb.Point))
	fmt.Println("dc", kinds["dc"], "stores", kinds["store"], "routes", kinds["route"] == len(res.Routes))
	fmt.Println("the DC as [lng, lat]:", string(b))
	fmt.Println("every route runs from the DC and back:", closed)
	// Output:
	// dc 1 stores 48 routes true
	// the DC as [lng, lat]: [-96.7561,32.5921]
	// every route runs from the DC and back: true
}
