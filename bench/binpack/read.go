package binpack

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	core "github.com/haulplan/haulplan/loadplan/binpack"
)

// ErrFormat is matched (errors.Is) by every error about malformed input.
var ErrFormat = errors.New("binpack: malformed input")

// tokens reads whitespace-separated integers, remembering their line for
// error messages.
type tokens struct {
	sc   *bufio.Scanner
	line int
	rest []byte
}

func newTokens(r io.Reader) *tokens {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	return &tokens{sc: sc}
}

func (t *tokens) next(what string) (int64, error) {
	for {
		for len(t.rest) > 0 && isSpace(t.rest[0]) {
			t.rest = t.rest[1:]
		}
		if len(t.rest) > 0 {
			break
		}
		if !t.sc.Scan() {
			if err := t.sc.Err(); err != nil {
				return 0, fmt.Errorf("%w: line %d: %v", ErrFormat, t.line+1, err)
			}
			return 0, fmt.Errorf("%w: unexpected end of input, want %s", ErrFormat, what)
		}
		t.line++
		t.rest = t.sc.Bytes()
	}
	end := 0
	for end < len(t.rest) && !isSpace(t.rest[end]) {
		end++
	}
	tok := string(t.rest[:end])
	t.rest = t.rest[end:]
	v, err := strconv.ParseInt(tok, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: line %d: %s: %q is not an integer", ErrFormat, t.line, what, tok)
	}
	return v, nil
}

// atEnd reports whether only white space is left.
func (t *tokens) atEnd() bool {
	for {
		for len(t.rest) > 0 && isSpace(t.rest[0]) {
			t.rest = t.rest[1:]
		}
		if len(t.rest) > 0 {
			return false
		}
		if !t.sc.Scan() {
			return true
		}
		t.line++
		t.rest = t.sc.Bytes()
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// ReadBPP reads a BPPLIB instance: the number of items n, the capacity c,
// then n integer weights. It checks the form (counts, integers, trailing
// data), not the values; Problem.Check reports a negative weight or one
// above the capacity.
func ReadBPP(r io.Reader) (core.Problem, error) {
	t := newTokens(r)
	n, err := t.next("number of items")
	if err != nil {
		return core.Problem{}, err
	}
	if n < 0 || n > core.MaxItems {
		return core.Problem{}, fmt.Errorf("%w: number of items %d not in 0..%d", ErrFormat, n, core.MaxItems)
	}
	c, err := t.next("capacity")
	if err != nil {
		return core.Problem{}, err
	}
	w := make([]int64, 0, min(n, 1<<16))
	for i := range n {
		v, err := t.next(fmt.Sprintf("weight %d", i+1))
		if err != nil {
			return core.Problem{}, err
		}
		w = append(w, v)
	}
	if !t.atEnd() {
		return core.Problem{}, fmt.Errorf("%w: line %d: data after the %d weights", ErrFormat, t.line, n)
	}
	return core.OneDim(c, w), nil
}

// ReadVBP reads a VPSolver .vbp vector packing instance: the number of
// dimensions d, d capacities, the number of item types m, then per type d
// sizes and a demand. Items are numbered in file order, each type repeated
// by its demand, which is how haulbench numbers them in .sol files.
func ReadVBP(r io.Reader) (core.Problem, error) {
	t := newTokens(r)
	d, err := t.next("number of dimensions")
	if err != nil {
		return core.Problem{}, err
	}
	if d < 1 || d > 1000 {
		return core.Problem{}, fmt.Errorf("%w: number of dimensions %d not in 1..1000", ErrFormat, d)
	}
	p := core.Problem{Capacity: make([]int64, d)}
	for k := range d {
		if p.Capacity[k], err = t.next(fmt.Sprintf("capacity %d", k+1)); err != nil {
			return core.Problem{}, err
		}
	}
	m, err := t.next("number of item types")
	if err != nil {
		return core.Problem{}, err
	}
	if m < 0 || m > core.MaxItems {
		return core.Problem{}, fmt.Errorf("%w: number of item types %d not in 0..%d", ErrFormat, m, core.MaxItems)
	}
	total := int64(0)
	for j := range m {
		size := make([]int64, d)
		for k := range d {
			if size[k], err = t.next(fmt.Sprintf("item type %d size %d", j+1, k+1)); err != nil {
				return core.Problem{}, err
			}
		}
		q, err := t.next(fmt.Sprintf("item type %d demand", j+1))
		if err != nil {
			return core.Problem{}, err
		}
		if q < 0 || total+q > core.MaxItems {
			return core.Problem{}, fmt.Errorf("%w: line %d: demand %d is negative or brings the items over %d", ErrFormat, t.line, q, core.MaxItems)
		}
		total += q
		for range q {
			p.Sizes = append(p.Sizes, size)
		}
	}
	if !t.atEnd() {
		return core.Problem{}, fmt.Errorf("%w: line %d: data after the %d item types", ErrFormat, t.line, m)
	}
	return p, nil
}

// ClampNegative replaces negative sizes in p by 0 and returns how many it
// changed. Some Caprara–Toth triplet files of the vector data hold sizes of
// -1 or -2, which the solver rejects; a packing that respects the capacity
// with 0 in their place also respects it with the original negative sizes,
// so the clamped instance is a valid (slightly harder) stand-in.
func ClampNegative(p *core.Problem) int {
	n := 0
	for i, s := range p.Sizes {
		if !slices.ContainsFunc(s, func(v int64) bool { return v < 0 }) {
			continue
		}
		// Repeated .vbp items share one slice: write to a copy.
		c := slices.Clone(s)
		for k, v := range c {
			if v < 0 {
				c[k] = 0
				n++
			}
		}
		p.Sizes[i] = c
	}
	return n
}
