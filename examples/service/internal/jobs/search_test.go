package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
	"github.com/haulplan/haulplan/examples/service/internal/store"
)

// These tests put planning functions that misbehave in the place of
// engine.Plan: searches that overrun their time limit, ignore their
// context, panic, or report a bug, and a store that panics.

// deadlineConfig gives each search its 100 ms time limit (the requests')
// plus a grace of 100 ms.
func deadlineConfig(t *testing.T) Config {
	cfg := fastConfig(t)
	cfg.Grace = 100 * time.Millisecond
	return cfg
}

func TestADeadlineStopsASearchThatOverrunsItsTimeLimit(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 12, 100*time.Millisecond)})
	r, ends := startMem(t, st, deadlineConfig(t))
	var deadline, called time.Time
	r.plan = func(ctx context.Context, req engine.Request) (engine.Result, error) {
		called = time.Now()
		deadline, _ = ctx.Deadline()
		<-ctx.Done() // a search that stops only when its context ends
		return engine.Result{}, ctx.Err()
	}
	submitted := time.Now()
	if err := <-goWork(r, "j1"); err != nil {
		t.Fatal(err)
	}
	j := st.job("j1")
	if j.Status != store.JobFailed || !strings.Contains(j.Error, "time limit (100ms)") || !strings.Contains(j.Error, "grace period (100ms)") {
		t.Errorf("job: %s %q, want FAILED naming the time limit and the grace period", j.Status, j.Error)
	}
	if _, cause := ends.get("j1"); !errors.Is(cause, ErrDeadline) {
		t.Errorf("the search's context ended by %v, want ErrDeadline", cause)
	}
	// The deadline is the time limit plus the grace from the start.
	if limit := 200 * time.Millisecond; deadline.Before(submitted.Add(limit)) || deadline.After(called.Add(limit)) {
		t.Errorf("deadline %v after the job was handed to the worker, want the 100 ms limit + 100 ms grace", deadline.Sub(submitted))
	}
}

func TestADeadlineKeepsThePlanOfTheSearchItStopped(t *testing.T) {
	st := newMemStore()
	req := sampleRequest(t, 12, 100*time.Millisecond)
	st.put(store.Job{ID: "j1", Request: req})
	r, ends := startMem(t, st, deadlineConfig(t))
	// The runner waits for the stopped search however long it takes to
	// return, so that a loaded machine cannot turn this test into the one
	// of a search that does not stop (TestASearchThatDoesNotStopFailsItsJobOnTime).
	r.stuckAfter = func(time.Duration) <-chan time.Time { return nil }
	var got engine.Result
	var gotErr error
	r.plan = func(ctx context.Context, req engine.Request) (engine.Result, error) {
		req.Options.TimeLimit = time.Hour // a search that overruns its limit
		got, gotErr = engine.Plan(ctx, req)
		return got, gotErr
	}
	if err := <-goWork(r, "j1"); err != nil {
		t.Fatal(err)
	}
	if _, cause := ends.get("j1"); !errors.Is(cause, ErrDeadline) {
		t.Fatalf("the search's context ended by %v, want ErrDeadline", cause)
	}
	j := st.job("j1")
	if gotErr != nil {
		// Stopped before its first plan: there is none to keep.
		if j.Status != store.JobFailed || !strings.Contains(j.Error, "before it had a plan") {
			t.Errorf("engine.Plan: %v; job %s %q, want FAILED saying it had no plan", gotErr, j.Status, j.Error)
		}
		return
	}
	want, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != store.JobCompleted || !bytes.Equal(j.Plan, want) {
		t.Fatalf("job %s %q with a plan of %d bytes, want COMPLETED with the plan the stopped search returned", j.Status, j.Error, len(j.Plan))
	}
	checkPlan(t, req, j.Plan)
}

func TestASearchThatDoesNotStopFailsItsJobOnTime(t *testing.T) {
	st := newMemStore()
	st.put(store.Job{ID: "j1", Request: sampleRequest(t, 12, 100*time.Millisecond)})
	r, _ := startMem(t, st, deadlineConfig(t))
	release := make(chan struct{})
	r.plan = func(context.Context, engine.Request) (engine.Result, error) {
		<-release // a search that ignores its context
		return engine.Result{}, errors.New("returned at last")
	}
	done := goWork(r, "j1")
	// Its deadline is at 200 ms, and the job fails 100 ms later.
	waitFor(t, "the job FAILED", func() bool { return st.job("j1").Status == store.JobFailed })
	select {
	case <-done:
		t.Fatal("the worker returned while its search still ran: another job would share its cores")
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	j := st.job("j1")
	if !strings.Contains(j.Error, "without stopping") || st.finishes != 1 {
		t.Errorf("job %s %q after %d FinishJob calls, want FAILED once, saying the search did not stop", j.Status, j.Error, st.finishes)
	}
}

// syncBuffer collects the runner's log lines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestAFaultInThePlanningFailsTheJobAndTheRunnerGoesOn(t *testing.T) {
	for _, c := range []struct {
		name string
		// fault puts the fault in place; the job's log must hold logged.
		fault  func(st *memStore, r *Runner)
		logged []string
	}{
		{"a panic in the search", func(st *memStore, r *Runner) {
			r.plan = func(context.Context, engine.Request) (engine.Result, error) { panic("stream 3 lost its way") }
		}, []string{"stream 3 lost its way", "goroutine "}},
		{"the engine's internal error", func(st *memStore, r *Runner) {
			r.plan = func(context.Context, engine.Request) (engine.Result, error) {
				return engine.Result{}, fmt.Errorf("%w: search stream 3 panicked: index out of range", engine.ErrInternal)
			}
		}, []string{"search stream 3 panicked: index out of range"}},
		{"a panic in a search stream of the real engine", func(st *memStore, r *Runner) {
			r.plan = func(ctx context.Context, req engine.Request) (engine.Result, error) {
				save := req.Options.Progress
				req.Options.Progress = func(p engine.Progress) {
					if p.Phase == engine.PhaseRouting {
						panic("injected fault in a search stream") // routing reports from its streams' goroutines
					}
					save(p)
				}
				return engine.Plan(ctx, req)
			}
		}, []string{"injected fault in a search stream", "goroutine "}},
		{"a panic in the worker", func(st *memStore, r *Runner) {
			st.mu.Lock()
			defer st.mu.Unlock()
			st.finishPanics = 1 // recording the plan
		}, []string{"injected fault in FinishJob", "goroutine "}},
		{"a panic in the progress saver", func(st *memStore, r *Runner) {
			st.mu.Lock()
			defer st.mu.Unlock()
			st.savePanics = 1
			r.plan = func(ctx context.Context, req engine.Request) (engine.Result, error) {
				req.Options.Progress(engine.Progress{Phase: engine.PhaseOrders})
				<-ctx.Done()
				return engine.Result{}, ctx.Err()
			}
		}, []string{"injected fault in SaveProgress", "goroutine "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := newMemStore()
			st.put(store.Job{ID: "faulty", Request: sampleRequest(t, 12, 200*time.Millisecond)})
			req := sampleRequest(t, 12, 200*time.Millisecond)
			st.put(store.Job{ID: "next", Request: req})
			logs := &syncBuffer{}
			cfg := fastConfig(t)
			cfg.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(logs, t.Output()), nil))
			r, _ := startMem(t, st, cfg)
			c.fault(st, r)
			if err := <-goWork(r, "faulty"); err != nil {
				t.Fatal(err)
			}
			j := st.job("faulty")
			if j.Status != store.JobFailed || j.Error != internalFailure {
				t.Fatalf("job: %s %q, want FAILED with %q", j.Status, j.Error, internalFailure)
			}
			for _, s := range c.logged {
				if !strings.Contains(logs.String(), s) {
					t.Errorf("the log lacks %q", s)
				}
			}
			// The runner goes on: the next job is planned.
			st.mu.Lock()
			st.savePanics, st.finishPanics = 0, 0
			st.mu.Unlock()
			r.plan = engine.Plan
			if err := <-goWork(r, "next"); err != nil {
				t.Fatal(err)
			}
			if j := st.job("next"); j.Status != store.JobCompleted {
				t.Fatalf("the next job: %s %q", j.Status, j.Error)
			}
			checkPlan(t, req, st.job("next").Plan)
		})
	}
}
