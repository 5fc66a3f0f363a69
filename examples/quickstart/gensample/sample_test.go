package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCommittedSampleIsCurrent: examples/quickstart/sample.json is this
// command's output, byte for byte, so that the sample the quickstart
// embeds is the one gensample documents.
func TestCommittedSampleIsCurrent(t *testing.T) {
	want, err := sampleJSON()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../sample.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		line := 1 + bytes.Count(want[:i], []byte("\n"))
		t.Fatalf("examples/quickstart/sample.json differs from gensample's output from line %d (byte %d); regenerate it with\n"+
			"\tgo run ./examples/quickstart/gensample > examples/quickstart/sample.json", line, i)
	}
}

// TestMain runs the command's main instead of the tests when the test
// binary is started as the command, so that TestHelp sees its exit status.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("GENSAMPLE_MAIN_ARGS"); ok {
		os.Args = append([]string{"gensample"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// -h prints the usage and exits 0, writing no sample; an argument the
// command does not take exits 2.
func TestHelp(t *testing.T) {
	for _, c := range []struct {
		args   string
		status int
	}{{"-h", 0}, {"extra", 2}} {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "GENSAMPLE_MAIN_ARGS="+c.args)
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		status := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			status = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != c.status || out.Len() != 0 || !strings.Contains(errs.String(), "Usage: go run ./examples/quickstart/gensample") {
			t.Errorf("gensample %s: exit status %d (want %d), %d bytes on stdout, stderr:\n%s", c.args, status, c.status, out.Len(), errs.String())
		}
	}
}
