package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// progressLine shows a planning call's progress on w: one line rewritten in
// place on a terminal, or, when w is a file or a pipe, a plain line at each
// phase and at most one a second between them, so that a log stays short.
type progressLine struct {
	w        io.Writer
	terminal bool
	last     time.Time
	phase    engine.Phase
	shown    bool
}

// newProgressLine writes to w; it rewrites in place when w is a terminal.
func newProgressLine(w io.Writer) *progressLine {
	p := &progressLine{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// report is the engine's Progress callback.
func (p *progressLine) report(r engine.Progress) {
	now := time.Now()
	if !p.terminal && r.Phase == p.phase && now.Sub(p.last) < time.Second && r.Phase != engine.PhaseDone {
		return
	}
	if p.terminal && now.Sub(p.last) < 100*time.Millisecond && r.Phase != engine.PhaseDone {
		return // a terminal needs no more than ten updates a second
	}
	p.last, p.phase = now, r.Phase
	phase := string(r.Phase)
	if r.Round > 0 && r.Phase != engine.PhaseDone {
		phase = fmt.Sprintf("%s %d", r.Phase, r.Round)
	}
	line := fmt.Sprintf("planning %s / %s  %-10s  %3d routes  %5d pallets delivered  %5d unassigned  cost %.2f",
		hhmmss(r.Elapsed), hhmmss(r.Limit), phase, r.Routes, r.Delivered, r.Unassigned, r.Cost)
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, line)
}

// done ends the line on a terminal.
func (p *progressLine) done() {
	if p.terminal && p.shown {
		fmt.Fprintln(p.w)
	}
}

// hhmmss formats an elapsed time as m:ss.s below an hour.
func hhmmss(d time.Duration) string {
	if d >= time.Hour {
		return fmt.Sprintf("%d:%02d:%02d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60)
	}
	return fmt.Sprintf("%d:%04.1f", int(d.Minutes()), d.Seconds()-60*float64(int(d.Minutes())))
}
