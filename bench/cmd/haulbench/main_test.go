package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelp: "haulbench COMMAND -h" and "haulbench help COMMAND" exit 0 and
// print every flag, an example line and where the data comes from.
func TestHelp(t *testing.T) {
	flags := map[string][]string{
		"binpack": {"-time", "-seed", "-sol", "-ref"},
		"dcday":   {"-stores", "-sizes", "-seed", "-time", "-iterations", "-streams", "-objective", "-in", "-out"},
		"vrptw":   {"-time", "-objective", "-workers", "-seed", "-sol", "-ref", "-random"},
		"replan":  {"-stores", "-mode", "-seed", "-time", "-replan-time", "-iterations", "-streams", "-objective", "-tolerance", "-modes", "-lock", "-changes"},
	}
	if len(flags) != len(commands) {
		t.Fatalf("commands %v: the test lists %d", commands, len(flags))
	}
	for name, fl := range flags {
		for _, args := range [][]string{{name, "-h"}, {name, "-help"}, {"help", name}} {
			var out, errOut bytes.Buffer
			if code := run(args, &out, &errOut); code != 0 {
				t.Errorf("%v: exit %d\n%s", args, code, errOut.String())
			}
			help := errOut.String()
			for _, want := range append([]string{"usage: haulbench " + name, "Example:\n  haulbench " + name + " ", "Data: ", "shared/data"}, fl...) {
				if !strings.Contains(help, want) {
					t.Errorf("%v: help lacks %q:\n%s", args, want, help)
				}
			}
		}
	}
	for _, args := range [][]string{{"-h"}, {"help"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "COMMAND -h") {
			t.Errorf("%v: exit %d\n%s", args, code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := run(nil, &out, &errOut); code != 2 {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
	if code := run([]string{"binpack", "-nosuchflag"}, &out, &errOut); code != 1 {
		t.Errorf("a bad flag: exit %d, want 1", code)
	}
}
