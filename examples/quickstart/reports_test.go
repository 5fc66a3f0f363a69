package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paulmach/orb/geojson"
	"github.com/xuri/excelize/v2"

	"github.com/haulplan/haulplan/engine"
)

// -out writes every report, and each one reopens: the workbook with
// excelize, the GeoJSON with orb, the SVGs as XML, the plan with engine.
func TestQuickstartWritesReports(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	var out, errs bytes.Buffer
	if err := run([]string{"-time", "1s", "-out", dir}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Fatalf("%s is empty", name)
		}
		return b
	}
	plan, err := engine.DecodePlan(bytes.NewReader(read("plan.json")))
	if err != nil {
		t.Fatal(err)
	}
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Validate(req, plan); err != nil {
		t.Fatalf("plan.json: %v", err)
	}

	f, err := excelize.OpenReader(bytes.NewReader(read("dispatch-summary.xlsx")))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.GetSheetList(), ","); got != "Summary,Routes,Drivers,Dock,Stops,Load,Axle loads,Unassigned" {
		t.Errorf("sheets %s", got)
	}
	if rows, _ := f.GetRows("Routes"); len(rows) != 1+len(plan.Routes) {
		t.Errorf("Routes sheet has %d rows for %d routes", len(rows), len(plan.Routes))
	}
	f.Close()

	fc, err := geojson.UnmarshalFeatureCollection(read("routes.geojson"))
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(req.Stores) + len(plan.Routes); len(fc.Features) != want {
		t.Errorf("routes.geojson has %d features, want %d", len(fc.Features), want)
	}

	svgs := []string{"routes.svg", "schedule.svg", "dock.svg"}
	for _, r := range plan.Routes {
		svgs = append(svgs, filepath.Join("trailers", r.ID+".svg"))
	}
	for _, name := range svgs {
		dec := xml.NewDecoder(bytes.NewReader(read(name)))
		root := ""
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if se, ok := tok.(xml.StartElement); ok && root == "" {
				root = se.Name.Local
			}
		}
		if root != "svg" {
			t.Errorf("%s: root element %q", name, root)
		}
	}
	page := string(read("index.html"))
	if !strings.HasPrefix(page, "<!doctype html>") || strings.Count(page, "<svg ") != 3+len(plan.Routes) {
		t.Errorf("index.html does not hold the map, the schedule, the dock and %d floors", len(plan.Routes))
	}
	if !strings.Contains(errs.String(), "wrote") {
		t.Errorf("no word of the files on stderr: %q", errs.String())
	}
}

func TestFileName(t *testing.T) {
	for id, want := range map[string]string{"R1": "R1", "../x": ".._x", "a b/c": "a_b_c", "..": "_..", "": "_"} {
		if got := fileName(id); got != want {
			t.Errorf("fileName(%q) = %q, want %q", id, got, want)
		}
	}
}
