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
	cl := csvLegs{index: map[string]int{}, lineOf: map[[2]int]int{}}
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A csv.ParseError names its line; FieldPos has no record
			// to tell of.
			errs = append(errs, err)
			if errors.Is(err, csv.ErrFieldCount) {
				continue
			}
			break
		}
		line, _ := cr.FieldPos(0)
		if err := cl.add(rec, line); err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", line, err))
		}
	}
	if len(cl.ids) > engine.MaxMatrixPlaces {
		errs = append(errs, fmt.Errorf("%d places: at most %d", len(cl.ids), engine.MaxMatrixPlaces))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return cl.matrix(), nil
}

// csvLeg is one row of a CSV matrix: the places at its ends (indices
// into csvLegs.ids), and its metres and duration when routed.
type csvLeg struct {
	from, to int
	metres   float64
	d        time.Duration
	routed   bool
}

// csvLegs are the rows of a CSV matrix read so far: the places they name
// (ids, in the order they first appear, and their index), the legs, and
// the line of each leg's row.
type csvLegs struct {
	ids    []string
	index  map[string]int
	legs   []csvLeg
	lineOf map[[2]int]int
}

// place is the index of place id, added when new.
func (cl *csvLegs) place(id string) int {
	if i, ok := cl.index[id]; ok {
		return i
	}
	cl.index[id] = len(cl.ids)
	cl.ids = append(cl.ids, id)
	return len(cl.ids) - 1
}

// add reads the row rec on line line: the leg it gives, or why it is bad.
func (cl *csvLegs) add(rec []string, line int) error {
	from, to := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
	if from == "" || to == "" {
		return errors.New("from and to must name places")
	}
	l := csvLeg{from: cl.place(from), to: cl.place(to), routed: true}
	if first, dup := cl.lineOf[[2]int{l.from, l.to}]; dup {
		return fmt.Errorf("the leg %s → %s is on line %d too", from, to, first)
	}
	cl.lineOf[[2]int{l.from, l.to}] = line
	dist, secs := strings.TrimSpace(rec[2]), strings.TrimSpace(rec[3])
	if dist == "" || secs == "" {
		l.routed = false
		cl.legs = append(cl.legs, l)
		return nil
	}
	m, merr := strconv.ParseFloat(dist, 64)
	s, serr := strconv.ParseFloat(secs, 64)
	switch {
	case merr != nil || math.IsNaN(m) || math.IsInf(m, 0) || m < 0 || m > math.MaxFloat32:
		return fmt.Errorf("distance_m %q must be a number of metres, 0 or more (empty: no route)", dist)
	case serr != nil || math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s >= geo.NoRoute:
		return fmt.Errorf("duration_s %q must be a number of seconds, 0 or more (empty: no route)", secs)
	}
	l.metres, l.d = m, time.Duration(math.Ceil(s))*time.Second
	cl.legs = append(cl.legs, l)
	return nil
}

// matrix is the road matrix of the legs read: no route between two
// places but where a row gives one.
func (cl *csvLegs) matrix() *geo.RoadMatrix {
	m := geo.NewRoadMatrix(cl.ids)
	for i := range cl.ids {
		for j := range cl.ids {
			if i != j {
				m.SetNoRoute(i, j)
			}
		}
	}
	for _, l := range cl.legs {
		if l.routed {
			m.Set(l.from, l.to, l.metres, l.d)
		} else {
			m.SetNoRoute(l.from, l.to)
		}
	}
	return m
}
