package constraints

import (
	"slices"
	"strconv"
	"strings"
)

// Grouper collects violations and folds repeats into one entry, so that
// one mistake made on every element of a list (a misspelt member on 400
// pallets) takes one line and the other problems stay in view.
//
// Violations with the same code and message whose paths differ in one
// array index only become one entry. Its path writes that index as the set
// of its values, in increasing order, separated by commas, with a run of
// three or more consecutive values written first..last:
// "pallets[0..399].weightKg", "pallets[0..3,7,9..12].weightKg". A set of
// more than six runs shows the first five and the last, with an ellipsis
// between: "pallets[0,2,4,6,8,…,798].weightKg". Its message ends with the
// count: "is not a member of a pallet (400 times)". A violation repeated
// at the same path is one entry with its count too. Entries keep the order
// of their first violation; one violation alone is listed as it came.
//
// The zero value is ready to use and lists every entry.
type Grouper struct {
	// Max bounds the entries listed; 0 means no bound. A violation that
	// joins no entry once Max entries exist is counted by Dropped.
	Max int

	groups  []group
	byKey   map[string]int // the keys of every group (see key) → its index in groups
	dropped int
}

// group is one entry: violations whose paths split into the same parts
// around their indices and differ at most at index pos.
type group struct {
	first Violation
	parts []string // the path's text between its indices: parts[0] [idx[0]] parts[1] ... parts[len(idx)]
	idx   []int
	pos   int   // the index that varies; -1 while every member has the same path
	runs  []run // the values of index pos, sorted and disjoint, not touching
	count int
}

// run is the consecutive index values lo..hi.
type run struct{ lo, hi int }

// maxRunsShown bounds the runs a grouped path writes out.
const maxRunsShown = 6

// Add adds v to the entry it repeats, or starts an entry for it. It
// reports false when v was dropped because Max entries exist.
func (g *Grouper) Add(v Violation) bool {
	parts, idx := splitPath(v.Path)
	var b strings.Builder
	if gi, ok := g.byKey[key(&b, v, parts, idx, -1)]; ok {
		g.groups[gi].count++
		return true
	}
	// A repeat of a path an entry holds joins that entry; else v joins the
	// first entry, from the innermost index out, that it extends.
	keys := make([]int, len(idx)) // the group of each index's key, or -1
	for k := range idx {
		keys[k] = -1
		if gi, ok := g.byKey[key(&b, v, parts, idx, k)]; ok {
			keys[k] = gi
			if gr := &g.groups[gi]; gr.pos == k && gr.has(idx[k]) {
				gr.count++
				return true
			}
		}
	}
	for k := len(idx) - 1; k >= 0; k-- {
		if keys[k] < 0 {
			continue
		}
		gr := &g.groups[keys[k]]
		if gr.pos != -1 && gr.pos != k {
			continue
		}
		gr.pos = k
		gr.insert(idx[k])
		gr.count++
		return true
	}
	if g.Max > 0 && len(g.groups) >= g.Max {
		g.dropped++
		return false
	}
	if g.byKey == nil {
		g.byKey = map[string]int{}
	}
	gi := len(g.groups)
	g.groups = append(g.groups, group{first: v, parts: parts, idx: idx, pos: -1, count: 1})
	for k := -1; k < len(idx); k++ {
		// A key held by a group that varies at another index is taken
		// over: that group can no longer take a violation through it.
		g.byKey[key(&b, v, parts, idx, k)] = gi
	}
	return true
}

// Len returns the number of entries.
func (g *Grouper) Len() int { return len(g.groups) }

// Count returns the number of violations entry i holds (Violations()[i]).
func (g *Grouper) Count(i int) int { return g.groups[i].count }

// Dropped returns the number of violations left out because Max entries
// existed.
func (g *Grouper) Dropped() int { return g.dropped }

// Violations returns the entries in the order of their first violation.
func (g *Grouper) Violations() Violations {
	if len(g.groups) == 0 {
		return nil
	}
	vs := make(Violations, len(g.groups))
	for i := range g.groups {
		vs[i] = g.groups[i].violation()
	}
	return vs
}

// Covers reports whether path is the path of a violation added, or lies
// inside or above one ("pallets[3]" and "pallets[3].footprint.lengthMM"
// for a violation at "pallets[3].footprint"; "" covers everything).
func (g *Grouper) Covers(path string) bool {
	parts, idx := splitPath(path)
	for i := range g.groups {
		gr := &g.groups[i]
		member := gr.first.Path
		if gr.pos >= 0 {
			at := gr.runs[0].lo // a path above the varying index: any member will do
			if len(idx) > gr.pos && slices.Equal(parts[:gr.pos+1], gr.parts[:gr.pos+1]) {
				at = idx[gr.pos]
				if !gr.has(at) {
					continue
				}
			}
			member = joinPath(gr.parts, gr.idx, gr.pos, strconv.Itoa(at))
		}
		if Within(path, member) || Within(member, path) {
			return true
		}
	}
	return false
}

// Within reports whether path is base or lies inside it: "pallets[3].id"
// lies inside "pallets[3]" and "pallets", not inside "pallet"; every path
// lies inside "".
func Within(path, base string) bool {
	if base == "" || path == base {
		return true
	}
	return len(path) > len(base) && strings.HasPrefix(path, base) && (path[len(base)] == '.' || path[len(base)] == '[')
}

// violation writes the group as one entry.
func (gr *group) violation() Violation {
	v := gr.first
	if gr.count == 1 {
		return v
	}
	v.Message += " (" + strconv.Itoa(gr.count) + " times)"
	if gr.pos >= 0 {
		v.Path = joinPath(gr.parts, gr.idx, gr.pos, gr.runsText())
	}
	return v
}

// runsText writes the values of the varying index: "0..3,7,9..12".
func (gr *group) runsText() string {
	var b strings.Builder
	write := func(r run) {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r.lo))
		switch {
		case r.hi == r.lo+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(r.hi))
		case r.hi > r.lo:
			b.WriteString("..")
			b.WriteString(strconv.Itoa(r.hi))
		}
	}
	if len(gr.runs) <= maxRunsShown {
		for _, r := range gr.runs {
			write(r)
		}
		return b.String()
	}
	for _, r := range gr.runs[:maxRunsShown-1] {
		write(r)
	}
	b.WriteString(",…")
	write(gr.runs[len(gr.runs)-1])
	return b.String()
}

// insert adds value i of the varying index. The first member's value
// comes in with the second member: until then runs is empty.
func (gr *group) insert(i int) {
	if len(gr.runs) == 0 {
		gr.runs = []run{{gr.idx[gr.pos], gr.idx[gr.pos]}}
	}
	last := &gr.runs[len(gr.runs)-1]
	switch {
	case i == last.hi+1: // the usual case: the next element of a list
		last.hi = i
		return
	case i > last.hi+1:
		gr.runs = append(gr.runs, run{i, i})
		return
	}
	// Out of order: find the first run that ends at or after i-1.
	j, _ := slices.BinarySearchFunc(gr.runs, i-1, func(r run, t int) int { return r.hi - t })
	switch {
	case gr.runs[j].lo <= i && i <= gr.runs[j].hi: // already in
	case gr.runs[j].hi == i-1: // extends run j, and may join the next
		gr.runs[j].hi = i
		if j+1 < len(gr.runs) && gr.runs[j+1].lo == i+1 {
			gr.runs[j].hi = gr.runs[j+1].hi
			gr.runs = slices.Delete(gr.runs, j+1, j+2)
		}
	case gr.runs[j].lo == i+1:
		gr.runs[j].lo = i
	default:
		gr.runs = slices.Insert(gr.runs, j, run{i, i})
	}
}

// has reports whether i is a value of the varying index.
func (gr *group) has(i int) bool {
	j, _ := slices.BinarySearchFunc(gr.runs, i, func(r run, t int) int { return r.hi - t })
	return j < len(gr.runs) && gr.runs[j].lo <= i
}

// splitPath splits a path around its array indices: "stores[2].hours.days.mon[0].open"
// is parts ["stores", ".hours.days.mon", ".open"] and indices [2, 0].
func splitPath(path string) (parts []string, idx []int) {
	start := 0
	for i := 0; i < len(path); i++ {
		if path[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(path) && path[j] >= '0' && path[j] <= '9' {
			j++
		}
		if j == i+1 || j >= len(path) || path[j] != ']' || j-i > 10 {
			continue
		}
		n, err := strconv.Atoi(path[i+1 : j])
		if err != nil {
			continue
		}
		parts = append(parts, path[start:i])
		idx = append(idx, n)
		start = j + 1
		i = j
	}
	return append(parts, path[start:]), idx
}

// joinPath writes a path from its parts and indices, index pos written as
// at.
func joinPath(parts []string, idx []int, pos int, at string) string {
	var b strings.Builder
	for k, p := range parts {
		b.WriteString(p)
		if k == len(idx) {
			break
		}
		b.WriteByte('[')
		if k == pos {
			b.WriteString(at)
		} else {
			b.WriteString(strconv.Itoa(idx[k]))
		}
		b.WriteByte(']')
	}
	return b.String()
}

// key is what violations that may share an entry with v through index k
// have in common: the code, the message, the parts and every index but
// k; k = -1 keeps every index (a repeat at the same path). Each piece is
// written with its length, so that no two different pieces write the same
// key, whatever the member names hold.
func key(b *strings.Builder, v Violation, parts []string, idx []int, k int) string {
	b.Reset()
	piece := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	piece(v.Code)
	piece(v.Message)
	b.WriteString(strconv.Itoa(k))
	b.WriteByte('|')
	for i, p := range parts {
		piece(p)
		if i < len(idx) && i != k {
			b.WriteString(strconv.Itoa(idx[i]))
		}
		b.WriteByte(';')
	}
	return b.String()
}
