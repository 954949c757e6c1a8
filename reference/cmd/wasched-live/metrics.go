// metrics.go: the `metrics` scenario — wasched run's /metrics is valid Prometheus text (promtool,
// from Debian's prometheus package) and its counters match what it did.

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// metricsScenario: gang-fits under a `wasched run` of its own, then /metrics must pass
// `promtool check metrics` and show 8 scheduled attempts, 8 successful bindings and 1 gang
// scheduled (counters of a fresh process; other scenarios run their own processes).
func metricsScenario(s *sc) error {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		return fmt.Errorf("promtool not found (Debian package prometheus; scripts/install-deps.sh installs it)")
	}
	p, err := s.start("metrics", runOpts{})
	if err != nil {
		return err
	}
	ns, err := s.namespace("")
	if err != nil {
		return err
	}
	if err := fitsIn(s, ns); err != nil {
		return err
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/metrics", p.port)
	want := []string{
		`scheduler_schedule_attempts_total{profile="wasched",result="scheduled"} 8`,
		`wasched_bindings_total{result="success"} 8`,
		`wasched_bindings_total{result="failure"} 0`,
		`wasched_gangs_scheduled_total 1`,
		`scheduler_pod_scheduling_sli_duration_seconds_count{attempts="1"} 8`,
	}
	if s.opts.schedulerName != "wasched" {
		want[0] = strings.Replace(want[0], `"wasched"`, fmt.Sprintf("%q", s.opts.schedulerName), 1)
	}
	// The counters move when each binding's answer is back, which can come after the watch shows
	// the pod bound: the one state here the API does not expose, read every 100 ms, 30 s deadline.
	var text string
	var missing []string
	if err := wait.PollUntilContextTimeout(s.ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, nil
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text = string(body)
		missing = missing[:0]
		for _, w := range want {
			if !strings.Contains(text, w+"\n") {
				missing = append(missing, w)
			}
		}
		return len(missing) == 0, nil
	}); err != nil {
		return fmt.Errorf("/metrics never showed %s", strings.Join(missing, ", "))
	}
	check := exec.CommandContext(s.ctx, promtool, "check", "metrics")
	check.Stdin = bytes.NewBufferString(text)
	out, err := check.CombinedOutput()
	if err != nil {
		return fmt.Errorf("promtool check metrics: %v: %s", err, strings.TrimSpace(string(out)))
	}
	s.note("promtool check metrics passed; %d lines; %s", strings.Count(text, "\n"), strings.Join(want, "; "))
	return nil
}
