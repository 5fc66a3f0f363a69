package vrptw

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/haulplan/haulplan/routeplan"
)

// tiny is a 5-customer instance in Solomon layout, with CRLF line endings.
var tiny = strings.ReplaceAll(`TINY

VEHICLE
NUMBER     CAPACITY
  3          20

CUSTOMER
CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME
 
    0      0          0          0          0        200          0
    1      3          4          5          0         50         10
    2      6          8          5         20         80         10
    3     -3          4         10          0        100         10
    4      0         10          8         30         60          5
    5      1          1          4          0        190          0
`, "\n", "\r\n")

func TestRead(t *testing.T) {
	in, err := Read(strings.NewReader(tiny))
	if err != nil {
		t.Fatal(err)
	}
	if in.Name != "TINY" || in.Vehicles != 3 || in.Capacity != 20 || len(in.Customers) != 6 {
		t.Fatalf("got %+v", in)
	}
	want := Customer{ID: 4, X: 0, Y: 10, Demand: 8, Ready: 30, Due: 60, Service: 5}
	if in.Customers[4] != want {
		t.Fatalf("customer 4 = %+v, want %+v", in.Customers[4], want)
	}
}

func TestReadErrors(t *testing.T) {
	for name, text := range map[string]string{
		"empty":       "",
		"no fleet":    "X\nCUSTOMER\n0 0 0 0 0 10 0\n",
		"bad id":      "X\nVEHICLE\n1 10\nCUSTOMER\n1 0 0 0 0 10 0\n",
		"short row":   "X\nVEHICLE\n1 10\nCUSTOMER\n0 0 0 0 0 10\n",
		"nan":         "X\nVEHICLE\n1 10\nCUSTOMER\n0 0 0 0 0 NaN 0\n",
		"due < ready": "X\nVEHICLE\n1 10\nCUSTOMER\n0 0 0 0 10 5 0\n",
		"no depot":    "X\nVEHICLE\n1 10\nCUSTOMER\n",
		"neg demand":  "X\nVEHICLE\n1 10\nCUSTOMER\n0 0 0 -1 0 10 0\n",
	} {
		if _, err := Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestConventions(t *testing.T) {
	in, _ := Read(strings.NewReader(tiny))
	// Customer 5 at (1,1): sqrt 2 = 1.41421..., truncated to 1.4.
	if got := in.arc(Distance, 0, 5); got != 14 {
		t.Errorf("DIMACS arc = %g tenths, want 14", got)
	}
	if got := in.arc(Hierarchical, 0, 5); got != math.Sqrt2 {
		t.Errorf("double arc = %g", got)
	}
	if got := in.arc(Distance, 0, 1); got != 50 {
		t.Errorf("exact arc = %g tenths, want 50", got)
	}
}

func TestSolveTiny(t *testing.T) {
	in, _ := Read(strings.NewReader(tiny))
	for _, c := range []Convention{Hierarchical, Distance} {
		sol, err := routeplan.Solve(context.Background(), in.Problem(c), routeplan.Options{MaxIterations: 200})
		if err != nil || len(sol.Unassigned) > 0 {
			t.Fatalf("%v: %v, unassigned %v", c, err, sol.Unassigned)
		}
		d, err := in.Validate(c, Routes(sol))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(d-sol.Distance/c.Scale()) > 1e-9 {
			t.Errorf("checked distance %g, solver %g", d, sol.Distance/c.Scale())
		}
	}
}

func TestValidateRejects(t *testing.T) {
	in, _ := Read(strings.NewReader(tiny))
	for _, tc := range []struct {
		name   string
		routes [][]int
		want   string
	}{
		{"missing", [][]int{{1, 2}, {3, 4}}, "not visited"},
		{"twice", [][]int{{1, 2, 5}, {3, 4, 1}}, "twice"},
		{"capacity", [][]int{{1, 2, 3, 5}, {4}}, "capacity"},
		{"late", [][]int{{3, 4, 2, 1}, {5}}, "due"},
		{"unknown", [][]int{{1, 2, 9}, {3, 4, 5}}, "no customer"},
		{"fleet", [][]int{{1}, {2}, {3}, {4, 5}}, "fleet"},
	} {
		_, err := in.Validate(Distance, tc.routes)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error about %q", tc.name, err, tc.want)
		}
	}
}

func TestSolRoundTrip(t *testing.T) {
	routes := [][]int{{5, 3, 7}, {1}, {2, 4, 6, 8}}
	var buf bytes.Buffer
	if err := WriteSol(&buf, routes, 827.3, 1); err != nil {
		t.Fatal(err)
	}
	if want := "Route #1: 5 3 7\nRoute #2: 1\nRoute #3: 2 4 6 8\nCost 827.3\n"; buf.String() != want {
		t.Fatalf("wrote %q, want %q", buf.String(), want)
	}
	got, cost, err := ReadSol(&buf)
	if err != nil || cost != 827.3 || !reflect.DeepEqual(got, routes) {
		t.Fatalf("read %v %g %v", got, cost, err)
	}
}

func TestReadRefs(t *testing.T) {
	refs, err := ReadRefs(strings.NewReader("instance,vehicles,distance,source\nC101,10,828.94,\"a, b\"\nr1_2_1,20,4784.11,x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if refs["C101"] != (Ref{10, 828.94}) || refs["R1_2_1"] != (Ref{20, 4784.11}) {
		t.Fatalf("got %v", refs)
	}
	if _, err := ReadRefs(strings.NewReader("name,cost\nx,1\n")); err == nil {
		t.Error("accepted a table without the needed columns")
	}
}

// dataDir finds ../shared/data beside the checkout, or $HAULPLAN_DATA.
func dataDir(t testing.TB) string {
	dir := os.Getenv("HAULPLAN_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	dir = filepath.Join(dir, "vrptw")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", dir)
	}
	return dir
}

// TestReferenceSolutions re-checks the published solutions with Validate: every
// CVRPLIB solution must be feasible under the DIMACS convention and cost what
// bks_distance.csv says, which validates the reader, the truncation and the
// checker together.
func TestReferenceSolutions(t *testing.T) {
	dir := dataDir(t)
	f, err := os.Open(filepath.Join(dir, "bks_distance.csv"))
	if err != nil {
		t.Fatal(err)
	}
	refs, err := ReadRefs(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	sols, _ := filepath.Glob(filepath.Join(dir, "solutions", "distance_dimacs", "*", "*.sol"))
	more, _ := filepath.Glob(filepath.Join(dir, "solutions", "distance_dimacs", "homberger", "200", "*.sol"))
	sols = append(sols, more...)
	if testing.Short() {
		sols = sols[:min(len(sols), 10)]
	}
	if len(sols) == 0 {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", filepath.Join(dir, "solutions", "distance_dimacs"))
	}
	t.Logf("checking %d solutions", len(sols))
	for _, path := range sols {
		name := strings.TrimSuffix(filepath.Base(path), ".sol")
		inst := filepath.Join(dir, "solomon", name+".txt")
		if strings.Contains(path, "homberger") {
			inst = filepath.Join(dir, "homberger", "200", name+".txt")
		}
		in := mustRead(t, inst)
		sf, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		routes, cost, err := ReadSol(sf)
		sf.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		d, err := in.Validate(Distance, routes)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ref := refs[strings.ToUpper(name)]
		if math.Abs(d-cost) > 1e-6 || math.Abs(d-ref.Distance) > 1e-6 {
			t.Errorf("%s: checked %.1f, file says %.1f, table %.1f", name, d, cost, ref.Distance)
		}
	}
}

// TestSintefSolutions re-checks the SINTEF hierarchical solutions of the
// 200-customer instances in double precision against bks.csv.
func TestSintefSolutions(t *testing.T) {
	dir := dataDir(t)
	f, err := os.Open(filepath.Join(dir, "bks.csv"))
	if err != nil {
		t.Fatal(err)
	}
	refs, err := ReadRefs(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	sols, _ := filepath.Glob(filepath.Join(dir, "solutions", "hierarchical_sintef", "200", "*.sol"))
	if len(sols) == 0 {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", filepath.Join(dir, "solutions", "hierarchical_sintef", "200"))
	}
	for _, path := range sols {
		name := strings.TrimSuffix(filepath.Base(path), ".sol")
		in := mustRead(t, filepath.Join(dir, "homberger", "200", strings.ToLower(name)+".txt"))
		sf, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		routes, _, err := ReadSol(sf)
		sf.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		d, err := in.Validate(Hierarchical, routes)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ref := refs[strings.ToUpper(name)]
		if len(routes) != ref.Vehicles || math.Abs(d-ref.Distance) > 0.0100001 {
			t.Errorf("%s: %d routes %.2f, table %d %.2f", name, len(routes), d, ref.Vehicles, ref.Distance)
		}
	}
}

func mustRead(t testing.TB, path string) *Instance {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := Read(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return in
}

func TestRandom(t *testing.T) {
	a, b := Random(300, 1), Random(300, 1)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different instances")
	}
	if len(a.Customers) != 301 || a.Vehicles != 75 {
		t.Fatalf("got %d customers, %d vehicles", len(a.Customers), a.Vehicles)
	}
	// Every customer must be servable alone, so a first solution exists.
	for _, c := range a.Customers[1:] {
		if _, err := a.Validate(Hierarchical, [][]int{{c.ID}}); err != nil && !strings.Contains(err.Error(), "not visited") {
			t.Fatalf("customer %d cannot be served alone: %v", c.ID, err)
		}
	}
}
