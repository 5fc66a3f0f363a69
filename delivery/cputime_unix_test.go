//go:build unix

package delivery

import "syscall"

// cpuNanos returns the CPU time (user + system) of the process, so that the
// benchmarks can report per-op CPU time, which a shared machine distorts far
// less than wall time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
