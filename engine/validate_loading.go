package engine

import (
	"github.com/haulplan/haulplan/constraints"
)

// checkLoading checks route r's loading of n pallets onto its trailer of
// type t: it starts inside the dock hours, lasts the DC's loading time,
// and ends no later than the trip's start, and no longer before it than
// the type's staging limit (the loaded trailer waits in the yard
// meanwhile).
func (c *planCheck) checkLoading(r *Route, path string, t *TrailerType, n int) constraints.Violations {
	var vs constraints.Violations
	req := c.req
	if !c.dockOpenAt(r.LoadingStart) {
		vs.Add(CodeDockHours, path+".loadingStart", "loading starts %s, outside the DC's dock hours", c.at(r.LoadingStart))
	}
	if got, want := r.LoadingEnd.Sub(r.LoadingStart), req.DC.LoadingTime(n); got < want {
		vs.Add(CodeLoadingTime, path+".loadingEnd", "loading ends %v after it starts at %s; loading %d pallets takes %v",
			got, c.at(r.LoadingStart), n, want)
	}
	staged, limit := r.Start.Sub(r.LoadingEnd), req.StagingLimit(*t)
	switch {
	case staged < 0:
		vs.Add(CodeStaging, path+".loadingEnd", "loading ends %s, after the driver comes on duty to hook the trailer at %s",
			c.at(r.LoadingEnd), c.at(r.Start))
	case staged > limit:
		vs.Add(CodeStaging, path+".loadingEnd", "the loaded trailer waits %v in the yard, from %s to the hook-up at %s; a %s may wait at most %v",
			staged, c.at(r.LoadingEnd), c.at(r.Start), t.ID, limit)
	}
	return vs
}
