package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// run: one line of the manifest.
type run struct {
	suite, testCase, workload string
	dir                       string
	status                    string
	wallSeconds               float64
	log                       string
}

// row: one line of the output (field meanings in main.go).
type row struct {
	Suite             string   `json:"suite"`
	TestCase          string   `json:"testCase"`
	Workload          string   `json:"workload"`
	Status            string   `json:"status"`
	ThroughputAverage *float64 `json:"throughputAverage"`
	ThroughputPerc50  *float64 `json:"throughputPerc50"`
	Threshold         *float64 `json:"threshold"`
	SchedulingSeconds *float64 `json:"schedulingSeconds"`
	WallSeconds       float64  `json:"wallSeconds"`
	Log               string   `json:"log"`
	Error             string   `json:"error,omitempty"`
}

// dataItems: upstream's DataItems file (test/integration/scheduler_perf/util.go).
type dataItems struct {
	Version   string `json:"version"`
	DataItems []struct {
		Data   map[string]float64 `json:"data"`
		Unit   string             `json:"unit"`
		Labels map[string]string  `json:"labels"`
	} `json:"dataItems"`
}

func parseManifest(text string) ([]run, error) {
	var runs []run
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("line %d: %d fields, want 7 (suite, test case, workload, dir, status, wall seconds, log)", i+1, len(f))
		}
		wall, err := strconv.ParseFloat(f[5], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: wall seconds %q: %v", i+1, f[5], err)
		}
		runs = append(runs, run{f[0], f[1], f[2], f[3], f[4], wall, f[6]})
	}
	return runs, nil
}

// summarize reads the DataItems files of one run's folder (upstream writes one per
// RunBenchmarkPerfScheduling call; the newest counts) and picks the two timings.
func summarize(r run) row {
	out := row{Suite: r.suite, TestCase: r.testCase, Workload: r.workload, Status: r.status,
		WallSeconds: r.wallSeconds, Log: r.log}
	files, _ := filepath.Glob(filepath.Join(r.dir, "*.json"))
	sort.Strings(files) // names end in a timestamp
	if len(files) == 0 {
		if hasValues(out.Status) {
			out.Status = "no-result"
			out.Error = "no DataItems file in " + r.dir
		}
		return out
	}
	text, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		out.Status, out.Error = "no-result", err.Error()
		return out
	}
	var items dataItems
	if err := json.Unmarshal(text, &items); err != nil {
		out.Status, out.Error = "no-result", fmt.Sprintf("%s: %v", files[len(files)-1], err)
		return out
	}
	suffix := "/" + r.testCase + "/" + r.workload + "/"
	for _, it := range items.DataItems {
		if !strings.Contains(it.Labels["Name"]+"/", suffix) {
			continue
		}
		switch it.Labels["Metric"] {
		case "SchedulingThroughput":
			if v, ok := it.Data["Average"]; ok && out.ThroughputAverage == nil {
				out.ThroughputAverage = &v
			}
			if v, ok := it.Data["Perc50"]; ok && out.ThroughputPerc50 == nil {
				out.ThroughputPerc50 = &v
			}
			if v, ok := it.Data["AverageThreshold"]; ok && out.Threshold == nil {
				out.Threshold = &v
			}
		case "SchedulingDuration":
			if v, ok := it.Data["Duration"]; ok && out.SchedulingSeconds == nil {
				out.SchedulingSeconds = &v
			}
		}
	}
	if hasValues(out.Status) && out.ThroughputAverage == nil && out.SchedulingSeconds == nil {
		out.Status = "no-result"
		out.Error = "no SchedulingThroughput or SchedulingDuration for " + r.testCase + "/" + r.workload
	}
	return out
}

// hasValues: a status whose run wrote its DataItems: "ok", or "below-threshold" (upstream's
// benchmark fails a workload whose SchedulingThroughput is below the threshold in its config,
// set for upstream's 16-core CI runners, after recording the numbers).
func hasValues(status string) bool { return status == "ok" || status == "below-threshold" }
