// Command haulbench runs haulplan's solvers on the standard benchmark sets
// and prints one CSV row per instance.
//
//	haulbench vrptw   [flags] FILE...   vehicle routing with time windows (Solomon format)
//	haulbench binpack [flags] FILE...   bin packing (BPPLIB) and vector packing (.vbp)
//	haulbench dcday   [flags]           generated grocery DC days (bench/dcday) or request files, planned by engine.Plan
//	haulbench replan  [flags]           a generated day planned, changed as a night changes it, planned again; how far the plans differ
//
// "haulbench COMMAND -h" (or "haulbench help COMMAND") prints the command's
// flags, an example and where its data sets come from. The data is not part
// of the repository: bench/scripts expect it in ../shared/data beside the
// checkout, or in $HAULPLAN_DATA.
//
// Each subcommand lives in its own file and registers itself in commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one haulbench subcommand: it parses its own flags from args and
// writes results to stdout and summaries to stderr.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands is filled by the init functions of the subcommand files.
var commands = map[string]command{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "haulbench: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // the command printed its help, as asked
		}
		fmt.Fprintf(stderr, "haulbench %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: haulbench COMMAND [flags] FILE...")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "Run \"haulbench COMMAND -h\" for a command's flags, an example and where its data comes from.")
	fmt.Fprintln(w, "The benchmark data lives in ../shared/data beside the checkout (or $HAULPLAN_DATA); bench/scripts/*.sh run the standard sets.")
}

// commandUsage returns a flag.FlagSet's Usage function that prints the
// synopsis, what the command does, an example, where its data comes from,
// and the flags with their defaults.
func commandUsage(fs *flag.FlagSet, w io.Writer, synopsis, about, example, data string) func() {
	return func() {
		fmt.Fprintf(w, "usage: %s\n\n%s\n\nExample:\n  %s\n\nData: %s\n\nFlags:\n", synopsis, about, example, data)
		fs.PrintDefaults()
	}
}

// readWith opens path and decodes it with read; errors name the file. Both
// subcommands read their -ref tables through it.
func readWith[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}
