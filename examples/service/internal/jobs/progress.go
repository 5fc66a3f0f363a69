package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// progressSaver keeps a running job's latest progress report and saves it
// from its own goroutine: at most every Config.ProgressEvery, and with the
// best plan so far at most every Config.PlanEvery. The engine's callback
// only stores the report and wakes the goroutine, so it returns at once.
type progressSaver struct {
	r     *Runner
	jobID string
	run   *run
	log   *slog.Logger

	mu     sync.Mutex
	latest engine.Progress
	seq    int // reports received
	wake   chan struct{}
}

func newProgressSaver(r *Runner, jobID string, rn *run, log *slog.Logger) *progressSaver {
	return &progressSaver{r: r, jobID: jobID, run: rn, log: log, wake: make(chan struct{}, 1)}
}

// report is the engine's Progress callback.
func (s *progressSaver) report(p engine.Progress) {
	s.mu.Lock()
	s.latest, s.seq = p, s.seq+1
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // the goroutine has a wake-up pending and reads the latest
	}
}

// final is the engine's last report of a planning call that returned a
// plan (phase DONE), once the call has returned; false when there is none.
func (s *progressSaver) final() (engine.Progress, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest, s.seq > 0 && s.latest.Phase == engine.PhaseDone
}

// saving is a running progressSaver goroutine.
type saving struct {
	done, finished chan struct{}
	once           *sync.Once
}

// stop ends the goroutine and waits for it (a save under way finishes).
// Stopping again does nothing.
func (g saving) stop() {
	g.once.Do(func() { close(g.done) })
	<-g.finished
}

// start runs the saving goroutine until stop; ctx bounds its store calls.
// A panic in it (building the best plan so far, or a store call) is a
// bug: it is logged with its stack and ends the job's context with
// errPanicked, so that the job fails with an internal error rather than
// the process.
func (s *progressSaver) start(ctx context.Context) saving {
	g := saving{done: make(chan struct{}), finished: make(chan struct{}), once: &sync.Once{}}
	go func() {
		defer close(g.finished)
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("planning job's progress saver panicked", slog.String("panic", fmt.Sprint(p)),
					slog.String("stack", string(debug.Stack())))
				s.run.cancel(errPanicked)
			}
		}()
		s.loop(ctx, g.done)
	}()
	return g
}

func (s *progressSaver) loop(ctx context.Context, done <-chan struct{}) {
	var (
		savedSeq, planSeq        int // the reports last saved, and last saved with their plan
		lastSave, lastPlan       time.Time
		timer                    = time.NewTimer(time.Hour)
		progressEvery, planEvery = s.r.cfg.ProgressEvery, s.r.cfg.PlanEvery
	)
	timer.Stop()
	defer timer.Stop()
	for {
		s.mu.Lock()
		seq, p := s.seq, s.latest
		s.mu.Unlock()
		// The next save is due when there is a report not saved yet (at
		// most every progressEvery), or a plan not saved yet (at most
		// every PlanEvery, even if no report came since the last save).
		var due time.Time
		planPending := seq > planSeq && p.Phase != engine.PhaseOrders && p.Phase != engine.PhaseDone
		switch {
		case seq > savedSeq:
			due = lastSave.Add(progressEvery)
			if planPending {
				due = earliest(due, lastPlan.Add(planEvery))
			}
		case planPending:
			due = lastPlan.Add(planEvery)
		}
		if !due.IsZero() {
			timer.Reset(max(0, time.Until(due)))
		}
		select {
		case <-done:
			return
		case <-s.wake:
			timer.Stop()
			continue
		case <-timer.C:
		}
		var body []byte
		now := time.Now()
		if planPending && !now.Before(lastPlan.Add(planEvery)) {
			body = s.bestPlan(p)
			lastPlan, planSeq = now, seq
		}
		err := s.r.store.SaveProgress(ctx, s.jobID, s.r.cfg.Owner, storeProgress(p), body)
		switch {
		case errors.Is(err, store.ErrLeaseLost):
			// Cancelled through another process, most likely: stop now
			// rather than at the next lease renewal.
			s.run.cancel(ErrLeaseLost)
			return
		case err != nil && ctx.Err() == nil:
			s.log.Warn("saving planning job progress failed", slog.String("error", err.Error()))
		}
		lastSave, savedSeq = now, seq
	}
}

// bestPlan is the plan JSON of report p's best plan so far, or nil when
// there is none.
func (s *progressSaver) bestPlan(p engine.Progress) []byte {
	plan, err := p.Best()
	if err != nil {
		s.log.Warn("building the best plan so far failed", slog.String("error", err.Error()))
		return nil
	}
	body, err := json.Marshal(plan)
	if err != nil {
		s.log.Warn("writing the best plan so far failed", slog.String("error", err.Error()))
		return nil
	}
	return body
}

// storeProgress is the store's copy of an engine progress report.
func storeProgress(p engine.Progress) store.Progress {
	return store.Progress{
		Phase: string(p.Phase), Round: p.Round, Elapsed: p.Elapsed, Limit: p.Limit,
		Routes: p.Routes, Delivered: p.Delivered, Unassigned: p.Unassigned, Cost: p.Cost,
		Updated: time.Now(),
	}
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
