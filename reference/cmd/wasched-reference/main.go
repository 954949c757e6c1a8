// Command wasched-reference runs manifests through the real v1.37.2 control plane
// (scripts/reference.sh) and prints what upstream did in wasched's own JSON, for the
// differential suite (tests/differential/). Test tooling only; wasched itself is C++.
//
//	wasched-reference schedule -f PATH... [-o json]
//	wasched-reference validate -f PATH... [--old PATH...] [-o json]
//	wasched-reference schedule-batch --cases DIR --out DIR [--parallel N]
//	wasched-reference validate-batch --cases DIR --out DIR [--parallel N]
//	wasched-reference apply -f PATH...   (remove same-named objects and their namespaces' content,
//	                                      then create the objects and leave them; schedules nothing)
//	wasched-reference create -f PATH...  (create the objects on top of what is there)
//	wasched-reference delete -f PATH...  (remove them again)
//
// Common flags: --kubeconfig FILE (default $KUBECONFIG), --scheduler-metrics URL (default
// $WASCHED_REFERENCE_SCHEDULER_METRICS, else https://127.0.0.1:10259/metrics), --no-hold,
// --keep, --timeout DURATION. Exit codes as wasched's: 0 done, 1 invalid input (errors on
// stderr, nothing on stdout; validate: the report on stdout), 2 usage, 3 anything else (the
// control plane unreachable, a wait that did not end).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/batch"
	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/manifest"
	"wasched.io/reference/internal/result"
	"wasched.io/reference/internal/run"
	"wasched.io/reference/internal/schedmetrics"
	"wasched.io/reference/internal/validate"
)

const usage = `usage:
  wasched-reference schedule -f PATH... [-o json]
  wasched-reference validate -f PATH... [--old PATH...] [-o json]
  wasched-reference schedule-batch --cases DIR --out DIR [--parallel N]
  wasched-reference validate-batch --cases DIR --out DIR [--parallel N]
  wasched-reference apply -f PATH...    (empties the objects' namespaces first)
  wasched-reference create -f PATH...   (adds to what is there)
  wasched-reference delete -f PATH...
flags: --kubeconfig FILE  --scheduler-metrics URL  --no-hold  --keep  --timeout DURATION
       --feature-gates K=V,... (the reference runs every v1.37 gate on; only =true is accepted)
`

type usageError string

func (e usageError) Error() string { return string(e) }

type flags struct {
	files, olds            []string
	output                 string
	kubeconfig, metricsURL string
	casesDir, outDir       string
	parallel               int
	noHold, keep, timings  bool
	timeout                time.Duration
}

// parse reads the flags after the subcommand. `-f` and `--old` take every following argument
// up to the next flag (as wasched's CLI11 options do) and may be repeated.
func parse(args []string) (*flags, error) {
	f := &flags{output: "json", parallel: 20, timeout: 3 * time.Minute,
		kubeconfig: os.Getenv("KUBECONFIG"), metricsURL: os.Getenv("WASCHED_REFERENCE_SCHEDULER_METRICS")}
	if f.metricsURL == "" {
		f.metricsURL = "https://127.0.0.1:10259/metrics"
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		value := func() (string, error) {
			if hasVal {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", usageError(name + " needs a value")
			}
			i++
			return args[i], nil
		}
		multi := func(dst *[]string) error {
			if hasVal {
				*dst = append(*dst, val)
				return nil
			}
			n := 0
			for i+1 < len(args) && (!strings.HasPrefix(args[i+1], "-") || args[i+1] == "-") {
				i++
				*dst = append(*dst, args[i])
				n++
			}
			if n == 0 {
				return usageError(name + " needs at least one path")
			}
			return nil
		}
		var err error
		switch name {
		case "-f", "--filename":
			err = multi(&f.files)
		case "--old":
			err = multi(&f.olds)
		case "-o", "--output":
			f.output, err = value()
		case "--kubeconfig":
			f.kubeconfig, err = value()
		case "--scheduler-metrics":
			f.metricsURL, err = value()
		case "--cases":
			f.casesDir, err = value()
		case "--out":
			f.outDir, err = value()
		case "--parallel":
			var v string
			if v, err = value(); err == nil {
				f.parallel, err = strconv.Atoi(v)
				if err != nil || f.parallel < 1 {
					err = usageError("--parallel needs a positive number")
				}
			}
		case "--timeout":
			var v string
			if v, err = value(); err == nil {
				f.timeout, err = time.ParseDuration(v)
				if err != nil {
					err = usageError("--timeout: " + err.Error())
				}
			}
		case "--feature-gates":
			var v string
			if v, err = value(); err == nil {
				err = checkGates(v)
			}
		case "--no-hold":
			f.noHold = true
		case "--keep":
			f.keep = true
		case "--timings":
			f.timings = true
		default:
			return nil, usageError("unknown argument " + a)
		}
		if err != nil {
			var ue usageError
			if errors.As(err, &ue) {
				return nil, err
			}
			return nil, usageError(err.Error())
		}
	}
	if f.output != "json" {
		return nil, usageError("-o " + f.output + ": wasched-reference writes json only")
	}
	return f, nil
}

// checkGates accepts only gates set to true: the reference control plane runs with every
// v1.37 workload gate on (scripts/reference.sh).
func checkGates(v string) error {
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || k == "" {
			return usageError("--feature-gates: " + kv + ": want K=V")
		}
		if b, err := strconv.ParseBool(val); err != nil || !b {
			return usageError("--feature-gates: " + k + "=" + val + ": the reference control plane runs with every gate on")
		}
	}
	return nil
}

func main() {
	os.Exit(mainErr(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func mainErr(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd := args[0]
	f, err := parse(args[1:])
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n%s", err, usage)
		return 2
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	switch cmd {
	case "schedule":
		return cmdSchedule(ctx, f, stdin, stdout, stderr)
	case "validate":
		return cmdValidate(ctx, f, stdin, stdout, stderr)
	case "schedule-batch":
		return cmdScheduleBatch(ctx, f, stderr)
	case "validate-batch":
		return cmdValidateBatch(ctx, f, stderr)
	case "apply", "create", "delete":
		return cmdApply(ctx, cmd, f, stdin, stderr)
	}
	fmt.Fprintf(stderr, "error: unknown subcommand %q\n%s", cmd, usage)
	return 2
}

func connect(f *flags, stderr io.Writer) (*kube.Client, int) {
	c, err := kube.Connect(f.kubeconfig)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return nil, 3
	}
	return c, 0
}

func runOptions(c *kube.Client, f *flags, stderr io.Writer) run.Options {
	return run.Options{Client: c, Scraper: schedmetrics.New(f.metricsURL), Hold: !f.noHold,
		SchedulerPidFile: os.Getenv("WASCHED_REFERENCE_SCHEDULER_PIDFILE"),
		QuietTimeout:     f.timeout, ControllerTimeout: 30 * time.Second, Keep: f.keep, Warn: stderr}
}

func load(paths []string, stdin io.Reader, stderr io.Writer) ([]manifest.Object, bool) {
	objs, warnings, err := manifest.Load(paths, stdin, manifest.Options{})
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return nil, false
	}
	return objs, true
}

func cmdSchedule(ctx context.Context, f *flags, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(f.files) == 0 {
		fmt.Fprintf(stderr, "error: schedule needs -f PATH\n%s", usage)
		return 2
	}
	objs, ok := load(f.files, stdin, stderr)
	if !ok {
		return 1
	}
	c, code := connect(f, stderr)
	if c == nil {
		return code
	}
	opts := runOptions(c, f, stderr)
	opts.ForeignNodes = true
	out, err := run.Schedule(ctx, opts, objs)
	var ie *apply.InputError
	if errors.As(err, &ie) {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	if f.timings {
		t := out.Timings
		fmt.Fprintf(stderr, "timings: total %.2fs (reset %.2f, hold %.2f, apply %.2f, controllers %.2f, release %.2f, quiet %.2f, cleanup %.2f)\n",
			t.Total.Seconds(), t.Reset.Seconds(), t.Hold.Seconds(), t.Apply.Seconds(), t.Controllers.Seconds(),
			t.Release.Seconds(), t.Quiet.Seconds(), t.Cleanup.Seconds())
	}
	b, err := result.Build(out.State).JSON()
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "error: cannot write output: %v\n", err)
		return 3
	}
	return 0
}

// cmdApply: the objects of -f created in the cluster and left there (for `wasched schedule
// --kubeconfig` against a control plane without kube-scheduler).
// `delete` removes them again.
func cmdApply(ctx context.Context, cmd string, f *flags, stdin io.Reader, stderr io.Writer) int {
	if len(f.files) == 0 {
		fmt.Fprintf(stderr, "error: %s needs -f PATH\n%s", cmd, usage)
		return 2
	}
	objs, ok := load(f.files, stdin, stderr)
	if !ok {
		return 1
	}
	c, code := connect(f, stderr)
	if c == nil {
		return code
	}
	var err error
	if cmd == "delete" {
		err = run.Delete(ctx, runOptions(c, f, stderr), objs)
	} else if cmd == "create" {
		err = run.Create(ctx, runOptions(c, f, stderr), objs)
	} else {
		err = run.Apply(ctx, runOptions(c, f, stderr), objs)
	}
	var ie *apply.InputError
	if errors.As(err, &ie) {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	return 0
}

func cmdValidate(ctx context.Context, f *flags, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(f.files) == 0 {
		fmt.Fprintf(stderr, "error: validate needs -f PATH\n%s", usage)
		return 2
	}
	objs, ok := load(f.files, stdin, stderr)
	if !ok {
		return 1
	}
	var olds []manifest.Object
	if len(f.olds) > 0 {
		if olds, ok = load(f.olds, stdin, stderr); !ok {
			return 1
		}
	}
	c, code := connect(f, stderr)
	if c == nil {
		return code
	}
	rep, warnings, err := validate.Validate(ctx, validate.Options{Client: c}, objs, olds)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	b, err := rep.JSON()
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	if _, err := stdout.Write(b); err != nil {
		fmt.Fprintf(stderr, "error: cannot write output: %v\n", err)
		return 3
	}
	if len(rep.Errors) > 0 {
		return 1
	}
	return 0
}

func cmdScheduleBatch(ctx context.Context, f *flags, stderr io.Writer) int {
	if f.casesDir == "" || f.outDir == "" {
		fmt.Fprintf(stderr, "error: schedule-batch needs --cases DIR and --out DIR\n%s", usage)
		return 2
	}
	c, code := connect(f, stderr)
	if c == nil {
		return code
	}
	sum, err := batch.Run(ctx, batch.Options{Run: runOptions(c, f, stderr), CasesDir: f.casesDir, OutDir: f.outDir,
		Parallel: f.parallel, Log: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	perMin := 0.0
	if sum.Elapsed > 0 {
		perMin = float64(sum.Cases) / sum.Elapsed.Minutes()
	}
	fmt.Fprintf(stderr, "schedule-batch: %d cases (%d written, %d refused as invalid, %d failed, %d alone) in %d runs, %.1fs, %.1f cases/minute\n",
		sum.Cases, sum.Written, sum.Invalid, sum.Failed, sum.Solo, sum.Runs, sum.Elapsed.Seconds(), perMin)
	if sum.Failed > 0 {
		return 3
	}
	return 0
}

func cmdValidateBatch(ctx context.Context, f *flags, stderr io.Writer) int {
	if f.casesDir == "" || f.outDir == "" {
		fmt.Fprintf(stderr, "error: validate-batch needs --cases DIR and --out DIR\n%s", usage)
		return 2
	}
	c, code := connect(f, stderr)
	if c == nil {
		return code
	}
	sum, err := validate.RunBatch(ctx, validate.BatchOptions{Client: c, CasesDir: f.casesDir, OutDir: f.outDir,
		Parallel: f.parallel, Log: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 3
	}
	fmt.Fprintf(stderr, "validate-batch: %d cases (%d with errors, %d unreadable) in %.1fs\n",
		sum.Cases, sum.WithErrors, sum.Unreadable, sum.Elapsed.Seconds())
	return 0
}
