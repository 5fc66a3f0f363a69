package routeplan

import (
	"context"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// runStreams runs opts.Streams independent searches on opts.Workers
// goroutines and returns the best, with the iterations of all of them
// together, once all have stopped; or a *PanicError when one panicked, the
// others being stopped through cancel.
//
// Stream k draws from its own random stream of the seed and nothing else
// it reads depends on the other streams (they share the counter that
// stamps routes, but only whether two stamps are equal matters, never
// their values), so under an iteration budget its result is the same
// whichever goroutine runs it and whenever. Worker w
// runs streams w, w+W, w+2W, ... one after the other; under a time limit
// each takes an equal share of the time its worker has left, so that the
// last ones do not start after the deadline, and a stream that has not
// started when the time limit ends (or the context is cancelled) is never
// started: its state is never allocated.
//
// The best stream is chosen as if the streams were compared in index
// order, each replacing the best so far only when it is better (so a tie
// goes to the lowest index) and whatever order they finish in: a finished
// stream waits only until the streams below it have finished, and then
// every stream but the best so far is let go, so that the memory held is
// that of the streams running and of a few finished ones, not of every
// stream.
func runStreams(cancel context.CancelFunc, in *instance, nb *neighbours, opts Options, lim *solveLimit, hk hooks, servable, dropped []int, reasons map[int]Reason) (*search, int, error) {
	nStreams := max(opts.Streams, 1)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, nStreams)
	maxIter := opts.MaxIterations
	if maxIter == 0 && opts.TimeLimit == 0 {
		maxIter = DefaultIterations
	}
	rep := &progressReport{opts: opts, reasons: reasons}
	res := &streamResults{waiting: make([]*search, nStreams), finished: make([]bool, nStreams)}

	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := w
			defer func() {
				// A bug in a stream must not end the caller's process: the
				// panic goes back to Solve's caller as an error.
				if v := recover(); v != nil {
					res.recordPanic(&PanicError{Stream: k, Value: v, Stack: debug.Stack()})
					cancel()
				}
			}()
			for ; k < nStreams; k += workers {
				if lim.reached() {
					res.finish(k, nil)
					continue
				}
				if hk.streamStart != nil {
					hk.streamStart(k)
				}
				sr := &search{
					in: in, nb: nb, sc: &scratch{}, lim: lim, maxIter: maxIter,
					rng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x9e3779b97f4a7c15+uint64(k))),
				}
				if opts.Progress != nil {
					sr.onImprove = rep.improved
				}
				sr.start = lim.now()
				if !lim.until.IsZero() {
					left := (nStreams - 1 - k) / workers // streams after this one on this worker
					sr.deadline = sr.start.Add(lim.until.Sub(sr.start) / time.Duration(left+1))
				}
				sr.run(servable, dropped)
				res.finish(k, sr)
			}
		}()
	}
	wg.Wait()
	if res.panicked != nil {
		return nil, 0, res.panicked
	}
	return res.best, res.iterations, nil
}

// progressReport passes the streams' improvements to Options.Progress,
// one at a time, only those better than every one reported before and
// at least Options.ProgressInterval after the last.
type progressReport struct {
	opts    Options
	reasons map[int]Reason
	mu      sync.Mutex // serialises Progress calls and guards the fields below
	best    objective
	any     bool
	last    time.Duration // the Elapsed of the last call
}

// improved is called on the improving stream's goroutine, with its best
// state still as it is: the snapshot is taken before the stream goes on.
func (rep *progressReport) improved(pr Progress, best *state) {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	// Elapsed is read before the lock, so with several workers it may run
	// behind the last call's: only an interval set holds a report back.
	soon := rep.opts.ProgressInterval > 0 && pr.Elapsed-rep.last < rep.opts.ProgressInterval
	if rep.any && (!best.obj.less(rep.best) || soon) {
		return
	}
	rep.best, rep.any, rep.last = best.obj, true, pr.Elapsed
	pr.Best = best.solution(rep.reasons, nil, false)
	rep.opts.Progress(pr)
}

// streamResults compares the streams as they finish, in index order.
type streamResults struct {
	mu         sync.Mutex // guards the fields below
	waiting    []*search
	finished   []bool
	next       int // the lowest stream not yet compared
	best       *search
	iterations int
	panicked   *PanicError
}

// finish records stream k's end (sr nil when it was never started) and
// compares, in index order, every stream whose lower ones have all
// finished.
func (res *streamResults) finish(k int, sr *search) {
	res.mu.Lock()
	defer res.mu.Unlock()
	res.waiting[k], res.finished[k] = sr, true
	for ; res.next < len(res.finished) && res.finished[res.next]; res.next++ {
		s := res.waiting[res.next]
		res.waiting[res.next] = nil
		if s == nil {
			continue
		}
		res.iterations += s.iter
		if s.best != nil && (res.best == nil || s.best.obj.less(res.best.best.obj)) {
			res.best = s
		}
	}
}

// recordPanic records a stream's panic; the one of the lowest stream is kept.
func (res *streamResults) recordPanic(pe *PanicError) {
	res.mu.Lock()
	defer res.mu.Unlock()
	if res.panicked == nil || pe.Stream < res.panicked.Stream {
		res.panicked = pe
	}
}
