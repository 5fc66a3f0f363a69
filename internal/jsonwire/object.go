package jsonwire

import (
	"strconv"
	"strings"
)

// Member is one member of an object that is read into a T: its exact
// name and the function that reads its value into v. X is whatever the
// reading functions need besides the Decoder (the Decoder itself, or a
// caller's state that holds it).
type Member[X, T any] struct {
	Name string
	Read func(x X, v *T)
	// Required makes the member's absence a problem (Reason Missing, at
	// the member's path): for a value that has no default a reader would
	// agree with.
	Required bool
}

// Object describes the members of one kind of JSON object, once: reading,
// unknown and repeated members, and paths all follow from the list.
type Object[X, T any] struct {
	// What names the object in messages ("a pallet").
	What    string
	Members []Member[X, T]
}

// MaxNameLen bounds the member names that suggestions are computed for.
const MaxNameLen = 64

// MaxMembers bounds the members of one Object (repeats are tracked in a
// bit set).
const MaxMembers = 64

// Read reads an object into v, member by member, each with its path
// entered; a value of another kind is reported and skipped (ok false).
// Unknown and repeated members are reported and skipped, and so is each
// Required member that is absent, after the others. seen has bit i set
// when Members[i] was present.
func (o *Object[X, T]) Read(d *Decoder, x X, v *T) (seen uint64, ok bool) {
	if len(o.Members) > MaxMembers {
		panic("jsonwire: " + o.What + " has more than MaxMembers members")
	}
	if k := d.Peek(); k != KindObject {
		d.WrongType(o.What, k)
		return 0, false
	}
	if d.nulls > 0 { // unreachable: Peek reports null
		return 0, false
	}
	d.lx.enter()
	for first := true; ; first = false {
		raw, more := d.lx.member(first)
		if !more {
			if d.lx.err == nil {
				o.reportMissing(d, seen)
			}
			return seen, true
		}
		i := o.index(raw)
		switch {
		case i < 0:
			d.unknown(raw, o.What, o.names())
			d.lx.skip()
			continue
		case seen&(1<<i) != 0:
			d.push(o.Members[i].Name)
			d.Report(Duplicate, "appears more than once")
			d.pop()
			d.lx.skip()
			continue
		}
		seen |= 1 << i
		d.push(o.Members[i].Name)
		o.Members[i].Read(x, v)
		d.pop()
	}
}

// ReadNull reads every member as if it were sent as null: what a null
// means for an object that is always present.
func (o *Object[X, T]) ReadNull(d *Decoder, x X, v *T) {
	d.nulls++
	for _, m := range o.Members {
		d.push(m.Name)
		m.Read(x, v)
		d.pop()
	}
	d.nulls--
}

// Missing reports each member of names (in order) whose bit is not in seen.
func (o *Object[X, T]) Missing(d *Decoder, seen uint64, msg string, names ...string) {
	for _, n := range names {
		i := o.index([]byte(n))
		if i < 0 {
			panic("jsonwire: " + n + " is not a member of " + o.What)
		}
		if seen&(1<<i) == 0 {
			d.ReportAt(Join(d.Path(), n), Missing, msg)
		}
	}
}

// reportMissing reports each Required member whose bit is not in seen.
func (o *Object[X, T]) reportMissing(d *Decoder, seen uint64) {
	for i := range o.Members {
		if o.Members[i].Required && seen&(1<<i) == 0 {
			d.ReportAt(Join(d.Path(), o.Members[i].Name), Missing, "is required in "+o.What)
		}
	}
}

func (o *Object[X, T]) index(name []byte) int {
	for i := range o.Members {
		if o.Members[i].Name == string(name) {
			return i
		}
	}
	return -1
}

func (o *Object[X, T]) names() []string {
	ns := make([]string, len(o.Members))
	for i, m := range o.Members {
		ns[i] = m.Name
	}
	return ns
}

// unknown reports member raw of an object of kind what, suggesting the
// member meant when the name differs from one in case only or by a typo.
func (d *Decoder) unknown(raw []byte, what string, names []string) {
	name := string(raw)
	msg := "is not a member of " + what
	if s := suggest(name, names); s != "" {
		msg += "; did you mean " + strconv.Quote(s) + "?"
	}
	d.ReportAt(Join(d.Path(), name), Unknown, msg)
}

// suggest returns the name of names closest to s: equal but for case, or
// at most two edits away (a misspelling); "" when none is.
func suggest(s string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(s, n) {
			return n
		}
	}
	best, bestD := "", 3
	if len(s) > MaxNameLen+2 {
		return ""
	}
	for _, n := range names {
		if len(n) > len(s)+2 || len(s) > len(n)+2 {
			continue
		}
		if d := editDistance(s, n); d < bestD && d < len(n) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and swaps of neighbours).
func editDistance(a, b string) int {
	var rows [3][MaxNameLen + 1]int
	if len(b) > MaxNameLen {
		return len(a) + len(b)
	}
	prev2, prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// ReadArray reads an array into a new slice, each element with its index
// entered in the path and read by elem; a value of another kind is
// reported and skipped (ok false), and *dst is left alone. An empty array
// gives an empty, non-nil slice.
func ReadArray[X, T any](d *Decoder, x X, dst *[]T, want string, elem func(x X, v *T)) (ok bool) {
	if k := d.Peek(); k != KindArray {
		d.WrongType(want, k)
		return false
	}
	d.lx.enter()
	out := []T{}
	for i := 0; d.lx.element(i == 0); i++ {
		var v T
		d.pushIndex(i)
		elem(x, &v)
		d.pop()
		out = append(out, v)
	}
	*dst = out
	return true
}

// ReadMap reads an object whose member names are keys chosen by the
// document, calling each with every key and the key entered in the path;
// a repeated key is reported and skipped.
func (d *Decoder) ReadMap(want string, each func(key string)) (ok bool) {
	if k := d.Peek(); k != KindObject {
		d.WrongType(want, k)
		return false
	}
	d.lx.enter()
	var seen map[string]bool
	for first := true; ; first = false {
		raw, more := d.lx.member(first)
		if !more {
			return true
		}
		key := string(raw)
		d.push(key)
		if seen[key] {
			d.Report(Duplicate, "appears more than once")
			d.pop()
			d.lx.skip()
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[key] = true
		each(key)
		d.pop()
	}
}

// ReadEach reads an array element by element, each with its index entered
// in the path, calling elem with the index; a value of another kind is
// reported and skipped (ok false). It builds nothing: elem puts each value
// where it belongs, so that an array of millions of numbers is read
// straight into a slice the caller holds.
func ReadEach(d *Decoder, want string, elem func(i int)) (ok bool) {
	if k := d.Peek(); k != KindArray {
		d.WrongType(want, k)
		return false
	}
	d.lx.enter()
	for i := 0; d.lx.element(i == 0); i++ {
		d.pushIndex(i)
		elem(i)
		d.pop()
	}
	return true
}
