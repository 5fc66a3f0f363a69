package binpack

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	core "github.com/haulplan/haulplan/loadplan/binpack"
)

func TestReadBPP(t *testing.T) {
	p, err := ReadBPP(strings.NewReader("3\r\n10\r\n4\n6\n  5 \n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Capacity, []int64{10}) || len(p.Sizes) != 3 || p.Sizes[1][0] != 6 {
		t.Fatalf("got %+v", p)
	}
	for _, bad := range []string{"", "2\n10\n4\n", "2\n10\n4\n5\n6\n", "x\n", "1\n10\n4.5\n", "-1\n10\n", "99999999999\n10\n"} {
		if _, err := ReadBPP(strings.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("ReadBPP(%q) = %v, want ErrFormat", bad, err)
		}
	}
	// Values are the solver's business: an oversized item reads fine and
	// fails validation.
	p, err = ReadBPP(strings.NewReader("1\n10\n11\n"))
	if err != nil || p.Check() == nil {
		t.Errorf("oversized item: read %v, validate %v", err, p.Check())
	}
}

func TestReadVBP(t *testing.T) {
	src := "2\n10 20\n3\n1 2 1\n3 4 2\n5 6 0\n"
	p, err := ReadVBP(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int64{{1, 2}, {3, 4}, {3, 4}}
	if !slices.Equal(p.Capacity, []int64{10, 20}) || len(p.Sizes) != len(want) {
		t.Fatalf("got %+v", p)
	}
	for i := range want {
		if !slices.Equal(p.Sizes[i], want[i]) {
			t.Errorf("item %d = %v, want %v", i, p.Sizes[i], want[i])
		}
	}
	for _, bad := range []string{"", "0\n", "2\n10\n", "1\n10\n1\n5\n", "1\n10\n1\n5 -1\n", "1\n10\n1\n5 1\n7\n", "1\n10\n-2\n"} {
		if _, err := ReadVBP(strings.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("ReadVBP(%q) = %v, want ErrFormat", bad, err)
		}
	}
}

func TestReadRefsAndScore(t *testing.T) {
	bpp := "instance,set,n,capacity,optimum,source,lb,ub\na,s1,3,10,2,x,2,2\nb,s1,3,10,,x,3,4\n"
	refs, err := ReadRefs(strings.NewReader(bpp))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(refs["a"], []Ref{{Set: "s1", Optimum: 2, LB: 2}}) || !slices.Equal(refs["b"], []Ref{{Set: "s1", LB: 3}}) {
		t.Fatalf("got %+v", refs)
	}
	vbp := "instance,benchmark,class,n,d,capacity,lb,optimum,best_known,best_item_centric,best_bin_centric,source\nc,new,k,4,3,1/1/1,5,,7,8,7,x\nc,panigrahy,k,4,3,1/1/1,6,6,6,6,6,x\n"
	vrefs, err := ReadRefs(strings.NewReader(vbp))
	if err != nil {
		t.Fatal(err)
	}
	// The same name in two sets: the directory decides.
	if r, ok := vrefs.Lookup("c", "data/panigrahy/classk/c.vbp"); !ok || r != (Ref{Set: "panigrahy", LB: 6, Optimum: 6, BestKnown: 6}) {
		t.Fatalf("Lookup panigrahy = %+v, %v", r, ok)
	}
	if _, ok := vrefs.Lookup("c", "elsewhere/c.vbp"); ok {
		t.Fatal("ambiguous name without a set directory must not match")
	}
	vrefs["c"] = vrefs["c"][:1]
	if r, _ := vrefs.Lookup("c", "c.vbp"); r != (Ref{Set: "new", LB: 5, BestKnown: 7}) {
		t.Fatalf("got %+v", r)
	}
	for k, v := range vrefs {
		refs[k] = v
	}
	scores := Score([]Outcome{
		{Instance: "a", Bins: 2, LowerBound: 2, Seconds: 0.5},
		{Instance: "b", Bins: 4, LowerBound: 3, Seconds: 1.5},
		{Instance: "c", Bins: 6, LowerBound: 5, Seconds: 1},
		{Instance: "z", Bins: 1, LowerBound: 1},
	}, refs)
	want := []SetScore{
		{Set: "?", Instances: 1, Proven: 1},
		{Set: "new", Instances: 1, WithBestKnown: 1, Bins: 6, BestKnown: 7, MeanSeconds: 1, MaxSeconds: 1},
		{Set: "s1", Instances: 2, WithOptimum: 1, AtOptimum: 1, Proven: 1, MeanSeconds: 1, MaxSeconds: 1.5},
	}
	if !slices.Equal(scores, want) {
		t.Fatalf("Score = %+v\nwant %+v", scores, want)
	}
	var b strings.Builder
	if err := WriteScores(&b, scores); err != nil || !strings.Contains(b.String(), "total: 4 instances, at optimum 1/1") {
		t.Errorf("WriteScores: %v\n%s", err, b.String())
	}
	if _, err := ReadRefs(strings.NewReader("instance,x\na,b\n")); !errors.Is(err, ErrFormat) {
		t.Errorf("no set column: %v", err)
	}
}

func TestClampNegative(t *testing.T) {
	p, err := ReadVBP(strings.NewReader("2\n10 10\n2\n-1 3 2\n4 -2 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := ClampNegative(&p); n != 3 {
		t.Fatalf("clamped %d, want 3", n)
	}
	want := [][]int64{{0, 3}, {0, 3}, {4, 0}}
	for i := range want {
		if !slices.Equal(p.Sizes[i], want[i]) {
			t.Errorf("item %d = %v, want %v", i, p.Sizes[i], want[i])
		}
	}
	if p.Check() != nil {
		t.Error(p.Check())
	}
}

func FuzzReadBPP(f *testing.F) {
	for _, s := range []string{"3\n10\n4\n6\n5\n", "0\n5\n", "2\n10\n11\n-3\n", "1\n0\n0\n", "4\n1000\n 499 501\r\n250 250\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadBPP(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		checkDecoded(t, p)
	})
}

func FuzzReadVBP(f *testing.F) {
	for _, s := range []string{"2\n10 20\n2\n1 2 1\n3 4 2\n", "3\n100 100 100\n1\n41 41 35 1\n", "1\n5\n1\n6 1\n", "2\n0 0\n0\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadVBP(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		checkDecoded(t, p)
	})
}

// checkDecoded runs what haulbench runs next on a decoded problem; none of
// it may panic, and a valid problem must pack validly.
func checkDecoded(t *testing.T, p core.Problem) {
	if p.Check() != nil || len(p.Sizes) > 2000 {
		return
	}
	bins, err := core.FirstFitDecreasing(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := core.Validate(p, bins); err != nil {
		t.Fatal(err)
	}
	if lb := max(core.L1(p), core.L2(p)); lb > len(bins) {
		t.Fatalf("bound %d above FFD %d", lb, len(bins))
	}
}

// dataDir returns ../shared/data beside the repository (or $HAULPLAN_DATA).
func dataDir(t *testing.T, sub string) string {
	root := os.Getenv("HAULPLAN_DATA")
	if root == "" {
		_, file, _, _ := runtime.Caller(0)
		root = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data")
	}
	dir := filepath.Join(root, sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", dir)
	}
	return dir
}

// TestGreedyMatchesBaselines checks FFD and BFD against the bin counts in
// binpacking/baselines.csv, computed independently with the data.
func TestGreedyMatchesBaselines(t *testing.T) {
	dir := dataDir(t, "binpacking")
	f, err := os.Open(filepath.Join(dir, "baselines.csv"))
	if err != nil {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", filepath.Join(dir, "baselines.csv"))
	}
	base, err := ReadBaselines(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	if len(files) == 0 {
		t.Skipf("benchmark data not found: %s (it lives in ../shared/data beside the checkout, or in $HAULPLAN_DATA)", filepath.Join(dir, "*", "*.txt"))
	}
	checked := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		want, ok := base[name]
		if !ok {
			continue
		}
		r, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ReadBPP(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ffd, err := core.FirstFitDecreasing(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bfd, _ := core.BestFitDecreasing(p)
		if len(ffd) != want.FFD || len(bfd) != want.BFD || core.L1(p) != want.L1 {
			t.Errorf("%s: FFD %d BFD %d L1 %d, baselines say %d %d %d", name, len(ffd), len(bfd), core.L1(p), want.FFD, want.BFD, want.L1)
		}
		checked++
	}
	if checked != len(base) {
		t.Errorf("checked %d instances, baselines.csv lists %d", checked, len(base))
	}
	t.Logf("FFD, BFD and L1 match baselines.csv on %d instances", checked)
}
