package loadplan

import (
	"sort"
)

// The fleet packer names pallets by their index in the input and keeps a
// load's pallets as an ascending list of indices: these are the list
// operations it needs.

// sortedCopy returns idx sorted, leaving idx as it is.
func sortedCopy(idx []int) []int {
	out := append([]int(nil), idx...)
	sort.Ints(out)
	return out
}

// insertSorted returns a copy of the ascending idx with i inserted in
// order.
func insertSorted(idx []int, i int) []int {
	j := sort.SearchInts(idx, i)
	out := make([]int, 0, len(idx)+1)
	out = append(out, idx[:j]...)
	out = append(out, i)
	return append(out, idx[j:]...)
}

// without returns idx minus the members of drop (both ascending).
func without(idx, drop []int) []int {
	out := make([]int, 0, len(idx))
	j := 0
	for _, i := range idx {
		for j < len(drop) && drop[j] < i {
			j++
		}
		if j < len(drop) && drop[j] == i {
			continue
		}
		out = append(out, i)
	}
	return out
}

// merged returns the union of two ascending index lists.
func merged(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	sort.Ints(out)
	return out
}
