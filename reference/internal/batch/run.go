package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/manifest"
	"wasched.io/reference/internal/result"
	"wasched.io/reference/internal/run"
	"wasched.io/reference/internal/validate"
)

// Options configures Run.
type Options struct {
	Run      run.Options
	CasesDir string
	OutDir   string
	// Parallel: how many cases share one control-plane run.
	Parallel int
	Log      io.Writer
}

// Summary counts what Run did.
type Summary struct {
	Cases, Written, Invalid, Failed, Solo, Runs int
	Elapsed                                     time.Duration
}

// LoadCases reads every sub-folder of dir as a case (its *.yaml, *.yml and *.json, recursively,
// except expected.json). A case that fails to load gets `<out>/<case>.outcome.json` (refused) and
// is left out.
func LoadCases(dir string) ([]*Case, map[string]error, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var cases []*Case
	bad := map[string]error{}
	for i, n := range names {
		d := filepath.Join(dir, n)
		objs, _, err := manifest.Load([]string{d}, nil, manifest.Options{Skip: func(p string) bool {
			return filepath.Base(p) == "expected.json"
		}})
		if err != nil {
			bad[n] = err
			continue
		}
		cases = append(cases, NewCase(i, n, d, objs))
	}
	return cases, bad, nil
}

// Run schedules every case, Parallel at a time in one run each (solo cases alone, with their
// original names), and writes `<out>/<case>.json`, or `<case>.outcome.json` for an input the
// API server refused (what `wasched` reports with exit 1) or a run that failed.
func Run(ctx context.Context, opts Options) (Summary, error) {
	start := time.Now()
	var sum Summary
	cases, bad, err := LoadCases(opts.CasesDir)
	if err != nil {
		return sum, err
	}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return sum, err
	}
	for name, e := range bad {
		sum.Invalid++
		if err := writeError(opts.OutDir, name, e); err != nil {
			return sum, err
		}
	}
	sum.Cases = len(cases) + len(bad)
	var shared, solo []*Case
	transformed := map[*Case][]manifest.Object{}
	for _, c := range cases {
		objs := c.Transform()
		if c.Solo != "" {
			fmt.Fprintf(opts.Log, "%s: runs alone: %s\n", c.Name, c.Solo)
			solo = append(solo, c)
			continue
		}
		transformed[c] = objs
		shared = append(shared, c)
	}
	sum.Solo = len(solo)
	par := opts.Parallel
	if par < 1 {
		par = 1
	}
	for len(shared) > 0 {
		n := par
		if n > len(shared) {
			n = len(shared)
		}
		group := shared[:n]
		shared = shared[n:]
		if err := runGroup(ctx, opts, group, transformed, &sum); err != nil {
			return sum, err
		}
	}
	for _, c := range solo {
		t := time.Now()
		out, err := run.Schedule(ctx, opts.Run, c.Objs)
		sum.Runs++
		var ie *apply.InputError
		if errors.As(err, &ie) {
			sum.Invalid++
			if werr := writeError(opts.OutDir, c.Name, err); werr != nil {
				return sum, werr
			}
			continue
		}
		if err != nil {
			sum.Failed++
			fmt.Fprintf(opts.Log, "%s: %v\n", c.Name, err)
			if werr := writeFailure(opts.OutDir, c.Name, err); werr != nil {
				return sum, werr
			}
			continue
		}
		if err := writeResult(opts.OutDir, c.Name, result.Build(out.State)); err != nil {
			return sum, err
		}
		sum.Written++
		fmt.Fprintf(opts.Log, "run %d: 1 case (solo) in %.1fs\n", sum.Runs, time.Since(t).Seconds())
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// runGroup schedules the cases in one run, each case a lane of its own (created concurrently
// with the others, in its own order). A case whose input the API server refuses is removed
// before the scheduler is released and written as refused; the others go on.
func runGroup(ctx context.Context, opts Options, group []*Case, transformed map[*Case][]manifest.Object, sum *Summary) error {
	t := time.Now()
	var objs []manifest.Object
	for ci, c := range group {
		for _, o := range transformed[c] {
			o.Index += ci * 1_000_000 // keep each case's input order; cases do not interact
			o.Lane = ci
			objs = append(objs, o)
		}
	}
	out, err := run.Schedule(ctx, opts.Run, objs)
	sum.Runs++
	var ie *apply.InputError
	if errors.As(err, &ie) && len(group) == 1 {
		sum.Invalid++
		return writeError(opts.OutDir, group[0].Name, errors.New(strings.ReplaceAll(ie.Error(), group[0].Prefix, "")))
	}
	if err != nil {
		for _, c := range group {
			sum.Failed++
			if werr := writeFailure(opts.OutDir, c.Name, err); werr != nil {
				return werr
			}
		}
		fmt.Fprintf(opts.Log, "run %d: %d cases failed: %v\n", sum.Runs, len(group), err)
		return nil
	}
	clusterNodes := 0
	caseNodes := map[*Case]int{}
	for ci, c := range group {
		if out.Refused[ci] != nil {
			continue
		}
		for _, o := range transformed[c] {
			if apply.Rank(o.Unstructured) == apply.RankNode {
				caseNodes[c]++
				clusterNodes++
			}
		}
	}
	for ci, c := range group {
		if e := out.Refused[ci]; e != nil {
			sum.Invalid++
			if err := writeError(opts.OutDir, c.Name, errors.New(strings.ReplaceAll(e.Error(), c.Prefix, ""))); err != nil {
				return err
			}
			continue
		}
		r := result.Build(c.Filter(out.State))
		c.MapBack(r, caseNodes[c], clusterNodes)
		if err := writeResult(opts.OutDir, c.Name, r); err != nil {
			return err
		}
		sum.Written++
	}
	fmt.Fprintf(opts.Log, "run %d: %d cases in %.1fs (hold %.1fs, apply %.1fs, controllers %.1fs, release %.1fs, quiet %.1fs, cleanup %.1fs)\n",
		sum.Runs, len(group), time.Since(t).Seconds(), out.Timings.Hold.Seconds(), out.Timings.Apply.Seconds(),
		out.Timings.Controllers.Seconds(), out.Timings.Release.Seconds(), out.Timings.Quiet.Seconds(), out.Timings.Cleanup.Seconds())
	return nil
}

func writeResult(dir, name string, r *result.Result) error {
	b, err := r.JSON()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
}

// writeError records an input the API server (or the loader) refused: no result, and
// `<case>.outcome.json` {"refused": true, "exitCode": 1, "message"} — what wasched reports with
// exit 1.
func writeError(dir, name string, e error) error {
	_ = os.Remove(filepath.Join(dir, name+".json"))
	return validate.WriteOutcome(dir, name, validate.Outcome{Refused: true, ExitCode: 1, Message: e.Error()})
}

// writeFailure records a run that failed for another reason (exit 3).
func writeFailure(dir, name string, e error) error {
	_ = os.Remove(filepath.Join(dir, name+".json"))
	return validate.WriteOutcome(dir, name, validate.Outcome{Failed: true, ExitCode: 3, Message: e.Error()})
}
