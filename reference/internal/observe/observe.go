// Package observe watches one run in the reference control plane: pods, PodGroups,
// CompositePodGroups, Workloads, ResourceClaims and the scheduler's events, through dynamic
// informers started before the scheduler is released. It records what only a watcher sees
// (preemption victims that are gone by the end) and decides when the scheduler and the
// controllers are quiet (WaitQuiet). Safe for concurrent use.
package observe

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"wasched.io/reference/internal/kube"
)

// Eviction is a pod deleted by preemption, as seen by the watch.
type Eviction struct {
	Pod       string // "ns/name"
	UID       string
	Node      string
	Preemptor string // "PodGroup ns/name", "CompositePodGroup ns/name" or "Pod ns/name"; "" until its event is seen
}

var (
	podsGVR   = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	eventsGVR = schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}
	jobsGVR   = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
)

// Observer holds the informers and what they recorded.
type Observer struct {
	namespaces map[string]bool
	factory    dynamicinformer.DynamicSharedInformerFactory
	informers  map[schema.GroupVersionResource]cache.SharedIndexInformer

	mu         sync.Mutex
	lastChange time.Time
	evictions  map[string]*Eviction // by pod uid
	preemptors map[string]string    // victim uid → preemptor ("Kind ns/name", or "uid:UID" until resolved)
	refs       map[string]string    // uid → "Kind ns/name" of every pod, PodGroup, CompositePodGroup seen
	warnings   map[string]bool      // "ns/name" of objects with a Warning event (a Job the controller refused)
}

// Start builds and starts informers on every namespace, keeping what is in `namespaces`, and
// waits for their first list. Stop with ctx.
func Start(ctx context.Context, c *kube.Client, namespaces []string) (*Observer, error) {
	o := &Observer{
		namespaces: map[string]bool{},
		factory:    dynamicinformer.NewDynamicSharedInformerFactory(c.Dyn, 0),
		informers:  map[schema.GroupVersionResource]cache.SharedIndexInformer{},
		lastChange: time.Now(),
		evictions:  map[string]*Eviction{},
		preemptors: map[string]string{},
		refs:       map[string]string{},
		warnings:   map[string]bool{},
	}
	for _, ns := range namespaces {
		o.namespaces[ns] = true
	}
	for _, gvr := range []schema.GroupVersionResource{podsGVR, eventsGVR, jobsGVR, kube.PodGroups, kube.CompositePodGroups, kube.Workloads, kube.ResourceClaims} {
		inf := o.factory.ForResource(gvr).Informer()
		gvr := gvr
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj interface{}) { o.onEvent(gvr, obj, false) },
			UpdateFunc: func(_, obj interface{}) { o.onEvent(gvr, obj, false) },
			DeleteFunc: func(obj interface{}) { o.onEvent(gvr, obj, true) },
		})
		if err != nil {
			return nil, err
		}
		o.informers[gvr] = inf
	}
	o.factory.Start(ctx.Done())
	for gvr, inf := range o.informers {
		if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			return nil, fmt.Errorf("watching %s: the informer did not sync", gvr.Resource)
		}
	}
	return o, nil
}

func (o *Observer) onEvent(gvr schema.GroupVersionResource, obj interface{}, deleted bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || !o.namespaces[u.GetNamespace()] {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lastChange = time.Now()
	switch gvr {
	case kube.PodGroups, kube.CompositePodGroups:
		o.refs[string(u.GetUID())] = u.GetKind() + " " + u.GetNamespace() + "/" + u.GetName()
	}
	switch gvr {
	case podsGVR:
		o.refs[string(u.GetUID())] = "Pod " + u.GetNamespace() + "/" + u.GetName()
		if deleted || u.GetDeletionTimestamp() != nil {
			o.recordVictim(u)
		}
	case eventsGVR:
		o.recordEvent(u)
	}
}

// recordVictim: a deleted (or terminating) pod carrying the DisruptionTarget condition with
// reason PreemptionByScheduler, which kube-scheduler writes before deleting a victim
// (pkg/scheduler/framework/preemption/executor.go), is an eviction.
func (o *Observer) recordVictim(u *unstructured.Unstructured) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, ci := range conds {
		m, _ := ci.(map[string]interface{})
		if m["type"] == "DisruptionTarget" && m["status"] == "True" && m["reason"] == "PreemptionByScheduler" {
			uid := string(u.GetUID())
			if _, seen := o.evictions[uid]; !seen {
				node, _, _ := unstructured.NestedString(u.Object, "spec", "nodeName")
				o.evictions[uid] = &Eviction{Pod: u.GetNamespace() + "/" + u.GetName(), UID: uid, Node: node}
			}
			return
		}
	}
}

// recordEvent: the scheduler's `Preempted` event (events.k8s.io/v1) on a victim names the
// preemptor: as its related object when it has one (pod groups), else only in the note
// ("Preempted by <type> <uid> on node <node>", pkg/scheduler/framework/preemption/executor.go),
// whose uid is resolved against the objects seen. Warning events mark Jobs a controller refused.
func (o *Observer) recordEvent(u *unstructured.Unstructured) {
	reason, _, _ := unstructured.NestedString(u.Object, "reason")
	typ, _, _ := unstructured.NestedString(u.Object, "type")
	regNS, _, _ := unstructured.NestedString(u.Object, "regarding", "namespace")
	regName, _, _ := unstructured.NestedString(u.Object, "regarding", "name")
	regKind, _, _ := unstructured.NestedString(u.Object, "regarding", "kind")
	if typ == "Warning" && regKind == "Job" {
		o.warnings[regNS+"/"+regName] = true
	}
	if reason != "Preempted" {
		return
	}
	uid, _, _ := unstructured.NestedString(u.Object, "regarding", "uid")
	kind, _, _ := unstructured.NestedString(u.Object, "related", "kind")
	ns, _, _ := unstructured.NestedString(u.Object, "related", "namespace")
	name, _, _ := unstructured.NestedString(u.Object, "related", "name")
	if kind != "" && name != "" {
		o.preemptors[uid] = kind + " " + ns + "/" + name
		return
	}
	note, _, _ := unstructured.NestedString(u.Object, "note")
	if m := preemptedNote.FindStringSubmatch(note); m != nil {
		o.preemptors[uid] = "uid:" + m[1]
	}
}

var preemptedNote = regexp.MustCompile(`^Preempted by .* ([0-9a-f-]{36}) on node `)

// List returns the current objects of a watched resource in the run's namespaces, sorted by
// namespace/name (deep copies).
func (o *Observer) List(gvr schema.GroupVersionResource) []*unstructured.Unstructured {
	inf := o.informers[gvr]
	var out []*unstructured.Unstructured
	for _, obj := range inf.GetStore().List() {
		u, ok := obj.(*unstructured.Unstructured)
		if ok && o.namespaces[u.GetNamespace()] {
			out = append(out, u.DeepCopy())
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GetNamespace() != out[j].GetNamespace() {
			return out[i].GetNamespace() < out[j].GetNamespace()
		}
		return out[i].GetName() < out[j].GetName()
	})
	return out
}

// Pods, PodGroups, ... : List shorthands.
func (o *Observer) Pods() []*unstructured.Unstructured      { return o.List(podsGVR) }
func (o *Observer) PodGroups() []*unstructured.Unstructured { return o.List(kube.PodGroups) }
func (o *Observer) CompositePodGroups() []*unstructured.Unstructured {
	return o.List(kube.CompositePodGroups)
}
func (o *Observer) Workloads() []*unstructured.Unstructured      { return o.List(kube.Workloads) }
func (o *Observer) ResourceClaims() []*unstructured.Unstructured { return o.List(kube.ResourceClaims) }
func (o *Observer) Jobs() []*unstructured.Unstructured           { return o.List(jobsGVR) }

// Evictions returns the victims seen so far with their preemptor where its event was seen,
// sorted by pod then node.
func (o *Observer) Evictions() []Eviction {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]Eviction, 0, len(o.evictions))
	for uid, e := range o.evictions {
		ev := *e
		ev.Preemptor = o.preemptors[uid]
		if strings.HasPrefix(ev.Preemptor, "uid:") {
			ev.Preemptor = o.refs[strings.TrimPrefix(ev.Preemptor, "uid:")]
		}
		out = append(out, ev)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pod != out[j].Pod {
			return out[i].Pod < out[j].Pod
		}
		return out[i].Node < out[j].Node
	})
	return out
}

// SinceLastChange: how long no watched object of the run changed.
func (o *Observer) SinceLastChange() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return time.Since(o.lastChange)
}

// JobWarned reports whether a Warning event was seen for Job "ns/name".
func (o *Observer) JobWarned(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.warnings[key]
}

// PodsOwnedBy counts the pods whose controller owner is the object with this uid.
func (o *Observer) PodsOwnedBy(uid string) int {
	n := 0
	for _, p := range o.Pods() {
		for _, ref := range p.GetOwnerReferences() {
			if string(ref.UID) == uid && ref.Controller != nil && *ref.Controller {
				n++
			}
		}
	}
	return n
}

// TerminatingPods lists "ns/name" of pods being deleted.
func (o *Observer) TerminatingPods() []string {
	var out []string
	for _, p := range o.Pods() {
		if p.GetDeletionTimestamp() != nil {
			out = append(out, p.GetNamespace()+"/"+p.GetName())
		}
	}
	return out
}

// MissingPreemptors: evictions whose Preempted event has not been seen yet.
func (o *Observer) MissingPreemptors() int {
	n := 0
	for _, e := range o.Evictions() {
		if e.Preemptor == "" {
			n++
		}
	}
	return n
}
