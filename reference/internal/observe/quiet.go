package observe

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wasched.io/reference/internal/schedmetrics"
)

// CheckPeriod: how often WaitQuiet and WaitControllers re-evaluate their conditions (a scrape
// of the scheduler's /metrics and a look at the informers' stores). Each wait ends at its own
// deadline; none of them sleeps for a fixed time.
const CheckPeriod = 50 * time.Millisecond

// DefaultWindow: how long everything must stay unchanged before the run counts as quiet. It
// is above the one-second flush interval of the scheduler's asynchronous metrics
// (scheduler_inflight_events, pkg/scheduler/metrics/metric_recorder.go), so a pod popped just
// before a scrape is always visible in a later one within the window.
const DefaultWindow = 1500 * time.Millisecond

// QuietOptions configures WaitQuiet.
type QuietOptions struct {
	// Scraper reads kube-scheduler's /metrics; nil waits on the watched objects alone.
	Scraper *schedmetrics.Scraper
	// Jobs: "ns/name" → pods its controller must have created (apply.ExpectedJobPods).
	Jobs    map[string]int
	Window  time.Duration
	Timeout time.Duration
}

// QuietReport says how the wait ended.
type QuietReport struct {
	Elapsed  time.Duration
	Attempts float64 // scheduling attempts (pods and pod groups) counted by the scheduler meanwhile
}

// WaitQuiet waits until the scheduler and the controllers are done with the run. The rule
// (every part must hold, continuously, for Window):
//
//  1. the scheduling queue holds nothing to work on: scheduler_pending_pods for the active,
//     backoff and pending (pods waiting for their in-flight pod group) queues is 0 — pods left
//     in unschedulable, gated and incomplete wait for a cluster event that will not come;
//  2. nothing is in flight: scheduler_inflight_events{event="PodPopped"} is 0 (no pod between
//     pop and done), scheduler_goroutines{operation="binding"} is 0 (no binding cycle) and
//     scheduler_pending_async_api_calls is 0 (no queued status patch or preemption call);
//  3. the counters scheduler_schedule_attempts_total, scheduler_podgroup_schedule_attempts_total,
//     scheduler_preemption_attempts_total and scheduler_preemption_goroutines_execution_total did
//     not move (no cycle started and ended between two scrapes);
//  4. no watched object of the run changed (pods, PodGroups, CompositePodGroups, Workloads,
//     ResourceClaims, Jobs, events), no pod is terminating (a preemption victim not yet gone),
//     and every Job has its pods (or a Warning event said its controller refused it).
//
// Each part is checked every CheckPeriod; the wait ends with an error at Timeout, naming the
// part that did not hold.
func (o *Observer) WaitQuiet(ctx context.Context, opts QuietOptions) (QuietReport, error) {
	if opts.Window == 0 {
		opts.Window = DefaultWindow
	}
	start := time.Now()
	deadline := start.Add(opts.Timeout)
	var stableSince time.Time
	var lastCounters string
	var firstAttempts, lastAttempts float64
	haveFirst := false
	why := "not checked yet"
	tick := time.NewTicker(CheckPeriod)
	defer tick.Stop()
	for {
		ok, counters, attempts, reason := o.quietNow(ctx, opts)
		if !haveFirst && counters != "" {
			firstAttempts, haveFirst = attempts, true
		}
		lastAttempts = attempts
		now := time.Now()
		if !ok || counters != lastCounters {
			stableSince = time.Time{}
			if reason != "" {
				why = reason
			} else {
				why = "scheduler counters moved"
			}
		} else if stableSince.IsZero() {
			stableSince = now
		}
		lastCounters = counters
		if ok && !stableSince.IsZero() && now.Sub(stableSince) >= opts.Window && o.SinceLastChange() >= opts.Window {
			return QuietReport{Elapsed: now.Sub(start), Attempts: lastAttempts - firstAttempts}, nil
		}
		if now.After(deadline) {
			return QuietReport{Elapsed: now.Sub(start)}, fmt.Errorf("not quiet after %s: %s", opts.Timeout, why)
		}
		select {
		case <-ctx.Done():
			return QuietReport{}, ctx.Err()
		case <-tick.C:
		}
	}
}

// quietNow evaluates parts 1, 2 and 4 once and returns the counters of part 3 as a string.
func (o *Observer) quietNow(ctx context.Context, opts QuietOptions) (bool, string, float64, string) {
	if t := o.TerminatingPods(); len(t) > 0 {
		return false, "", 0, "pods terminating: " + strings.Join(t, ", ")
	}
	if missing := o.jobsMissingPods(opts.Jobs); len(missing) > 0 {
		return false, "", 0, "Jobs without all their pods: " + strings.Join(missing, ", ")
	}
	if opts.Scraper == nil {
		return true, "-", 0, ""
	}
	s, err := opts.Scraper.Scrape(ctx)
	if err != nil {
		return false, "", 0, "scheduler metrics: " + err.Error()
	}
	for _, q := range []string{"active", "backoff", "pending"} {
		if n := s.Queue(q); n > 0 {
			return false, "", 0, fmt.Sprintf("%d pods in the scheduler's %s queue", n, q)
		}
	}
	if n := s.Sum("scheduler_inflight_events", `event="PodPopped"`); n > 0 {
		return false, "", 0, fmt.Sprintf("%v pods in a scheduling cycle", n)
	}
	if n := s.Sum("scheduler_goroutines", `operation="binding"`); n > 0 {
		return false, "", 0, fmt.Sprintf("%v binding cycles running", n)
	}
	if n := s.Sum("scheduler_pending_async_api_calls"); n > 0 {
		return false, "", 0, fmt.Sprintf("%v asynchronous API calls pending", n)
	}
	attempts := s.Sum("scheduler_schedule_attempts_total") + s.Sum("scheduler_podgroup_schedule_attempts_total")
	counters := fmt.Sprintf("%v/%v/%v", attempts, s.Sum("scheduler_preemption_attempts_total"),
		s.Sum("scheduler_preemption_goroutines_execution_total"))
	return true, counters, attempts, ""
}

// jobsMissingPods lists Jobs whose controller has not created their pods yet.
func (o *Observer) jobsMissingPods(jobs map[string]int) []string {
	if len(jobs) == 0 {
		return nil
	}
	uids := map[string]string{}
	for _, j := range o.Jobs() {
		uids[j.GetNamespace()+"/"+j.GetName()] = string(j.GetUID())
	}
	var missing []string
	for key, want := range jobs {
		if want == 0 || o.JobWarned(key) {
			continue
		}
		if o.PodsOwnedBy(uids[key]) < want {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	return missing
}

// WaitControllers waits (before the scheduler is released) until the controllers have created
// what the run's pods need: every Job its pods, and every pod and PodGroup naming a
// ResourceClaimTemplate its claim (status.resourceClaimStatuses filled by the resourceclaim
// controller). Ends with an error naming what is missing at the timeout.
func (o *Observer) WaitControllers(ctx context.Context, jobs map[string]int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(CheckPeriod)
	defer tick.Stop()
	for {
		missing := o.jobsMissingPods(jobs)
		missing = append(missing, o.claimsMissing()...)
		if len(missing) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("controllers did not create everything within %s: %s", timeout, strings.Join(missing, ", "))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// claimsMissing lists pods and PodGroups with a template-based claim whose generated claim is
// not recorded in their status yet.
func (o *Observer) claimsMissing() []string {
	var out []string
	check := func(kind string, u *unstructured.Unstructured) {
		claims, _, _ := unstructured.NestedSlice(u.Object, "spec", "resourceClaims")
		statuses, _, _ := unstructured.NestedSlice(u.Object, "status", "resourceClaimStatuses")
		have := map[string]bool{}
		for _, s := range statuses {
			if m, ok := s.(map[string]interface{}); ok {
				if n, _ := m["name"].(string); n != "" {
					have[n] = true
				}
			}
		}
		for _, ci := range claims {
			m, _ := ci.(map[string]interface{})
			if t, _ := m["resourceClaimTemplateName"].(string); t == "" {
				continue
			}
			if n, _ := m["name"].(string); !have[n] {
				out = append(out, kind+" "+u.GetNamespace()+"/"+u.GetName()+" claim "+n)
			}
		}
	}
	for _, p := range o.Pods() {
		if n, _, _ := unstructured.NestedString(p.Object, "spec", "nodeName"); n == "" {
			check("Pod", p)
		}
	}
	for _, g := range o.PodGroups() {
		check("PodGroup", g)
	}
	return out
}
