// Command wasched-live proves a live scheduler against the real v1.37.2 control plane
// (scripts/reference.sh; issue 17): `wasched run` when --wasched names the binary, else whatever
// scheduler already serves --scheduler-name (kube-scheduler as default-scheduler, which is how
// the driver itself is validated).
//
//	wasched-live --kubeconfig K [--wasched PATH] [--scheduler-name NAME] [--rbac FILE] [--workdir DIR] SCENARIO...|all
//	wasched-live bench --kubeconfig K [--wasched PATH] [--scheduler-name NAME] --nodes N --gangs G --gang-size S
//	wasched-live bench-ceiling --kubeconfig K --nodes N --gangs G --gang-size S
//
// Each scenario creates its own namespace(s), nodes and PriorityClasses (unique names, removed at
// the end), starts `wasched run` itself when --wasched is given, waits only on watched conditions
// with deadlines, and prints one line: "PASS name 3.2s (facts)" or "FAIL name 3.2s: reason" (then
// the last lines of each wasched log). Scenarios that need a wasched binary print SKIP without one.
// Exit 0 when none failed, 1 when one did, 2 on a usage error. Bench modes: bench.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// scenario is one acceptance check.
type scenario struct {
	name     string
	upstream bool          // meaningful against kube-scheduler (runs without --wasched)
	ownProcs bool          // starts its own `wasched run` processes (else one is started for it)
	timeout  time.Duration // for the whole scenario
	run      func(s *sc) error
}

// scenarios lists every scenario in the order `all` runs them.
func scenarios() []scenario {
	return []scenario{
		{"gang-fits", true, false, 2 * time.Minute, gangFits},
		{"gang-no-fit", true, false, 2 * time.Minute, gangNoFit},
		{"nodes-added-later", true, false, 2 * time.Minute, nodesAddedLater},
		{"preempt-gang", true, false, 3 * time.Minute, preemptGang},
		{"job", true, false, 2 * time.Minute, jobScenario},
		{"composite-tree", true, false, 2 * time.Minute, compositeTree},
		{"bind-failure", true, false, 3 * time.Minute, bindFailure},
		{"dra", true, false, 2 * time.Minute, draScenario},
		{"crash-recovery", false, true, 4 * time.Minute, crashRecovery},
		{"leader", false, true, 3 * time.Minute, leader},
		{"bad-setup", false, true, 3 * time.Minute, badSetup},
		{"rbac", false, true, 2 * time.Minute, rbacScenario},
		{"metrics", false, true, 2 * time.Minute, metricsScenario},
		{"watch-loss", false, true, 4 * time.Minute, watchLoss},
	}
}

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if len(args) > 0 && (args[0] == "bench" || args[0] == "bench-ceiling") {
		return runBench(args[0], args[1:])
	}
	fs := flag.NewFlagSet("wasched-live", flag.ContinueOnError)
	var opts options
	fs.StringVar(&opts.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "admin kubeconfig of the control plane")
	fs.StringVar(&opts.wasched, "wasched", "", "the wasched binary to start as `wasched run`; empty: the running scheduler")
	fs.StringVar(&opts.schedulerName, "scheduler-name", "wasched", "spec.schedulerName of the pods")
	fs.StringVar(&opts.rbacFile, "rbac", "deploy/rbac.yaml", "the RBAC manifest the rbac scenario applies")
	fs.StringVar(&opts.workdir, "workdir", "", "logs and written kubeconfigs (default: a new temporary folder)")
	fs.IntVar(&opts.verbosity, "v", 2, "-v of wasched run")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasched-live [flags] SCENARIO...|all   (or: wasched-live bench|bench-ceiling [flags])")
		fs.PrintDefaults()
		names := []string{}
		for _, sc := range scenarios() {
			names = append(names, sc.name)
		}
		fmt.Fprintln(os.Stderr, "scenarios:", strings.Join(names, " "))
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	selected, err := selectScenarios(fs.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		fs.Usage()
		return 2
	}
	if opts.workdir == "" {
		if opts.workdir, err = os.MkdirTemp("", "wasched-live-"); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
	}
	e, err := newEnv(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	fmt.Printf("wasched-live: scheduler %q (%s); logs in %s\n", opts.schedulerName, describeScheduler(opts.wasched), opts.workdir)
	failed := 0
	for _, scn := range selected {
		if !runOne(e, scn) {
			failed++
		}
	}
	if failed > 0 {
		fmt.Printf("wasched-live: %d of %d scenario(s) failed\n", failed, len(selected))
		return 1
	}
	return 0
}

func describeScheduler(wasched string) string {
	if wasched == "" {
		return "the scheduler already running"
	}
	return wasched + " run, started per scenario"
}

func selectScenarios(names []string) ([]scenario, error) {
	all := scenarios()
	if len(names) == 0 {
		return nil, fmt.Errorf("no scenario given")
	}
	var out []scenario
	for _, n := range names {
		if n == "all" {
			out = append(out, all...)
			continue
		}
		i := slices.IndexFunc(all, func(s scenario) bool { return s.name == n })
		if i < 0 {
			return nil, fmt.Errorf("unknown scenario %q", n)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// skipError: a scenario that cannot run here says why (printed as SKIP, not a failure).
type skipError string

func (e skipError) Error() string { return string(e) }

func errSkip(why string) error { return skipError(why) }

// runOne runs one scenario with its deadline (with --wasched, a `wasched run` started for it
// unless it starts its own), stops what it started (SIGTERM: exit 0 expected)
// and removes what it created. It prints the scenario's line and reports whether it passed.
func runOne(e *env, scn scenario) bool {
	start := time.Now()
	if e.opts.wasched == "" && !scn.upstream {
		fmt.Printf("SKIP %s (needs --wasched)\n", scn.name)
		return true
	}
	parent, cancel := context.WithTimeoutCause(context.Background(), scn.timeout,
		fmt.Errorf("scenario deadline %s passed", scn.timeout))
	defer cancel()
	s, err := newScenario(parent, e, scn.name)
	if err == nil && e.opts.wasched != "" && !scn.ownProcs {
		_, err = s.start("wasched", runOpts{})
	}
	if err == nil {
		err = scn.run(s)
		if serr := s.stopAll(); err == nil && serr != nil {
			err = serr
		}
		s.cleanup()
		s.cancel(nil)
	}
	took := time.Since(start).Seconds()
	var skip skipError
	if errors.As(err, &skip) {
		fmt.Printf("SKIP %s (%s)\n", scn.name, string(skip))
		return true
	}
	if err != nil {
		fmt.Printf("FAIL %s %.1fs: %v\n", scn.name, took, err)
		if s != nil {
			for _, p := range s.procs {
				fmt.Printf("--- last lines of %s (%s)\n%s\n", p.name, p.log, p.tail(40))
			}
		}
		return false
	}
	notes := ""
	if len(s.notes) > 0 {
		notes = " (" + strings.Join(s.notes, "; ") + ")"
	}
	fmt.Printf("PASS %s %.1fs%s\n", scn.name, took, notes)
	return true
}
