// watch.go: the only way wasched-live waits for a state. A watched set of objects (an informer
// over one ListerWatcher) wakes every waiter on each change; a waiter re-evaluates its condition
// on the current objects and gives up at its own deadline with the condition's last description
// ("3/8 bound"). A pod tracker on top records, from the watch, when each pod was first seen
// bound, to which node, and any later rebinding or deletion (for crash-recovery and bench).
// internal/observe is not used: it records a run's evictions and decides quiescence over dynamic
// informers, while these waits need a wake-up on every change of one typed resource and the
// time each pod was first seen bound.
package main

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// watched is a live view of one resource (in one namespace, optionally one name). Safe for
// concurrent use.
type watched struct {
	store cache.Store
	ctrl  cache.Controller
	mu    sync.Mutex
	ch    chan struct{} // closed and replaced on every change
}

// hooks run (in the informer's goroutine) before waiters are woken.
type hooks struct {
	add    func(obj any)
	update func(old, obj any)
	del    func(obj any)
}

// watchList starts an informer on lw until ctx ends and waits for its first list.
func watchList(ctx context.Context, lw cache.ListerWatcher, example runtime.Object, h hooks) (*watched, error) {
	w := &watched{ch: make(chan struct{})}
	w.store, w.ctrl = cache.NewInformerWithOptions(cache.InformerOptions{
		ListerWatcher: lw,
		ObjectType:    example,
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if h.add != nil {
					h.add(obj)
				}
				w.changed()
			},
			UpdateFunc: func(old, obj any) {
				if h.update != nil {
					h.update(old, obj)
				}
				w.changed()
			},
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				if h.del != nil {
					h.del(obj)
				}
				w.changed()
			},
		},
	})
	go w.ctrl.RunWithContext(ctx)
	if !cache.WaitForCacheSync(ctx.Done(), w.ctrl.HasSynced) {
		return nil, fmt.Errorf("watch of %T did not sync: %w", example, context.Cause(ctx))
	}
	return w, nil
}

func (w *watched) changed() {
	w.mu.Lock()
	close(w.ch)
	w.ch = make(chan struct{})
	w.mu.Unlock()
}

func (w *watched) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ch
}

// until returns once cond holds (evaluated now and after every change), or an error naming
// what, the timeout and cond's last description when timeout passes or ctx ends (its cause).
func (w *watched) until(ctx context.Context, timeout time.Duration, what string, cond func() (bool, string)) error {
	return untilAny(ctx, timeout, what, cond, w)
}

// untilAny is until over several watched sets: cond is evaluated after a change in any of them.
func untilAny(ctx context.Context, timeout time.Duration, what string, cond func() (bool, string), ws ...*watched) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		cases := make([]reflect.SelectCase, 0, len(ws)+2)
		cases = append(cases,
			reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(timer.C)},
			reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())})
		for _, w := range ws {
			cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(w.next())})
		}
		ok, desc := cond()
		if ok {
			return nil
		}
		switch chosen, _, _ := reflect.Select(cases); chosen {
		case 0:
			return fmt.Errorf("timed out after %s waiting for %s (last seen: %s)", timeout, what, desc)
		case 1:
			return fmt.Errorf("while waiting for %s (last seen: %s): %w", what, desc, context.Cause(ctx))
		}
	}
}

// list returns the current objects as T.
func list[T any](w *watched) []T {
	items := w.store.List()
	out := make([]T, 0, len(items))
	for _, it := range items {
		if t, ok := it.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// podTracker watches the pods of one namespace and records each pod's first binding.
type podTracker struct {
	*watched
	mu        sync.Mutex
	boundAt   map[string]time.Time // pod name → when the watch first showed it bound
	node      map[string]string    // pod name → node
	uid       map[string]string    // pod name → uid when first bound
	deleted   map[string]bool      // pods deleted after being bound
	anomalies []string             // a pod bound to a second node, or recreated and bound again
}

func trackPods(ctx context.Context, cs kubernetes.Interface, ns string) (*podTracker, error) {
	t := &podTracker{boundAt: map[string]time.Time{}, node: map[string]string{}, uid: map[string]string{}, deleted: map[string]bool{}}
	seen := func(obj any) {
		p, ok := obj.(*v1.Pod)
		if !ok || p.Spec.NodeName == "" {
			return
		}
		now := time.Now()
		t.mu.Lock()
		defer t.mu.Unlock()
		if prev, ok := t.node[p.Name]; ok {
			if prev != p.Spec.NodeName || t.uid[p.Name] != string(p.UID) {
				t.anomalies = append(t.anomalies, fmt.Sprintf("pod %s bound to %s (uid %s), earlier to %s (uid %s)",
					p.Name, p.Spec.NodeName, p.UID, prev, t.uid[p.Name]))
			}
			return
		}
		t.boundAt[p.Name], t.node[p.Name], t.uid[p.Name] = now, p.Spec.NodeName, string(p.UID)
	}
	h := hooks{
		add:    seen,
		update: func(_, obj any) { seen(obj) },
		del: func(obj any) {
			if p, ok := obj.(*v1.Pod); ok {
				t.mu.Lock()
				if _, bound := t.node[p.Name]; bound {
					t.deleted[p.Name] = true
				}
				t.mu.Unlock()
			}
		},
	}
	lw := cache.NewListWatchFromClient(cs.CoreV1().RESTClient(), "pods", ns, fields.Everything())
	w, err := watchList(ctx, lw, &v1.Pod{}, h)
	if err != nil {
		return nil, err
	}
	t.watched = w
	return t, nil
}

// pods returns the current pods of the namespace.
func (t *podTracker) pods() []*v1.Pod { return list[*v1.Pod](t.watched) }

// boundCount counts current pods accepted by match that are bound.
func (t *podTracker) boundCount(match func(*v1.Pod) bool) (bound, total int) {
	for _, p := range t.pods() {
		if match != nil && !match(p) {
			continue
		}
		total++
		if p.Spec.NodeName != "" {
			bound++
		}
	}
	return bound, total
}

// waitBound waits until want pods accepted by match exist and are bound.
func (t *podTracker) waitBound(ctx context.Context, timeout time.Duration, what string, want int, match func(*v1.Pod) bool) error {
	return t.until(ctx, timeout, what, func() (bool, string) {
		b, n := t.boundCount(match)
		return b >= want && n >= want, fmt.Sprintf("%d/%d bound of %d pods", b, want, n)
	})
}

// problems returns the rebinding and deletion anomalies seen so far.
func (t *podTracker) problems() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.anomalies...)
	for name := range t.deleted {
		out = append(out, "bound pod "+name+" was deleted")
	}
	return out
}

// bindTimes returns pod name → when the watch first showed it bound.
func (t *podTracker) bindTimes() map[string]time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]time.Time, len(t.boundAt))
	for k, v := range t.boundAt {
		out[k] = v
	}
	return out
}

// nodes returns pod name → node of every pod seen bound.
func (t *podTracker) nodes() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]string, len(t.node))
	for k, v := range t.node {
		out[k] = v
	}
	return out
}
