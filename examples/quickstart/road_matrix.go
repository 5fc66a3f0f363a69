package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/geo"
)

// readMatrixFile reads the road matrix of -matrix: a file ending in .csv
// is CSV (see readMatrixCSV), any other the JSON form of a request's
// travel.matrix, {"ids", "distancesM", "durationsS"} (engine.DecodeRoadMatrix).
func readMatrixFile(path string) (*geo.RoadMatrix, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m *geo.RoadMatrix
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		m, err = readMatrixCSV(bytes.NewReader(b))
	} else {
		m, err = engine.DecodeRoadMatrix(bytes.NewReader(b))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// matrixCSVHeader is the header a CSV matrix starts with.
var matrixCSVHeader = []string{"from", "to", "distance_m", "duration_s"}

// readMatrixCSV reads a matrix as CSV, one leg a row under the header
// from,to,distance_m,duration_s: the ids of both ends, metres and seconds
// (decimals allowed; seconds are rounded up). The ids are those the rows
// name, in the order they first appear. A leg no row gives has no route,
// and so has a row whose distance or duration is empty, except a place to
// itself, which is 0 m and 0 s unless a row says otherwise. Every bad row
// is reported, with its line.
func readMatrixCSV(r io.Reader) (*geo.RoadMatrix, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(matrixCSVHeader)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	for i, h := range matrixCSVHeader {
		if strings.TrimSpace(strings.TrimPrefix(head[i], "\ufeff")) != h {
			return nil, fmt.Errorf("line 1: the header must be %s", strings.Join(matrixCSVHeader, ","))
		}
	}
	type leg struct {
		from, to int
		metres   float64
		d        time.Duration
		routed   bool
	}
	var ids []string
	index := map[string]int{}
	place := func(id string) int {
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(ids)
		ids = append(ids, id)
		return len(ids) - 1
	}
	var legs []leg
	var errs []error
	lineOf := map[[2]int]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, csv.ErrFieldCount) {
				continue
			}
			break
		}
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("line %d: "+format, append([]any{line}, args...)...))
		}
		from, to := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		if from == "" || to == "" {
			bad("from and to must name places")
			continue
		}
		l := leg{from: place(from), to: place(to), routed: true}
		if first, dup := lineOf[[2]int{l.from, l.to}]; dup {
			bad("the leg %s → %s is on line %d too", from, to, first)
			continue
		}
		lineOf[[2]int{l.from, l.to}] = line
		dist, secs := strings.TrimSpace(rec[2]), strings.TrimSpace(rec[3])
		if dist == "" || secs == "" {
			l.routed = false
			legs = append(legs, l)
			continue
		}
		m, merr := strconv.ParseFloat(dist, 64)
		s, serr := strconv.ParseFloat(secs, 64)
		switch {
		case merr != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 0 || m > math.MaxFloat32:
			bad("distance_m %q must be a number of metres, 0 or more (empty: no route)", dist)
		case serr != nil || math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s >= geo.NoRoute:
			bad("duration_s %q must be a number of seconds, 0 or more (empty: no route)", secs)
		default:
			l.metres, l.d = m, time.Duration(math.Ceil(s))*time.Second
			legs = append(legs, l)
		}
	}
	if len(ids) > engine.MaxMatrixPlaces {
		errs = append(errs, fmt.Errorf("%d places: at most %d", len(ids), engine.MaxMatrixPlaces))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	m := geo.NewRoadMatrix(ids)
	for i := range ids {
		for j := range ids {
			if i != j {
				m.SetNoRoute(i, j)
			}
		}
	}
	for _, l := range legs {
		if l.routed {
			m.Set(l.from, l.to, l.metres, l.d)
		} else {
			m.SetNoRoute(l.from, l.to)
		}
	}
	return m, nil
}
