// Package run drives one `schedule` run against the reference control plane: clean the scope,
// watch, hold the scheduler, create the objects, let the controllers create theirs, release the
// scheduler, wait until everything is quiet, read the result, and (single mode) clean up.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wasched.io/reference/internal/apply"
	"wasched.io/reference/internal/hold"
	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/manifest"
	"wasched.io/reference/internal/observe"
	"wasched.io/reference/internal/result"
	"wasched.io/reference/internal/schedmetrics"
)

// Options configures Schedule.
type Options struct {
	Client  *kube.Client
	Scraper *schedmetrics.Scraper
	// Hold: hold kube-scheduler (package hold) while the objects are created. Without it the
	// scheduler works while objects arrive, and ties are broken by arrival. SchedulerPidFile: the
	// supervisor's record of the running kube-scheduler's pid (hold.Gate.ChildPidFile).
	Hold             bool
	SchedulerPidFile string
	// QuietTimeout bounds the wait for quiescence; ControllerTimeout the wait for the Job and
	// resourceclaim controllers before the scheduler is released.
	QuietTimeout      time.Duration
	ControllerTimeout time.Duration
	// Keep: leave the objects in the cluster after the run (debugging); default is to remove them.
	Keep bool
	// ForeignNodes: warn when the cluster holds Nodes the input does not (left by `--keep` or by
	// another tool): they take part in scheduling. Batch runs pin every pod and do not need it.
	ForeignNodes bool
	// Warn receives `warning: ...` lines.
	Warn io.Writer
}

// Timings of one run's phases.
type Timings struct {
	Reset, Hold, Apply, Controllers, Release, Quiet, Cleanup, Total time.Duration
}

// Outcome is one run's result and what the watch saw, before any renaming.
type Outcome struct {
	State   result.State
	Timings Timings
	// Refused: the lanes (batch cases) whose input the API server refused; their objects were
	// removed before the scheduler was released and the run went on without them.
	Refused apply.LaneErrors
}

// Schedule runs objs through the control plane and returns the final state. An input the API
// server refuses is an *apply.InputError (everything created is removed again first).
func Schedule(ctx context.Context, opts Options, objs []manifest.Object) (*Outcome, error) {
	c := opts.Client
	t0 := time.Now()
	var tm Timings
	sorted := apply.Sort(objs)
	namespaces, err := apply.Namespaces(c, sorted)
	if err != nil {
		return nil, err
	}
	cluster, err := clusterScoped(c, sorted)
	if err != nil {
		return nil, err
	}
	// Leftovers of an interrupted earlier run with the same names.
	if err := apply.Reset(ctx, c, namespaces, cluster, 2*time.Minute); err != nil {
		return nil, fmt.Errorf("cleaning before the run: %w", err)
	}
	tm.Reset = time.Since(t0)
	if opts.ForeignNodes {
		warnForeignNodes(ctx, c, sorted, opts.Warn)
	}

	obsCtx, stopObs := context.WithCancel(ctx)
	defer stopObs()
	obs, err := observe.Start(obsCtx, c, namespaces)
	if err != nil {
		return nil, err
	}
	var gate *hold.Gate
	if opts.Hold {
		t := time.Now()
		gate = hold.New(c, opts.Scraper)
		gate.ChildPidFile = opts.SchedulerPidFile
		if err := gate.Hold(ctx); err != nil {
			gate.Abort(context.Background())
			return nil, err
		}
		tm.Hold = time.Since(t)
	}
	cleanup := func(rec *apply.Record) error {
		if opts.Keep {
			return nil
		}
		t := time.Now()
		err := apply.Cleanup(context.Background(), c, namespaces, rec.Cluster, 2*time.Minute)
		tm.Cleanup = time.Since(t)
		return err
	}

	t := time.Now()
	rec, err := apply.Apply(ctx, c, sorted)
	tm.Apply = time.Since(t)
	var refused apply.LaneErrors
	if errors.As(err, &refused) {
		// Several lanes, some refused: remove those while the scheduler is still held.
		for l := range refused {
			if cerr := apply.Cleanup(ctx, c, rec.LaneNamespaces[l], rec.LaneCluster[l], 2*time.Minute); cerr != nil {
				err = fmt.Errorf("removing a refused case: %w", cerr)
				break
			}
		}
		if errors.As(err, &refused) {
			err = nil
		}
	}
	if err != nil {
		if gate != nil {
			gate.Abort(context.Background())
		}
		if cerr := cleanup(rec); cerr != nil {
			fmt.Fprintf(opts.Warn, "warning: cleaning up after the refused input: %v\n", cerr)
		}
		return nil, err
	}
	for _, s := range rec.Skipped {
		fmt.Fprintf(opts.Warn, "warning: %s: kind not read by wasched; not created\n", s)
	}
	for _, j := range rec.LateJobs {
		fmt.Fprintf(opts.Warn, "warning: Job %s; the objects after it were created before its pods\n", j)
	}

	t = time.Now()
	if err := obs.WaitControllers(ctx, rec.Jobs, opts.ControllerTimeout); err != nil {
		fmt.Fprintf(opts.Warn, "warning: %v\n", err)
	}
	tm.Controllers = time.Since(t)

	if gate != nil {
		t = time.Now()
		pending, err := schedulablePending(obs)
		if err == nil {
			var nodes int
			nodes, err = countNodes(ctx, c)
			if err == nil {
				err = gate.Release(ctx, pending, nodes)
			}
		}
		if err != nil {
			gate.Abort(context.Background())
			_ = cleanup(rec)
			return nil, err
		}
		tm.Release = time.Since(t)
	}

	t = time.Now()
	_, qerr := obs.WaitQuiet(ctx, observe.QuietOptions{Scraper: opts.Scraper, Jobs: rec.Jobs, Timeout: opts.QuietTimeout})
	if qerr != nil {
		fmt.Fprintf(opts.Warn, "warning: %v; reporting the state reached\n", qerr)
	}
	// A victim's Preempted event may trail its deletion: give it until a short deadline.
	waitUntil(ctx, 3*time.Second, func() bool { return obs.MissingPreemptors() == 0 })
	tm.Quiet = time.Since(t)

	out := &Outcome{State: state(obs, rec, objs), Refused: refused}
	if err := cleanup(rec); err != nil {
		return nil, fmt.Errorf("cleaning up after the run: %w", err)
	}
	tm.Total = time.Since(t0)
	out.Timings = tm
	return out, nil
}

// state reads the final objects and the watched evictions.
func state(obs *observe.Observer, rec *apply.Record, objs []manifest.Object) result.State {
	s := result.State{
		Pods: obs.Pods(), PodGroups: obs.PodGroups(), CompositePodGroups: obs.CompositePodGroups(),
		Workloads: obs.Workloads(), ResourceClaims: obs.ResourceClaims(), Jobs: obs.Jobs(),
		RunningAtStart: rec.RunningPods, ClaimsAllocatedAtStart: map[string]bool{},
	}
	for _, e := range obs.Evictions() {
		s.Evictions = append(s.Evictions, result.Eviction{Pod: e.Pod, Node: e.Node, Preemptor: e.Preemptor})
	}
	for _, o := range objs {
		if apply.Rank(o.Unstructured) == apply.RankResourceClaim {
			if _, ok, _ := unstructured.NestedMap(o.Object, "status", "allocation"); ok {
				ns := o.GetNamespace()
				if ns == "" {
					ns = "default"
				}
				s.ClaimsAllocatedAtStart[ns+"/"+o.GetName()] = true
			}
		}
	}
	return s
}

// clusterScoped lists the input's cluster-scoped objects (other than namespaces).
func clusterScoped(c *kube.Client, objs []manifest.Object) ([]apply.ClusterObject, error) {
	var out []apply.ClusterObject
	for _, o := range objs {
		r := apply.Rank(o.Unstructured)
		if r == apply.RankSkip || r == apply.RankNamespace {
			continue
		}
		m, err := c.Mapping(o.GroupVersionKind())
		if err != nil {
			return nil, &apply.InputError{Where: o.Where(), Err: err}
		}
		if m.Scope.Name() != "namespace" {
			out = append(out, apply.ClusterObject{GVR: m.Resource, Name: o.GetName()})
		}
	}
	return out, nil
}

// schedulablePending counts the run's pods without a node that kube-scheduler handles (its
// queue holds them: default scheduler name).
func schedulablePending(obs *observe.Observer) (int, error) {
	n := 0
	for _, p := range obs.Pods() {
		node, _, _ := unstructured.NestedString(p.Object, "spec", "nodeName")
		sched, _, _ := unstructured.NestedString(p.Object, "spec", "schedulerName")
		if node == "" && (sched == "" || sched == "default-scheduler") && p.GetDeletionTimestamp() == nil {
			n++
		}
	}
	return n, nil
}

func countNodes(ctx context.Context, c *kube.Client) (int, error) {
	list, err := c.Core.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	return len(list.Items), nil
}

// waitUntil checks cond every observe.CheckPeriod until it holds or the timeout passes.
func waitUntil(ctx context.Context, timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(observe.CheckPeriod)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return true
}

// warnForeignNodes names the cluster's Nodes that the input does not hold.
func warnForeignNodes(ctx context.Context, c *kube.Client, objs []manifest.Object, w io.Writer) {
	mine := map[string]bool{}
	for _, o := range objs {
		if apply.Rank(o.Unstructured) == apply.RankNode {
			mine[o.GetName()] = true
		}
	}
	list, err := c.Core.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	var foreign []string
	for _, n := range list.Items {
		if !mine[n.Name] {
			foreign = append(foreign, n.Name)
		}
	}
	if len(foreign) > 0 {
		fmt.Fprintf(w, "warning: the cluster holds %d Nodes the input does not (%s): they take part in scheduling\n",
			len(foreign), strings.Join(foreign, ", "))
	}
}
