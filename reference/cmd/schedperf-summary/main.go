// Command schedperf-summary reads the results of upstream scheduler_perf runs (the DataItems JSON
// files kube-scheduler's benchmark writes to -data-items-dir) and prints one JSON list, one row
// per workload, for `wasched bench --against-upstream` (scripts/bench-upstream.sh runs it).
//
//	schedperf-summary MANIFEST
//
// MANIFEST has one line per run, tab-separated: suite, test case, workload, the run's
// -data-items-dir, its status ("ok", "below-threshold", "failed", "timeout"), its wall seconds and
// its log file.
// Each output row is
//
//	{suite, testCase, workload, status, throughputAverage, throughputPerc50, threshold,
//	 schedulingSeconds, wallSeconds, log, error}
//
// throughputAverage is upstream's SchedulingThroughput "Average" (pods/s, the mean of its
// 1-second samples: the number scheduler_perf's thresholds compare); it is null when the run
// scheduled for too short a time to take a sample (upstream skips the first one), and
// schedulingSeconds (its SchedulingDuration) is then the only timing. threshold is the workload's
// minimum from upstream's config (null when it has none); "below-threshold" is a run that wrote its
// numbers and then failed that check. A run with values expected but no DataItems file gets
// status "no-result".
//
// Standard library only.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: schedperf-summary MANIFEST")
		os.Exit(2)
	}
	manifest, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedperf-summary: %v\n", err)
		os.Exit(1)
	}
	runs, err := parseManifest(string(manifest))
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedperf-summary: %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	rows := make([]row, 0, len(runs))
	for _, r := range runs {
		rows = append(rows, summarize(r))
	}
	out, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "schedperf-summary: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(string(out))
}
