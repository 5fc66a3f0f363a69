package jobs

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// ErrDeadline: the search ran past its time limit plus Config.Grace, and
// its context was ended (the cause of that context).
var ErrDeadline = errors.New("jobs: the search ran past its time limit and the grace period")

// errPanicked ends a job's context when this process's own part of the
// job panicked on another goroutine (its progress saver): the job fails
// with an internal error.
var errPanicked = errors.New("jobs: the planning job's progress saver panicked")

// internalFailure is the error of a job that failed on a bug: a panic, or
// engine.ErrInternal. The client reads it in job details; the panic's
// value and stack, or the engine's error, are in the log line of the job
// only, since they say nothing a client can act on.
const internalFailure = "internal error: the planning failed on a fault of the service, not of the request; the service's log has the details"

// searchPanic is a panic recovered on the search's goroutine.
type searchPanic struct {
	value any
	stack []byte
}

func (e *searchPanic) Error() string { return fmt.Sprintf("jobs: the search panicked: %v", e.value) }

// outcome is what a search gave: the plan, or why there is none, and why
// its context ended (nil when it did not).
type outcome struct {
	plan  engine.Result
	err   error
	cause error
}

// search plans req with r.plan under a context that ends at the time
// limit plus Config.Grace from now, with ErrDeadline as its cause (a plan
// that comes back then is the best one found, as when a cancel stops a
// search). A panic on the search's goroutine comes back as a *searchPanic
// error. When the search has not returned one more Grace after its
// deadline, search returns at once with the channel its outcome will come
// on: the job's state must not wait for a search that ignores its context.
func (r *Runner) search(planCtx context.Context, req engine.Request) (outcome, <-chan outcome) {
	deadline := time.Now().Add(req.Options.TimeLimit + r.cfg.Grace)
	ctx, cancel := context.WithDeadlineCause(planCtx, deadline, ErrDeadline)
	done := make(chan outcome, 1)
	go func() {
		defer cancel()
		done <- r.planRecovered(ctx, req)
	}()
	select {
	case o := <-done:
		return o, nil
	case <-r.stuckAfter(time.Until(deadline) + r.cfg.Grace):
		return outcome{}, done
	}
}

// planRecovered is r.plan with a panic turned into a *searchPanic error.
func (r *Runner) planRecovered(ctx context.Context, req engine.Request) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome{err: &searchPanic{value: p, stack: debug.Stack()}}
		}
		o.cause = context.Cause(ctx)
	}()
	plan, err := r.plan(ctx, req)
	return outcome{plan: plan, err: err}
}
