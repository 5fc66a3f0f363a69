package engine

import (
	"encoding/json"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/haulplan/haulplan/constraints"
	"github.com/haulplan/haulplan/geo"
	"github.com/haulplan/haulplan/internal/jsonwire"
)

// The road matrix's JSON form, the member "matrix" of the request's
// "travel":
//
//	{"ids": ["DC", "S1", ...], "distancesM": [[0, 1520.5, ...], ...], "durationsS": [[0, 95.2, ...], ...]}
//
// one row and one column per id, in the order of ids; distances in
// metres, durations in seconds (rounded up to whole seconds), as OSRM's
// table service returns "distances" and "durations" and Valhalla's
// sources_to_targets its "distance" and "time" (kilometres there: convert);
// null for a leg without a route, in either matrix. The rows are read
// straight into the geo.RoadMatrix's two flat slices: a matrix of 5,001
// places never exists as [][]float64.

// requestTravelObject is the request's "travel": the travel model's
// members (travelObject) and the road matrix, which belongs to the
// Request, not to the model.
var requestTravelObject = func() *object[Request] {
	o := &object[Request]{What: travelObject.What[:len(travelObject.What)-1] + `, "matrix", "profile"}`}
	for _, m := range travelObject.Members {
		o.Members = append(o.Members, member[Request]{Name: m.Name, Required: m.Required,
			Read: func(d dec, r *Request) { m.Read(d, &r.Travel) }})
	}
	o.Members = append(o.Members, member[Request]{Name: "matrix", Read: func(d dec, r *Request) {
		if d.Peek() == jsonwire.KindNull {
			d.Null()
			r.RoadMatrix = nil
			return
		}
		r.RoadMatrix = readRoadMatrix(d)
	}})
	o.Members = append(o.Members, member[Request]{Name: "profile", Read: func(d dec, r *Request) {
		arrayOf(rushPeriodObject, "an array of rush periods")(d, (*[]geo.RushPeriod)(&r.RushHours))
	}})
	return o
}()

// MaxMatrixPlaces bounds the ids of a road matrix: the DC and MaxStores
// stores, and as many other places again (a matrix made for a larger
// area), so that its memory stays bounded (10,002 places take 800 MB).
const MaxMatrixPlaces = 2 * (MaxStores + 1)

const (
	wantMatrix    = `a road matrix {"ids", "distancesM", "durationsS"}`
	wantMetres    = "a distance in metres (or null for no route)"
	wantSeconds   = "a duration in seconds (or null for no route)"
	wantRows      = "an array of rows, one per id"
	wantRowOfLegs = "an array of legs, one per id"
)

// roadMatrixWire is a road matrix being read: its ids, and the rows of
// each matrix appended as they come, so that their size need not be known
// before the first row is (ids may come last).
type roadMatrixWire struct {
	ids      []string
	n        int // entries a row: len(ids), or the first row's length; -1 until known
	metres   []float32
	secs     []int32
	fromIDs  bool   // n is len(ids), which came first
	rows     [2]int // rows read of distancesM and durationsS
	seen     [2]bool
	shortDoc [2]bool // the document cannot hold matrix k's legs (see reserve)
}

var roadMatrixObject = &object[roadMatrixWire]{What: wantMatrix, Members: []member[roadMatrixWire]{
	{Name: "ids", Required: true, Read: func(d dec, w *roadMatrixWire) {
		stringsArray(d, &w.ids, "an array of DC and store ids")
		if w.n < 0 {
			w.n, w.fromIDs = len(w.ids), true
		}
	}},
	{Name: "distancesM", Required: true, Read: func(d dec, w *roadMatrixWire) { w.readRows(d, 0) }},
	{Name: "durationsS", Required: true, Read: func(d dec, w *roadMatrixWire) { w.readRows(d, 1) }},
}}

// readRoadMatrix reads a road matrix and reports what does not fit
// together: rows per matrix and entries per row against the ids. What
// Check finds (a negative leg, an id given twice) it leaves to Check.
func readRoadMatrix(d dec) *geo.RoadMatrix {
	w := roadMatrixWire{n: -1}
	if _, ok := roadMatrixObject.Read(d, d, &w); !ok {
		return nil
	}
	at := d.Path()
	names := [2]string{"distancesM", "durationsS"}
	for k := range 2 {
		if !w.seen[k] || w.n < 0 || w.rows[k] >= w.n { // more rows: reported at the first extra
			continue
		}
		why := "ids lists " + strconv.Itoa(w.n) + ": one row per id"
		if !w.fromIDs {
			why = "its first row has " + things(w.n, "leg") + ": one row and one column per id"
		}
		d.ReportAt(jsonwire.Join(at, names[k]), jsonwire.BadValue, "has "+things(w.rows[k], "row")+"; "+why)
	}
	if !w.fromIDs && w.ids != nil && w.n >= 0 && w.n != len(w.ids) {
		// At the matrix: the ids and the matrices disagree, and neither
		// is the one at fault.
		d.ReportAt(at, jsonwire.BadValue, "ids lists "+strconv.Itoa(len(w.ids))+
			" ids; the matrices' rows have "+things(w.n, "leg")+": one row and one column per id")
	}
	// A matrix that did not come whole stays the size it came, which
	// Check reports (and DecodeRequest leaves out, as reported here).
	m := &geo.RoadMatrix{IDs: w.ids, Metres: w.metres, Seconds: w.secs}
	if len(m.Metres) == len(m.Seconds) {
		for c, v := range m.Metres {
			if v != v || m.Seconds[c] == geo.NoRoute { // null in either
				m.Metres[c], m.Seconds[c] = 0, geo.NoRoute
			}
		}
	}
	return m
}

// readRows reads distancesM (k = 0) or durationsS (k = 1) into w's flat
// slice of that matrix, row after row.
func (w *roadMatrixWire) readRows(d dec, k int) {
	w.seen[k] = true
	if d.Peek() == jsonwire.KindNull {
		d.WrongType(wantRows, jsonwire.KindNull)
		return
	}
	jsonwire.ReadEach(d, wantRows, func(i int) {
		if w.n < 0 {
			w.firstRow(d, k)
			w.rows[k]++
			return
		}
		if w.n > MaxMatrixPlaces {
			if i == 0 {
				d.Reportf(jsonwire.OutOfRange, "has %d legs: at most %d places per matrix", w.n, MaxMatrixPlaces)
			}
			d.Skip()
			return
		}
		w.rows[k]++
		if i >= w.n {
			if i == w.n {
				d.Reportf(jsonwire.BadValue, "is a row too many: the matrix has one row per id, %d", w.n)
			}
			d.Skip()
			return
		}
		if !w.reserve(d, k) {
			w.readRow(d, k, -1) // checked, not kept
			return
		}
		base := i * w.n
		w.grow(k, base+w.n)
		w.readRow(d, k, base)
	})
}

// reserve makes room for all n rows of matrix k at once, so that the
// slice is allocated once, and reports whether it could: false when the
// rest of the document cannot hold them (two bytes a leg at least). Such
// a matrix lacks rows or legs, which is reported where they lack; its
// rows are checked but not kept, so that a short document claiming many
// ids cannot make the decoder allocate for them.
func (w *roadMatrixWire) reserve(d dec, k int) bool {
	nn := w.n * w.n
	if k == 0 && cap(w.metres) < nn {
		if w.shortDoc[0] || (nn-len(w.metres))*2 > d.Remaining() {
			w.shortDoc[0] = true
			return false
		}
		w.metres = append(make([]float32, 0, nn), w.metres...)
	}
	if k == 1 && cap(w.secs) < nn {
		if w.shortDoc[1] || (nn-len(w.secs))*2 > d.Remaining() {
			w.shortDoc[1] = true
			return false
		}
		w.secs = append(make([]int32, 0, nn), w.secs...)
	}
	return true
}

// grow lengthens matrix k to hold end entries, within its capacity.
func (w *roadMatrixWire) grow(k, end int) {
	if k == 0 && len(w.metres) < end {
		w.metres = w.metres[:end]
	}
	if k == 1 && len(w.secs) < end {
		w.secs = w.secs[:end]
	}
}

// readRow reads one row of matrix k into the entries from base on; with
// base -1 it checks the row and keeps nothing.
func (w *roadMatrixWire) readRow(d dec, k, base int) {
	got := 0
	ok := jsonwire.ReadEach(d, wantRowOfLegs, func(j int) {
		got = j + 1
		switch {
		case j >= w.n:
			d.Skip()
		case k == 0 && base >= 0:
			w.metres[base+j] = readMetres(d)
		case k == 0:
			readMetres(d)
		case base >= 0:
			w.secs[base+j] = readSeconds(d)
		default:
			readSeconds(d)
		}
	})
	if ok && got != w.n {
		d.Reportf(jsonwire.BadValue, "has %s; ids lists %d: one leg per id", things(got, "leg"), w.n)
	}
}

// firstRow reads the first row of matrix k while the number of ids is not
// known yet (ids come after the matrices): its length sets it.
func (w *roadMatrixWire) firstRow(d dec, k int) {
	var ms []float32
	var ss []int32
	ok := jsonwire.ReadEach(d, wantRowOfLegs, func(j int) {
		if j >= MaxMatrixPlaces {
			if j == MaxMatrixPlaces {
				d.Reportf(jsonwire.OutOfRange, "has more than %d legs: at most %d places per matrix", MaxMatrixPlaces, MaxMatrixPlaces)
			}
			d.Skip()
			return
		}
		if k == 0 {
			ms = append(ms, readMetres(d))
		} else {
			ss = append(ss, readSeconds(d))
		}
	})
	if !ok {
		return
	}
	w.n = max(len(ms), len(ss))
	if !w.reserve(d, k) {
		return
	}
	if k == 0 {
		w.metres = append(w.metres, ms...)
	} else {
		w.secs = append(w.secs, ss...)
	}
}

// things is n things: "1 leg", "3 legs".
func things(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// readMetres reads one distance: NaN for null (no route; readRoadMatrix
// turns it into geo.NoRoute), +Inf for one beyond float32, reported.
func readMetres(d dec) float32 {
	if d.Peek() == jsonwire.KindNull {
		d.Null()
		return float32(math.NaN())
	}
	f, ok := d.Float(wantMetres)
	if !ok {
		return 0
	}
	if math.Abs(f) > math.MaxFloat32 {
		d.Reportf(jsonwire.OutOfRange, "must be %s; %s m is out of range", wantMetres, strconv.FormatFloat(f, 'g', -1, 64))
		return float32(math.Inf(1))
	}
	return float32(f)
}

// readSeconds reads one duration, rounded up to whole seconds: geo.NoRoute
// for null, and a duration of 68 years or more reported.
func readSeconds(d dec) int32 {
	if d.Peek() == jsonwire.KindNull {
		d.Null()
		return geo.NoRoute
	}
	f, ok := d.Float(wantSeconds)
	if !ok {
		return 0
	}
	s := math.Ceil(f)
	if s >= geo.NoRoute || s <= math.MinInt32 {
		d.Reportf(jsonwire.OutOfRange, "must be %s; %s s is out of range (68 years)", wantSeconds, strconv.FormatFloat(f, 'g', -1, 64))
		return 0
	}
	return int32(s)
}

// DecodeRoadMatrix reads a road matrix on its own, in the JSON form of a
// request's "travel"."matrix" (a file made from an OSRM or Valhalla table,
// say), and checks it as Check does, without the request: every problem
// is listed with its path ("distancesM[3][7]") in a
// constraints.Violations. The ids are not compared with any request's.
func DecodeRoadMatrix(r io.Reader) (*geo.RoadMatrix, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, constraints.Violations{{Code: CodeInvalidJSON, Message: "reading the matrix: " + err.Error()}}
	}
	var m *geo.RoadMatrix
	decoded, syntax := decode(data, func(d dec) {
		if d.Peek() == jsonwire.KindNull {
			d.WrongType(wantMatrix, jsonwire.KindNull)
			return
		}
		m = readRoadMatrix(d)
	})
	if syntax != nil {
		return nil, syntax
	}
	checked := constraints.Grouper{Max: MaxViolations}
	if m != nil {
		checkRoadMatrix(m, "", func(v constraints.Violation) {
			if !decoded.Covers(v.Path) {
				checked.Add(v)
			}
		})
	}
	if vs := listed(decoded, &checked); len(vs) > 0 {
		return nil, vs
	}
	return m, nil
}

// MarshalJSON writes the request by its struct tags, with RoadMatrix and
// RushHours, when set, as the members "matrix" and "profile" of "travel".
func (r Request) MarshalJSON() ([]byte, error) {
	type plain Request
	if r.RoadMatrix == nil && len(r.RushHours) == 0 {
		return json.Marshal(plain(r))
	}
	t := travelWithMatrix{TravelModel: r.Travel}
	if r.RoadMatrix != nil {
		t.Matrix = &roadMatrixJSON{r.RoadMatrix}
	}
	for _, p := range r.RushHours {
		t.Profile = append(t.Profile, rushPeriodJSON(p))
	}
	return json.Marshal(struct {
		plain
		Travel travelWithMatrix `json:"travel"`
	}{plain(r), t})
}

// travelWithMatrix is the request's "travel" with its "matrix" and
// "profile".
type travelWithMatrix struct {
	geo.TravelModel
	Matrix  *roadMatrixJSON  `json:"matrix,omitempty"`
	Profile []rushPeriodWire `json:"profile,omitempty"`
}

// rushPeriodWire is a period of the travel profile in its JSON form.
type rushPeriodWire struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Factor float64  `json:"factor"`
	Days   []string `json:"days,omitempty"`
}

// rushPeriodJSON writes p's clock times as geo.FormatClock does and its
// days by their names; a day outside the week (which Check rejects) as
// its number.
func rushPeriodJSON(p geo.RushPeriod) rushPeriodWire {
	w := rushPeriodWire{From: geo.FormatClock(p.From), To: geo.FormatClock(p.To), Factor: p.Factor}
	for _, d := range p.Days {
		if d >= time.Sunday && d <= time.Saturday {
			w.Days = append(w.Days, weekdayNames[d])
		} else {
			w.Days = append(w.Days, strconv.Itoa(int(d)))
		}
	}
	return w
}

// roadMatrixJSON writes a geo.RoadMatrix in its JSON form.
type roadMatrixJSON struct{ m *geo.RoadMatrix }

// MarshalJSON writes the ids and the two matrices row by row, a leg
// without a route as null in both; distances as the shortest decimal that
// reads back to the same float32.
func (w roadMatrixJSON) MarshalJSON() ([]byte, error) {
	return AppendRoadMatrix(nil, w.m), nil
}

// AppendRoadMatrix appends the JSON form of m to b (see DecodeRoadMatrix)
// and returns the extended buffer. A matrix whose slices do not hold n×n
// entries is written with the rows it has.
func AppendRoadMatrix(b []byte, m *geo.RoadMatrix) []byte {
	n := len(m.IDs)
	b = append(b, `{"ids":[`...)
	for i, id := range m.IDs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, id)
	}
	b = append(b, `],"distancesM":[`...)
	rows := func(size int, leg func(b []byte, c int) []byte) {
		for i := range n {
			if (i+1)*n > size {
				break
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for j := range n {
				if j > 0 {
					b = append(b, ',')
				}
				b = leg(b, i*n+j)
			}
			b = append(b, ']')
		}
	}
	routed := func(c int) bool { return c >= len(m.Seconds) || m.Seconds[c] != geo.NoRoute }
	rows(len(m.Metres), func(b []byte, c int) []byte {
		if v := m.Metres[c]; routed(c) && !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			return strconv.AppendFloat(b, float64(v), 'f', -1, 32)
		}
		return append(b, "null"...)
	})
	b = append(b, `],"durationsS":[`...)
	rows(len(m.Seconds), func(b []byte, c int) []byte {
		if !routed(c) {
			return append(b, "null"...)
		}
		return strconv.AppendInt(b, int64(m.Seconds[c]), 10)
	})
	return append(b, "]}"...)
}
