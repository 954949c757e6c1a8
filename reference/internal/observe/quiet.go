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

// SettledWindow: how long the outcome must stay the same while the scheduler still retries
// pod groups from its backoff queue. kube-scheduler v1.37.2 keeps retrying some unschedulable
// pod-group trees from backoff indefinitely (each retry rewrites the pods' and groups' condition
// messages, which requeues them), so the strict rule below never holds for them; the outcome
// (who is bound where, who is pending with which reason, which conditions the groups carry,
// who was evicted) does not change. Observed on the reference control plane: such a tree is
// retried every 10–20 s (the announcement-no-fit scenario); the window is above that, so a retry
// that would change the outcome (a preemptor whose victims are gone) happens within it.
const SettledWindow = 25 * time.Second

// QuietOptions configures WaitQuiet.
type QuietOptions struct {
	// Scraper reads kube-scheduler's /metrics; nil waits on the watched objects alone.
	Scraper *schedmetrics.Scraper
	// Jobs: "ns/name" → pods its controller must have created (apply.ExpectedJobPods).
	Jobs    map[string]int
	Window  time.Duration // DefaultWindow when 0
	Settled time.Duration // SettledWindow when 0
	Timeout time.Duration
}

// QuietReport says how the wait ended.
type QuietReport struct {
	Elapsed time.Duration
	// Settled: ended by the settled rule (the scheduler was still retrying from backoff).
	Settled bool
}

// WaitQuiet waits until the scheduler and the controllers are done with the run. It is quiet
// when either rule holds.
//
// Strict rule — every part must hold, continuously, for Window:
//
//  1. the scheduling queue holds nothing to work on: scheduler_pending_pods for the active,
//     backoff and pending (pods waiting for their in-flight pod group) queues is 0 — pods left
//     in unschedulable, gated and incomplete wait for a cluster event that will not come;
//  2. nothing is in flight: scheduler_inflight_events{event="PodPopped"} is 0 (no pod between
//     pop and done), scheduler_goroutines{operation="binding"} is 0 (no binding cycle) and
//     scheduler_pending_async_api_calls is 0 (no queued status patch or preemption call);
//  3. the counters scheduler_schedule_attempts_total, scheduler_podgroup_schedule_attempts_total,
//     scheduler_preemption_attempts_total and scheduler_preemption_goroutines_execution_total do
//     not move;
//  4. no watched object of the run changes (pods, PodGroups, CompositePodGroups, Workloads,
//     ResourceClaims, Jobs, events), no pod is terminating (a preemption victim not yet gone),
//     and every Job has its pods (or a Warning event said its controller refused it).
//
// Settled rule — parts 1 and 2 hold at the moment of the check except that the backoff queue may
// hold entities, no pod is terminating, every Job has its pods, and the outcome (Outcome) has not
// changed for Settled.
//
// Each part is checked every CheckPeriod; the wait ends with an error at Timeout, naming the
// part that did not hold.
func (o *Observer) WaitQuiet(ctx context.Context, opts QuietOptions) (QuietReport, error) {
	if opts.Window == 0 {
		opts.Window = DefaultWindow
	}
	if opts.Settled == 0 {
		opts.Settled = SettledWindow
	}
	start := time.Now()
	deadline := start.Add(opts.Timeout)
	var strictSince, outcomeSince time.Time
	var lastCounters, lastOutcome string
	why := "not checked yet"
	tick := time.NewTicker(CheckPeriod)
	defer tick.Stop()
	for {
		now := time.Now()
		st := o.quietNow(ctx, opts)
		if outcome := o.Outcome(); outcome != lastOutcome || outcomeSince.IsZero() {
			lastOutcome, outcomeSince = outcome, now
		}
		// Strict rule.
		if st.reason == "" && st.backoff == 0 && st.counters == lastCounters {
			if strictSince.IsZero() {
				strictSince = now
			}
		} else {
			strictSince = time.Time{}
		}
		lastCounters = st.counters
		if !strictSince.IsZero() && now.Sub(strictSince) >= opts.Window && o.SinceLastChange() >= opts.Window {
			return QuietReport{Elapsed: now.Sub(start)}, nil
		}
		// Settled rule: the instant checks hold (backoff aside) and the outcome is old enough.
		if st.reason == "" && now.Sub(outcomeSince) >= opts.Settled {
			return QuietReport{Elapsed: now.Sub(start), Settled: true}, nil
		}
		switch {
		case st.reason != "":
			why = st.reason
		case st.backoff > 0:
			why = fmt.Sprintf("%d pods in the scheduler's backoff queue, and the outcome changed %.1fs ago", st.backoff, now.Sub(outcomeSince).Seconds())
		default:
			why = "scheduler counters or watched objects still moving"
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

type quietState struct {
	reason   string // why parts 1, 2 or 4 do not hold (backoff aside); "" when they hold
	backoff  int    // pods in the backoff queue
	counters string // part 3's counters
}

// quietNow evaluates parts 1, 2 and 4 once (the backoff queue reported apart) and returns the
// counters of part 3.
func (o *Observer) quietNow(ctx context.Context, opts QuietOptions) quietState {
	if t := o.TerminatingPods(); len(t) > 0 {
		return quietState{reason: "pods terminating: " + strings.Join(t, ", ")}
	}
	if missing := o.jobsMissingPods(opts.Jobs); len(missing) > 0 {
		return quietState{reason: "Jobs without all their pods: " + strings.Join(missing, ", ")}
	}
	if opts.Scraper == nil {
		return quietState{counters: "-"}
	}
	s, err := opts.Scraper.Scrape(ctx)
	if err != nil {
		return quietState{reason: "scheduler metrics: " + err.Error()}
	}
	for _, q := range []string{"active", "pending"} {
		if n := s.Queue(q); n > 0 {
			return quietState{reason: fmt.Sprintf("%d pods in the scheduler's %s queue", n, q)}
		}
	}
	if n := s.Sum("scheduler_inflight_events", `event="PodPopped"`); n > 0 {
		return quietState{reason: fmt.Sprintf("%v pods in a scheduling cycle", n)}
	}
	if n := s.Sum("scheduler_goroutines", `operation="binding"`); n > 0 {
		return quietState{reason: fmt.Sprintf("%v binding cycles running", n)}
	}
	if n := s.Sum("scheduler_pending_async_api_calls"); n > 0 {
		return quietState{reason: fmt.Sprintf("%v asynchronous API calls pending", n)}
	}
	attempts := s.Sum("scheduler_schedule_attempts_total") + s.Sum("scheduler_podgroup_schedule_attempts_total")
	return quietState{
		backoff: s.Queue("backoff"),
		counters: fmt.Sprintf("%v/%v/%v", attempts, s.Sum("scheduler_preemption_attempts_total"),
			s.Sum("scheduler_preemption_goroutines_execution_total")),
	}
}

// Outcome renders what the result reports, without messages: per pod its node, deletion and
// PodScheduled reason; per group its conditions' type, status and reason; the evictions.
func (o *Observer) Outcome() string {
	var b strings.Builder
	for _, p := range o.Pods() {
		node, _, _ := unstructured.NestedString(p.Object, "spec", "nodeName")
		reason := ""
		conds, _, _ := unstructured.NestedSlice(p.Object, "status", "conditions")
		for _, ci := range conds {
			if m, ok := ci.(map[string]interface{}); ok && m["type"] == "PodScheduled" {
				reason, _ = m["reason"].(string)
			}
		}
		fmt.Fprintf(&b, "pod %s/%s %s %v %s\n", p.GetNamespace(), p.GetName(), node, p.GetDeletionTimestamp() != nil, reason)
	}
	for _, list := range [][]*unstructured.Unstructured{o.PodGroups(), o.CompositePodGroups()} {
		for _, g := range list {
			fmt.Fprintf(&b, "group %s/%s", g.GetNamespace(), g.GetName())
			conds, _, _ := unstructured.NestedSlice(g.Object, "status", "conditions")
			for _, ci := range conds {
				if m, ok := ci.(map[string]interface{}); ok {
					fmt.Fprintf(&b, " %v=%v/%v", m["type"], m["status"], m["reason"])
				}
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "evictions %d\n", len(o.Evictions()))
	return b.String()
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
