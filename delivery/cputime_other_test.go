//go:build !unix

package delivery

// cpuNanos is not measured off Unix; the CPU metrics then read 0.
func cpuNanos() int64 { return 0 }
