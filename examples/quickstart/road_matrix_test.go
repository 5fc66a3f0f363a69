package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// oneStoreRequest is the sample cut down to one store and its pallets,
// written to a file; it returns the request and the file.
func oneStoreRequest(t *testing.T) (engine.Request, string) {
	t.Helper()
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	store := req.Stores[1]
	req.Stores = []engine.Store{store}
	var ps []engine.Pallet
	for _, p := range req.Pallets {
		if p.Store == store.ID {
			ps = append(ps, p)
		}
	}
	req.Pallets = ps
	b, err := engine.MarshalIndent(req)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "one.json")
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return req, in
}

// -matrix reads a CSV or a JSON matrix into the request: the plan drives
// the matrix's legs, one way 40 minutes and the other 55, and the
// validator, given the request with the same matrix, accepts it.
func TestQuickstartMatrixFlag(t *testing.T) {
	req, in := oneStoreRequest(t)
	dc, store := req.DC.ID, req.Stores[0].ID
	dir := t.TempDir()
	csvFile := filepath.Join(dir, "legs.csv")
	csvText := fmt.Sprintf("from,to,distance_m,duration_s\n%s,%s,52000,2400\n%s,%s,61000.5,3299.2\nSomewhere,%s,,\n", dc, store, store, dc, dc)
	jsonFile := filepath.Join(dir, "table.json")
	jsonText := fmt.Sprintf(`{"ids": [%q, %q], "distancesM": [[0, 52000], [61000.5, 0]], "durationsS": [[0, 2400], [3299.2, 0]]}`, dc, store)
	for file, text := range map[string]string{csvFile: csvText, jsonFile: jsonText} {
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		if err := run([]string{"-in", in, "-matrix", file, "-iterations", "50", "-quiet", "-json"}, &out, &errs); err != nil {
			t.Fatalf("%s: %v\n%s", file, err, errs.String())
		}
		plan, err := engine.DecodePlan(&out)
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Routes) == 0 {
			t.Fatalf("%s: no route", file)
		}
		for _, r := range plan.Routes {
			out, back := r.Stops[0].Arrival.Sub(r.Depart), r.Return.Sub(r.Stops[len(r.Stops)-1].Departure)
			if out != 40*time.Minute || back != 3300*time.Second || r.Metrics.DistanceM != 113000.5 {
				t.Errorf("%s: route %s drives %v out, %v back, %v m", file, r.ID, out, back, r.Metrics.DistanceM)
			}
		}
		m, err := readMatrixFile(file)
		if err != nil {
			t.Fatal(err)
		}
		withMatrix := req
		withMatrix.RoadMatrix = m
		if err := engine.Validate(withMatrix, plan); err != nil {
			t.Errorf("%s: %v", file, err)
		}
		if err := engine.Validate(req, plan); err == nil {
			t.Errorf("%s: the plan passes without the matrix too: the matrix was not used", file)
		}
	}
}

func TestQuickstartMatrixCSVProblems(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"from,to,metres,seconds\n", []string{"line 1: the header must be from,to,distance_m,duration_s"}},
		{"from,to,distance_m,duration_s\nA,B,-1,5\nA,B,1,2\nB,A,1,x\n,A,1,1\n", []string{
			`line 2: distance_m "-1"`, "line 3: the leg A → B is on line 2 too", `line 4: duration_s "x"`, "line 5: from and to must name places"}},
		{"from,to,distance_m,duration_s\nA,B,1\n", []string{"record on line 2: wrong number of fields"}},
	} {
		_, err := readMatrixCSV(strings.NewReader(c.text))
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v lacks %q", c.text, err, w)
			}
		}
	}
	// A matrix without the request's store is reported with the path.
	_, in := oneStoreRequest(t)
	file := filepath.Join(t.TempDir(), "legs.csv")
	if err := os.WriteFile(file, []byte("from,to,distance_m,duration_s\nX,Y,1,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := run([]string{"-in", in, "-matrix", file}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "travel.matrix.ids") {
		t.Errorf("matrix without the request's ids: %v", err)
	}
}

func TestMatrixCSVNoRouteAndDiagonal(t *testing.T) {
	m, err := readMatrixCSV(strings.NewReader("from,to,distance_m,duration_s\nA,B,10,1.5\nB,C,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.IDs, ",") != "A,B,C" {
		t.Fatalf("ids %v", m.IDs)
	}
	if d, s, ok := m.Leg(0, 1); !ok || d != 10 || s != 2*time.Second {
		t.Errorf("A→B: %v %v %v", d, s, ok)
	}
	for _, leg := range [][2]int{{1, 0}, {1, 2}, {0, 2}} {
		if _, _, ok := m.Leg(leg[0], leg[1]); ok {
			t.Errorf("leg %v has a route", leg)
		}
	}
	if d, s, ok := m.Leg(2, 2); !ok || d != 0 || s != 0 {
		t.Errorf("C→C: %v %v %v", d, s, ok)
	}
}

// FuzzReadMatrixCSV: whatever the text, readMatrixCSV returns a matrix or
// an error, never both, and never panics; a matrix has every place its
// rows name, once, and each leg a row gives as that row gives it (metres,
// seconds rounded up, or no route).
func FuzzReadMatrixCSV(f *testing.F) {
	for _, s := range []string{
		"from,to,distance_m,duration_s\nA,B,10,1.5\nB,C,,\n",
		"\ufefffrom,to,distance_m,duration_s\nA,A,3,4\nB,A,0,0\n",
		"from,to,distance_m,duration_s\nA,B,-1,5\nA,B,1,2\n",
		"from,to,distance_m,duration_s\nA,B,1\n",
		"from,to\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m, err := readMatrixCSV(strings.NewReader(text))
		if err != nil {
			if m != nil {
				t.Fatalf("a matrix and an error: %v", err)
			}
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if m == nil {
			t.Fatal("neither a matrix nor an error")
		}
		seen := map[string]int{}
		for i, id := range m.IDs {
			if _, dup := seen[id]; dup {
				t.Fatalf("place %q listed twice", id)
			}
			seen[id] = i
		}
		// Read the rows again on their own and compare each leg.
		cr := csv.NewReader(strings.NewReader(text))
		cr.Read() // the header, which readMatrixCSV accepted
		for {
			rec, err := cr.Read()
			if err != nil {
				break
			}
			from, to := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
			i, ok1 := seen[from]
			j, ok2 := seen[to]
			if !ok1 || !ok2 {
				t.Fatalf("row %v names a place the matrix lacks", rec)
			}
			d, s, routed := m.Leg(i, j)
			dist, secs := strings.TrimSpace(rec[2]), strings.TrimSpace(rec[3])
			if dist == "" || secs == "" {
				if routed && i != j {
					t.Fatalf("row %v has no route, the matrix has %v m, %v", rec, d, s)
				}
				continue
			}
			wantM, _ := strconv.ParseFloat(dist, 64)
			wantS, _ := strconv.ParseFloat(secs, 64)
			if !routed || d != wantM || s != time.Duration(math.Ceil(wantS))*time.Second {
				t.Fatalf("row %v: the matrix has %v m, %v, routed %v", rec, d, s, routed)
			}
		}
	})
}
