package routeplan

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// runStreams runs opts.Streams independent searches on opts.Workers
// goroutines and returns them, in stream order, once all have stopped.
//
// Stream k draws from its own random stream of the seed and nothing else
// it reads depends on the other streams (they share the counter that
// stamps routes, but only whether two stamps are equal matters, never
// their values), so under an iteration budget its result is the same
// whichever goroutine runs it and whenever. Worker w
// runs streams w, w+W, w+2W, ... one after the other; under a time limit
// each takes an equal share of the time its worker has left, so that the
// last ones do not start after the deadline.
func runStreams(ctx context.Context, in *instance, nb *neighbours, opts Options, began time.Time, servable, dropped []int, reasons map[int]Reason) []*search {
	nStreams := max(opts.Streams, 1)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, nStreams)
	var deadline time.Time
	if opts.TimeLimit > 0 {
		deadline = began.Add(opts.TimeLimit)
	}
	maxIter := opts.MaxIterations
	if maxIter == 0 && opts.TimeLimit == 0 {
		maxIter = DefaultIterations
	}

	var mu sync.Mutex // serialises Progress calls and guards the best reported
	var reported objective
	haveReported := false
	// Called on the improving stream's goroutine, with its best state
	// still as it is: the snapshot is taken before the stream goes on.
	onImprove := func(pr Progress, best *state) {
		mu.Lock()
		defer mu.Unlock()
		if !haveReported || best.obj.less(reported) {
			reported, haveReported = best.obj, true
			pr.Best = best.solution(reasons)
			opts.Progress(pr)
		}
	}

	streams := make([]*search, nStreams)
	for k := range streams {
		sr := &search{
			in: in, nb: nb, sc: &scratch{}, ctx: ctx, began: began, maxIter: maxIter,
			rng: rand.New(rand.NewPCG(uint64(opts.Seed), 0x9e3779b97f4a7c15+uint64(k))),
		}
		if opts.Progress != nil {
			sr.onImprove = onImprove
		}
		streams[k] = sr
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; k < nStreams; k += workers {
				sr := streams[k]
				sr.start = time.Now()
				if !deadline.IsZero() {
					left := (nStreams - 1 - k) / workers // streams after this one on this worker
					sr.deadline = sr.start.Add(deadline.Sub(sr.start) / time.Duration(left+1))
				}
				sr.run(servable, dropped)
			}
		}()
	}
	wg.Wait()
	return streams
}
