package binpack

import (
	"github.com/haulplan/haulplan/constraints"
)

// MaxCapacity is the largest bin capacity accepted in any dimension. It keeps
// every sum of sizes well inside int64 (2^40 times up to 2^22 items).
const MaxCapacity = 1 << 40

// MaxItems is the largest number of items a Problem may hold.
const MaxItems = 1 << 22

// Problem is a bin packing instance: identical bins of the given Capacity and
// items with a size in every dimension. One-dimensional packing is the case
// len(Capacity) == 1.
type Problem struct {
	// Capacity is the bin capacity per dimension; its length d >= 1 is the
	// number of dimensions.
	Capacity []int64
	// Sizes holds one size vector of length d per item.
	Sizes [][]int64
}

// OneDim builds a one-dimensional Problem from a capacity and item weights.
func OneDim(capacity int64, weights []int64) Problem {
	sizes := make([][]int64, len(weights))
	for i, w := range weights {
		sizes[i] = []int64{w}
	}
	return Problem{Capacity: []int64{capacity}, Sizes: sizes}
}

// Dims returns the number of dimensions d.
func (p Problem) Dims() int { return len(p.Capacity) }

// Check checks p and returns every problem found as a
// constraints.Violations error (nil when p is valid). Paths are
// "capacity[k]" and "sizes[i][k]"; codes are REQUIRED (no dimension),
// OUT_OF_RANGE (capacity not in 1..MaxCapacity, too many items),
// SIZE_MISMATCH (an item with the wrong number of sizes), NEGATIVE and
// INVALID_VALUE (an item larger than the capacity, so it fits no bin).
func (p Problem) Check() error {
	var vs constraints.Violations
	d := len(p.Capacity)
	if d == 0 {
		vs.Add("REQUIRED", "capacity", "at least one dimension is required")
	}
	for k, c := range p.Capacity {
		if c <= 0 || c > MaxCapacity {
			vs.Add("OUT_OF_RANGE", constraints.Index("capacity", k), "capacity %d must lie in 1..%d", c, int64(MaxCapacity))
		}
	}
	if len(p.Sizes) > MaxItems {
		vs.Add("OUT_OF_RANGE", "sizes", "%d items, at most %d allowed", len(p.Sizes), MaxItems)
		return vs.Err()
	}
	for i, s := range p.Sizes {
		path := constraints.Index("sizes", i)
		if len(s) != d {
			vs.Add("SIZE_MISMATCH", path, "has %d sizes, capacity has %d dimensions", len(s), d)
			continue
		}
		for k, w := range s {
			switch {
			case w < 0:
				vs.Add("NEGATIVE", constraints.Index(path, k), "size %d must not be negative", w)
			case p.Capacity[k] > 0 && w > p.Capacity[k]:
				vs.Add("INVALID_VALUE", constraints.Index(path, k), "size %d exceeds the capacity %d, so the item fits no bin", w, p.Capacity[k])
			}
		}
	}
	return vs.Err()
}

// instance is the solver's flat copy of a valid Problem.
type instance struct {
	n, d int
	cap  []int64
	size []int64   // n*d, item i at size[i*d:(i+1)*d]
	w    []float64 // scalar weight of each item: its size in 1-D, the sum of size/capacity over dimensions otherwise
}

func newInstance(p Problem) *instance {
	n, d := len(p.Sizes), len(p.Capacity)
	in := &instance{n: n, d: d, cap: append([]int64(nil), p.Capacity...), size: make([]int64, n*d), w: make([]float64, n)}
	for i, s := range p.Sizes {
		copy(in.size[i*d:], s)
		if d == 1 {
			in.w[i] = float64(s[0])
		} else {
			for k, v := range s {
				in.w[i] += float64(v) / float64(p.Capacity[k])
			}
		}
	}
	return in
}

func (in *instance) item(i int) []int64 { return in.size[i*in.d : (i+1)*in.d] }

// fits reports whether item i fits beside the given load.
func (in *instance) fits(load []int64, i int) bool {
	s := in.item(i)
	for k, v := range s {
		if load[k]+v > in.cap[k] {
			return false
		}
	}
	return true
}

// Validate verifies a packing of p independently of how it was made: every
// item index appears in exactly one bin, no bin is empty and no bin exceeds
// the capacity in any dimension. It returns a constraints.Violations error
// with paths "bins[b]" and "bins[b][j]".
func Validate(p Problem, bins [][]int) error {
	if err := p.Check(); err != nil {
		return err
	}
	var vs constraints.Violations
	seen := make([]int, len(p.Sizes))
	for i := range seen {
		seen[i] = -1
	}
	d := len(p.Capacity)
	for b, items := range bins {
		path := constraints.Index("bins", b)
		if len(items) == 0 {
			vs.Add("INVALID_VALUE", path, "bin is empty")
		}
		load := make([]int64, d)
		for j, i := range items {
			ip := constraints.Index(path, j)
			if i < 0 || i >= len(p.Sizes) {
				vs.Add("OUT_OF_RANGE", ip, "item %d does not exist", i)
				continue
			}
			if seen[i] >= 0 {
				vs.Add("INVALID_VALUE", ip, "item %d is already in bin %d", i, seen[i])
				continue
			}
			seen[i] = b
			for k := range load {
				load[k] += p.Sizes[i][k]
			}
		}
		for k := range load {
			if load[k] > p.Capacity[k] {
				vs.Add("CAPACITY", path, "load %d exceeds capacity %d in dimension %d", load[k], p.Capacity[k], k)
			}
		}
	}
	for i, b := range seen {
		if b < 0 {
			vs.Add("REQUIRED", constraints.Index("sizes", i), "item %d is in no bin", i)
		}
	}
	return vs.Err()
}
