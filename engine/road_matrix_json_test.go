package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
)

// matrixRequest is decodeBase with travel given as matrix, a JSON value.
func matrixRequest(matrix string) string {
	return strings.Replace(decodeBase, `"options":`, `"travel": {"matrix": `+matrix+`}, "options":`, 1)
}

const goodMatrix = `{"ids": ["S1", "X", "DC"],
  "distancesM": [[0, 5, 20000.5], [5, 0, 7], [21000, 8, 0]],
  "durationsS": [[0, 1, 1500.2], [1, 0, 2], [1700, 3, 0]]}`

func TestDecodeRoadMatrix(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(matrixRequest(goodMatrix)))
	if err != nil {
		t.Fatal(err)
	}
	m := req.RoadMatrix
	if m == nil || !reflect.DeepEqual(m.IDs, []string{"S1", "X", "DC"}) {
		t.Fatalf("matrix %+v", m)
	}
	// Durations round up to whole seconds; rows are the ids' order.
	if d, s, ok := m.Leg(0, 2); !ok || d != 20000.5 || s.Seconds() != 1501 {
		t.Errorf("S1 → DC: %v m, %v, %v", d, s, ok)
	}
	if d, s, ok := m.Leg(2, 0); !ok || d != 21000 || s.Seconds() != 1700 {
		t.Errorf("DC → S1: %v m, %v, %v", d, s, ok)
	}
	// Written and read again: the same matrix, inside "travel".
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"travel":{"matrix":{"ids":["S1","X","DC"],"distancesM":[[0,5,20000.5],`)) {
		t.Errorf("written as %s", out)
	}
	back, err := DecodeRequest(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.RoadMatrix, m) {
		t.Errorf("round trip: %+v, want %+v", back.RoadMatrix, m)
	}
}

func TestDecodeRoadMatrixNulls(t *testing.T) {
	// A null in either matrix is a leg without a route; ids may come
	// last, and extra ids are allowed.
	doc := `{"distancesM": [[0, null, 3, 1], [4, 0, 5, 1], [6, 7, 0, 1], [1, 1, 1, 0]],
	  "durationsS": [[0, 1, 2, 1], [null, 0, 3, 1], [4, 5, 0, 1], [1, 1, 1, 0]], "ids": ["DC", "S1", "Elsewhere", "S2"]}`
	req, err := DecodeRequest(strings.NewReader(matrixRequest(doc)))
	if err != nil {
		t.Fatal(err)
	}
	m := req.RoadMatrix
	for _, leg := range [][2]int{{0, 1}, {1, 0}} {
		if _, _, ok := m.Leg(leg[0], leg[1]); ok {
			t.Errorf("leg %v has a route", leg)
		}
	}
	if _, d, ok := m.Leg(2, 1); !ok || d.Seconds() != 5 {
		t.Errorf("leg 2→1: %v %v", d, ok)
	}
	out, _ := json.Marshal(req)
	if !bytes.Contains(out, []byte(`"distancesM":[[0,null,3,1],[null,0,5,1]`)) || !bytes.Contains(out, []byte(`"durationsS":[[0,null,2,1],[null,0,3,1]`)) {
		t.Errorf("no route written as %s", out)
	}
}

func TestDecodeRoadMatrixProblems(t *testing.T) {
	cases := []struct {
		name   string
		matrix string
		want   []problem
	}{
		{"a store without a row", `{"ids": ["DC", "Z"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"REQUIRED@travel.matrix.ids", []string{`store stores[0] "S1"`}}}},
		{"the DC without a row", `{"ids": ["S1"], "distancesM": [[0]], "durationsS": [[0]]}`,
			[]problem{{"REQUIRED@travel.matrix.ids", []string{`the DC "DC"`}}}},
		{"an id given twice", `{"ids": ["DC", "S1", "DC"], "distancesM": [[0,1,1],[1,0,1],[1,1,0]], "durationsS": [[0,1,1],[1,0,1],[1,1,0]]}`,
			[]problem{{"DUPLICATE_ID@travel.matrix.ids[2]", []string{`"DC" is ids[0] too`}}}},
		{"a short row", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM[1]", []string{"has 1 leg; ids lists 2"}}}},
		{"a long row", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 1, 9], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.durationsS[0]", []string{"has 3 legs; ids lists 2"}}}},
		{"a row missing", `{"ids": ["DC", "S1"], "distancesM": [[0, 1]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM", []string{"has 1 row; ids lists 2"}}}},
		{"a row too many", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0], [2, 2]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM[2]", []string{"a row too many"}}}},
		{"ids after rows of another length", `{"distancesM": [[0, 1, 1], [1, 0, 1], [1, 1, 0]], "durationsS": [[0, 1, 1], [1, 0, 1], [1, 1, 0]], "ids": ["DC", "S1"]}`,
			[]problem{{"INVALID_VALUE@travel.matrix", []string{"ids lists 2 ids", "rows have 3 legs"}}}},
		{"a negative duration", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 1], [-4, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.durationsS[1][0]", []string{`leg "S1" → "DC" of -4 s`, "must not be negative"}}}},
		{"a negative distance", `{"ids": ["DC", "S1"], "distancesM": [[0, -1.5], [1, 0]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM[0][1]", []string{"-1.5 m", "must not be negative"}}}},
		{"a distance beyond float32", `{"ids": ["DC", "S1"], "distancesM": [[0, 1e39], [1, 0]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM[0][1]", []string{"1e+39 m is out of range"}}}},
		{"a distance beyond float64", `{"ids": ["DC", "S1"], "distancesM": [[0, 1e999], [1, 0]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.distancesM[0][1]", []string{"1e999 is out of range"}}}},
		{"a duration of a century", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 3.2e9], [1, 0]]}`,
			[]problem{{"INVALID_VALUE@travel.matrix.durationsS[0][1]", []string{"out of range (68 years)"}}}},
		{"a string leg", `{"ids": ["DC", "S1"], "distancesM": [[0, "1"], [1, 0]], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_TYPE@travel.matrix.distancesM[0][1]", []string{"a distance in metres (or null for no route)", `not "1"`}}}},
		{"a null row", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], null], "durationsS": [[0, 1], [1, 0]]}`,
			[]problem{{"INVALID_TYPE@travel.matrix.distancesM[1]", []string{"an array of legs"}}}},
		{"no durations", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0]]}`,
			[]problem{{"REQUIRED@travel.matrix.durationsS", nil}}},
		{"an unknown member", `{"ids": ["DC", "S1"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 1], [1, 0]], "durations": []}`,
			[]problem{{"UNKNOWN_MEMBER@travel.matrix.durations", []string{`did you mean "durationsS"`}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeRequest(strings.NewReader(matrixRequest(c.matrix)))
			vs := constraints.AsViolations(err)
			if len(vs) != len(c.want) {
				t.Fatalf("got %d violations, want %d:\n%v", len(vs), len(c.want), err)
			}
			for i, w := range c.want {
				if got := vs[i].Code + "@" + vs[i].Path; got != w.at {
					t.Errorf("violation %d at %s, want %s (%s)", i, got, w.at, vs[i].Message)
				}
				for _, word := range w.words {
					if !strings.Contains(vs[i].Message, word) {
						t.Errorf("violation %d: %q lacks %q", i, vs[i].Message, word)
					}
				}
			}
		})
	}
}

func TestDecodeRoadMatrixListsEveryProblem(t *testing.T) {
	// Several problems of one matrix come together, each at its path.
	doc := `{"ids": ["DC", "S1", "DC"], "distancesM": [[0, 1, 2], [1, -3], [1, 1, 0]], "durationsS": [[0, 1, 1], [1, 0, -1], [1, 1, 0]]}`
	_, err := DecodeRequest(strings.NewReader(matrixRequest(doc)))
	var got []string
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+"@"+v.Path)
	}
	want := []string{"INVALID_VALUE@travel.matrix.distancesM[1]", "DUPLICATE_ID@travel.matrix.ids[2]",
		"INVALID_VALUE@travel.matrix.durationsS[1][2]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v\n%v", got, want, err)
	}
}

func TestRoadMatrixAndOptionsMatrix(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(matrixRequest(goodMatrix)))
	if err != nil {
		t.Fatal(err)
	}
	req.Options.Matrix = geo.TravelModel{}
	vs := constraints.AsViolations(req.Check())
	if len(vs) != 1 || vs[0].Path != "travel.matrix" || !strings.Contains(vs[0].Message, "Options.Matrix") {
		t.Errorf("both matrices: %v", vs)
	}
}

func TestDecodeRoadMatrixAlone(t *testing.T) {
	m, err := DecodeRoadMatrix(strings.NewReader(goodMatrix))
	if err != nil || m.Len() != 3 {
		t.Fatalf("%v, %v", m, err)
	}
	_, err = DecodeRoadMatrix(strings.NewReader(`{"ids": ["A", "A"], "distancesM": [[0, 1], [1, 0]], "durationsS": [[0, 1], [-1, 0]]}`))
	var got []string
	for _, v := range constraints.AsViolations(err) {
		got = append(got, v.Code+"@"+v.Path)
	}
	if want := []string{"DUPLICATE_ID@ids[1]", "INVALID_VALUE@durationsS[1][0]"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := DecodeRoadMatrix(strings.NewReader(`null`)); err == nil {
		t.Error("null matrix accepted")
	}
}

// FuzzDecodeRoadMatrix feeds arbitrary matrices to the request decoder
// (inside travel) and to DecodeRoadMatrix: nothing panics; every
// violation has a code and a message; a matrix that decodes passes Check,
// has n×n legs for its n ids, and is written in a form that reads back
// the same.
func FuzzDecodeRoadMatrix(f *testing.F) {
	f.Add([]byte(goodMatrix))
	f.Add([]byte(`{"ids": ["DC", "S1"], "distancesM": [[0, null], [1e39, 0]], "durationsS": [[0, 1], [null, 0]]}`))
	f.Add([]byte(`{"distancesM": [[0, 1, 1], [1, 0]], "durationsS": [[0, 1, 1], [1, 0, -1], [1, 1, 0], [1]], "ids": ["DC", "S1"]}`))
	f.Add([]byte(`{"ids": ["DC", "S1", "S1"], "distancesM": [[], [0, 1, 2, 3, 4]], "durationsS": null}`))
	f.Add([]byte(`{"ids": [], "distancesM": [], "durationsS": []}`))
	f.Fuzz(decodeRoadMatrixOnce)
}

func decodeRoadMatrixOnce(t *testing.T, matrix []byte) {
	doc := []byte(matrixRequest(string(matrix)))
	req, err := DecodeRequest(bytes.NewReader(doc))
	checkDecodeError(t, doc, err)
	if err == nil {
		if err := req.Check(); err != nil {
			t.Fatalf("decoded a request that fails Check: %v", err)
		}
		if req.RoadMatrix != nil {
			checkWholeMatrix(t, req.RoadMatrix)
			out, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeRequest(bytes.NewReader(out))
			if err != nil || !reflect.DeepEqual(back.RoadMatrix, req.RoadMatrix) {
				t.Fatalf("round trip: %v\n%s", err, out)
			}
		}
	}
	m, err := DecodeRoadMatrix(bytes.NewReader(matrix))
	checkDecodeError(t, matrix, err)
	if err == nil {
		checkWholeMatrix(t, m)
		back, err := DecodeRoadMatrix(bytes.NewReader(AppendRoadMatrix(nil, m)))
		if err != nil || !reflect.DeepEqual(back, m) {
			t.Fatalf("round trip alone: %v", err)
		}
	}
}

func checkWholeMatrix(t *testing.T, m *geo.RoadMatrix) {
	t.Helper()
	n := m.Len()
	if len(m.Metres) != n*n || len(m.Seconds) != n*n {
		t.Fatalf("%d ids, %d and %d legs", n, len(m.Metres), len(m.Seconds))
	}
	for c := range m.Seconds {
		if m.Seconds[c] < 0 || !(m.Metres[c] >= 0) {
			t.Fatalf("leg %d: %v m, %v s", c, m.Metres[c], m.Seconds[c])
		}
	}
	if ps := m.Problems(); len(ps) > 0 {
		t.Fatal(fmt.Sprint(ps))
	}
}

// lyingLen says it holds fewer bytes than it does.
type lyingLen struct{ *strings.Reader }

func (l lyingLen) Len() int { return 3 }

func TestReadAllSizes(t *testing.T) {
	text := strings.Repeat("0123456789", 1000)
	f := t.TempDir() + "/body"
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, r := range map[string]io.Reader{"bytes": bytes.NewReader([]byte(text)), "file": file,
		"short Len": lyingLen{strings.NewReader(text)}, "unknown": io.MultiReader(strings.NewReader(text))} {
		got, err := readAll(r)
		if err != nil || string(got) != text {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
}
