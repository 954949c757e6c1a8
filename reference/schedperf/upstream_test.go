//go:build schedperf

// Package schedperf runs kube-scheduler's own scheduler_perf benchmarks (k8s.io/kubernetes
// v1.37.2, test/integration/scheduler_perf) from one test binary, for `scripts/bench-upstream.sh`
// and `wasched bench --against-upstream`. It is behind the `schedperf` build tag so that
// `go vet ./...` and `go test ./...` (CI) neither build nor run it: it is a benchmark, and the
// binary links a whole kube-apiserver and kube-scheduler.
//
// Build and run (what scripts/bench-upstream.sh does):
//
//	go test -tags schedperf -c -o schedperf.test ./schedperf
//	PATH=<dir with etcd>:$PATH ./schedperf.test -test.run '^$' \
//	  -test.bench '^BenchmarkPerfScheduling$/^gangscheduling$/^GangScheduling$/^5000Nodes_1000Gangs_3000Pods$' \
//	  -test.benchtime 1x -perf-scheduling-label-filter= -data-items-dir OUT \
//	  -scheduler-perf-dir $(go list -m -f '{{.Dir}}' k8s.io/kubernetes)/test/integration/scheduler_perf
//
// Each suite is one upstream package: its performance-config.yaml is read, with the working
// directory set to the package's folder (template paths in the configs are relative to it),
// through upstream's exported runner RunBenchmarkPerfScheduling, exactly as the package's own
// BenchmarkPerfScheduling does. Results go to -data-items-dir as upstream's DataItems JSON
// (cmd/schedperf-summary reads them).
package schedperf

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	_ "k8s.io/component-base/logs/json/register"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
)

var schedulerPerfDir = flag.String("scheduler-perf-dir", "",
	"the module's test/integration/scheduler_perf folder (go list -m -f '{{.Dir}}' k8s.io/kubernetes)")

// suites: sub-benchmark name (upstream's topic name) → folder under scheduler_perf.
var suites = []struct{ topic, dir string }{
	{"misc", "misc"},
	{"gangscheduling", "podgroup/gangscheduling"},
	{"tas", "podgroup/tas"},
	{"podgroupbasic", "podgroup/basicscheduling"},
	{"workloadpreemption", "workload_preemption"},
}

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	if *schedulerPerfDir == "" {
		b.Fatal("-scheduler-perf-dir is required")
	}
	for _, s := range suites {
		b.Run(s.topic, func(b *testing.B) {
			dir := filepath.Join(*schedulerPerfDir, s.dir)
			b.Chdir(dir)
			perf.RunBenchmarkPerfScheduling(b, "performance-config.yaml", s.topic, nil)
		})
	}
}
