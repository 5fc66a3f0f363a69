package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/haulplan/haulplan/engine"
)

// TestMain runs the command's main instead of the tests when the test
// binary is started as the command (see runMain), so that the tests see
// its exit status.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("QUICKSTART_MAIN_ARGS"); ok {
		os.Args = append([]string{"quickstart"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runMain runs the command with args in a process of its own and returns
// its exit status and what it wrote to stdout and stderr.
func runMain(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "QUICKSTART_MAIN_ARGS="+strings.Join(args, " "))
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		status = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return status, out.String(), errs.String()
}

// -h prints the usage and exits 0; a flag the command does not know exits
// 2, as the flag package's commands do, and a request file that is not
// there exits 1.
func TestQuickstartExitStatus(t *testing.T) {
	for _, c := range []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"-h"}, 0, "Usage: go run ./examples/quickstart [flags]"},
		{[]string{"-help"}, 0, "-iterations int"},
		{[]string{"-no-such-flag"}, 2, "flag provided but not defined: -no-such-flag"},
		{[]string{"-in", filepath.Join(t.TempDir(), "missing.json")}, 1, "quickstart: open "},
	} {
		status, _, stderr := runMain(t, c.args...)
		if status != c.status || !strings.Contains(stderr, c.stderr) {
			t.Errorf("quickstart %s: exit status %d, want %d; stderr lacks %q:\n%s", strings.Join(c.args, " "), status, c.status, c.stderr, stderr)
		}
	}
}

// Counts of one read in the singular: a request of one store (Plano) with
// one pallet, one trailer type and one shift, planned into one route.
func TestQuickstartSingular(t *testing.T) {
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	store := req.Stores[1]
	req.Stores = []engine.Store{store}
	for _, p := range req.Pallets {
		if p.Store == store.ID {
			req.Pallets = []engine.Pallet{p}
			break
		}
	}
	req.Fleet = req.Fleet[:1]
	req.Fleet[0].Count = 1
	req.Shifts = req.Shifts[:1]
	b, err := engine.MarshalIndent(req)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "one.json")
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run([]string{"-in", in, "-iterations", "50", "-quiet", "-out", filepath.Join(t.TempDir(), "out")}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	s := out.String()
	for _, want := range []string{"1 store, 1 pallet, 1 trailer type, 1 shift;", "Totals: 1 route (", ", 1 stop, 1 pallet delivered,", "; 1 pallet: ", "Drivers: 1 shift drives 1 trip\n", " driven by 1 shift (at least 1) with 1 trailer unit (at least 1), "} {
		if !strings.Contains(s, want) {
			t.Errorf("the summary lacks %q:\n%s", want, s)
		}
	}
	if plurals := regexp.MustCompile(`\b1 (stores|pallets|trailer types|shifts|routes|stops|breaks|files|trips|trailer units|doors)\b|1 shift drive `).FindAllString(s+errs.String(), -1); len(plurals) > 0 {
		t.Errorf("counts of one in the plural %v:\n%s%s", plurals, s, errs.String())
	}
}

func TestQuickstartSummary(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run([]string{"-time", "1s", "-seed", "2"}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	s := out.String()
	for _, want := range []string{"48 stores, 400 pallets", "R1 ", "Totals:", "Validate: OK",
		"loading at door ", "window ", "\nDrivers: ", "\nDock: ", " of 11,300 kg (", " ambient", "on duty "} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	// stderr is no terminal here: progress comes as plain lines, one per
	// phase at least, from the orders to the finished plan.
	lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "ORDERS") || !strings.Contains(lines[len(lines)-1], "DONE") ||
		!strings.Contains(errs.String(), "ROUTING 1") || strings.Contains(errs.String(), "\r") {
		t.Errorf("progress on stderr:\n%s", errs.String())
	}
	// The last line reports the finished plan: its delivered pallets are
	// those of the summary's totals (all 400 unless the machine is so busy
	// that the search ends early).
	m := regexp.MustCompile(`(\d+) pallets delivered`).FindStringSubmatch(s)
	if m == nil || !strings.Contains(lines[len(lines)-1], " "+m[1]+" pallets delivered") {
		t.Errorf("the last progress line does not report the plan's delivered pallets (%v): %s", m, lines[len(lines)-1])
	}
}

func TestQuickstartJSONIsAValidPlan(t *testing.T) {
	var out, errs bytes.Buffer
	if err := run([]string{"-time", "1s", "-json"}, &out, &errs); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	plan, err := engine.DecodePlan(&out)
	if err != nil {
		t.Fatal(err)
	}
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Validate(req, plan); err != nil {
		t.Fatal(err)
	}
}

func TestQuickstartReportsBadInput(t *testing.T) {
	f := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(f, []byte(`{"dc":{"id":"","location":{"lat":95,"lng":0}},"stores":[],"pallets":[],"fleet":[],"shifts":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := run([]string{"-in", f}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "dc.id") || !strings.Contains(err.Error(), "dc.location.lat") {
		t.Fatalf("want both bad fields named, got %v", err)
	}
}

// The printed plan says under each stop where the driver takes the
// hours-of-service break, when and how long, and what fills it: the sample
// with a break due after 2 h of driving.
func TestQuickstartPrintsBreaks(t *testing.T) {
	req, err := engine.DecodeRequest(bytes.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	req.HoursOfService.BreakAfter = 2 * time.Hour
	req.Options.Iterations, req.Options.Streams = 100, 1
	plan, err := engine.Plan(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	summary(&out, req, plan, "sample", 0)
	lines := strings.Split(out.String(), "\n")
	p := newPrinter(req, plan)
	breaks := 0
	for _, r := range plan.Routes {
		for k, s := range r.Stops {
			if s.Break == nil {
				continue
			}
			breaks++
			stop := fmt.Sprintf("%2d. %s ", k+1, req.Stores[slices.IndexFunc(req.Stores, func(x engine.Store) bool { return x.ID == s.Store })].Name)
			want := fmt.Sprintf("hours-of-service break here: %s, %s-%s (", hhmm(s.Break.Duration), p.near(s.Break.Start, r.Start), p.near(s.Departure, r.Start))
			i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, r.ID+"  ") })
			for i >= 0 && i < len(lines) && !strings.Contains(lines[i], stop) {
				i++
			}
			if i < 0 || i+1 >= len(lines) || !strings.Contains(lines[i+1], want) {
				t.Errorf("%s: no line %q under stop %q", r.ID, want, stop)
			}
		}
	}
	if breaks == 0 {
		t.Fatal("setup: the plan takes no break")
	}
	if n := strings.Count(out.String(), "hours-of-service break here"); n != breaks {
		t.Errorf("%d breaks printed, the plan takes %d", n, breaks)
	}
	if !strings.Contains(out.String(), plural(breaks, "break")+"; cost") {
		t.Errorf("the totals do not count %s", plural(breaks, "break"))
	}
}

// -seed sets the search seed, 0 included, over the request's
// options.seed, and the usage shows no stand-in default for it.
func TestQuickstartSeedFlag(t *testing.T) {
	dir := t.TempDir()
	withSeed := func(seed int) string {
		name := filepath.Join(dir, fmt.Sprintf("seed%d.json", seed))
		b := bytes.Replace(sample, []byte(`"seed": 1,`), []byte(fmt.Sprintf(`"seed": %d,`, seed)), 1)
		if bytes.Equal(b, sample) && seed != 1 {
			t.Fatal(`the sample has no "seed": 1 to replace`)
		}
		if err := os.WriteFile(name, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return name
	}
	plan := func(args ...string) string {
		var out, errs bytes.Buffer
		// The iteration budget, not the sample's 5 s limit, ends each
		// search, so that the plans are the same on a busy machine.
		if err := run(append(args, "-quiet", "-json", "-iterations", "300", "-time", "10m"), &out, &errs); err != nil {
			t.Fatalf("run %v: %v\n%s", args, err, errs.String())
		}
		return out.String()
	}
	seven, zero := plan("-in", withSeed(7)), plan("-in", withSeed(0))
	if seven == zero {
		t.Fatal("seeds 7 and 0 give the same plan: the comparison below would show nothing")
	}
	if plan("-in", withSeed(7), "-seed", "0") != zero {
		t.Error("-seed 0 did not replace the request's seed 7")
	}
	var out, errs bytes.Buffer
	_ = run([]string{"-h"}, &out, &errs)
	if strings.Contains(errs.String()+out.String(), "(default -1)") {
		t.Errorf("usage shows a stand-in default:\n%s", errs.String())
	}
}
