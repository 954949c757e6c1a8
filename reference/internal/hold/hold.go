// Package hold keeps kube-scheduler from scheduling while a run's objects are created, so that
// every pod of the run is in the scheduling queue before the first scheduling cycle — as in
// wasched, which sees the whole input at once — and priority ties are broken by creation order
// (kube-scheduler's PrioritySort compares the time a pod or pod group entered the queue;
// package apply creates pending pods in wasched's order).
//
// How: kube-scheduler runs with leader election (lease kube-system/kube-scheduler) under a
// supervisor that restarts it when it exits (scripts/reference.sh). Hold takes the lease for
// this tool and stops the leading scheduler: SIGKILL to the pid the supervisor records (not
// SIGTERM: a terminating scheduler releases the lease it still believes it holds — client-go
// tryRelease reads the lease again and overwrites it — which would end the hold at once; there is
// nothing in flight between runs), or, without that file, it waits until the leader fails to
// renew and exits (a scheduler that lost its lease stops,
// cmd/kube-scheduler/app/server.go OnStoppedLeading). Its successor starts as a candidate: it
// lists and watches like a leader — its informers feed the scheduling queue
// (addAllEventHandlers) — but does not run scheduling cycles (sched.Run waits for the lease).
// Release checks, on the candidate's /metrics, that the queue holds every pending pod of the
// run and that the cache holds every node, then empties the lease's holder: the candidate
// acquires it within its retry period and starts scheduling a complete queue.
//
// Facts used: client-go tools/leaderelection tryAcquireOrRenew (an empty holderIdentity may be
// taken at once; a valid foreign lease is waited for), component-base's
// leader_election_master_status gauge, the process collector's process_start_time_seconds.
package hold

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/schedmetrics"
)

// Identity is the lease holder this tool writes while it holds the scheduler.
const Identity = "wasched-reference-hold"

// LeaseNamespace / LeaseName: kube-scheduler's default leader-election lock.
const (
	LeaseNamespace = "kube-system"
	LeaseName      = "kube-scheduler"
)

// Gate holds and releases the scheduler. Not safe for concurrent use.
type Gate struct {
	c       *kube.Client
	scraper *schedmetrics.Scraper
	Timeout time.Duration // for each wait; 90 s by default
	// ChildPidFile: where the supervisor writes the running kube-scheduler's pid
	// ($WASCHED_REFERENCE_SCHEDULER_PIDFILE); "" waits for the lost lease to end it instead.
	ChildPidFile string
}

// New returns a gate for the scheduler whose /metrics `scraper` reads.
func New(c *kube.Client, scraper *schedmetrics.Scraper) *Gate {
	return &Gate{c: c, scraper: scraper, Timeout: 90 * time.Second}
}

// Hold takes the lease and waits until a scheduler started after this call is running as a
// non-leading candidate (its /metrics answer, without leader_election_master_status 1). Errors name
// what did not happen by the deadline (e.g. kube-scheduler not run with leader election, or no
// supervisor restarting it).
func (g *Gate) Hold(ctx context.Context) error {
	// The running scheduler's start time, to recognise its successor (process_start_time_seconds
	// is derived from the boot time in whole seconds: compare with the old value, not the clock).
	oldStart := -1.0
	if s, err := g.scraper.Scrape(ctx); err == nil {
		oldStart = s.Get("process_start_time_seconds", "")
	}
	if err := g.writeHolder(ctx, Identity, 3600); err != nil {
		return fmt.Errorf("taking the scheduler lease: %w", err)
	}
	if g.ChildPidFile != "" {
		if err := stopScheduler(g.ChildPidFile); err != nil {
			return err
		}
	}
	return g.waitMetrics(ctx, "a new kube-scheduler waiting for the lease", func(s schedmetrics.Sample) bool {
		// A candidate does not export leader_election_master_status until it first leads.
		started := s.Get("process_start_time_seconds", "")
		leading := s.Sum("leader_election_master_status", `name="kube-scheduler"`)
		return started != oldStart && leading == 0
	})
}

// Release waits until the held scheduler's queue has `pendingPods` pods in all and its cache
// `nodes` nodes, then frees the lease and waits until the scheduler leads.
func (g *Gate) Release(ctx context.Context, pendingPods, nodes int) error {
	err := g.waitMetrics(ctx, fmt.Sprintf("the scheduling queue holding all %d pending pods and the cache all %d nodes", pendingPods, nodes),
		func(s schedmetrics.Sample) bool {
			return queued(s) >= pendingPods && int(s.Sum("scheduler_cache_size", `type="nodes"`)) >= nodes
		})
	if err != nil {
		return err
	}
	if err := g.writeHolder(ctx, "", 1); err != nil {
		return fmt.Errorf("freeing the scheduler lease: %w", err)
	}
	return g.waitMetrics(ctx, "kube-scheduler taking the lease", func(s schedmetrics.Sample) bool {
		return s.Sum("leader_election_master_status", `name="kube-scheduler"`) == 1
	})
}

// stopScheduler sends SIGKILL to the kube-scheduler whose pid is in file (checked against
// /proc/PID/cmdline, so a reused pid is never signalled).
func stopScheduler(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("the running kube-scheduler's pid: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 1 {
		return fmt.Errorf("%s: not a pid: %q", file, data)
	}
	cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !strings.Contains(string(cmd), "kube-scheduler") {
		return nil // already gone: the supervisor starts the next one
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return fmt.Errorf("stopping kube-scheduler (pid %d): %w", pid, err)
	}
	return nil
}

// Abort frees the lease without waiting (after a failed run), so the scheduler resumes.
func (g *Gate) Abort(ctx context.Context) {
	_ = g.writeHolder(ctx, "", 1)
}

func (g *Gate) writeHolder(ctx context.Context, holder string, seconds int32) error {
	leases := g.c.Core.CoordinationV1().Leases(LeaseNamespace)
	for attempt := 0; attempt < 20; attempt++ {
		now := metav1.NewMicroTime(time.Now())
		l, err := leases.Get(ctx, LeaseName, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			l = &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: LeaseName, Namespace: LeaseNamespace}}
			l.Spec = coordinationv1.LeaseSpec{HolderIdentity: ptr.To(holder), LeaseDurationSeconds: ptr.To(seconds), AcquireTime: &now, RenewTime: &now}
			if _, err = leases.Create(ctx, l, metav1.CreateOptions{}); err == nil || !apierrors.IsAlreadyExists(err) {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		l.Spec.HolderIdentity = ptr.To(holder)
		l.Spec.LeaseDurationSeconds = ptr.To(seconds)
		l.Spec.AcquireTime = &now
		l.Spec.RenewTime = &now
		if l.Spec.LeaseTransitions != nil {
			l.Spec.LeaseTransitions = ptr.To(*l.Spec.LeaseTransitions + 1)
		}
		_, err = leases.Update(ctx, l, metav1.UpdateOptions{})
		if err == nil || !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("lease %s/%s kept changing", LeaseNamespace, LeaseName)
}

// waitMetrics scrapes every 50 ms until cond holds or the gate's timeout passes; a scrape that
// fails (the scheduler restarting) counts as "not yet".
func (g *Gate) waitMetrics(ctx context.Context, what string, cond func(schedmetrics.Sample) bool) error {
	deadline := time.Now().Add(g.Timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	lastErr := "no scrape yet"
	for {
		s, err := g.scraper.Scrape(ctx)
		if err == nil && cond(s) {
			return nil
		}
		if err != nil {
			lastErr = err.Error()
		} else {
			lastErr = fmt.Sprintf("condition not met: process_start_time_seconds %.2f, leading %v, queued %d, cached nodes %v",
				s.Get("process_start_time_seconds", ""),
				s.Sum("leader_election_master_status", `name="kube-scheduler"`), queued(s),
				s.Sum("scheduler_cache_size", `type="nodes"`))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: not within %s (%s)", what, g.Timeout, lastErr)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// queued: the pods in every queue of the scheduler.
func queued(s schedmetrics.Sample) int {
	n := 0
	for _, q := range []string{"active", "backoff", "unschedulable", "gated", "incomplete", "pending"} {
		n += s.Queue(q)
	}
	return n
}
