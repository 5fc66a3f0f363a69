package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	bench "github.com/haulplan/haulplan/bench/binpack"
	"github.com/haulplan/haulplan/loadplan/binpack"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBinpackCommand(t *testing.T) {
	dir := t.TempDir()
	bpp := writeFile(t, dir, "one.txt", "6\n10\n6\n4\n5\n5\n3\n7\n")
	vbp := writeFile(t, dir, "two.vbp", "2\n10 10\n2\n6 2 2\n4 8 1\n")
	ref := writeFile(t, dir, "ref.csv", "instance,set,n,capacity,optimum,source,lb,ub\none,small,6,10,3,x,3,3\ntwo,small,3,10,2,x,2,2\n")
	solDir := filepath.Join(dir, "sol")
	var out, errOut bytes.Buffer
	if err := runBinpack([]string{"-time", "200ms", "-sol", solDir, "-ref", ref, bpp, vbp}, &out, &errOut); err != nil {
		t.Fatalf("runBinpack: %v\n%s", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || lines[0] != "instance,bins,lower_bound,seconds" {
		t.Fatalf("stdout:\n%s", out.String())
	}
	for i, want := range []string{"one,3,3,", "two,2,2,"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("row %d = %q, want prefix %q", i+1, lines[i+1], want)
		}
	}
	if !strings.Contains(errOut.String(), "small: 2 instances, at optimum 2/2, excess bins 0") {
		t.Errorf("stderr summary:\n%s", errOut.String())
	}
	// The .sol files must describe valid packings of the files as read.
	for _, c := range []struct {
		name, path string
		read       func(string) (binpack.Problem, error)
	}{
		{"one", bpp, func(path string) (binpack.Problem, error) { return readWith(path, bench.ReadBPP) }},
		{"two", vbp, func(path string) (binpack.Problem, error) { return readWith(path, bench.ReadVBP) }},
	} {
		p, err := c.read(c.path)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(solDir, c.name+".sol"))
		if err != nil {
			t.Fatal(err)
		}
		var bins [][]int
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var bin []int
			for _, f := range strings.Fields(line) {
				i, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("%s.sol: %v", c.name, err)
				}
				bin = append(bin, i)
			}
			bins = append(bins, bin)
		}
		if err := binpack.Validate(p, bins); err != nil {
			t.Errorf("%s.sol: %v", c.name, err)
		}
	}
}

func TestBinpackCommandErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", "2\n10\n5\n5\n")
	bad := writeFile(t, dir, "bad.txt", "2\n10\n5\n")
	over := writeFile(t, dir, "over.txt", "1\n10\n11\n")
	var out, errOut bytes.Buffer
	err := runBinpack([]string{bad, good, over}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "2 of 3 files failed") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(out.String(), "good,1,1,") {
		t.Errorf("good file missing from output:\n%s", out.String())
	}
	if !strings.Contains(errOut.String(), "bad.txt") || !strings.Contains(errOut.String(), "sizes[0][0]") {
		t.Errorf("stderr does not name the faults:\n%s", errOut.String())
	}
	if err := runBinpack(nil, &out, &errOut); err == nil {
		t.Error("no files: want an error")
	}
}
