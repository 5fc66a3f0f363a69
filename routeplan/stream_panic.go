package routeplan

import (
	"errors"
	"fmt"
)

// ErrInternal marks an error that is a bug, never a problem with the
// Problem: Solve returns it (as a *PanicError) when a search stream
// panics, instead of letting the panic end the process.
var ErrInternal = errors.New("routeplan: internal error")

// PanicError is a panic recovered in a search stream's goroutine. The
// other streams are stopped and Solve returns it with no solution. A
// panic in Options.Progress, which runs on the streams' goroutines, comes
// back the same way. errors.Is(err, ErrInternal) holds for it.
type PanicError struct {
	Stream int    // the stream that panicked
	Value  any    // what was passed to panic
	Stack  []byte // the goroutine's stack at the panic, as runtime/debug.Stack gives it
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("routeplan: internal error: search stream %d panicked: %v", e.Stream, e.Value)
}

// Is makes errors.Is(err, ErrInternal) true.
func (e *PanicError) Is(target error) bool { return target == ErrInternal }

// Unwrap returns the panic's value when it is an error (a runtime error,
// say), so that errors.As finds it too.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
