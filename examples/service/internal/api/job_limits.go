package api

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// DefaultTenantQueuedJobs is how many planning jobs of one tenant may wait
// in the queue: with one running at a time and up to five minutes each,
// ten are most of an hour of planning, more than a tenant plans ahead.
const DefaultTenantQueuedJobs = 10

// codeQueueFull answers a planning job over its tenant's queue.
const codeQueueFull = "TOO_MANY_QUEUED_JOBS"

// queueFullRetryAfter is the Retry-After of TOO_MANY_QUEUED_JOBS: a place
// frees when one of the tenant's jobs starts, which is when another ends,
// up to the longest search later; half a minute is a pace to ask again
// at, well within the planning operations' rate limit.
const queueFullRetryAfter = 30 * time.Second

// jobLimits are what the service allows one tenant's planning jobs.
type jobLimits struct {
	// maxStreams caps options.streams: a request asking more is refused
	// (400), since the number of streams is part of what decides the plan
	// and a client asking for it wants that plan, not another.
	maxStreams int
	// queued caps a tenant's QUEUED jobs (429 beyond).
	queued int
	// running is how many of a tenant's jobs the runner runs at once, for
	// the document only (0: not stated); the runner enforces it.
	running int
}

// streamsViolation is the error of a request asking for more search
// streams than limits allow; ok false when it asks no more.
func (l jobLimits) streamsViolation(req engine.Request) (apiError, bool) {
	if req.Options.Streams <= l.maxStreams {
		return apiError{}, false
	}
	return apiError{Code: engine.CodeInvalidValue, Field: "body.options.streams", Category: categoryData,
		Description: fmt.Sprintf("%d search streams asked, at most %d on this service (0 means %d)",
			req.Options.Streams, l.maxStreams, min(l.maxStreams, engine.DefaultStreams))}, true
}

// queueFull answers 429 TOO_MANY_QUEUED_JOBS.
func (s *server) queueFull(w http.ResponseWriter, c *call) {
	secs := strconv.Itoa(int(queueFullRetryAfter / time.Second))
	w.Header().Set("Retry-After", secs)
	desc := fmt.Sprintf("This consumer has %s queued, the most the service keeps waiting per consumer", jobCount(s.limits.queued))
	if s.limits.running > 0 {
		desc += fmt.Sprintf(" (it runs %s at a time)", jobCount(s.limits.running))
	}
	s.fail(w, c, http.StatusTooManyRequests, apiError{Code: codeQueueFull, Category: categoryLimit,
		Description: desc + ". Submit it again once one of them has started (retry after " + secs + " s), or cancel one."})
}

// jobCount is "1 planning job", "10 planning jobs".
func jobCount(n int) string {
	if n == 1 {
		return "1 planning job"
	}
	return strconv.Itoa(n) + " planning jobs"
}

// jobLimitsPlaceholder stands for the sentences of the OpenAPI document's
// description that state the limits of planning jobs.
const jobLimitsPlaceholder = "{{jobLimits}}"

// withJobLimits is the OpenAPI document doc with the sentences that state
// limits in place of their placeholder.
func withJobLimits(doc []byte, l jobLimits) []byte {
	running := ""
	if l.running > 0 {
		running = fmt.Sprintf(", and at most %d of them run at once", l.running)
	}
	text := fmt.Sprintf("Planning jobs: options.streams is at most %d (more: 400 INVALID_VALUE at body.options.streams), "+
		"options.timeLimit at most the service's longest search (more is cut to it). A consumer may have %s waiting in the queue "+
		"(one more: 429 TOO_MANY_QUEUED_JOBS with Retry-After)%s; the consumers' jobs start in turn, so one consumer's queue "+
		"never holds another's first job back. A job's search is stopped at its time limit plus the service's grace period: "+
		"the plan it has then is kept (COMPLETED, the pallets it had not reached NOT_PLANNED), and a search with no plan at all "+
		"is FAILED. A job that fails on a fault of the "+
		"service is FAILED with an internal-error message.", l.maxStreams, jobCount(l.queued), running)
	return []byte(strings.ReplaceAll(string(doc), jobLimitsPlaceholder, jsonText(text)))
}
