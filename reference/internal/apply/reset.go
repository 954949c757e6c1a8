package apply

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"wasched.io/reference/internal/kube"
)

// namespacedKinds: what a run (or the controllers it triggers) creates inside a namespace,
// deleted from protected namespaces one collection at a time. Pods come first and Jobs before
// them would only recreate pods: Jobs are deleted first.
var namespacedKinds = []schema.GroupVersionResource{
	{Group: "batch", Version: "v1", Resource: "jobs"},
	{Version: "v1", Resource: "pods"},
	{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"},
	{Group: "scheduling.k8s.io", Version: "v1alpha3", Resource: "compositepodgroups"},
	{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "workloads"},
	{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaims"},
	{Group: "resource.k8s.io", Version: "v1", Resource: "resourceclaimtemplates"},
	{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
	{Version: "v1", Resource: "events"},
}

var namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// Reset removes what a run left and waits until it is gone, namespaces included, so that the
// next run starts from a clean cluster (Cleanup, then a wait for the deleted namespaces).
func Reset(ctx context.Context, c *kube.Client, namespaces []string, cluster []ClusterObject, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if err := Cleanup(ctx, c, namespaces, cluster, timeout); err != nil {
		return err
	}
	var gone []string
	for _, ns := range namespaces {
		if !ProtectedNamespace(ns) {
			gone = append(gone, ns)
		}
	}
	return WaitGone(ctx, c.Dyn.Resource(namespacesGVR), gone, time.Until(deadline))
}

// Cleanup deletes what a run left and waits until its pods and cluster-scoped objects are gone;
// the deleted namespaces finish terminating in the background (the namespace controller removes
// the rest of their objects; a later run that needs one of those names waits for it):
//   - Jobs first (their controller would replace the pods deleted next); pods lose their
//     finalizers (the Job controller's tracking finalizer would hold them) and are deleted with
//     grace period 0;
//   - namespaces the run created are deleted; protected ones (default, kube-*) are emptied kind by
//     kind instead;
//   - the cluster-scoped objects are deleted by name.
//
// Namespaces are handled concurrently (8 at a time). Every wait watches for the deletions and
// ends at the deadline with an error naming what is still there. Safe to call on a partial
// record (after a failed Apply) and on objects that are already gone.
func Cleanup(ctx context.Context, c *kube.Client, namespaces []string, cluster []ClusterObject, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	bg := metav1.DeletePropagationBackground
	zero := int64(0)
	force := metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &bg}
	pods := c.Dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	errs := make([]error, len(namespaces))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, ns := range namespaces {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, ns string) {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = emptyNamespace(ctx, c, ns, force)
		}(i, ns)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	// Cluster-scoped objects: 16 deletions in flight.
	byGVR := map[schema.GroupVersionResource][]string{}
	delErrs := make([]error, len(cluster))
	sem = make(chan struct{}, 16)
	for i := len(cluster) - 1; i >= 0; i-- {
		o := cluster[i]
		byGVR[o.GVR] = append(byGVR[o.GVR], o.Name)
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, o ClusterObject) {
			defer wg.Done()
			defer func() { <-sem }()
			if err := c.Dyn.Resource(o.GVR).Delete(ctx, o.Name, force); err != nil && !apierrors.IsNotFound(err) {
				delErrs[i] = fmt.Errorf("deleting %s %s: %w", o.GVR.Resource, o.Name, err)
			}
		}(i, o)
	}
	wg.Wait()
	for _, err := range delErrs {
		if err != nil {
			return err
		}
	}
	for _, ns := range namespaces {
		if err := waitEmpty(ctx, pods.Namespace(ns), time.Until(deadline)); err != nil {
			return fmt.Errorf("pods in %s: %w", ns, err)
		}
	}
	gvrs := make([]schema.GroupVersionResource, 0, len(byGVR))
	for g := range byGVR {
		gvrs = append(gvrs, g)
	}
	sort.Slice(gvrs, func(i, j int) bool { return gvrs[i].String() < gvrs[j].String() })
	for _, g := range gvrs {
		if err := WaitGone(ctx, c.Dyn.Resource(g), byGVR[g], time.Until(deadline)); err != nil {
			return fmt.Errorf("%s: %w", g.Resource, err)
		}
	}
	return nil
}

// emptyNamespace deletes one namespace's objects (see Cleanup) and, unless protected, the
// namespace itself.
func emptyNamespace(ctx context.Context, c *kube.Client, ns string, force metav1.DeleteOptions) error {
	pods := c.Dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	_ = c.Dyn.Resource(namespacedKinds[0]).Namespace(ns).DeleteCollection(ctx, force, metav1.ListOptions{})
	list, err := pods.Namespace(ns).List(ctx, metav1.ListOptions{})
	if err == nil {
		for _, p := range list.Items {
			if len(p.GetFinalizers()) > 0 {
				_, _ = pods.Namespace(ns).Patch(ctx, p.GetName(), types.MergePatchType,
					[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
			}
		}
	}
	if ProtectedNamespace(ns) {
		for _, gvr := range namespacedKinds {
			err := c.Dyn.Resource(gvr).Namespace(ns).DeleteCollection(ctx, force, metav1.ListOptions{})
			if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsMethodNotSupported(err) {
				return fmt.Errorf("deleting %s in %s: %w", gvr.Resource, ns, err)
			}
		}
		return nil
	}
	_ = pods.Namespace(ns).DeleteCollection(ctx, force, metav1.ListOptions{})
	bg := metav1.DeletePropagationBackground
	err = c.Dyn.Resource(namespacesGVR).Delete(ctx, ns, metav1.DeleteOptions{PropagationPolicy: &bg})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting namespace %s: %w", ns, err)
	}
	return nil
}

// WaitGone waits until none of the named objects exists: one list, then a watch from its
// resourceVersion until each name has been deleted, or the timeout passes (an error naming
// what is left). O(objects of the resource).
func WaitGone(ctx context.Context, ri dynamic.ResourceInterface, names []string, timeout time.Duration) error {
	if len(names) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for {
		list, err := ri.List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		left := map[string]bool{}
		for _, it := range list.Items {
			if want[it.GetName()] {
				left[it.GetName()] = true
			}
		}
		if len(left) == 0 {
			return nil
		}
		w, err := ri.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
		if err != nil {
			return err
		}
		restart := false
		for !restart {
			select {
			case <-ctx.Done():
				w.Stop()
				return fmt.Errorf("still present after the deadline: %v", keys(left))
			case ev, ok := <-w.ResultChan():
				if !ok {
					restart = true // the watch ended (timeout or 410): list again
					break
				}
				if ev.Type == watch.Deleted {
					if m, ok := ev.Object.(metav1.Object); ok {
						delete(left, m.GetName())
					}
					if len(left) == 0 {
						w.Stop()
						return nil
					}
				}
				if ev.Type == watch.Error {
					restart = true
				}
			}
		}
		w.Stop()
	}
}

// waitEmpty waits until the (namespaced) resource has no objects left.
func waitEmpty(ctx context.Context, ri dynamic.ResourceInterface, timeout time.Duration) error {
	list, err := ri.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	names := make([]string, 0, len(list.Items))
	for _, it := range list.Items {
		names = append(names, it.GetName())
	}
	return WaitGone(ctx, ri, names, timeout)
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
