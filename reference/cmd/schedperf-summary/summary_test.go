package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSummarize(t *testing.T) {
	dir := t.TempDir()
	const items = `{"version":"v1","dataItems":[
	  {"data":{"Average":412.5,"Perc50":400,"AverageThreshold":680},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/gangscheduling/GangScheduling/5000Nodes_1000Gangs_3000Pods/gang-ns-0"}},
	  {"data":{"Duration":7.25},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/gangscheduling/GangScheduling/5000Nodes_1000Gangs_3000Pods/gang-ns-0"}},
	  {"data":{"Average":1},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/gangscheduling/GangScheduling/other/gang-ns-0"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "BenchmarkPerfScheduling_benchmark_gangscheduling_2026-12-02T15:30:06Z.json"), []byte(items), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := parseManifest("gangscheduling\tGangScheduling\t5000Nodes_1000Gangs_3000Pods\t" + dir + "\tok\t31.5\tlog.txt\n\n" +
		"tas\tTopologyAwareScheduling\tx\t" + filepath.Join(dir, "missing") + "\ttimeout\t600\tlog2.txt\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("runs = %d, want 2", len(runs))
	}
	r := summarize(runs[0])
	if r.Status != "ok" || r.ThroughputAverage == nil || *r.ThroughputAverage != 412.5 || r.ThroughputPerc50 == nil ||
		*r.ThroughputPerc50 != 400 || r.Threshold == nil || *r.Threshold != 680 || r.SchedulingSeconds == nil || *r.SchedulingSeconds != 7.25 || r.WallSeconds != 31.5 {
		t.Errorf("summarize = %+v", r)
	}
	if r := summarize(runs[1]); r.Status != "timeout" || r.ThroughputAverage != nil {
		t.Errorf("a timed-out run = %+v, want status timeout and no value", r)
	}
	if _, err := parseManifest("a\tb\n"); err == nil {
		t.Error("a short line parsed")
	}
}

func TestSummarizeNoThroughputSample(t *testing.T) {
	dir := t.TempDir()
	const items = `{"version":"v1","dataItems":[
	  {"data":null,"unit":"","labels":{"Metric":"not applicable","Name":"BenchmarkPerfScheduling/tas/T/W/ns"}},
	  {"data":{"Duration":1.02},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/tas/T/W/ns"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "x.json"), []byte(items), 0o644); err != nil {
		t.Fatal(err)
	}
	r := summarize(run{suite: "tas", testCase: "T", workload: "W", dir: dir, status: "ok"})
	if r.Status != "ok" || r.ThroughputAverage != nil || r.SchedulingSeconds == nil || *r.SchedulingSeconds != 1.02 {
		t.Errorf("summarize = %+v", r)
	}
}
