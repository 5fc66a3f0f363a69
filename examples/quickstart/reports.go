package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
)

// writeReports writes the plan and its reports into dir (made if need be)
// and returns the paths written.
func writeReports(dir string, req engine.Request, plan engine.Result) ([]string, error) {
	if err := os.MkdirAll(filepath.Join(dir, "trailers"), 0o755); err != nil {
		return nil, err
	}
	var written []string
	write := func(name string, fill func(io.Writer) error) error {
		var buf bytes.Buffer
		if err := fill(&buf); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		written = append(written, path)
		return nil
	}
	steps := []struct {
		name string
		fill func(io.Writer) error
	}{
		{"plan.json", func(w io.Writer) error {
			b, err := engine.MarshalIndent(plan)
			if err == nil {
				_, err = w.Write(b)
			}
			return err
		}},
		{"dispatch-summary.xlsx", func(w io.Writer) error { return report.DispatchSummary(w, req, plan) }},
		{"routes.geojson", func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", " ")
			return enc.Encode(report.GeoJSON(req, plan))
		}},
		{"routes.svg", func(w io.Writer) error { return report.RouteMap(w, req, plan) }},
		{"schedule.svg", func(w io.Writer) error { return report.Schedule(w, req, plan) }},
		{"dock.svg", func(w io.Writer) error { return report.DockSchedule(w, req, plan) }},
		{"index.html", func(w io.Writer) error { return report.HTML(w, req, plan) }},
	}
	for _, r := range plan.Routes {
		id := r.ID
		steps = append(steps, struct {
			name string
			fill func(io.Writer) error
		}{filepath.Join("trailers", fileName(id)+".svg"), func(w io.Writer) error { return report.TrailerFloor(w, req, plan, id) }})
	}
	for _, s := range steps {
		if err := write(s.name, s.fill); err != nil {
			return written, err
		}
	}
	return written, nil
}

// fileName keeps a route id's letters, digits, '-', '_' and '.', so that
// any id makes one file name inside trailers/.
func fileName(id string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, id)
	if name == "" || strings.Trim(name, ".") == "" {
		name = "_" + name
	}
	return name
}
