package apply

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"wasched.io/reference/internal/kube"
	"wasched.io/reference/internal/manifest"
)

// ClusterObject names a cluster-scoped object a run created.
type ClusterObject struct {
	GVR  schema.GroupVersionResource
	Name string
}

// Record is what one Apply created: enough to build the result and to remove it all again.
type Record struct {
	// Namespaces: every namespace the run's objects live in, sorted.
	Namespaces []string
	// Cluster: the cluster-scoped objects created, in creation order.
	Cluster []ClusterObject
	// PendingPods / RunningPods: "ns/name" of the pods created without / with spec.nodeName.
	PendingPods map[string]bool
	RunningPods map[string]bool
	// Jobs: "ns/name" → the number of pods its controller is expected to create at once.
	Jobs map[string]int
	// LateJobs: "ns/name: reason" of the Jobs whose pods were not all created within
	// JobPodsTimeout (the next objects were created anyway, so those pods may enter the queue
	// after them).
	LateJobs []string
	// Skipped: objects of kinds wasched does not read (not created), as "file: document N: Kind ns/name".
	Skipped []string
	// LaneCluster / LaneNamespaces: per lane (batch case) what it created and the namespaces its
	// objects live in; set when Apply ran several lanes.
	LaneCluster    map[int][]ClusterObject
	LaneNamespaces map[int][]string
}

// InputError is a rejection by the API server of an input object: invalid input (exit 1).
type InputError struct {
	Where string // "file: document N: Kind ns/name"
	Err   error
}

func (e *InputError) Error() string { return e.Where + ": " + DescribeAPIError(e.Err) }

// DescribeAPIError renders an API error with its field causes ("field: message; ...").
func DescribeAPIError(err error) string {
	var st apierrors.APIStatus
	if s, ok := err.(apierrors.APIStatus); ok {
		st = s
	}
	if st == nil {
		return err.Error()
	}
	status := st.Status()
	if status.Details != nil && len(status.Details.Causes) > 0 {
		parts := make([]string, 0, len(status.Details.Causes))
		for _, c := range status.Details.Causes {
			if c.Field != "" {
				parts = append(parts, c.Field+": "+c.Message)
			} else {
				parts = append(parts, c.Message)
			}
		}
		return strings.Join(parts, "; ")
	}
	return status.Message
}

// ProtectedNamespace: namespaces that exist in every cluster and are never deleted; a run's
// objects in them are deleted one by one instead.
func ProtectedNamespace(ns string) bool {
	switch ns {
	case "default", "kube-system", "kube-public", "kube-node-lease":
		return true
	}
	return false
}

// Namespaces lists the namespaces a set of objects needs (namespaced kinds without a namespace
// go to "default"), sorted.
func Namespaces(c *kube.Client, objs []manifest.Object) ([]string, error) {
	set := map[string]bool{}
	for _, o := range objs {
		r := Rank(o.Unstructured)
		if r == RankSkip {
			continue
		}
		if r == RankNamespace {
			set[o.GetName()] = true
			continue
		}
		namespaced, err := c.Namespaced(o.GroupVersionKind())
		if err != nil {
			return nil, &InputError{Where: o.Where(), Err: err}
		}
		if namespaced {
			set[nsOf(o.Unstructured)] = true
		}
	}
	out := make([]string, 0, len(set))
	for ns := range set {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out, nil
}

// LaneErrors: the lanes (batch cases) whose input the API server refused, with the first
// refusal of each. The other lanes were created completely.
type LaneErrors map[int]*InputError

func (e LaneErrors) Error() string {
	lanes := make([]int, 0, len(e))
	for l := range e {
		lanes = append(lanes, l)
	}
	sort.Ints(lanes)
	parts := make([]string, 0, len(lanes))
	for _, l := range lanes {
		parts = append(parts, e[l].Error())
	}
	return strings.Join(parts, "; ")
}

// Apply creates objs (already in Sort order) and writes their status where a kubelet or the
// input would have (see writeStatus). Objects of different lanes (manifest.Object.Lane: the cases
// of a batch) are created concurrently, 8 lanes at a time, each lane in its own order. A lane
// stops at its first rejection. With a single lane that rejection is returned as *InputError;
// with several, the refused lanes are returned as LaneErrors and the record's LaneCluster and
// LaneNamespaces say what each lane created, for its removal. The caller removes what was created
// (Reset / Cleanup with the returned record).
func Apply(ctx context.Context, c *kube.Client, objs []manifest.Object) (*Record, error) {
	var lanes []int
	byLane := map[int][]manifest.Object{}
	for _, o := range objs {
		if _, ok := byLane[o.Lane]; !ok {
			lanes = append(lanes, o.Lane)
		}
		byLane[o.Lane] = append(byLane[o.Lane], o)
	}
	start := metav1.Now().UTC().Format(time.RFC3339)
	if len(lanes) <= 1 {
		return applyLane(ctx, c, objs, start)
	}
	recs := make([]*Record, len(lanes))
	errs := make([]error, len(lanes))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, l := range lanes {
		wg.Add(1)
		sem <- struct{}{}
		go func(i, l int) {
			defer wg.Done()
			defer func() { <-sem }()
			recs[i], errs[i] = applyLane(ctx, c, byLane[l], start)
		}(i, l)
	}
	wg.Wait()
	merged := &Record{PendingPods: map[string]bool{}, RunningPods: map[string]bool{}, Jobs: map[string]int{},
		LaneCluster: map[int][]ClusterObject{}, LaneNamespaces: map[int][]string{}}
	failed := LaneErrors{}
	nsSet := map[string]bool{}
	for i, l := range lanes {
		r := recs[i]
		merged.LaneCluster[l] = r.Cluster
		merged.LaneNamespaces[l] = r.Namespaces
		if errs[i] != nil {
			var ie *InputError
			if !errors.As(errs[i], &ie) {
				return merged, errs[i]
			}
			failed[l] = ie
			continue
		}
		merged.Cluster = append(merged.Cluster, r.Cluster...)
		for _, ns := range r.Namespaces {
			nsSet[ns] = true
		}
		for k := range r.PendingPods {
			merged.PendingPods[k] = true
		}
		for k := range r.RunningPods {
			merged.RunningPods[k] = true
		}
		for k, v := range r.Jobs {
			merged.Jobs[k] = v
		}
		merged.LateJobs = append(merged.LateJobs, r.LateJobs...)
		merged.Skipped = append(merged.Skipped, r.Skipped...)
	}
	for ns := range nsSet {
		merged.Namespaces = append(merged.Namespaces, ns)
	}
	sort.Strings(merged.Namespaces)
	if len(failed) > 0 {
		return merged, failed
	}
	return merged, nil
}

// applyLane creates one lane's objects in order (see Apply); start is the startTime of running
// pods that have neither a startTime nor a creationTimestamp (writeStatus).
func applyLane(ctx context.Context, c *kube.Client, objs []manifest.Object, start string) (*Record, error) {
	rec := &Record{PendingPods: map[string]bool{}, RunningPods: map[string]bool{}, Jobs: map[string]int{}}
	nss, err := Namespaces(c, objs)
	if err != nil {
		return rec, err
	}
	rec.Namespaces = nss
	explicit := map[string]bool{}
	for _, o := range objs {
		if Rank(o.Unstructured) == RankNamespace {
			explicit[o.GetName()] = true
		}
	}
	for _, ns := range nss {
		if explicit[ns] || ProtectedNamespace(ns) {
			continue
		}
		nsObj := &unstructured.Unstructured{}
		nsObj.SetAPIVersion("v1")
		nsObj.SetKind("Namespace")
		nsObj.SetName(ns)
		if err := createNamespace(ctx, c, nsObj); err != nil {
			return rec, &InputError{Where: "Namespace " + ns, Err: err}
		}
	}
	for _, o := range objs {
		r := Rank(o.Unstructured)
		if r == RankSkip {
			rec.Skipped = append(rec.Skipped, o.Where())
			continue
		}
		u := prepareForCreate(o.Unstructured)
		if r == RankNode {
			u.Object["status"] = NodeStatus(o.Unstructured) // kept on create: no second write
		}
		if r == RankNamespace {
			if err := createNamespace(ctx, c, u); err != nil {
				return rec, &InputError{Where: o.Where(), Err: err}
			}
			continue
		}
		ri, m, err := c.ResourceFor(u)
		if err != nil {
			return rec, &InputError{Where: o.Where(), Err: err}
		}
		created, err := createAdmitted(ctx, ri, u)
		if err != nil {
			return rec, &InputError{Where: o.Where(), Err: err}
		}
		if created.GetNamespace() == "" {
			rec.Cluster = append(rec.Cluster, ClusterObject{GVR: m.Resource, Name: created.GetName()})
		}
		key := created.GetNamespace() + "/" + created.GetName()
		switch r {
		case RankPendingPod:
			rec.PendingPods[key] = true
		case RankRunningPod:
			rec.RunningPods[key] = true
		case RankJob:
			rec.Jobs[key] = ExpectedJobPods(created)
		}
		if err := writeStatus(ctx, c, r, o.Unstructured, created, start); err != nil {
			return rec, &InputError{Where: o.Where() + ": status", Err: err}
		}
		if r == RankJob && rec.Jobs[key] > 0 {
			// The Job's pods take its place in the queue (package comment): wait for them.
			if err := WaitJobPods(ctx, c, created, rec.Jobs[key], JobPodsTimeout); err != nil {
				if ctx.Err() != nil {
					return rec, ctx.Err()
				}
				rec.LateJobs = append(rec.LateJobs, key+": "+err.Error())
			}
		}
	}
	return rec, nil
}

// JobPodsTimeout bounds applyLane's wait, after creating a Job, for the pods its controller
// creates at once (WaitJobPods).
var JobPodsTimeout = 30 * time.Second

// WaitJobPods waits until `want` live pods carry the label batch.kubernetes.io/controller-uid of
// job (the Job controller sets it on every pod it creates, after the Job's Workload and
// PodGroup), watching from a list of them; an error names how many there were at the timeout.
// A watch the server ends is resumed from the last resourceVersion seen (listed again when that
// is too old).
func WaitJobPods(ctx context.Context, c *kube.Client, job *unstructured.Unstructured, want int, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	pods := c.Core.CoreV1().Pods(job.GetNamespace())
	sel := metav1.ListOptions{LabelSelector: "batch.kubernetes.io/controller-uid=" + string(job.GetUID())}
	live := map[string]bool{}
	rv := ""
	for {
		if rv == "" {
			list, err := pods.List(ctx, sel)
			if err != nil {
				return waitErr(ctx, err, len(live), want)
			}
			clear(live)
			for i := range list.Items {
				if list.Items[i].DeletionTimestamp == nil {
					live[list.Items[i].Name] = true
				}
			}
			rv = list.ResourceVersion
		}
		if len(live) >= want {
			return nil
		}
		opts := sel
		opts.ResourceVersion = rv
		opts.AllowWatchBookmarks = true
		w, err := pods.Watch(ctx, opts)
		if err != nil {
			return waitErr(ctx, err, len(live), want)
		}
		rv, err = countWatched(ctx, w, live, want, rv)
		w.Stop()
		if err != nil {
			return waitErr(ctx, err, len(live), want)
		}
		if len(live) >= want {
			return nil
		}
	}
}

// countWatched applies a watch's pod events to live until it holds want pods, the watch ends,
// or ctx ends; it returns the resourceVersion to resume from ("" to list again).
func countWatched(ctx context.Context, w watch.Interface, live map[string]bool, want int, rv string) (string, error) {
	for len(live) < want {
		select {
		case <-ctx.Done():
			return rv, ctx.Err()
		case ev, ok := <-w.ResultChan():
			if !ok {
				return rv, nil
			}
			switch ev.Type {
			case watch.Error:
				return "", nil // e.g. 410 Gone: list again
			case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
				p, isPod := ev.Object.(*corev1.Pod)
				if !isPod {
					continue
				}
				rv = p.ResourceVersion
				if ev.Type == watch.Bookmark {
					continue
				}
				live[p.Name] = ev.Type != watch.Deleted && p.DeletionTimestamp == nil
				if !live[p.Name] {
					delete(live, p.Name)
				}
			}
		}
	}
	return rv, nil
}

func waitErr(ctx context.Context, err error, have, want int) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%d of %d pods created by the Job controller: %w", have, want, ctx.Err())
	}
	return err
}

// EnsureNamespace makes sure namespace ns exists and is not terminating (waiting out one of the
// same name that an earlier run deleted). It reports whether it created it.
func EnsureNamespace(ctx context.Context, c *kube.Client, ns string) (bool, error) {
	cur, err := c.Core.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if err == nil && cur.DeletionTimestamp == nil {
		return false, nil
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return false, err
	}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("Namespace")
	u.SetName(ns)
	return true, createNamespace(ctx, c, u)
}

// NodeStatus is the status a kubelet would report for the input Node: its status, with
// allocatable = capacity when only capacity is given, `pods: 110` (kubelet's default maxPods)
// when absent, and a Ready condition when none is given.
func NodeStatus(in *unstructured.Unstructured) map[string]interface{} {
	status, _, _ := unstructured.NestedMap(in.Object, "status")
	now := metav1.Now().UTC().Format(time.RFC3339)
	if status == nil {
		status = map[string]interface{}{}
	}
	capacity, _, _ := unstructured.NestedMap(status, "capacity")
	alloc, hasAlloc, _ := unstructured.NestedMap(status, "allocatable")
	if !hasAlloc && capacity != nil {
		alloc = capacity
	}
	if alloc == nil {
		alloc = map[string]interface{}{}
	}
	if _, ok := alloc["pods"]; !ok {
		alloc["pods"] = "110"
	}
	if capacity == nil {
		capacity = alloc
	}
	if _, ok := capacity["pods"]; !ok {
		capacity["pods"] = alloc["pods"]
	}
	status["allocatable"] = alloc
	status["capacity"] = capacity
	conds, _, _ := unstructured.NestedSlice(status, "conditions")
	if !hasReady(status) {
		conds = append(conds, map[string]interface{}{
			"type": "Ready", "status": "True", "reason": "KubeletReady",
			"message":           "wasched-reference: no kubelet; the node is reported Ready",
			"lastHeartbeatTime": now, "lastTransitionTime": now,
		})
	}
	status["conditions"] = conds
	return status
}

func hasReady(status map[string]interface{}) bool {
	conds, _, _ := unstructured.NestedSlice(status, "conditions")
	for _, ci := range conds {
		if m, ok := ci.(map[string]interface{}); ok && m["type"] == "Ready" {
			return true
		}
	}
	return false
}

// createAdmitted creates u. The API server's Priority admission plugin resolves
// priorityClassName from an informer cache, so an object created right after its PriorityClass
// can be refused ("no PriorityClass with name … was found") although the class exists; such a
// refusal is retried until the class is in the cache or 30 s have passed (seen under load in the
// differential: a PodGroup refused 0.1 s after its PriorityClass was created). Every other error
// is returned at once.
func createAdmitted(ctx context.Context, ri dynamic.ResourceInterface, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		created, err := ri.Create(ctx, u, metav1.CreateOptions{FieldManager: "wasched-reference"})
		if err == nil || !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "no PriorityClass with name") ||
			time.Now().After(deadline) {
			return created, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// createNamespace creates a namespace, waiting out a namespace of the same name that is still
// terminating from an earlier run; one that already exists is reused.
func createNamespace(ctx context.Context, c *kube.Client, u *unstructured.Unstructured) error {
	ri := c.Dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"})
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := ri.Create(ctx, u, metav1.CreateOptions{FieldManager: "wasched-reference"})
		if err == nil || apierrors.IsAlreadyExists(err) {
			existing, gerr := ri.Get(ctx, u.GetName(), metav1.GetOptions{})
			if gerr != nil {
				return gerr
			}
			if existing.GetDeletionTimestamp() == nil {
				return nil
			}
			err = fmt.Errorf("namespace %s is still terminating", u.GetName())
		}
		if time.Now().After(deadline) {
			return err
		}
		if werr := WaitGone(ctx, ri, []string{u.GetName()}, time.Until(deadline)); werr != nil {
			return werr
		}
	}
}

// prepareForCreate: a copy without the fields a create must not carry (resourceVersion,
// managedFields, selfLink) and without status (written through /status afterwards).
func prepareForCreate(in *unstructured.Unstructured) *unstructured.Unstructured {
	u := in.DeepCopy()
	unstructured.RemoveNestedField(u.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(u.Object, "metadata", "selfLink")
	unstructured.RemoveNestedField(u.Object, "metadata", "deletionTimestamp")
	unstructured.RemoveNestedField(u.Object, "status")
	return u
}

// ExpectedJobPods: how many pods the Job controller creates at once for a new Job:
// min(parallelism (default 1), completions when set); 0 when suspended.
func ExpectedJobPods(job *unstructured.Unstructured) int {
	if s, _, _ := unstructured.NestedBool(job.Object, "spec", "suspend"); s {
		return 0
	}
	par := int64(1)
	if p, ok := nestedInt(job.Object, "spec", "parallelism"); ok {
		par = p
	}
	if comp, ok := nestedInt(job.Object, "spec", "completions"); ok && comp < par {
		par = comp
	}
	return int(par)
}

// nestedInt reads an integer field decoded either from the API (int64) or from YAML/JSON
// input (float64).
func nestedInt(obj map[string]interface{}, path ...string) (int64, bool) {
	v, ok, _ := unstructured.NestedFieldNoCopy(obj, path...)
	if !ok {
		return 0, false
	}
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case float64:
		return int64(n), true
	}
	return 0, false
}

// RunningPodStatus is the status written for an input pod with spec.nodeName: the input's status,
// with phase Running and PodScheduled, Initialized, ContainersReady and Ready True (at `now`)
// unless it gives a phase (e.g. Succeeded), and startTime from the input's status, else its
// creationTimestamp, else `start`: one time for every such pod of the Apply call. kube-scheduler
// orders preemption victims of equal priority by status.startTime (pkg/scheduler/util
// MoreImportantPod, framework/preemption MoreImportantVictim); wasched reads the input's
// startTime, takes a bound pod's creationTimestamp when it has none (the same start as here), and
// counts every pod with neither as started at one "now", so they tie. A start per pod (the time
// its status is written, in seconds) would make them tie or not depending on whether the Apply
// crossed a second boundary between two pods (seen as run-to-run changes of the victims in the
// 500-case differential, e.g. random.r1-0088). Times are RFC 3339 strings.
func RunningPodStatus(in *unstructured.Unstructured, start, now string) map[string]interface{} {
	status, _, _ := unstructured.NestedMap(in.Object, "status")
	if status == nil {
		status = map[string]interface{}{}
	}
	if _, ok := status["phase"]; !ok {
		status["phase"] = "Running"
		var conds []interface{}
		for _, t := range []string{"PodScheduled", "Initialized", "ContainersReady", "Ready"} {
			conds = append(conds, map[string]interface{}{"type": t, "status": "True", "lastTransitionTime": now})
		}
		status["conditions"] = conds
	}
	if _, ok := status["startTime"]; !ok {
		if ts, _, _ := unstructured.NestedString(in.Object, "metadata", "creationTimestamp"); ts != "" {
			status["startTime"] = ts
		} else {
			status["startTime"] = start
		}
	}
	return status
}

// writeStatus writes through the status subresource what the input says, or what a kubelet
// would have reported:
//   - Node: the input status, plus what a kubelet always reports: allocatable = capacity when
//     only capacity is given, `pods: 110` (kubelet's default maxPods) when absent, and a Ready
//     condition when none is given (there is no kubelet; the lifecycle stand-in keeps it Ready).
//   - Pod with spec.nodeName ("already running"): RunningPodStatus.
//   - any other object whose input carries a status (a PodGroup's conditions, an allocated
//     ResourceClaim): that status; conditions without lastTransitionTime get the current time.
//
// Pending pods' input status is not written: the scheduler owns it.
func writeStatus(ctx context.Context, c *kube.Client, rank int, in, created *unstructured.Unstructured, start string) error {
	status, hasStatus, _ := unstructured.NestedMap(in.Object, "status")
	now := metav1.Now().UTC().Format(time.RFC3339)
	switch rank {
	case RankNode:
		status = NodeStatus(in)
		// The API server keeps a Node's status on create (applyLane sends it): nothing to write
		// when it did.
		if got, ok, _ := unstructured.NestedMap(created.Object, "status"); ok && reflect.DeepEqual(got["allocatable"], status["allocatable"]) && hasReady(got) {
			return nil
		}
	case RankRunningPod:
		status = RunningPodStatus(in, start, now)
	case RankPendingPod:
		return nil
	default:
		if !hasStatus || len(status) == 0 {
			return nil
		}
		if conds, ok, _ := unstructured.NestedSlice(status, "conditions"); ok {
			for _, ci := range conds {
				if m, ok := ci.(map[string]interface{}); ok {
					if _, has := m["lastTransitionTime"]; !has {
						m["lastTransitionTime"] = now
					}
				}
			}
			status["conditions"] = conds
		}
	}
	ri, _, err := c.ResourceFor(created)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		obj := created.DeepCopy()
		obj.Object["status"] = status
		_, err = ri.UpdateStatus(ctx, obj, metav1.UpdateOptions{FieldManager: "wasched-reference"})
		if err == nil || attempt >= 5 {
			return err
		}
		if !apierrors.IsConflict(err) {
			return err
		}
		// The lifecycle stand-in (or a controller) wrote first: read again and retry.
		if created, err = ri.Get(ctx, created.GetName(), metav1.GetOptions{}); err != nil {
			return err
		}
	}
}
