package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wasched.io/reference/internal/kube"
)

// liveKubeconfig returns the admin kubeconfig of a running reference control plane, or skips
// the test: these tests need `scripts/reference.sh up` (KUBECONFIG set to the path printed by
// `scripts/reference.sh kubeconfig`).
func liveKubeconfig(t *testing.T) string {
	t.Helper()
	kc := os.Getenv("KUBECONFIG")
	if kc == "" {
		t.Skip("no reference control plane: run `scripts/reference.sh up` and set KUBECONFIG=$(scripts/reference.sh kubeconfig)")
	}
	c, err := kube.Connect(kc)
	if err != nil {
		t.Skipf("no reference control plane (%v): run `scripts/reference.sh up`", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	v, err := c.ServerVersion(ctx)
	if err != nil {
		t.Skipf("reference control plane not answering (%v): run `scripts/reference.sh up`", err)
	}
	if v != "v1.37.2" {
		t.Fatalf("API server reports %s, want v1.37.2", v)
	}
	// The kubeconfig lives in the state directory of scripts/reference.sh (<state>/kubeconfigs/):
	// the scheduler's metrics port and the supervisor's pid file are found beside it, as the
	// script passes them to the tool.
	state := filepath.Dir(filepath.Dir(kc))
	if os.Getenv("WASCHED_REFERENCE_SCHEDULER_METRICS") == "" {
		port := "20259"
		if data, err := os.ReadFile(filepath.Join(state, "ports.env")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if v, ok := strings.CutPrefix(line, "scheduler_port="); ok {
					port = v
				}
			}
		}
		t.Setenv("WASCHED_REFERENCE_SCHEDULER_METRICS", "https://127.0.0.1:"+port+"/metrics")
	}
	if os.Getenv("WASCHED_REFERENCE_SCHEDULER_PIDFILE") == "" {
		t.Setenv("WASCHED_REFERENCE_SCHEDULER_PIDFILE", filepath.Join(state, "pids", "kube-scheduler.child"))
	}
	return kc
}

type scheduleResult struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Bindings   []struct{ Pod, Node string }
	Pending    []struct{ Pod, Reason, Message string }
	Evictions  []struct{ Pod, Node, Preemptor string }
	Groups     []struct {
		Kind, Name string
		Scheduled  int
		Conditions []struct{ Type, Status, Reason, Message string }
	}
}

// scenarioFiles lists the input manifests of a golden scenario (its yaml files, as the
// scenario runner passes them to wasched).
func scenarioFiles(t *testing.T, name string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "tests", "scenarios", name, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("scenario %s: no manifests (%v)", name, err)
	}
	return files
}

// TestLiveScenarios runs golden scenarios through `schedule` against the control plane and
// checks the result's shape and bound / pending / evicted counts (the values upstream gives for
// these cases, which are also the goldens' values).
func TestLiveScenarios(t *testing.T) {
	kc := liveKubeconfig(t)
	cases := []struct {
		scenario                  string
		bound, pending, evictions int
		group                     string // a group whose PodGroupInitiallyScheduled must be True
	}{
		{scenario: "h01-gang-fits", bound: 3, group: "default/pg"},
		{scenario: "h04-gang-with-blocker", bound: 3, pending: 1},
		{scenario: "i14-whole-gang-victim", bound: 1, evictions: 2, group: "default/preemptor"},
	}
	for _, tc := range cases {
		t.Run(tc.scenario, func(t *testing.T) {
			args := append([]string{"schedule", "--kubeconfig", kc, "-o", "json", "-f"}, scenarioFiles(t, tc.scenario)...)
			var stdout, stderr bytes.Buffer
			if code := mainErr(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var r scheduleResult
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
			}
			if r.APIVersion != "wasched.io/v1alpha1" || r.Kind != "ScheduleResult" {
				t.Errorf("header %s %s", r.APIVersion, r.Kind)
			}
			if len(r.Bindings) != tc.bound || len(r.Pending) != tc.pending || len(r.Evictions) != tc.evictions {
				t.Errorf("bound %d pending %d evicted %d, want %d %d %d\n%s", len(r.Bindings), len(r.Pending),
					len(r.Evictions), tc.bound, tc.pending, tc.evictions, stdout.String())
			}
			if tc.group == "" {
				return
			}
			for _, g := range r.Groups {
				if g.Name != tc.group {
					continue
				}
				for _, c := range g.Conditions {
					if c.Type == "PodGroupInitiallyScheduled" && c.Status == "True" {
						return
					}
				}
				t.Errorf("group %s: no PodGroupInitiallyScheduled True: %+v", tc.group, g.Conditions)
				return
			}
			t.Errorf("group %s missing", tc.group)
		})
	}
}
