package jsonwire

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A small document in the shape of the library's: an order with lines.

type order struct {
	ID    string              `json:"id"`
	Class int                 `json:"class"`
	Wait  time.Duration       `json:"wait"`
	At    time.Time           `json:"at"`
	Lines []line              `json:"lines,omitempty"`
	Tags  map[string][]string `json:"-"`
}

type line struct {
	Kg    float64 `json:"kg"`
	Count int     `json:"count"`
	Fresh bool    `json:"fresh"`
}

type (
	dec = *Decoder
	om  = Member[dec, order]
	lm  = Member[dec, line]
)

var classes = []string{"AMBIENT", "CHILLED", "FROZEN"}

var lineObject = &Object[dec, line]{What: "a line", Members: []lm{
	{Name: "kg", Read: func(d dec, l *line) { d.ReadFloat(&l.Kg, "a number of kilograms") }},
	{Name: "count", Read: func(d dec, l *line) { d.ReadInt(&l.Count, "a whole number of cases") }},
	{Name: "fresh", Read: func(d dec, l *line) { d.ReadBool(&l.Fresh) }},
}}

var orderObject = &Object[dec, order]{What: "an order", Members: []om{
	{Name: "id", Read: func(d dec, o *order) { d.ReadString(&o.ID) }},
	{Name: "class", Read: func(d dec, o *order) { ReadEnum(d, &o.Class, classes) }},
	{Name: "wait", Read: func(d dec, o *order) { d.ReadDuration(&o.Wait) }},
	{Name: "at", Read: func(d dec, o *order) { d.ReadTime(&o.At) }},
	{Name: "lines", Read: func(d dec, o *order) {
		ReadArray(d, d, &o.Lines, "an array of lines", func(d dec, l *line) { lineObject.Read(d, d, l) })
	}},
	{Name: "tags", Read: func(d dec, o *order) {
		o.Tags = map[string][]string{}
		d.ReadMap("tags by name", func(k string) {
			var v []string
			ReadArray(d, d, &v, "an array of strings", func(d dec, s *string) { d.ReadString(s) })
			o.Tags[k] = v
		})
	}},
}}

func decodeOrder(doc string) (order, []Error) {
	var d Decoder
	d.Reset([]byte(doc))
	var o order
	orderObject.Read(&d, &d, &o)
	d.End()
	return o, d.Errors()
}

func TestDecoderPathsAndProblems(t *testing.T) {
	cases := []struct {
		doc  string
		want []string // reason@path: message words
	}{
		{`{"id":"A","class":"CHILLED","wait":"90s","at":"2026-11-23T04:00:00-06:00","lines":[{"kg":1.5,"count":2,"fresh":true}],"tags":{"x":["a"]}}`, nil},
		{`{"ID":"A"}`, []string{`2@ID: is not a member of an order; did you mean "id"?`}},
		{`{"lines":[{"kg":1},{"kgs":2}]}`, []string{`2@lines[1].kgs: is not a member of a line; did you mean "kg"?`}},
		{`{"lines":[{"count":1},{"cuont":2}]}`, []string{`2@lines[1].cuont: is not a member of a line; did you mean "count"?`}},
		{`{"zzzzzz":1}`, []string{`2@zzzzzz: is not a member of an order`}},
		{`{"id":"A","id":"B"}`, []string{`3@id: appears more than once`}},
		{`{"class":"COLD","wait":"tomorrow","at":"tomorrow"}`, []string{
			`4@class: must be one of AMBIENT, CHILLED, FROZEN, not "COLD"`,
			`4@wait: must be a Go duration such as "90s" or a number of seconds, not "tomorrow"`,
			`4@at: must be an RFC 3339 instant such as "2026-11-23T04:00:00-06:00", not "tomorrow"`}},
		{`{"lines":[{"kg":"1"},{"count":1.5},{"count":1e2},{"count":1e300},{"fresh":null}]}`, []string{
			`1@lines[0].kg: must be a number of kilograms, not "1"`,
			`6@lines[1].count: must be a whole number of cases, not 1.5`,
			`5@lines[3].count: must be a whole number of cases; 1e300 is out of range`,
			`1@lines[4].fresh: must be true or false, not null`}},
		{`{"lines":{}}`, []string{`1@lines: must be an array of lines, not an object`}},
		{`{"wait":1e11}`, []string{`5@wait: must be a Go duration such as "90s" or a number of seconds; 1e11 seconds is out of range`}},
		{`{"tags":{"a":[1],"a":[]}}`, []string{`1@tags.a[0]: must be a string, not 1`, `3@tags.a: appears more than once`}},
		{`[]`, []string{`1@: must be an order, not an array`}},
		{"{\"id\":\n\"A\",\n  \"x\" 1}", []string{`0@: not valid JSON: expected ':' at line 3, column 7`}},
		{`{"id":"A"} x`, []string{`0@: not valid JSON: unexpected data after the JSON value at line 1, column 12`}},
	}
	for _, c := range cases {
		o, errs := decodeOrder(c.doc)
		var got []string
		for _, e := range errs {
			got = append(got, fmt.Sprintf("%d@%s: %s", e.Reason, e.Path, e.Message))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.doc, got, c.want)
		}
		if c.want == nil && (o.ID != "A" || o.Class != 1 || o.Wait != 90*time.Second || o.Lines[0].Count != 2 || o.Tags["x"][0] != "a") {
			t.Errorf("decoded %+v", o)
		}
	}
}

func TestDurationsAndNumbers(t *testing.T) {
	for doc, want := range map[string]time.Duration{`"1h30m"`: 90 * time.Minute, `120`: 2 * time.Minute, `0.5`: 500 * time.Millisecond, `-1`: -time.Second} {
		o, errs := decodeOrder(`{"wait":` + doc + `}`)
		if len(errs) > 0 || o.Wait != want {
			t.Errorf("%s: %v %v", doc, o.Wait, errs)
		}
	}
	var d Decoder
	d.Reset([]byte(`[9223372036854775807, -9223372036854775808, 9223372036854775808, 3.0]`))
	var got []int64
	ReadArray(&d, &d, &got, "", func(d dec, v *int64) { d.ReadInt64(v, "") })
	if errs := d.Errors(); len(errs) != 1 || errs[0].Path != "[2]" || got[0] != math.MaxInt64 || got[1] != math.MinInt64 || got[3] != 3 {
		t.Fatalf("%v %v", got, errs)
	}
}

// TestErrorCap: past MaxErrors, one entry counts the rest.
func TestErrorCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"lines":[`)
	for i := range 250 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"x":1}`)
	}
	b.WriteString(`]}`)
	_, errs := decodeOrder(b.String())
	if len(errs) != DefaultMaxErrors+1 || errs[DefaultMaxErrors].Reason != More ||
		errs[DefaultMaxErrors].Message != "and 150 more problems not listed" {
		t.Fatalf("%d errors, last %v", len(errs), errs[len(errs)-1])
	}
	var d Decoder
	d.MaxErrors = -1
	d.Reset([]byte(b.String()))
	var o order
	orderObject.Read(&d, &d, &o)
	if len(d.Errors()) != 250 || d.Dropped() != 0 {
		t.Fatalf("unbounded: %d", len(d.Errors()))
	}
}

// TestReadNull: an object read as null reads every member as null.
func TestReadNull(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`null`))
	var o order
	d.Null()
	orderObject.ReadNull(&d, &d, &o)
	var got []string
	for _, e := range d.Errors() {
		got = append(got, e.Path)
	}
	if want := []string{"id", "class", "wait", "at", "lines", "tags"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("%v", got)
	}
}

// TestKnownNamesCostNothing: reading known members of an object costs no
// allocation: names are compared in place.
func TestKnownNamesCostNothing(t *testing.T) {
	doc := []byte(`{"kg": 1.5, "count": 2, "fresh": true}`)
	var d Decoder
	var l line
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(doc)
		lineObject.Read(&d, &d, &l)
		d.End()
	})
	if allocs != 0 || l.Count != 2 {
		t.Fatalf("%v allocations", allocs)
	}
}

// FuzzDecoder: on any input the decoder neither panics nor accepts what
// encoding/json rejects as syntax, reports a syntax error for nothing
// encoding/json reads (within MaxDepth), gives every problem a path that
// names members of the document, and what it reads without a problem
// reads back the same from encoding/json's output.
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{
		`{"id":"A","class":"CHILLED","wait":"90s","at":"2026-11-23T04:00:00-06:00","lines":[{"kg":1.5,"count":2,"fresh":true}],"tags":{"x":["a"]}}`,
		`{"ID":"A","id":1,"id":2}`, `{"wait":1e400,"lines":[{"count":-0.0}]}`, `{"tags":{"":[null]}}`, `[`, `{"at":"2026-02-30T00:00:00Z"}`,
		`{"lines":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var d Decoder
		d.Reset(in)
		var o order
		orderObject.Read(&d, &d, &o)
		d.End()
		errs := d.Errors()
		syntax := d.Syntax() != nil
		if !syntax && !json.Valid(in) {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		if syntax && json.Valid(in) && utf8.Valid(in) && depth(in) <= MaxDepth {
			t.Fatalf("refused valid JSON %q: %v", in, d.Syntax())
		}
		if syntax {
			if len(errs) != 1 || errs[0].Reason != Syntax {
				t.Fatalf("syntax error not alone: %v", errs)
			}
			return
		}
		for _, e := range errs {
			if e.Message == "" || strings.Contains(e.Message, "float64") || strings.Contains(e.Message, "int64") {
				t.Fatalf("message %q", e.Message)
			}
		}
		if len(errs) > 0 {
			return
		}
		out, err := json.Marshal(struct {
			order
			Class string              `json:"class"`
			Wait  string              `json:"wait"`
			Tags  map[string][]string `json:"tags,omitempty"`
		}{o, classes[o.Class], o.Wait.String(), o.Tags})
		if err != nil {
			return // a time encoding/json cannot write (years beyond 9999)
		}
		back, errs := decodeOrder(string(out))
		if len(errs) > 0 || len(back.Lines) != len(o.Lines) || (len(o.Lines) > 0 && !reflect.DeepEqual(back.Lines, o.Lines)) || back.Wait != o.Wait || !back.At.Equal(o.At) || back.ID != o.ID {
			t.Fatalf("round trip of %s: %v", out, errs)
		}
	})
}

// FuzzEncoder: strings and numbers are written exactly as encoding/json
// writes them.
func FuzzEncoder(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "<&>", "\u2028\u2029", "\xff\x00\x1f", "é😀", "\x7f"} {
		f.Add(s, 1.5)
	}
	f.Add("x", 1e21)
	f.Add("x", 1e-7)
	f.Add("x", math.Copysign(0, -1))
	f.Add("x", 123456789.0)
	f.Fuzz(func(t *testing.T, s string, v float64) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s want %s", s, got, want)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			var e Encoder
			e.Float(v)
			if _, err := e.Bytes(); err == nil {
				t.Fatal("NaN or infinity written")
			}
			return
		}
		want, _ = json.Marshal(v)
		if got := AppendFloat(nil, v); string(got) != string(want) {
			t.Fatalf("%v: got %s want %s", v, got, want)
		}
	})
}

func TestEncoderSeparators(t *testing.T) {
	var e Encoder
	e.BeginObject()
	e.Name("a")
	e.BeginArray()
	e.Int(1)
	e.Bool(true)
	e.BeginObject()
	e.EndObject()
	e.EndArray()
	e.Name("b")
	e.String("x")
	e.EndObject()
	if b, err := e.Bytes(); err != nil || string(b) != `{"a":[1,true,{}],"b":"x"}` {
		t.Fatalf("%s %v", b, err)
	}
}

// TestRequiredMembers: an absent required member is a problem at its own
// path, after the object's other problems; a present one, even null or of
// the wrong type, is reported for what it holds, not as absent.
func TestRequiredMembers(t *testing.T) {
	box := &Object[dec, line]{What: "a box", Members: []lm{
		{Name: "kg", Required: true, Read: func(d dec, l *line) { d.ReadFloat(&l.Kg, "a number of kilograms") }},
		{Name: "count", Read: func(d dec, l *line) { d.ReadInt(&l.Count, "a whole number of cases") }},
		{Name: "fresh", Required: true, Read: func(d dec, l *line) { d.ReadBool(&l.Fresh) }},
	}}
	for doc, want := range map[string][]string{
		`[{"kg":1,"fresh":true}]`:        nil,
		`[{"count":1}]`:                  {`8@[0].kg: is required in a box`, `8@[0].fresh: is required in a box`},
		`[{"kg":null,"kgs":1},{"kg":2}]`: {`1@[0].kg: must be a number of kilograms, not null`, `2@[0].kgs: is not a member of a box; did you mean "kg"?`, `8@[0].fresh: is required in a box`, `8@[1].fresh: is required in a box`},
		`[{"kg":1,"fresh":true}`:         {`0@: not valid JSON: unexpected end of input in array at line 1, column 23`},
		`[7]`:                            {`1@[0]: must be a box, not 7`},
	} {
		var d Decoder
		d.Reset([]byte(doc))
		var ls []line
		ReadArray(&d, &d, &ls, "an array of boxes", func(d dec, l *line) { box.Read(d, d, l) })
		d.End()
		var got []string
		for _, e := range d.Errors() {
			got = append(got, fmt.Sprintf("%d@%s: %s", e.Reason, e.Path, e.Message))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %q\nwant %q", doc, got, want)
		}
	}
}

// TestSink: with a Sink, every problem goes there as it is found, past any
// MaxErrors, and Errors lists none but a syntax error.
func TestSink(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"lines":[`)
	for i := range 250 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"x":1}`)
	}
	b.WriteString(`]}`)
	var got []Error
	d := Decoder{Sink: func(e Error) { got = append(got, e) }}
	d.Reset([]byte(b.String()))
	var o order
	orderObject.Read(&d, &d, &o)
	d.End()
	if len(got) != 250 || got[249].Path != "lines[249].x" || len(d.Errors()) != 0 || d.Dropped() != 0 {
		t.Fatalf("%d to the sink, %d listed", len(got), len(d.Errors()))
	}
	got = nil
	d.Reset([]byte(`{"x":1,`))
	orderObject.Read(&d, &d, &o)
	d.End()
	if errs := d.Errors(); len(errs) != 1 || errs[0].Reason != Syntax || d.Syntax() == nil {
		t.Fatalf("syntax error: %v", errs)
	}
}
