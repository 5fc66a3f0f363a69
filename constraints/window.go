package constraints

import "time"

// Window is a closed interval of instants [Start, End]: a delivery may start
// at any instant t with Start <= t <= End.
type Window struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Contains reports whether t lies inside the window, ends included.
func (w Window) Contains(t time.Time) bool {
	return !t.Before(w.Start) && !t.After(w.End)
}

// Valid reports whether the window is non-empty (End not before Start).
func (w Window) Valid() bool { return !w.End.Before(w.Start) }

// EarliestIn returns the earliest instant not before t that lies inside one
// of the windows (which must be sorted by Start), and false when there is
// none.
func EarliestIn(ws []Window, t time.Time) (time.Time, bool) {
	for _, w := range ws {
		if t.After(w.End) {
			continue
		}
		if t.Before(w.Start) {
			return w.Start, true
		}
		return t, true
	}
	return time.Time{}, false
}

// AnyContains reports whether t lies inside at least one of the windows.
func AnyContains(ws []Window, t time.Time) bool {
	for _, w := range ws {
		if w.Contains(t) {
			return true
		}
	}
	return false
}
