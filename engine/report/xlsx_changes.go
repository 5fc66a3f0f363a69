package report

// changesHead are the Changes sheet's column headers.
var changesHead = []string{"Trailer unit", "Shift", "Trip", "Route", "Route before", "Trip before", "Trip status", "Locked", "On this trip",
	"Store", "Name", "Change", "From", "To", "Arrival before", "Arrival now", "Last arrival before", "Last arrival now",
	"Pallets before", "Pallets now"}

// changesTable lists the changes trailer trip by trailer trip (see
// tripChanges): a row for each store change on each trip it touches, so
// that filtering on a trailer unit gives its loaders what changed on
// their load sheets, and filtering on a shift gives its driver what
// changed on the trip sheets. The last arrivals are filled only for a
// store that several stops deliver, where they differ from the first.
func (d *day) changesTable(st *styles) *table {
	styles := []int{st.text, st.text, st.int, st.text, st.text, st.int, st.text, st.text, st.text,
		st.text, st.text, st.text, st.text, st.text, st.dateTime, st.dateTime, st.dateTime, st.dateTime,
		st.int, st.int}
	t := &table{sheet: SheetChanges, cols: columns(st, changesHead, styles)}
	for _, tc := range d.tripChanges() {
		locked := ""
		if tc.locked() {
			locked = "yes"
		}
		now := ""
		var tripBefore any
		if tc.route != nil {
			now = tc.route.ID
		}
		if tc.tripBefore != 0 && tc.tripBefore != tc.trip {
			tripBefore = tc.tripBefore // renumbered: an earlier trip of the shift is gone
		}
		for _, s := range tc.stores {
			c := s.change
			var lastBefore, lastNow any
			if !c.OldLastArrival.Equal(c.OldArrival) {
				lastBefore = d.excelTime(c.OldLastArrival)
			}
			if !c.NewLastArrival.Equal(c.NewArrival) {
				lastNow = d.excelTime(c.NewLastArrival)
			}
			t.rows = append(t.rows, []any{tc.unit, tc.shift, tc.trip, now, tc.before, tripBefore, tc.status, locked, s.effect,
				c.Store, d.storeName(c.Store), kindsText(c), refsText(c.From), refsText(c.To),
				d.excelTime(c.OldArrival), d.excelTime(c.NewArrival), lastBefore, lastNow, c.OldPallets, c.NewPallets})
		}
	}
	return t
}
