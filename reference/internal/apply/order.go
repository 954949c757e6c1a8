// Package apply puts one run's objects into the reference control plane in an order that the
// components can follow (what an object refers to exists before it), writes what a kubelet would
// have written (Node status, running pods' status), and removes everything again afterwards.
//
// Order (Rank): Namespaces; PriorityClasses; DeviceClasses; Nodes; ResourceSlices;
// PodDisruptionBudgets; Workloads; CompositePodGroups; PodGroups; ResourceClaimTemplates;
// ResourceClaims; pods with spec.nodeName ("already running"); then the queue stage: pending
// pods and Jobs together, in wasched's queue order.
//
// Queue stage: wasched orders equal priorities by earlier metadata.creationTimestamp, then input
// order (README "schedule -o json"); a PodGroup tree is one unit with its root's
// creationTimestamp and its first member's input position. The pods (and PodGroups) its Job
// controller generates carry no creationTimestamp and come after every input pod
// (src/controller/job/job_controller.cc RunJobController appends them, Job by Job in input
// order), so a Job sorts after the input's pending units without a timestamp and before those
// with one. The API server replaces creationTimestamp on create, and kube-scheduler's
// PrioritySort breaks priority ties by the time a pod (or the first pod of a pod group) entered
// the queue (pkg/scheduler/framework/plugins/queuesort/priority_sort.go,
// backend/queue/scheduling_queue.go newQueuedPodInfo / newQueuedPodGroupInfoFromRootLookup), so
// creating them in this order while the scheduler is held (package hold: its informers still
// fill the queue in event order) makes upstream's tie-break follow the same order. After creating
// a Job, applyLane waits (a watch with a deadline) until the Job controller has created all the
// pods it creates at once (ExpectedJobPods; its Workload and PodGroup come before them) before
// it creates the next object, so a Job's pods enter the queue at the Job's place.
package apply

import (
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"wasched.io/reference/internal/manifest"
)

// Rank values; objects are created by ascending rank. RankSkip: kinds wasched does not read.
const (
	RankNamespace = iota
	RankPriorityClass
	RankDeviceClass
	RankNode
	RankResourceSlice
	RankPDB
	RankWorkload
	RankCompositePodGroup
	RankPodGroup
	RankResourceClaimTemplate
	RankResourceClaim
	RankRunningPod
	RankJob
	RankPendingPod
	RankSkip
)

// Rank classifies an object by group and kind (any served version).
func Rank(u *unstructured.Unstructured) int {
	gk := u.GroupVersionKind().GroupKind()
	switch gk.Group + "/" + gk.Kind {
	case "/Namespace":
		return RankNamespace
	case "scheduling.k8s.io/PriorityClass":
		return RankPriorityClass
	case "resource.k8s.io/DeviceClass":
		return RankDeviceClass
	case "/Node":
		return RankNode
	case "resource.k8s.io/ResourceSlice":
		return RankResourceSlice
	case "policy/PodDisruptionBudget":
		return RankPDB
	case "scheduling.k8s.io/Workload":
		return RankWorkload
	case "scheduling.k8s.io/CompositePodGroup":
		return RankCompositePodGroup
	case "scheduling.k8s.io/PodGroup":
		return RankPodGroup
	case "resource.k8s.io/ResourceClaimTemplate":
		return RankResourceClaimTemplate
	case "resource.k8s.io/ResourceClaim":
		return RankResourceClaim
	case "batch/Job":
		return RankJob
	case "/Pod":
		if n, _, _ := unstructured.NestedString(u.Object, "spec", "nodeName"); n != "" {
			return RankRunningPod
		}
		return RankPendingPod
	}
	return RankSkip
}

// Sort orders objects for creation: by Rank, except that Jobs and pending pods form one stage
// ordered by queue unit (see the package comment); everything else in input order. Stable;
// O(n log n).
func Sort(objs []manifest.Object) []manifest.Object {
	out := append([]manifest.Object(nil), objs...)
	keys := unitKeys(objs)
	stage := func(o manifest.Object) int {
		if r := Rank(o.Unstructured); r != RankJob {
			return r
		}
		return RankPendingPod
	}
	sort.SliceStable(out, func(i, j int) bool {
		si, sj := stage(out[i]), stage(out[j])
		if si != sj {
			return si < sj
		}
		if si != RankPendingPod {
			return out[i].Index < out[j].Index
		}
		ki, kj := keys[out[i].Index], keys[out[j].Index]
		if !ki.created.Equal(kj.created) {
			return ki.created.Before(kj.created)
		}
		if ki.generated != kj.generated {
			return kj.generated
		}
		if ki.first != kj.first {
			return ki.first < kj.first
		}
		return out[i].Index < out[j].Index
	})
	return out
}

type unitKey struct {
	created   time.Time // root group's (or bare pod's) creationTimestamp; zero when absent (a Job's pods)
	generated bool      // a Job: its controller's pods follow every input pod in wasched
	first     int       // input position of the unit's first pod (of a Job: of the Job)
}

// unitKeys maps each pending pod's and Job's input index to its queue unit's key.
func unitKeys(objs []manifest.Object) map[int]unitKey {
	type group struct {
		created time.Time
		parent  string // namespace/name of the parent CompositePodGroup, "" for a root
	}
	pgs := map[string]group{}  // ns/name of PodGroups
	cpgs := map[string]group{} // ns/name of CompositePodGroups
	for _, o := range objs {
		switch Rank(o.Unstructured) {
		case RankPodGroup, RankCompositePodGroup:
			p, _, _ := unstructured.NestedString(o.Object, "spec", "parentCompositePodGroupName")
			g := group{created: created(o.Unstructured)}
			if p != "" {
				g.parent = nsOf(o.Unstructured) + "/" + p
			}
			key := nsOf(o.Unstructured) + "/" + o.GetName()
			if Rank(o.Unstructured) == RankPodGroup {
				pgs[key] = g
			} else {
				cpgs[key] = g
			}
		}
	}
	// root: the top of a PodGroup's CompositePodGroup chain (a cycle or a missing parent stops
	// the walk; the scheduler reports those itself).
	root := func(pg string) (string, time.Time) {
		g, ok := pgs[pg]
		if !ok {
			return "pg:" + pg, time.Time{}
		}
		name, t := "pg:"+pg, g.created
		seen := map[string]bool{}
		for p := g.parent; p != "" && !seen[p]; {
			seen[p] = true
			c, ok := cpgs[p]
			if !ok {
				break
			}
			name, t = "cpg:"+p, c.created
			p = c.parent
		}
		return name, t
	}
	keys := map[int]unitKey{}
	firstOf := map[string]int{}
	rootOf := map[int]string{}
	for _, o := range objs {
		if Rank(o.Unstructured) == RankJob {
			keys[o.Index] = unitKey{generated: true, first: o.Index}
			continue
		}
		if Rank(o.Unstructured) != RankPendingPod {
			continue
		}
		pg, _, _ := unstructured.NestedString(o.Object, "spec", "schedulingGroup", "podGroupName")
		if pg == "" {
			keys[o.Index] = unitKey{created: created(o.Unstructured), first: o.Index}
			continue
		}
		r, t := root(nsOf(o.Unstructured) + "/" + pg)
		if _, ok := firstOf[r]; !ok {
			firstOf[r] = o.Index
		}
		rootOf[o.Index] = r
		keys[o.Index] = unitKey{created: t}
	}
	for idx, r := range rootOf {
		k := keys[idx]
		k.first = firstOf[r]
		keys[idx] = k
	}
	return keys
}

func nsOf(u *unstructured.Unstructured) string {
	if ns := u.GetNamespace(); ns != "" {
		return ns
	}
	return "default"
}

func created(u *unstructured.Unstructured) time.Time {
	s, _, _ := unstructured.NestedString(u.Object, "metadata", "creationTimestamp")
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
