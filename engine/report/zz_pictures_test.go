package report

import (
	"os"
	"path/filepath"
	"testing"
)

func TestZZWritePictures(t *testing.T) {
	dir := os.Getenv("REPORT_PICTURES")
	if dir == "" {
		t.Skip()
	}
	req, plan := samplePlan(t)
	f, _ := os.Create(filepath.Join(dir, "routes.svg"))
	if err := RouteMap(f, req, plan); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestZZWriteFloors(t *testing.T) {
	dir := os.Getenv("REPORT_PICTURES")
	if dir == "" {
		t.Skip()
	}
	req, plan := samplePlan(t)
	for _, r := range plan.Routes {
		f, _ := os.Create(filepath.Join(dir, r.ID+".svg"))
		if err := TrailerFloor(f, req, plan, r.ID); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

func TestZZWriteSchedule(t *testing.T) {
	dir := os.Getenv("REPORT_PICTURES")
	if dir == "" {
		t.Skip()
	}
	req, plan := samplePlan(t)
	f, _ := os.Create(filepath.Join(dir, "schedule.svg"))
	if err := Schedule(f, req, plan); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestZZWriteHTML(t *testing.T) {
	dir := os.Getenv("REPORT_PICTURES")
	if dir == "" {
		t.Skip()
	}
	req, plan := samplePlan(t)
	f, _ := os.Create(filepath.Join(dir, "index.html"))
	if err := HTML(f, req, plan); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestZZStacked(t *testing.T) {
	dir := os.Getenv("REPORT_PICTURES")
	if dir == "" {
		t.Skip()
	}
	req, plan := samplePlan(t)
	r := &plan.Routes[0]
	for i := 0; i+1 < 6; i += 2 {
		a, b := r.Load.Placements[i], &r.Load.Placements[i+1]
		b.Row, b.Side, b.XMM, b.Turned, b.Level = a.Row, a.Side, a.XMM, a.Turned, 1
	}
	f, _ := os.Create(filepath.Join(dir, "stacked.svg"))
	if err := TrailerFloor(f, req, plan, r.ID); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
