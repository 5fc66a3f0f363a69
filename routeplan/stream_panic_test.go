package routeplan

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestStreamPanicIsAnError: a panic in a search stream's goroutine does not
// end the process: Solve stops the other streams and returns a
// *PanicError naming the stream, with the panic's value and the stack
// where it happened, that errors.Is ErrInternal; a runtime error's value
// is found by errors.As too.
func TestStreamPanicIsAnError(t *testing.T) {
	p := benchProblem(50, false)
	hk := hooks{streamStart: func(k int) {
		if k == 3 {
			panic("injected fault")
		}
	}}
	sol, err := solve(context.Background(), p, Options{MaxIterations: 50, Streams: 8, Workers: 2}, hk)
	if sol != nil {
		t.Errorf("a solution beside the error: %+v", sol)
	}
	if !errors.Is(err, ErrInternal) {
		t.Fatalf("error %v; want ErrInternal", err)
	}
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T; want a *PanicError", err)
	}
	if pe.Stream != 3 || pe.Value != "injected fault" {
		t.Errorf("stream %d, value %v; want stream 3, the injected fault", pe.Stream, pe.Value)
	}
	if !bytes.Contains(pe.Stack, []byte("TestStreamPanicIsAnError")) {
		t.Errorf("the stack does not show where the panic was:\n%s", pe.Stack)
	}

	hk.streamStart = func(k int) {
		var none []int
		_ = none[k] // index out of range
	}
	_, err = solve(context.Background(), p, Options{MaxIterations: 50, Streams: 4, Workers: 4}, hk)
	var re runtime.Error
	if !errors.Is(err, ErrInternal) || !errors.As(err, &re) {
		t.Fatalf("error %v; want ErrInternal wrapping the runtime error", err)
	}
}
