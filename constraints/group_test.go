package constraints

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func grouped(max int, vs ...Violation) (Violations, int) {
	g := Grouper{Max: max}
	for _, v := range vs {
		g.Add(v)
	}
	return g.Violations(), g.Dropped()
}

func lines(vs Violations) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Code+" "+v.Path+": "+v.Message)
	}
	return out
}

func TestGrouperFoldsRepeats(t *testing.T) {
	unknown := func(i int, name string) Violation {
		return Violation{Code: "UNKNOWN_MEMBER", Path: fmt.Sprintf("pallets[%d].%s", i, name), Message: "is not a member of a pallet"}
	}
	at := func(idx ...int) []Violation {
		var vs []Violation
		for _, i := range idx {
			vs = append(vs, unknown(i, "weightkg"))
		}
		return vs
	}
	seq := func(lo, hi int) []int {
		var out []int
		for i := lo; i <= hi; i++ {
			out = append(out, i)
		}
		return out
	}
	evens := []int{}
	for i := 0; i < 800; i += 2 {
		evens = append(evens, i)
	}
	cases := []struct {
		name string
		in   []Violation
		want []string
	}{
		{"one violation is listed as it came", at(7), []string{"UNKNOWN_MEMBER pallets[7].weightkg: is not a member of a pallet"}},
		{"a list of 400", at(seq(0, 399)...), []string{"UNKNOWN_MEMBER pallets[0..399].weightkg: is not a member of a pallet (400 times)"}},
		{"runs and single values", at(0, 1, 2, 3, 7, 9, 10, 11, 12), []string{"UNKNOWN_MEMBER pallets[0..3,7,9..12].weightkg: is not a member of a pallet (9 times)"}},
		{"two consecutive values are written one by one", at(3, 4, 8), []string{"UNKNOWN_MEMBER pallets[3,4,8].weightkg: is not a member of a pallet (3 times)"}},
		{"out of order", at(5, 3, 9, 4, 8, 7, 6), []string{"UNKNOWN_MEMBER pallets[3..9].weightkg: is not a member of a pallet (7 times)"}},
		{"many runs are cut", at(evens...), []string{"UNKNOWN_MEMBER pallets[0,2,4,6,8,…,798].weightkg: is not a member of a pallet (400 times)"}},
		{"the same path twice", at(2, 2), []string{"UNKNOWN_MEMBER pallets[2].weightkg: is not a member of a pallet (2 times)"}},
		{"another member name is another entry, and order is kept",
			[]Violation{unknown(0, "weightkg"), unknown(0, "heigth"), unknown(1, "weightkg"), unknown(1, "heigth")},
			[]string{"UNKNOWN_MEMBER pallets[0,1].weightkg: is not a member of a pallet (2 times)", "UNKNOWN_MEMBER pallets[0,1].heigth: is not a member of a pallet (2 times)"}},
		{"another message or code is another entry",
			[]Violation{
				{Code: "INVALID_VALUE", Path: "pallets[0].weightKg", Message: "weightKg -3 kg: must be more than 0"},
				{Code: "INVALID_VALUE", Path: "pallets[1].weightKg", Message: "weightKg -4 kg: must be more than 0"},
				{Code: "REQUIRED", Path: "pallets[2].weightKg", Message: "weightKg -3 kg: must be more than 0"},
			},
			[]string{"INVALID_VALUE pallets[0].weightKg: weightKg -3 kg: must be more than 0", "INVALID_VALUE pallets[1].weightKg: weightKg -4 kg: must be more than 0",
				"REQUIRED pallets[2].weightKg: weightKg -3 kg: must be more than 0"}},
		{"an outer index varies",
			[]Violation{{Code: "INVALID_TIME", Path: "stores[0].hours.days.mon[1].open", Message: "m"}, {Code: "INVALID_TIME", Path: "stores[1].hours.days.mon[1].open", Message: "m"},
				{Code: "INVALID_TIME", Path: "stores[2].hours.days.mon[1].open", Message: "m"}},
			[]string{"INVALID_TIME stores[0..2].hours.days.mon[1].open: m (3 times)"}},
		{"an inner index varies",
			[]Violation{{Code: "C", Path: "routes[4].stops[0].wait", Message: "m"}, {Code: "C", Path: "routes[4].stops[1].wait", Message: "m"}},
			[]string{"C routes[4].stops[0,1].wait: m (2 times)"}},
		{"paths that differ in two indices are not one entry",
			[]Violation{{Code: "C", Path: "a[0].b[0]", Message: "m"}, {Code: "C", Path: "a[1].b[1]", Message: "m"}},
			[]string{"C a[0].b[0]: m", "C a[1].b[1]: m"}},
		{"an entry that varies in one index takes no repeat varying in another",
			[]Violation{{Code: "C", Path: "a[0].b[0]", Message: "m"}, {Code: "C", Path: "a[0].b[1]", Message: "m"}, {Code: "C", Path: "a[1].b[0]", Message: "m"},
				{Code: "C", Path: "a[1].b[1]", Message: "m"}},
			[]string{"C a[0].b[0,1]: m (2 times)", "C a[1].b[0,1]: m (2 times)"}},
		{"paths without an index", []Violation{{Code: "C", Path: "dc.id", Message: "m"}, {Code: "C", Path: "dc.name", Message: "m"}},
			[]string{"C dc.id: m", "C dc.name: m"}},
		{"brackets in a member name that hold no index", []Violation{{Code: "C", Path: "a[x].b[]", Message: "m"}, {Code: "C", Path: "a[y].b[]", Message: "m"}},
			[]string{"C a[x].b[]: m", "C a[y].b[]: m"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := grouped(0, c.in...)
			if !slices.Equal(lines(got), c.want) {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines(got), "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestGrouperMaxCountsEntries: Max bounds the entries, not the
// violations: a repeat still joins its entry, a new problem past Max is
// counted as dropped.
func TestGrouperMaxCountsEntries(t *testing.T) {
	var in []Violation
	for i := range 400 {
		in = append(in, Violation{Code: "UNKNOWN_MEMBER", Path: fmt.Sprintf("pallets[%d].weightkg", i), Message: "m"})
		in = append(in, Violation{Code: "UNKNOWN_MEMBER", Path: fmt.Sprintf("pallets[%d].x%d", i, i), Message: "m"})
	}
	got, dropped := grouped(3, in...)
	want := []string{"UNKNOWN_MEMBER pallets[0..399].weightkg: m (400 times)", "UNKNOWN_MEMBER pallets[0].x0: m", "UNKNOWN_MEMBER pallets[1].x1: m"}
	if !slices.Equal(lines(got), want) || dropped != 398 {
		t.Fatalf("got %d dropped and\n%s", dropped, strings.Join(lines(got), "\n"))
	}
}

func TestGrouperCovers(t *testing.T) {
	var g Grouper
	for _, i := range []int{0, 1, 2, 7} {
		g.Add(Violation{Code: "C", Path: fmt.Sprintf("pallets[%d].footprint", i), Message: "m"})
	}
	g.Add(Violation{Code: "C", Path: "dc.location", Message: "m"})
	for path, want := range map[string]bool{
		"pallets[1].footprint": true, "pallets[7].footprint.lengthMM": true, "pallets[2]": true, "pallets": true, "": true,
		"pallets[3].footprint": false, "pallets[1].foot": false, "pallets[1].weightKg": false, "pallets[8]": false,
		"dc.location.lat": true, "dc": true, "dc.id": false, "stores": false,
	} {
		if got := g.Covers(path); got != want {
			t.Errorf("Covers(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestGrouperKeepsEveryViolation: whatever arrives, in whatever order,
// every violation is counted in exactly one entry with its code and
// message, and an entry's path, read back, names exactly the paths of its
// violations.
func TestGrouperKeepsEveryViolation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(t, "n")
		var in []Violation
		for range n {
			path := fmt.Sprintf("%s[%d].%s[%d].x", rapid.SampledFrom([]string{"a", "b"}).Draw(t, "list"), rapid.IntRange(0, 10).Draw(t, "i"),
				rapid.SampledFrom([]string{"c", "d"}).Draw(t, "inner"), rapid.IntRange(0, 3).Draw(t, "j"))
			in = append(in, Violation{Code: rapid.SampledFrom([]string{"P", "Q"}).Draw(t, "code"), Path: path,
				Message: rapid.SampledFrom([]string{"m", "n"}).Draw(t, "message")})
		}
		out, _ := grouped(0, in...)
		seen := map[string]int{} // code, message, path → violations in
		for _, v := range in {
			seen[v.Code+"|"+v.Message+"|"+v.Path]++
		}
		for _, e := range out {
			msg, count := e.Message, 1
			if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, " times)") {
				c, err := strconv.Atoi(msg[i+2 : len(msg)-len(" times)")])
				if err != nil {
					t.Fatalf("message %q", e.Message)
				}
				msg, count = msg[:i], c
			}
			paths := expand(t, e.Path)
			total := 0
			for _, p := range paths {
				k := e.Code + "|" + msg + "|" + p
				if seen[k] == 0 {
					t.Fatalf("entry %v names %s, which no violation has", e, p)
				}
				total += seen[k]
				delete(seen, k)
			}
			if total != count {
				t.Fatalf("entry %v counts %d, its paths hold %d", e, count, total)
			}
		}
		if len(seen) > 0 {
			t.Fatalf("violations in no entry: %v", seen)
		}
	})
}

// expand reads a grouped path back into the paths it names (the test's
// indices hold at most 6 runs, all written out).
func expand(t *rapid.T, path string) []string {
	open := -1
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			j := strings.IndexByte(path[i:], ']') + i
			if strings.ContainsAny(path[i+1:j], ",.") {
				open = i
				break
			}
		}
	}
	if open < 0 {
		return []string{path}
	}
	end := strings.IndexByte(path[open:], ']') + open
	if strings.Contains(path[open:end], "…") {
		t.Fatalf("runs cut in %s", path)
	}
	var out []string
	for _, r := range strings.Split(path[open+1:end], ",") {
		lo, hi, isRun := strings.Cut(r, "..")
		a, _ := strconv.Atoi(lo)
		b := a
		if isRun {
			b, _ = strconv.Atoi(hi)
		}
		for i := a; i <= b; i++ {
			out = append(out, path[:open+1]+strconv.Itoa(i)+path[end:])
		}
	}
	return out
}
