package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// runWasched: every case through `wasched` (schedule cases also through the tie probe), results
// in OUT/schedule/<case>.json, OUT/probe/<case>.json and OUT/validate/<case>.json, with an
// <case>.outcome.json beside a result that was not printed (input refused, tool failed).
func runWasched(args []string) error {
	fl := flag.NewFlagSet("wasched", flag.ExitOnError)
	bin := fl.String("wasched", "build/src/wasched", "the wasched binary")
	casesDir := fl.String("cases", "", "folder written by gather")
	out := fl.String("out", "", "output folder")
	parallel := fl.Int("parallel", runtime.NumCPU(), "cases run at once")
	fl.Parse(args)
	if *casesDir == "" || *out == "" {
		return fmt.Errorf("wasched: --cases and --out are required")
	}
	cases, err := readCases(*casesDir)
	if err != nil {
		return err
	}
	for _, d := range []string{"schedule", "probe", "validate", "probe-cases"} {
		if err := os.MkdirAll(filepath.Join(*out, d), 0o755); err != nil {
			return err
		}
	}
	jobs := make(chan Case)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < max(1, *parallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range jobs {
				if err := waschedCase(*bin, *casesDir, *out, c); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %v", c.Name, err)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range cases {
		jobs <- c
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// runTool runs wasched and returns stdout, the exit code and stderr's first error line.
func runTool(bin string, args ...string) ([]byte, int, string, error) {
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, 0, "", err
		}
		code = ee.ExitCode()
	}
	first := ""
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "error:") {
			first = line
			break
		}
	}
	if first == "" {
		first = strings.TrimSpace(stderr.String())
		if len(first) > 500 {
			first = first[:500]
		}
	}
	return stdout.Bytes(), code, first, nil
}

// saveRun writes a run's result (exit 0, or exit 1 from validate, which prints its report) or
// its outcome (refused: exit 1 without a report; failed: anything else).
func saveRun(dir, name string, stdout []byte, code int, msg string, validate bool) error {
	os.Remove(filepath.Join(dir, name+".outcome.json"))
	if code == 0 || (validate && code == 1 && len(bytes.TrimSpace(stdout)) > 0) {
		return os.WriteFile(filepath.Join(dir, name+".json"), stdout, 0o644)
	}
	os.Remove(filepath.Join(dir, name+".json"))
	return writeOutcome(dir, name, Outcome{Refused: code == 1, Failed: code != 1, ExitCode: code, Message: msg})
}

func waschedCase(bin, casesDir, out string, c Case) error {
	switch c.Mode {
	case "validate":
		dir := filepath.Join(casesDir, "validate", c.Name)
		files, err := caseFiles(dir)
		if err != nil {
			return err
		}
		args := []string{"validate", "-o", "json", "-f"}
		var old []string
		for _, f := range files {
			if isOldFile(filepath.Base(f)) {
				old = append(old, f)
			} else {
				args = append(args, f)
			}
		}
		if len(old) > 0 {
			args = append(append(args, "--old"), old...)
		}
		stdout, code, msg, err := runTool(bin, args...)
		if err != nil {
			return err
		}
		return saveRun(filepath.Join(out, "validate"), c.Name, stdout, code, msg, true)
	case "schedule":
		dir := filepath.Join(casesDir, "schedule", c.Name)
		// --placement upstream: upstream's greedy order only, without wasched's complete
		// placement search (docs/known-gaps.md "Complete placement search"), so a difference is
		// a bug and not that documented choice.
		stdout, code, msg, err := runTool(bin, "schedule", "-f", dir, "-o", "json", "--placement", "upstream")
		if err != nil {
			return err
		}
		if err := saveRun(filepath.Join(out, "schedule"), c.Name, stdout, code, msg, false); err != nil {
			return err
		}
		if code != 0 {
			return nil
		}
		probeDir := filepath.Join(out, "probe-cases", c.Name)
		os.RemoveAll(probeDir)
		pm, err := writeProbeCase(dir, probeDir)
		if err != nil {
			// An input the probe cannot rewrite is compared without it (no tie information).
			return writeOutcome(filepath.Join(out, "probe"), c.Name, Outcome{Failed: true, Message: "probe: " + err.Error()})
		}
		stdout, code, msg, err = runTool(bin, "schedule", "-f", probeDir, "-o", "json", "--placement", "upstream")
		if err != nil {
			return err
		}
		if code != 0 {
			return writeOutcome(filepath.Join(out, "probe"), c.Name, Outcome{Failed: true, ExitCode: code, Message: "probe: " + msg})
		}
		var r map[string]any
		if err := json.Unmarshal(stdout, &r); err != nil {
			return err
		}
		var sr SchedResult
		if err := json.Unmarshal(stdout, &sr); err != nil {
			return err
		}
		pm.unrename(&sr)
		// Keep the whole document (generated objects included), with the node names mapped back.
		r["bindings"] = sr.Bindings
		r["evictions"] = sr.Evictions
		data, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		os.Remove(filepath.Join(out, "probe", c.Name+".outcome.json"))
		return os.WriteFile(filepath.Join(out, "probe", c.Name+".json"), append(data, '\n'), 0o644)
	}
	return fmt.Errorf("unknown mode %q", c.Mode)
}

// runFakeUpstream: a stand-in for wasched-reference's batch output, for testing the plumbing:
// the tie probe's answers for schedule cases (a different but equally rated tie-break, as
// upstream's random one) and wasched's own reports for validate cases.
func runFakeUpstream(args []string) error {
	fl := flag.NewFlagSet("fake-upstream", flag.ExitOnError)
	casesDir := fl.String("cases", "", "folder written by gather")
	results := fl.String("wasched-results", "", "folder written by `wasched-diff wasched`")
	out := fl.String("out", "", "output folder (schedule/ and validate/)")
	fl.Parse(args)
	cases, err := readCases(*casesDir)
	if err != nil {
		return err
	}
	for _, d := range []string{"schedule", "validate"} {
		if err := os.MkdirAll(filepath.Join(*out, d), 0o755); err != nil {
			return err
		}
	}
	copyIf := func(src, dst string) error {
		data, err := os.ReadFile(src)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	}
	for _, c := range cases {
		from := filepath.Join(*results, c.Mode)
		if c.Mode == "schedule" {
			if _, err := os.Stat(filepath.Join(*results, "probe", c.Name+".json")); err == nil {
				from = filepath.Join(*results, "probe")
			}
		}
		for _, suffix := range []string{".json", ".outcome.json"} {
			if err := copyIf(filepath.Join(from, c.Name+suffix), filepath.Join(*out, c.Mode, c.Name+suffix)); err != nil {
				return err
			}
		}
	}
	return nil
}
