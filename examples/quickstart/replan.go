package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/engine/report"
)

// replanFlags are the flags that re-plan from a previous plan: the plan
// (-previous) and what of it stays (-lock-before, -lock-routes,
// -lock-stores).
type replanFlags struct {
	previous   string
	lockBefore string
	lockRoutes string
	lockStores string
}

// check lists every problem of the re-plan flags with one another and with
// -compare (the file it names, "" without it), before any file is read.
func (f replanFlags) check(compare string) error {
	var errs []error
	if f.previous == "" {
		for _, fl := range []struct{ name, value string }{{"lock-before", f.lockBefore}, {"lock-routes", f.lockRoutes}, {"lock-stores", f.lockStores}} {
			if fl.value != "" {
				errs = append(errs, fmt.Errorf("-%s %s: a lock needs the plan it locks: give -previous plan.json", fl.name, fl.value))
			}
		}
	}
	if f.previous != "" && compare != "" {
		errs = append(errs, fmt.Errorf("-compare %s and -previous %s: a re-plan prints its changes against the previous plan; give one of them", compare, f.previous))
	}
	return errors.Join(errs...)
}

// apply reads the previous plan and puts it and the lock into req; it
// returns the previous plan. Errors name the file and every bad member's
// path, or the flag and what it accepts.
func (f replanFlags) apply(req *engine.Request) (engine.Result, error) {
	prev, err := readPlanFile(f.previous)
	if err != nil {
		return engine.Result{}, err
	}
	lock := engine.Lock{Routes: idList(f.lockRoutes), Stores: idList(f.lockStores)}
	if f.lockBefore != "" {
		if lock.Before, err = lockTime(f.lockBefore, report.TimeZone(*req), firstLoading(prev)); err != nil {
			return engine.Result{}, err
		}
	}
	req.Previous, req.Lock = &prev, lock
	return prev, nil
}

// idList splits a comma-separated list of ids, "R1, R2", leaving out
// empty items.
func idList(s string) []string {
	var ids []string
	for _, id := range strings.Split(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// firstLoading is the earliest loading start of the plan; zero for a plan
// without routes.
func firstLoading(p engine.Result) time.Time {
	var first time.Time
	for _, r := range p.Routes {
		if first.IsZero() || r.LoadingStart.Before(first) {
			first = r.LoadingStart
		}
	}
	return first
}

// lockWindow is how far before the previous plan's first loading a clock
// time given alone may fall: a night dispatcher who types 01:30 means the
// coming 01:30 of the night the plan loads in, whether loading starts the
// evening before or after midnight.
const lockWindow = 12 * time.Hour

// lockTime reads -lock-before: an instant with its offset
// (2026-11-24T01:30:00-06:00), a date and clock time on the request's
// clock (2026-11-24T01:30 or "2026-11-24 01:30"), or a clock time alone
// (01:30), which is the instant at that clock time in the 24 hours from
// lockWindow before the previous plan's first loading.
func lockTime(s string, loc *time.Location, first time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	clock, err := time.Parse("15:04", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("-lock-before %q: want a clock time on the request's clock (%s) like 01:30, a date and time like 2026-11-24T01:30, or an instant like 2026-11-24T01:30:00-06:00", s, loc)
	}
	if first.IsZero() {
		return time.Time{}, fmt.Errorf("-lock-before %s: the previous plan has no routes to place a clock time in its night; give a date and time, like 2026-11-24T%s", s, s)
	}
	from := first.Add(-lockWindow).In(loc)
	// The clock time on from's day, else on the next: a day either side
	// covers the days of 23 and 25 hours.
	for d := -1; d <= 2; d++ {
		t := time.Date(from.Year(), from.Month(), from.Day()+d, clock.Hour(), clock.Minute(), 0, 0, loc)
		if !t.Before(from) && t.Before(from.Add(24*time.Hour)) {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("-lock-before %s: the clock on %s does not show it in the 24 hours from %s", s, loc, from.Format("Mon 2 Jan 15:04"))
}

// lockText says what a lock fixes, on the request's clock: "routes loading
// by Tue 24 Nov 03:30; routes R1, R2; stores S001".
func (p *printer) lockText(l engine.Lock) string {
	var parts []string
	if !l.Before.IsZero() {
		parts = append(parts, "routes loading by "+p.at(l.Before))
	}
	if len(l.Routes) > 0 {
		parts = append(parts, "routes "+strings.Join(l.Routes, ", "))
	}
	if len(l.Stores) > 0 {
		parts = append(parts, "stores "+strings.Join(l.Stores, ", ")+" on their routes")
	}
	if len(parts) == 0 {
		return "nothing (the previous plan is only preferred)"
	}
	return strings.Join(parts, "; ")
}
