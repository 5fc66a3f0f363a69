package routeplan

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// limitClock is a clock for Solve's time limit that stands still until it
// expires and then reads a day later, past any limit the tests set; it
// expires when told to, or once armed, after a number of reads.
type limitClock struct {
	mu      sync.Mutex
	t0      time.Time
	expired bool
	armed   bool
	left    int // reads before it expires, once armed
}

func (c *limitClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed && !c.expired {
		if c.left == 0 {
			c.expired = true
		} else {
			c.left--
		}
	}
	if c.expired {
		return c.t0.Add(24 * time.Hour)
	}
	return c.t0
}

func (c *limitClock) arm(reads int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.armed, c.left = true, reads
}

func (c *limitClock) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expired = true
}

// startedStreams records the streams that began.
type startedStreams struct {
	mu sync.Mutex
	ks []int
}

func (s *startedStreams) add(k int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ks = append(s.ks, k)
}

func (s *startedStreams) list() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.ks)
	slices.Sort(out)
	return out
}

// byReason counts a solution's unassigned sites by reason, and its routed
// sites under 0.
func byReason(sol *Solution) map[Reason]int {
	n := map[Reason]int{}
	for _, r := range sol.Routes {
		n[0] += len(r.Visits)
	}
	for _, u := range sol.Unassigned {
		n[u.Reason]++
	}
	return n
}

// TestConstructionStopsAtTheTimeLimit: the time limit ends while the first
// stream is still building its first solution, on one worker with 256
// streams. The construction stops there: the routes it built are the
// solution, valid, and every site it had not come to is NotReached (the
// fleet serves every site, so nothing else is left out); none of the other
// 255 streams starts. Construction reads the clock once before each site,
// so the sites routed are at most the reads left when the stream starts.
func TestConstructionStopsAtTheTimeLimit(t *testing.T) {
	p := benchProblem(200, false)
	const reads = 50
	clock := &limitClock{t0: time.Now()}
	var started startedStreams
	hk := hooks{now: clock.now, streamStart: func(k int) {
		started.add(k)
		if k == 0 {
			clock.arm(reads)
		}
	}}
	sol, err := solve(context.Background(), p, Options{TimeLimit: time.Minute, Streams: 256, Workers: 1, Seed: 1}, hk)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateSolution(p, sol); err != nil {
		t.Fatal(err)
	}
	if s := started.list(); !slices.Equal(s, []int{0}) {
		t.Errorf("streams started: %v; want only 0", s)
	}
	n := byReason(sol)
	if n[0] < 1 || n[0] > reads {
		t.Errorf("%d sites routed; want from 1 to %d, those the construction reached in time", n[0], reads)
	}
	if n[NotReached] != len(p.Sites)-n[0] || len(n) != 2 {
		t.Errorf("sites by reason (0: routed) %v; want the %d not routed NotReached", n, len(p.Sites)-n[0])
	}
	if sol.Iterations != 0 {
		t.Errorf("%d iterations after a construction the limit cut short", sol.Iterations)
	}
}

// TestStreamsNotStartedPastTheTimeLimit: the time limit ends as the first
// stream finishes its construction (its first Progress report). That
// stream's solution, complete, is the result, and no stream that had not
// begun by then begins: on one worker only stream 0 ran, on four workers
// at most the first stream of each.
func TestStreamsNotStartedPastTheTimeLimit(t *testing.T) {
	p := benchProblem(200, false)
	for _, workers := range []int{1, 4} {
		clock := &limitClock{t0: time.Now()}
		var started startedStreams
		hk := hooks{now: clock.now, streamStart: started.add}
		opts := Options{TimeLimit: time.Minute, Streams: 256, Workers: workers, Seed: 1, Progress: func(Progress) { clock.expire() }}
		sol, err := solve(context.Background(), p, opts, hk)
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		s := started.list()
		if len(s) == 0 || len(s) > workers || s[len(s)-1] >= workers {
			t.Errorf("%d workers: streams started %v; want at most the first of each worker", workers, s)
		}
		if len(sol.Unassigned) != 0 {
			t.Errorf("%d workers: unassigned %v; the first construction was complete", workers, sol.Unassigned)
		}
	}
}

// TestTimeLimitEndsBeforeAnyConstruction: when the limit ends before a
// stream could begin (as the call begins, or during any step of the
// preparation), Solve returns at once a valid solution that serves
// nothing, every site NotReached, and no error: it is the best found so
// far.
func TestTimeLimitEndsBeforeAnyConstruction(t *testing.T) {
	p := benchProblem(200, false)
	// Solve reads the clock as it begins (read 1), after checking the
	// problem (2), before each of the 201 rows of the matrix (3 to 203),
	// each of the 200 sites whose vehicle types it ranks (204 to 403) and
	// each of the 200 places whose neighbours it ranks (404 to 603).
	for _, reads := range []int{1, 2, 3, 100, 250, 450, 603} {
		clock := &limitClock{t0: time.Now()}
		clock.arm(reads)
		var started startedStreams
		sol, err := solve(context.Background(), p, Options{TimeLimit: time.Second, Streams: 256, Workers: 2}, hooks{now: clock.now, streamStart: started.add})
		if err != nil {
			t.Fatal(err)
		}
		if err := validateSolution(p, sol); err != nil {
			t.Fatal(err)
		}
		if s := started.list(); len(s) != 0 {
			t.Errorf("limit past after %d reads: streams started %v; want none", reads, s)
		}
		if n := byReason(sol); n[NotReached] != len(p.Sites) || len(n) != 1 {
			t.Errorf("limit past after %d reads: sites by reason (0: routed) %v; want all %d NotReached", reads, n, len(p.Sites))
		}
	}
}
