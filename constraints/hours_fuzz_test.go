package constraints

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzWeeklyHours decodes outside JSON into WeeklyHours and runs Check and
// Resolve on it: neither may panic, they must agree on validity, and the
// windows must be sorted, disjoint and inside the range.
func FuzzWeeklyHours(f *testing.F) {
	seeds := []string{
		`{"timeZone":"America/Chicago","days":{"mon":[{"open":"06:00","close":"22:00"}],"sun":[{"open":"22:00","close":"06:00"}]},"closedDates":["2026-03-09"]}`,
		`{"timeZone":"Europe/Berlin","days":{"sat":[{"open":"00:00","close":"24:00"}],"sun":[{"open":"02:30","close":"02:15"}]}}`,
		`{"timeZone":"Pacific/Apia","days":{"fri":[{"open":"23:00","close":"01:00"}],"sat":[{"open":"00:00","close":"24:00"}]}}`,
		`{"timeZone":"Australia/Lord_Howe","days":{"sun":[{"open":"01:45","close":"02:15"}]}}`,
		`{"days":{"Mon":[{"open":"8:00","close":"24:01"}],"tue":[{"open":"10:00","close":"10:00"}]},"closedDates":["2026-02-30"]}`,
		`{"timeZone":"Local","days":null}`,
		`{"timeZone":"../../../etc/passwd","days":{"mon":[{}]}}`,
		`{}`,
	}
	for i, s := range seeds {
		f.Add([]byte(s), int64(1772928000+i*86400), uint32(7*24*60))
	}
	// 2011-12-29 00:00Z, across Apia's skipped day.
	f.Add([]byte(seeds[2]), int64(1325116800), uint32(4*24*60))
	f.Fuzz(func(t *testing.T, data []byte, fromUnix int64, spanMinutes uint32) {
		var h WeeklyHours
		if err := json.Unmarshal(data, &h); err != nil {
			return
		}
		vs := h.Check("hours")
		// Keep instants within a few thousand years and ranges within
		// ~90 days so that one input cannot run for minutes.
		from := time.Unix(fromUnix%(1<<37), 0)
		to := from.Add(time.Duration(spanMinutes%(90*24*60)) * time.Minute)
		ws, err := h.Resolve(from, to)
		if (vs == nil) != (err == nil) {
			t.Fatalf("Check = %v but Resolve error = %v", vs, err)
		}
		for _, v := range vs {
			if v.Code == "" || v.Path == "" || v.Message == "" {
				t.Fatalf("incomplete violation %+v", v)
			}
		}
		for i, w := range ws {
			if w.Start.Before(from) || w.End.After(to) || w.End.Before(w.Start) {
				t.Fatalf("window %v outside [%v, %v]", w, from, to)
			}
			if i > 0 && !ws[i-1].End.Before(w.Start) {
				t.Fatalf("windows not sorted and disjoint: %v", ws)
			}
		}
	})
}
