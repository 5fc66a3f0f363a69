package loadplan

import (
	"math"
	"time"
)

// limit is where a phase of the search stops: at a time, or once the
// count of layouts made (fleetPacker.calls) reaches layouts. Without a
// layout budget (FleetOptions.MaxLayouts) layouts is math.MaxInt and the
// phases share the time; with one, they share the layouts, and the time
// is only the call's hard limit, so that the work each phase gets does
// not depend on the machine's speed.
type limit struct {
	at      time.Time
	layouts int
}

// stopped reports whether ctx or the limit l ends the search.
func (f *fleetPacker) stopped(l limit) bool {
	return f.ctx.Err() != nil || f.calls >= l.layouts || time.Now().After(l.at)
}

// share returns the limit of a phase that may take num/den of what is
// left before l.
func (f *fleetPacker) share(l limit, num, den int) limit {
	if l.layouts == math.MaxInt {
		return limit{at: time.Now().Add(time.Until(l.at) * time.Duration(num) / time.Duration(den)), layouts: l.layouts}
	}
	return limit{at: l.at, layouts: f.calls + max(0, l.layouts-f.calls)*num/den}
}
